"""__array_namespace_info__ per the 2025.12 standard."""

import pytest

from _support import ALL_DTYPE_NAMES, FLOAT_NAMES, INT_NAMES, COMPLEX_NAMES


def test_devices(xp):
    info = xp.__array_namespace_info__()
    devs = info.devices()
    assert isinstance(devs, tuple) and len(devs) >= 1
    assert info.default_device() in devs
    x = xp.asarray([1.0])
    assert x.device == info.default_device()
    for d in devs:
        y = xp.zeros((2,), device=d)
        assert y.device == d


def test_capabilities(xp):
    caps = xp.__array_namespace_info__().capabilities()
    assert isinstance(caps, dict)
    for key in ("boolean indexing", "data-dependent shapes", "max dimensions"):
        assert key in caps, key
    assert isinstance(caps["boolean indexing"], bool)
    assert isinstance(caps["data-dependent shapes"], bool)
    md = caps["max dimensions"]
    assert md is None or (isinstance(md, int) and md >= 4)
    if caps["boolean indexing"]:
        x = xp.asarray([1, 2, 3])
        assert x[x > 1].shape == (2,)


def test_default_dtypes(xp):
    info = xp.__array_namespace_info__()
    dd = info.default_dtypes()
    assert set(dd) == {"real floating", "complex floating", "integral", "indexing"}
    assert xp.isdtype(dd["real floating"], "real floating")
    assert xp.isdtype(dd["complex floating"], "complex floating")
    assert xp.isdtype(dd["integral"], "integral")
    assert xp.isdtype(dd["indexing"], "integral")
    assert info.default_dtypes(device=info.default_device()) == dd
    # the defaults are what creation functions use
    assert xp.asarray(1.0).dtype == dd["real floating"]
    assert xp.asarray(1).dtype == dd["integral"]
    assert xp.asarray(1j).dtype == dd["complex floating"]
    assert xp.argmax(xp.asarray([1, 3])).dtype == dd["indexing"]


def test_dtypes_filtering(xp):
    info = xp.__array_namespace_info__()
    allt = info.dtypes()
    assert isinstance(allt, dict)
    assert set(allt) <= set(ALL_DTYPE_NAMES)
    for name, d in allt.items():
        assert getattr(xp, name) == d
    for name in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float32"):
        assert name in allt, f"{name} must be available on every backend"
    expect = {"bool": {"bool"}, "signed integer": set(INT_NAMES[:4]),
              "unsigned integer": set(INT_NAMES[4:]), "integral": set(INT_NAMES),
              "real floating": set(FLOAT_NAMES), "complex floating": set(COMPLEX_NAMES),
              "numeric": set(INT_NAMES + FLOAT_NAMES + COMPLEX_NAMES)}
    for kind, names in expect.items():
        got = info.dtypes(kind=kind)
        assert set(got) == names & set(allt), kind
    both = info.dtypes(kind=("bool", "real floating"))
    assert set(both) == ({"bool"} | set(FLOAT_NAMES)) & set(allt)
    assert info.dtypes(device=info.default_device()) == allt
    with pytest.raises(ValueError):
        info.dtypes(kind="floating")


def test_cpu_has_all_dtypes(xp, backend_name):
    if backend_name != "cpu":
        pytest.skip("cpu only")
    assert set(xp.__array_namespace_info__().dtypes()) == set(ALL_DTYPE_NAMES)


def test_bad_device(xp):
    info = xp.__array_namespace_info__()
    with pytest.raises(ValueError):
        info.dtypes(device="nonsense:7")
    with pytest.raises(ValueError):
        xp.zeros((1,), device="nonsense")


def test_namespace_attributes(xp):
    assert xp.__array_api_version__ == "2025.12"
    for const in ("e", "pi", "inf", "nan"):
        assert isinstance(getattr(xp, const), float)
    assert xp.newaxis is None
    assert hasattr(xp, "linalg") and hasattr(xp, "fft")
