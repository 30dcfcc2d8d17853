"""The fft extension against NumPy complex128 / float64 references."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import asxp, assert_dtype, get_dtype, to_numpy

TOL = {"float32": 1e-4, "complex64": 1e-4, "float64": 1e-11, "complex128": 1e-11}
REAL = {"float32": "float32", "complex64": "float32", "float64": "float64",
        "complex128": "float64"}
COMPLEX = {"float32": "complex64", "complex64": "complex64", "float64": "complex128",
           "complex128": "complex128"}
NORMS = st.sampled_from(["backward", "ortho", "forward"])


@pytest.fixture(scope="session")
def ft(xp):
    """The namespace: every backend has fft kernels (the standard's fft extension)."""
    return xp


def _data(rng, shape, name):
    a = rng.standard_normal(shape)
    if np.dtype(name).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(name)


def _close(actual, expected, dtype, what):
    assert_dtype(actual, dtype, what)
    got = to_numpy(actual)
    exp = np.asarray(expected)
    assert got.shape == exp.shape, f"{what}: shape {got.shape} != {exp.shape}"
    scale = max(float(np.max(np.abs(exp), initial=0)), 1.0)
    np.testing.assert_allclose(got.astype(exp.dtype), exp, rtol=TOL[dtype],
                               atol=TOL[dtype] * scale, err_msg=what)


shapes = st.sampled_from([(1,), (2,), (7,), (8,), (0, 4), (3, 5), (2, 3, 4)])
seeds = st.integers(0, 2**31 - 1)


@given(shape=shapes, name=st.sampled_from(["complex64", "complex128", "float32", "float64"]),
       norm=NORMS, seed=seeds, data=st.data())
def test_complex_transforms(ft, shape, name, norm, seed, data):
    xp = ft
    get_dtype(xp, name)
    a = _data(np.random.default_rng(seed), shape, name)
    x = asxp(xp, a)
    ref = a.astype(np.complex128)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    m = shape[axis]
    n = data.draw(st.sampled_from([None, 1, 3, max(2 * m, 1)]))
    out = COMPLEX[name]
    if n is None and m == 0:
        with pytest.raises(ValueError):
            xp.fft.fft(x, axis=axis)
        return
    for f in ("fft", "ifft"):
        _close(getattr(xp.fft, f)(x, n=n, axis=axis, norm=norm),
               getattr(np.fft, f)(ref, n=n, axis=axis, norm=norm), out, f"{f} n={n}")
    if 0 in shape:
        return
    axes = data.draw(st.permutations(range(len(shape))).map(lambda p: p[:max(1, len(p) - 1)]))
    s = data.draw(st.sampled_from([None, tuple(shape[i] + 1 for i in axes)]))
    for f in ("fftn", "ifftn"):
        _close(getattr(xp.fft, f)(x, s=s, axes=axes, norm=norm),
               getattr(np.fft, f)(ref, s=s, axes=axes, norm=norm), out, f"{f} s={s}")
    _close(xp.fft.fftn(x, norm=norm), np.fft.fftn(ref, norm=norm), out, "fftn (all axes)")


@given(shape=shapes.filter(lambda s: 0 not in s), name=st.sampled_from(["float32", "float64"]),
       norm=NORMS, seed=seeds, data=st.data())
def test_real_transforms(ft, shape, name, norm, seed, data):
    xp = ft
    get_dtype(xp, name)
    rng = np.random.default_rng(seed)
    a = _data(rng, shape, name)
    x = asxp(xp, a)
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    n = data.draw(st.sampled_from([None, 1, 5, 6]))
    # float32 in, complex64 out (NumPy < 2 gave complex128)
    _close(xp.fft.rfft(x, n=n, axis=axis, norm=norm),
           np.fft.rfft(a.astype(np.float64), n=n, axis=axis, norm=norm), COMPLEX[name], "rfft")
    _close(xp.fft.ihfft(x, n=n, axis=axis, norm=norm),
           np.fft.ihfft(a.astype(np.float64), n=n, axis=axis, norm=norm), COMPLEX[name],
           "ihfft")
    c = _data(rng, shape, COMPLEX[name])
    xc = asxp(xp, c)
    if shape[axis] > 1 or n is not None:
        for f in ("irfft", "hfft"):
            _close(getattr(xp.fft, f)(xc, n=n, axis=axis, norm=norm),
                   getattr(np.fft, f)(c.astype(np.complex128), n=n, axis=axis, norm=norm),
                   name, f"{f} n={n}")
    axes = tuple(range(len(shape)))[-2:]
    _close(xp.fft.rfftn(x, axes=axes, norm=norm),
           np.fft.rfftn(a.astype(np.float64), axes=axes, norm=norm), COMPLEX[name], "rfftn")
    if shape[axes[-1]] > 1:
        _close(xp.fft.irfftn(xc, axes=axes, norm=norm),
               np.fft.irfftn(c.astype(np.complex128), axes=axes, norm=norm), name, "irfftn")
    s = tuple(shape[i] + 2 for i in axes)
    _close(xp.fft.irfftn(xc, s=s, axes=axes, norm=norm),
           np.fft.irfftn(c.astype(np.complex128), s=s, axes=axes, norm=norm), name,
           "irfftn with s")


def test_round_trips(ft):
    xp = ft
    rng = np.random.default_rng(0)
    a = _data(rng, (4, 6), "float32")
    x = asxp(xp, a)
    _close(xp.fft.irfft(xp.fft.rfft(x), n=6), a.astype(np.float64), "float32", "irfft(rfft)")
    _close(xp.fft.irfftn(xp.fft.rfftn(x), s=(4, 6), axes=(0, 1)), a.astype(np.float64),
           "float32", "irfftn(rfftn)")
    c = asxp(xp, _data(rng, (5,), "complex64"))
    _close(xp.fft.ifft(xp.fft.fft(c)), to_numpy(c).astype(np.complex128), "complex64",
           "ifft(fft)")


def test_s_minus_one_keeps_the_length(ft):
    xp = ft
    x = xp.ones((3, 4), dtype=xp.complex128)
    assert xp.fft.fftn(x, s=(-1, 6), axes=(0, 1)).shape == (3, 6)
    assert xp.fft.irfftn(x, s=(2, -1), axes=(0, 1)).shape == (2, 6)


@given(n=st.integers(1, 40), d=st.floats(0.1, 5),
       dtype=st.sampled_from([None, "float32", "float64"]))
def test_freqs(ft, n, d, dtype):
    xp = ft
    t = None if dtype is None else getattr(xp, dtype)
    name = dtype or "float64"
    _close(xp.fft.fftfreq(n, d=d, dtype=t), np.fft.fftfreq(n, d), name, "fftfreq")
    _close(xp.fft.rfftfreq(n, d=d, dtype=t), np.fft.rfftfreq(n, d), name, "rfftfreq")
    dev = xp.__array_namespace_info__().default_device()
    assert xp.fft.fftfreq(n, device=dev).device == dev


@given(shape=shapes, name=st.sampled_from(["float32", "complex128", "int16"]), data=st.data())
def test_shifts(ft, shape, name, data):
    xp = ft
    get_dtype(xp, name)
    a = np.arange(int(np.prod(shape))).reshape(shape).astype(name)
    x = asxp(xp, a)
    axes = data.draw(st.sampled_from([None, 0, -1, ()] + ([(0, -1)] if len(shape) > 1 else [])))
    for f in ("fftshift", "ifftshift"):
        r = getattr(xp.fft, f)(x, axes=axes)
        assert_dtype(r, name)
        assert np.array_equal(to_numpy(r), getattr(np.fft, f)(a, axes=axes))
        if r.size:
            r[...] = xp.zeros(r.shape, dtype=r.dtype)  # never a view of x
            assert np.array_equal(to_numpy(x), a)


@pytest.mark.strict_semantics
def test_invalid_input(ft):
    from numr_array_api._core.errors import DTypeMismatch, InvalidArgument, InvalidIndex
    xp = ft
    x = xp.ones((4, 4), dtype=xp.complex64)
    r = xp.ones((4,), dtype=xp.float32)
    with pytest.raises(InvalidArgument):
        xp.fft.fft(x, norm="none")
    with pytest.raises(InvalidArgument):
        xp.fft.fft(x, n=0)
    with pytest.raises(InvalidIndex):
        xp.fft.fft(x, axis=2)
    with pytest.raises(InvalidIndex):
        xp.fft.fftn(x, axes=(0, 5))
    with pytest.raises(InvalidArgument):
        xp.fft.fftn(x, axes=(0, 0))
    with pytest.raises(InvalidArgument):
        xp.fft.fftn(x, s=(4, 4))  # s without axes
    with pytest.raises(InvalidArgument):
        xp.fft.fftn(x, s=(4,), axes=(0, 1))
    with pytest.raises(InvalidArgument):
        xp.fft.irfft(xp.ones((1,), dtype=xp.complex64))  # output length 0
    with pytest.raises(DTypeMismatch):
        xp.fft.rfft(x)
    with pytest.raises(DTypeMismatch):
        xp.fft.fft(xp.ones(4, dtype=xp.int32))
    with pytest.raises(DTypeMismatch):
        xp.fft.fftfreq(4, dtype=xp.int32)
    with pytest.raises(InvalidArgument):
        xp.fft.rfftfreq(0)
    with pytest.raises(InvalidArgument):
        xp.fft.fftfreq(4, d=0.0)
    with pytest.raises(TypeError):
        xp.fft.fft(r, n=2.5)
    with pytest.raises(InvalidArgument):
        xp.fft.fft(xp.ones(()))


def test_freq_default_dtype_is_the_devices(xp):
    """Without a dtype, fftfreq / rfftfreq take the device's default real floating dtype
    (float32 on a WebGPU adapter without shader-f64; consumer finding F7)."""
    info = xp.__array_namespace_info__()
    for dev in info.devices():
        want = info.default_dtypes(device=dev)["real floating"]
        for f in (xp.fft.fftfreq, xp.fft.rfftfreq):
            r = f(8, device=dev)
            assert r.dtype == want and r.device == dev


@pytest.mark.parametrize("call", [
    lambda xp: xp.fft.fftfreq(2 ** 62, d=3.0),
    lambda xp: xp.fft.rfftfreq(2 ** 62),
    lambda xp: xp.fft.fft(xp.ones(3), n=2 ** 62),
    lambda xp: xp.fft.irfft(xp.ones(3), n=2 ** 61),
    lambda xp: xp.fft.fftn(xp.ones((2, 2)), s=(2 ** 31, 2 ** 31), axes=(0, 1)),
], ids=["fftfreq", "rfftfreq", "fft-n", "irfft-n", "fftn-s"])
def test_sizes_beyond_any_address_space_are_out_of_memory(ft, call):
    # refused before a backend allocates: CuPy computes such byte counts in a wrapping
    # 64-bit integer, allocates a tiny block and writes past it (a poisoned CUDA context)
    from numr_array_api.errors import OutOfMemory
    with pytest.raises(OutOfMemory, match="address space"):
        call(ft)
    assert float(ft.sum(ft.fft.fftfreq(4))) == pytest.approx(-0.5)
