"""astype, can_cast, finfo, iinfo, isdtype, result_type."""

import numpy as np
import pytest
from hypothesis import assume, given, strategies as st

from _support import (ALL_DTYPE_NAMES, COMPLEX_NAMES, FLOAT_NAMES, INT_NAMES, assert_equal,
                      ftz_hazard,
                      get_dtype, np_arrays, shapes, to_numpy)

CAST_PAIRS = [(a, b) for a in ALL_DTYPE_NAMES for b in ALL_DTYPE_NAMES
              if not (np.dtype(a).kind == "c" and np.dtype(b).kind != "c")]


@pytest.mark.parametrize("src,dst", CAST_PAIRS, ids=[f"{a}-{b}" for a, b in CAST_PAIRS])
@given(data=st.data())
def test_astype(xp, src, dst, data):
    get_dtype(xp, src)
    d = get_dtype(xp, dst)
    # values representable in both dtypes, so the cast is exact whatever the rounding mode
    if np.dtype(dst).kind == "b" or np.dtype(src).kind == "b":
        kw = {} if np.dtype(src).kind == "b" else dict(min_value=0, max_value=1)
    elif np.dtype(dst).kind == "u" or np.dtype(src).kind == "u":
        kw = dict(min_value=0, max_value=100)
    else:
        kw = dict(min_value=-100, max_value=100)
    a = data.draw(np_arrays(src, shapes(), **kw))
    if np.dtype(src).kind in "fc" and np.dtype(dst).kind in "iub":
        a = np.round(a)  # exact integers: float -> int truncation is unspecified beyond this
    assume(not ftz_hazard(xp, dst, a.astype(dst)))
    x = xp.asarray(a)
    y = xp.astype(x, d)
    assert_equal(y, a.astype(dst), dtype=dst)
    assert_equal(x, a)  # the source is unchanged


def test_astype_copy_semantics(xp):
    x = xp.asarray([1.0, 2.0])
    assert xp.astype(x, x.dtype, copy=False) is x
    y = xp.astype(x, x.dtype)  # copy=True by default: a new array
    assert y is not x
    y[0] = 5.0
    assert float(x[0]) == 1.0


def test_astype_complex_to_real_rejected(xp):
    z = xp.asarray(np.asarray([1 + 1j]))
    with pytest.raises(TypeError):
        xp.astype(z, xp.float64)


@pytest.mark.strict_semantics
def test_astype_invalid_dtype(xp):
    with pytest.raises(TypeError, match="dtype"):
        xp.astype(xp.asarray([1.0]), "float32")
    with pytest.raises(TypeError):
        xp.astype(xp.asarray([1.0]), np.float32)


@pytest.mark.parametrize("name", FLOAT_NAMES + COMPLEX_NAMES)
def test_finfo(xp, name):
    d = get_dtype(xp, name)
    fi = xp.finfo(d)
    real = {"complex64": "float32", "complex128": "float64"}.get(name, name)
    ref = np.finfo(real)
    for attr in ("bits", "eps", "max", "min", "smallest_normal"):
        v = getattr(fi, attr)
        assert type(v) is (int if attr == "bits" else float), (attr, type(v))
        assert v == getattr(ref, attr).item() if attr != "bits" else v == ref.bits
    assert fi.dtype == getattr(xp, real)
    # an array works as well as a dtype
    assert xp.finfo(xp.ones((1,), dtype=d)).eps == fi.eps
    # independent checks of the IEEE values
    if real == "float32":
        assert fi.bits == 32 and fi.eps == 2.0 ** -23 and fi.smallest_normal == 2.0 ** -126
    else:
        assert fi.bits == 64 and fi.eps == 2.0 ** -52 and fi.max == 1.7976931348623157e308


@pytest.mark.parametrize("name", INT_NAMES)
def test_iinfo(xp, name):
    d = get_dtype(xp, name)
    ii = xp.iinfo(d)
    bits = np.dtype(name).itemsize * 8
    signed = name.startswith("int")
    for attr in ("bits", "max", "min"):
        assert type(getattr(ii, attr)) is int
    assert ii.bits == bits
    assert ii.min == (-(2 ** (bits - 1)) if signed else 0)
    assert ii.max == (2 ** (bits - 1) - 1 if signed else 2 ** bits - 1)
    assert ii.dtype == d
    assert xp.iinfo(xp.zeros((1,), dtype=d)).max == ii.max


def test_finfo_iinfo_wrong_kind(xp):
    with pytest.raises(TypeError):
        xp.finfo(xp.int32)
    with pytest.raises(TypeError):
        xp.iinfo(xp.float64)
    with pytest.raises(TypeError):
        xp.iinfo(xp.bool)


KINDS = {"bool": {"bool"},
         "signed integer": set(INT_NAMES[:4]), "unsigned integer": set(INT_NAMES[4:]),
         "integral": set(INT_NAMES), "real floating": set(FLOAT_NAMES),
         "complex floating": set(COMPLEX_NAMES),
         "numeric": set(INT_NAMES) | set(FLOAT_NAMES) | set(COMPLEX_NAMES)}


@pytest.mark.parametrize("kind", list(KINDS))
def test_isdtype_kinds(xp, kind):
    for name in ALL_DTYPE_NAMES:
        d = getattr(xp, name)
        assert xp.isdtype(d, kind) is (name in KINDS[kind]), (name, kind)


def test_isdtype_dtype_and_tuple(xp):
    assert xp.isdtype(xp.int8, xp.int8)
    assert not xp.isdtype(xp.int8, xp.int16)
    assert xp.isdtype(xp.float32, ("integral", "real floating"))
    assert xp.isdtype(xp.uint8, (xp.float64, "unsigned integer"))
    assert not xp.isdtype(xp.complex64, ("integral", xp.float32))
    with pytest.raises(ValueError):
        xp.isdtype(xp.int8, "no such kind")
    with pytest.raises(TypeError):
        xp.isdtype(xp.int8, 3)


def test_result_type_arrays_and_scalars(xp):
    a = xp.asarray(np.zeros(2, dtype=np.int16))
    b = xp.asarray(np.zeros(2, dtype=np.uint8))
    assert xp.result_type(a, b) == xp.int16
    assert xp.result_type(a, 3) == xp.int16
    assert xp.result_type(xp.complex64, 1.0, 2) == xp.complex64
    with pytest.raises((TypeError, ValueError)):
        xp.result_type()


def test_dtype_objects(xp):
    assert xp.float64 == xp.float64
    assert xp.float64 != xp.float32
    assert hash(xp.int8) == hash(xp.int8)
    assert xp.bool is not None and xp.asarray([True]).dtype == xp.bool
    assert xp.asarray([1.0]).dtype == xp.__array_namespace_info__().default_dtypes()[
        "real floating"]


def test_result_type_complex_scalar_with_real_float(xp):
    assert xp.result_type(xp.float64, 1j) == xp.complex128
    assert xp.result_type(xp.float32, 1j) == xp.complex64
