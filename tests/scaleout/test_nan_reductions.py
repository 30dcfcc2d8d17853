"""numr_array_api.ext.reductions (nansum, nanmean) against NumPy, on every numr namespace.

On webgpu a host round trip is an error here (HostFallbackWarning raised): the
nan-reductions are compositions of GPU kernels.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, strategies as st

from hypothesis.extra import numpy as hnp

from _support import asxp, elements, get_dtype, shapes, to_numpy
from numr_array_api.ext import reductions as R

INEXACT = ("float32", "float64", "complex64", "complex128")


@pytest.fixture(autouse=True)
def _no_host_round_trip():
    from numr_array_api.backends.webgpu.ops.host_fallback import HostFallbackWarning
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)
        yield


def _arrays(name, allow_inf=False):
    """Arrays of moderate finite values with NaNs (and infinities) mixed in; complex
    values take them in either part."""
    real = "float32" if name in ("float32", "complex64") else "float64"
    special = [float("nan")] + ([float("inf"), float("-inf")] if allow_inf else [])
    part = st.one_of(elements(real), st.sampled_from(special))
    el = st.builds(complex, part, part) if name.startswith("complex") else part
    return hnp.arrays(np.dtype(name), shapes(max_dims=3, max_side=5), elements=el)


def _axes(ndim):
    """None, one axis (possibly negative) or a tuple of distinct axes."""
    if ndim == 0:
        return st.none()
    one = st.integers(-ndim, ndim - 1)
    many = st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)
    return st.none() | one | many.map(tuple)


def _tolerance(a, name):
    # a sum of n terms rounds by at most ~n eps times the sum of magnitudes
    eps = float(np.finfo(np.dtype(name)).eps)
    parts = (a.real, a.imag) if a.dtype.kind == "c" else (a,)
    mag = sum(float(np.abs(np.where(np.isfinite(p), p, 0)).astype(np.float64).sum())
              for p in parts)
    return 2 * eps * (mag + 1.0) * max(1, a.size)


def _check(got, want, name, a):
    g = to_numpy(got)
    assert g.dtype == np.dtype(name), f"dtype {g.dtype} != {name}"
    assert g.shape == np.shape(want)
    w = np.asarray(want)
    # NaN / inf positions must agree exactly; finite values within the rounding bound
    for part in ((lambda v: v.real), (lambda v: v.imag)) if g.dtype.kind == "c" else \
            ((lambda v: v),):
        gp, wp = part(g).astype(np.float64), part(w).astype(np.float64)
        assert np.array_equal(np.isnan(gp), np.isnan(wp)), (gp, wp)
        fin = np.isfinite(wp)
        assert np.array_equal(gp[~fin & ~np.isnan(wp)], wp[~fin & ~np.isnan(wp)]), (gp, wp)
        np.testing.assert_allclose(gp[fin], wp[fin], rtol=0, atol=_tolerance(a, name))


@pytest.mark.parametrize("name", INEXACT)
@given(data=st.data())
def test_nansum_matches_numpy(xp, name, data):
    dtype = get_dtype(xp, name)
    a = data.draw(_arrays(name, allow_inf=True))
    axis = data.draw(_axes(a.ndim))
    keepdims = data.draw(st.booleans())
    got = R.nansum(asxp(xp, a), axis=axis, keepdims=keepdims)
    with np.errstate(invalid="ignore", over="ignore"):
        want = np.nansum(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                         axis=axis, keepdims=keepdims)
    assert got.dtype == dtype
    _check(got, want, name, a)


@pytest.mark.parametrize("name", ("float32", "float64"))
@given(data=st.data())
def test_nanmean_matches_numpy(xp, name, data):
    get_dtype(xp, name)
    a = data.draw(_arrays(name))
    axis = data.draw(_axes(a.ndim))
    keepdims = data.draw(st.booleans())
    got = R.nanmean(asxp(xp, a), axis=axis, keepdims=keepdims)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy: "Mean of empty slice"
        want = np.nanmean(a.astype(np.float64), axis=axis, keepdims=keepdims)
    _check(got, want, name, a)


@pytest.mark.parametrize("name", ("int8", "uint16", "int64", "bool"))
def test_nansum_of_integers_is_sum(xp, name):
    get_dtype(xp, name)
    a = (np.arange(24).reshape(4, 6) % 5).astype(name)
    x = asxp(xp, a)
    got = R.nansum(x, axis=1)
    want = xp.sum(x, axis=1)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(to_numpy(got), to_numpy(want))
    np.testing.assert_array_equal(to_numpy(got), np.nansum(a, axis=1))


def test_nansum_special_values(xp):
    f = get_dtype(xp, "float32")
    nan, inf = float("nan"), float("inf")
    x = xp.asarray([[nan, nan, nan], [1.0, nan, 2.0], [inf, nan, 1.0], [inf, -inf, nan],
                    [-0.0, nan, -0.0]], dtype=f)
    got = to_numpy(R.nansum(x, axis=1))
    assert got[0] == 0.0 and got[1] == 3.0 and got[2] == inf and np.isnan(got[3])
    assert got[4] == 0.0
    empty = R.nansum(xp.zeros((0, 3), dtype=f), axis=0)
    np.testing.assert_array_equal(to_numpy(empty), np.zeros(3, dtype=np.float32))
    assert float(to_numpy(R.nansum(xp.zeros((0,), dtype=f)))) == 0.0


def test_nansum_dtype_argument(xp):
    f = get_dtype(xp, "float64")
    x = xp.asarray(np.array([1.5, np.nan, 2**24, 1.0], dtype=np.float32))
    got = R.nansum(x, dtype=f)
    assert got.dtype == f
    assert float(to_numpy(got)) == 1.5 + 2**24 + 1.0


def test_nansum_complex_nan_in_either_part(xp):
    c = get_dtype(xp, "complex128")
    x = xp.asarray(np.array([1 + 1j, complex(np.nan, 1), complex(1, np.nan), 2 - 3j]),
                   dtype=c)
    assert complex(to_numpy(R.nansum(x))) == 3 - 2j


def test_nanmean_all_nan_and_empty(xp):
    f = get_dtype(xp, "float64")
    x = xp.asarray([[np.nan, np.nan], [1.0, np.nan]], dtype=f)
    got = to_numpy(R.nanmean(x, axis=1))
    assert np.isnan(got[0]) and got[1] == 1.0
    assert np.isnan(float(to_numpy(R.nanmean(xp.zeros((0,), dtype=f)))))


def test_nanmean_refuses_integers(xp):
    from numr_array_api._core.errors import DTypeMismatch
    with pytest.raises(DTypeMismatch):
        R.nanmean(xp.asarray([1, 2, 3]))


def test_non_arrays_are_refused():
    with pytest.raises(TypeError, match="nansum"):
        R.nansum([1.0, float("nan")])


def test_other_namespaces():
    """The same functions on NumPy (array_api_compat) and array-api-strict arrays."""
    import array_api_strict as strict
    from array_api_compat import numpy as cnp

    a = np.array([[1.0, np.nan], [np.nan, np.nan]])
    for ns in (cnp, strict):
        x = ns.asarray(a)
        np.testing.assert_array_equal(np.asarray(R.nansum(x, axis=1)), [1.0, 0.0])
        assert float(R.nanmean(x)) == 1.0
