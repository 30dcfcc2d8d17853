"""numr_array_api.scipy.fft: SciPy's DCT / DST (types 1 to 4) computed from the array's own
FFT, on its device, equal to SciPy's on NumPy, with no host copy (the policy is "raise"
throughout); scipy.fft's backend protocol routes numr arrays to it and declines the rest."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from numr_array_api.errors import InvalidArgument

sf = pytest.importorskip("scipy.fft")
nf = pytest.importorskip("numr_array_api.scipy.fft")

FUNCS = ("dct", "idct", "dst", "idst")
NORMS = (None, "backward", "forward", "ortho")


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _host(a):
    return np.asarray(a.to_device("cpu"))


def _close(got, ref, dtype):
    tol = 2e-6 if dtype == np.float32 else 1e-13
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    scale = max(1.0, float(np.abs(ref).max())) if ref.size else 1.0
    np.testing.assert_allclose(got, ref, rtol=0, atol=tol * scale * 4)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("fname", FUNCS)
@pytest.mark.parametrize("type_", [1, 2, 3, 4])
def test_every_norm_and_length_equals_scipy(xp, dtype, fname, type_):
    if dtype == np.float64 and xp.float64 not in xp.__array_namespace_info__().dtypes().values():
        pytest.skip("no float64 on this device")
    rng = np.random.default_rng(1)
    for n in (1, 2, 3, 7, 8, 33):
        if n == 1 and type_ == 1 and "c" in fname:
            continue   # the type-1 DCT of one point is undefined (SciPy: RuntimeError)
        a = rng.standard_normal((2, n)).astype(dtype)
        for norm in NORMS:
            for orth in ((None, True, False) if norm == "ortho" else (None, False)):
                got = getattr(nf, fname)(xp.asarray(a), type=type_, norm=norm,
                                         orthogonalize=orth)
                assert got.device == xp.asarray(a).device
                _close(_host(got), getattr(sf, fname)(a, type=type_, norm=norm,
                                                      orthogonalize=orth), dtype)


@settings(max_examples=25, deadline=None)
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=3),
       axis=st.integers(-3, 2), n=st.one_of(st.none(), st.integers(1, 12)),
       fname=st.sampled_from(FUNCS), type_=st.sampled_from([1, 2, 3, 4]),
       norm=st.sampled_from(NORMS), seed=st.integers(0, 2**16))
def test_axis_and_length_like_scipy(xp, shape, axis, n, fname, type_, norm, seed):
    if not -len(shape) <= axis < len(shape):
        axis = -1
    if type_ == 1 and "c" in fname and (n if n is not None else shape[axis]) < 2:
        n = 2   # the type-1 DCT of one point is undefined
    a = np.random.default_rng(seed).standard_normal(shape)
    got = getattr(nf, fname)(xp.asarray(a), type=type_, n=n, axis=axis, norm=norm)
    _close(_host(got), getattr(sf, fname)(a, type=type_, n=n, axis=axis, norm=norm),
           np.float64)


@pytest.mark.parametrize("fname", ["dctn", "idctn", "dstn", "idstn"])
def test_n_dimensional_forms_through_the_backend(xp, fname):
    a = np.random.default_rng(2).standard_normal((4, 6, 5))
    with sf.set_backend(nf):
        for kw in ({}, {"axes": (0, 2), "s": (6, 3), "norm": "ortho"}, {"axes": 1}):
            got = getattr(sf, fname)(xp.asarray(a), **kw)
            _close(_host(got), getattr(sf, fname)(a, **kw), np.float64)


def test_complex_and_integer_inputs(xp):
    a = np.random.default_rng(3).standard_normal((3, 8))
    c = a + 1j * a[::-1]
    _close(_host(nf.dct(xp.asarray(c))), sf.dct(c), np.float64)
    i = np.arange(10, dtype=np.int32)
    _close(_host(nf.dst(xp.asarray(i), type=3)), sf.dst(i, type=3), np.float64)


def test_the_standard_transforms_go_to_the_namespace(xp):
    a = np.random.default_rng(4).standard_normal((4, 6))
    with sf.set_backend(nf):
        for name, kw in (("fft", {"n": 8, "axis": 0}), ("rfft2", {}), ("ifftn", {"axes": (1,)}),
                         ("irfft", {"norm": "ortho"})):
            got = getattr(sf, name)(xp.asarray(a), **kw)
            assert got.__array_namespace__() is xp
            np.testing.assert_allclose(_host(got), getattr(sf, name)(a, **kw), atol=1e-12)


def test_lengths_without_axes_take_the_last_axes_as_scipy_does(xp):
    a = np.random.default_rng(5).standard_normal((3, 5, 6))
    with sf.set_backend(nf):
        for name in ("fftn", "rfftn", "ifftn"):
            got = getattr(sf, name)(xp.asarray(a), s=(4, 4))
            assert got.__array_namespace__() is xp
            np.testing.assert_allclose(_host(got), getattr(sf, name)(a, s=(4, 4)), atol=1e-12)


def test_what_numr_does_not_compute_is_declined_or_refused(xp):
    x = xp.asarray(np.arange(8.0))
    with pytest.raises(InvalidArgument, match="at least 2 points"):
        nf.dct(x[:1], type=1)
    with pytest.raises(InvalidArgument, match="norm"):
        nf.dct(x, norm="sideways")
    assert nf.__ua_function__(sf.dct, (np.arange(8.0),), {}) is NotImplemented
    assert nf.__ua_function__(sf.dct, (x,), {"plan": object()}) is NotImplemented
    # orthogonalize under every norm, as SciPy
    for norm in NORMS:
        got = nf.dst(x, norm=norm, orthogonalize=True)
        np.testing.assert_allclose(_host(got), sf.dst(np.arange(8.0), norm=norm,
                                                      orthogonalize=True), atol=1e-12)


def test_numpy_integer_lengths_and_axes_as_scipy_takes_them(xp):
    a = np.random.default_rng(6).standard_normal((4, 6))
    i64 = np.int64
    with sf.set_backend(nf):
        for name, kw in (("dctn", {"s": i64(4), "axes": i64(0)}),
                         ("idstn", {"s": [i64(3), 5]}),
                         ("dct", {"n": i64(10), "axis": i64(1)})):
            got = getattr(sf, name)(xp.asarray(a), **kw)
            _close(_host(got), getattr(sf, name)(a, **kw), np.float64)
        for bad in (0, -2, 2.0, True):
            with pytest.raises(InvalidArgument, match="positive int"):
                nf.dct(xp.asarray(a), n=bad)


def test_workers_refused_for_the_standard_transforms_as_scipy_does(xp):
    # SciPy refuses workers= for the standard's transforms of non-NumPy arrays; its DCT /
    # DST accept it
    x = xp.asarray(np.arange(6.0))
    with sf.set_backend(nf):
        with pytest.raises(ValueError, match="workers"):
            sf.rfft(x, workers=2)
        got = sf.dct(x, workers=2)
    _close(_host(got), sf.dct(np.arange(6.0)), np.float64)
