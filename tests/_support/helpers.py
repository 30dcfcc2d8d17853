"""Comparison helpers and hypothesis strategies, backend-independent.

Every numr result is compared with an independent NumPy reference computed in float64
(complex128 for complex inputs) from the same input values, with per-dtype tolerances.
"""

import math
import os

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = [
    "ALL_DTYPE_NAMES", "INT_NAMES", "UINT_NAMES", "SINT_NAMES", "FLOAT_NAMES", "COMPLEX_NAMES",
    "REAL_NAMES", "NUMERIC_NAMES", "to_numpy", "get_dtype", "has_dtype", "available_dtype_names",
    "assert_close", "assert_equal", "assert_dtype", "np_dtype", "ref_dtype", "shapes",
    "np_arrays", "xp_arrays_from", "broadcastable_shapes", "elements", "asxp", "TRANSCENDENTAL",
    "fp_tolerances", "dtype_names", "ftz_hazard", "random_array", "SLOW", "slow_beyond_cover",
    "unavailable", "usable", "requested_backends",
]

# NUMR_TEST_SLOW=1: the long tests too (tests marked ``slow``, the full parameter grids of the
# variant tests, the long sizes); the NVIDIA acceptance runs set it, CI does not.
SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"


def requested_backends():
    """The backends NUMR_TEST_BACKENDS names (empty: none named, every one is optional)."""
    env = os.environ.get("NUMR_TEST_BACKENDS", "").strip()
    return tuple(n.strip().lower() for n in env.split(",") if n.strip())


def unavailable(backend, why):
    """A backend a test cannot use here: the test fails when ``NUMR_TEST_BACKENDS`` names the
    backend (a requested backend that breaks must never pass as skipped tests), and is
    skipped, with ``why``, when it was not asked for. Every ``except Exception`` around a
    backend's creation in tests/ ends here."""
    if backend in requested_backends():
        pytest.fail(f"numr_array_api.{backend} is requested (NUMR_TEST_BACKENDS) but cannot be "
                    f"used: {why}", pytrace=False)
    pytest.skip(f"numr_array_api.{backend} not requested and unavailable: {why}")


def usable(backend):
    """``numr_array_api.<backend>`` when it imports and makes an array here, else None; for
    module-level probes. A backend that ``NUMR_TEST_BACKENDS`` names and that fails raises
    (a collection error with the cause), never None."""
    import importlib
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            xp = importlib.import_module(f"numr_array_api.{backend}")
            xp.asarray([1.0])
        return xp
    except Exception as e:  # noqa: BLE001 - the cause is reported or the backend is optional
        if backend in requested_backends():
            raise RuntimeError(f"numr_array_api.{backend} is requested (NUMR_TEST_BACKENDS) "
                               f"but cannot be used: {type(e).__name__}: {e}") from e
        return None


def slow_beyond_cover(firsts, seconds, ids=None):
    """``pytest.param`` for every pair of ``firsts`` x ``seconds``; the pairs outside a small
    cover in which every first and every second value appears at least once are marked
    ``slow``, so CI checks each value once and the GPU runs check the whole grid."""
    firsts, seconds = list(firsts), list(seconds)
    n = max(len(firsts), len(seconds))
    cover = {(i % len(firsts), i % len(seconds)) for i in range(n)}
    out = []
    for i, a in enumerate(firsts):
        for j, b in enumerate(seconds):
            marks = () if (i, j) in cover else (pytest.mark.slow,)
            pid = None if ids is None else ids(a, b)
            out.append(pytest.param(a, b, marks=marks, id=pid))
    return out

SINT_NAMES = ("int8", "int16", "int32", "int64")
UINT_NAMES = ("uint8", "uint16", "uint32", "uint64")
INT_NAMES = SINT_NAMES + UINT_NAMES
FLOAT_NAMES = ("float32", "float64")
COMPLEX_NAMES = ("complex64", "complex128")
REAL_NAMES = INT_NAMES + FLOAT_NAMES
NUMERIC_NAMES = REAL_NAMES + COMPLEX_NAMES
ALL_DTYPE_NAMES = ("bool",) + NUMERIC_NAMES

# Functions whose float32 results are judged in ulps (implementations differ in rounding).
TRANSCENDENTAL = frozenset("""acos acosh asin asinh atan atanh cos cosh exp expm1 log log1p
log2 log10 sin sinh tan tanh atan2 hypot logaddexp pow sqrt divide reciprocal""".split())


# ---------------------------------------------------------------------------------- dtypes
def available_dtype_names(xp, kind=None):
    """Names of the dtypes this namespace's default device supports (info API)."""
    return tuple(xp.__array_namespace_info__().dtypes(kind=kind))


def has_dtype(xp, name):
    return name in available_dtype_names(xp)


def get_dtype(xp, name):
    """The namespace dtype called ``name``; skips the test where the device lacks it."""
    if not has_dtype(xp, name):
        pytest.skip(f"{xp.__name__}: the default device has no {name}")
    return getattr(xp, name)


def np_dtype(dtype):
    """The NumPy dtype of a numr dtype (or of a dtype name)."""
    return np.dtype(dtype if isinstance(dtype, str) else dtype.name)


def ref_dtype(name):
    """The NumPy dtype references are computed in."""
    k = np.dtype(name).kind
    return {"f": np.float64, "c": np.complex128}.get(k, np.dtype(name))


# ---------------------------------------------------------------------------------- arrays
def to_numpy(x):
    """A host NumPy copy/view of a numr array (explicit transfer for device arrays)."""
    if isinstance(x, (np.ndarray, np.generic)):
        return np.asarray(x)
    return np.asarray(x.to_device("cpu"))


def asxp(xp, a, dtype=None):
    """Move a NumPy array into ``xp`` (the way users do: ``xp.asarray(np_array)``)."""
    a = np.asarray(a)
    if dtype is not None:
        a = a.astype(np_dtype(dtype))
    return xp.asarray(a)


def assert_dtype(x, dtype, what="result"):
    expected = dtype if not isinstance(dtype, (str, np.dtype)) else np.dtype(dtype).name
    got = x.dtype
    ok = (got == expected) if not isinstance(expected, str) else (got.name == expected)
    assert ok, f"{what}: dtype {got} != expected {expected}"


def fp_tolerances(name, transcendental=False):
    """(rtol, atol, ulps) for a floating / complex dtype name."""
    base = {"float16": "float16", "float32": "float32", "complex64": "float32",
            "float64": "float64", "complex128": "float64"}[name]
    if base == "float16":
        return 1e-2, 1e-3, None
    if base == "float32":
        return (None, None, 4) if transcendental else (1e-5, 1e-6, None)
    return 1e-12, 1e-14, None


def _check_real(actual, expected, name, *, transcendental, signed_zero, rtol, atol, ctx):
    """actual: ndarray in the result dtype; expected: ndarray (float64 reference)."""
    real_name = {"complex64": "float32", "complex128": "float64"}.get(name, name)
    with np.errstate(all="ignore"):
        exp_cast = expected.astype(real_name)  # overflow / underflow as the dtype would
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    ea = exp_cast.astype(np.float64)
    # NaN positions must agree
    an, en = np.isnan(a), np.isnan(e)
    bad = an != en
    assert not bad.any(), _mismatch(ctx, "NaN positions differ", actual, expected, bad)
    # values infinite in the result dtype (or in the result) must be the same infinity,
    # except within a few ulps of the largest finite value, where rounding may go either way
    ai, ei = np.isinf(a), np.isinf(ea)
    edge = _near_max(e, real_name)
    bad = (ai | ei) & (a != ea) & ~edge
    assert not bad.any(), _mismatch(ctx, "infinities differ", actual, expected, bad)
    fin = ~(an | en | ai | ei)
    r0, a0, ulps = fp_tolerances(real_name, transcendental)
    if rtol is not None or atol is not None:
        r0 = rtol if rtol is not None else (r0 or 0.0)
        a0 = atol if atol is not None else (a0 or 0.0)
        ulps = None
    diff = np.abs(a - e)
    if ulps is not None:
        fi = np.finfo(real_name)
        tol = ulps * np.spacing(np.abs(e).astype(real_name)).astype(np.float64) \
            + float(fi.smallest_normal)
    else:
        tol = a0 + r0 * np.abs(e)
    bad = fin & ~(diff <= tol)
    assert not bad.any(), _mismatch(ctx, "values differ beyond tolerance "
                                    f"(rtol={r0}, atol={a0}, ulps={ulps})", actual, expected, bad)
    if signed_zero:
        z = fin & (e == 0) & (a == 0)
        bad = z & (np.signbit(a) != np.signbit(e))
        assert not bad.any(), _mismatch(ctx, "signs of zeros differ", actual, expected, bad)


def _near_max(e, name):
    fi = np.finfo(name)
    return np.abs(e) >= float(fi.max) * (1 - 4 * float(fi.eps))


def _mismatch(ctx, what, actual, expected, bad):
    idx = np.argwhere(np.atleast_1d(bad))[:5]
    a1, e1 = np.atleast_1d(actual), np.atleast_1d(expected)
    pairs = [(tuple(int(v) for v in i), a1[tuple(i)].item(), e1[tuple(i)].item()) for i in idx]
    return (f"{ctx}: {what}; {int(np.sum(bad))} of {np.size(bad)} elements, "
            f"first (index, got, expected): {pairs}")


def assert_close(actual, expected, dtype=None, *, transcendental=False, signed_zero=False,
                 rtol=None, atol=None, ctx=""):
    """Compare a numr result with a NumPy reference.

    ``dtype``: the expected numr dtype (object or name); checked exactly. Floating results
    use per-dtype tolerances (float32 rtol 1e-5 / atol 1e-6, or 4 ulps for transcendental
    functions; float64 rtol 1e-12 / atol 1e-14; float16 1e-2); NaN positions must match,
    infinities must be equal, zeros' signs must match when ``signed_zero``. Integer and
    bool results must be equal.
    """
    if dtype is not None:
        assert_dtype(actual, dtype, ctx or "result")
    name = actual.dtype.name if not isinstance(actual, np.ndarray) else actual.dtype.name
    a = to_numpy(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"{ctx}: shape {a.shape} != expected {e.shape}"
    assert a.dtype == np.dtype(name), f"{ctx}: host dtype {a.dtype} != {name}"
    kind = a.dtype.kind
    if kind in "biu":
        with np.errstate(all="ignore"):
            e2 = e.astype(a.dtype) if e.dtype.kind in "biu" else e
        bad = a != e2
        assert not np.any(bad), _mismatch(ctx, "values differ", a, e, bad)
        return
    kw = dict(transcendental=transcendental, signed_zero=signed_zero, rtol=rtol, atol=atol)
    if kind == "c":
        e = e.astype(np.complex128)
        _check_complex(a, e, name, ctx=ctx, **kw)
    else:
        _check_real(a, e.astype(np.float64) if e.dtype.kind != "c" else e.real, name,
                    ctx=ctx, **kw)


def _check_complex(a, e, name, *, transcendental, signed_zero, rtol, atol, ctx):
    """Complex results: NaN / inf per component, finite values within tolerance of |e|."""
    real_name = {"complex64": "float32", "complex128": "float64"}[name]
    for part, ap, ep in (("real", a.real, e.real), ("imag", a.imag, e.imag)):
        an, en = np.isnan(ap), np.isnan(ep)
        bad = an != en
        assert not bad.any(), _mismatch(f"{ctx} ({part} part)", "NaN positions differ", a, e, bad)
        with np.errstate(all="ignore"):
            ec = ep.astype(real_name).astype(np.float64)
        bad = (np.isinf(ap) | np.isinf(ec)) & (ap != ec) & ~_near_max(ep, real_name)
        assert not bad.any(), _mismatch(f"{ctx} ({part} part)", "infinities differ", a, e, bad)
    fin = np.isfinite(a) & np.isfinite(e)
    if real_name == "float32":
        r0, a0 = 1e-5, 1e-6
    else:
        r0, a0 = 1e-12, 1e-14
    r0 = r0 if rtol is None else rtol
    a0 = a0 if atol is None else atol
    diff = np.abs(a.astype(np.complex128) - e)
    bad = fin & ~(diff <= a0 + r0 * np.abs(e))
    assert not bad.any(), _mismatch(ctx, f"values differ beyond tolerance (rtol={r0}, "
                                    f"atol={a0}, relative to |expected|)", a, e, bad)
    if signed_zero:
        for ap, ep in ((a.real, e.real), (a.imag, e.imag)):
            z = np.isfinite(ap) & (ep == 0) & (ap == 0)
            bad = z & (np.signbit(ap) != np.signbit(ep))
            assert not bad.any(), _mismatch(ctx, "signs of zeros differ", a, e, bad)


def assert_equal(actual, expected, dtype=None, ctx=""):
    """Exact equality, NaN == NaN and signs of zeros included."""
    if dtype is not None:
        assert_dtype(actual, dtype, ctx or "result")
    a = to_numpy(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"{ctx}: shape {a.shape} != expected {e.shape}"
    if a.dtype.kind in "fc":
        assert_close(actual, e, rtol=0.0, atol=0.0, signed_zero=True, ctx=ctx)
    else:
        bad = a != e
        assert not np.any(bad), _mismatch(ctx, "values differ", a, e, bad)


# ------------------------------------------------------------------------------ strategies
def dtype_names(xp, kind=None):
    """Strategy: names of the dtypes of ``kind`` (an info-API kind name or tuple) that the
    namespace's default device supports; skips the test when there are none."""
    names = available_dtype_names(xp, kind)
    if not names:
        pytest.skip(f"{xp.__name__}: no dtypes of kind {kind!r}")
    return st.sampled_from(names)


def shapes(min_dims=0, max_dims=3, min_side=0, max_side=5):
    """Array shapes including 0-d and empty ones."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side)


def broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=3, min_side=0, max_side=4):
    return hnp.mutually_broadcastable_shapes(num_shapes=num_shapes, min_dims=min_dims,
                                             max_dims=max_dims, min_side=min_side,
                                             max_side=max_side)


def elements(name, min_value=None, max_value=None, allow_nan=False, allow_inf=False,
             allow_subnormal=False):
    """Element strategy for dtype ``name`` (finite, moderate values by default)."""
    dt = np.dtype(name)
    if dt.kind == "b":
        return st.booleans()
    if dt.kind in "iu":
        ii = np.iinfo(dt)
        lo = ii.min if min_value is None else max(int(min_value), int(ii.min))
        hi = ii.max if max_value is None else min(int(max_value), int(ii.max))
        return st.integers(lo, hi)
    width = {"float16": 16, "float32": 32, "float64": 64, "complex64": 32,
             "complex128": 64}[dt.name]
    lim = 1e6 if width > 16 else 1e3
    real = {16: np.float16, 32: np.float32, 64: np.float64}[width]
    lo = float(-lim if min_value is None else min_value)
    hi = float(lim if max_value is None else max_value)
    # bounds representable in the dtype, rounded inwards
    if float(real(lo)) < lo:
        lo = float(np.nextafter(real(lo), real(np.inf)))
    else:
        lo = float(real(lo))
    if float(real(hi)) > hi:
        hi = float(np.nextafter(real(hi), real(-np.inf)))
    else:
        hi = float(real(hi))
    fl = st.floats(min_value=lo, max_value=hi, width=width,
                   allow_nan=allow_nan, allow_infinity=allow_inf,
                   allow_subnormal=allow_subnormal)
    if dt.kind == "c":
        return st.builds(complex, fl, fl)
    return fl


def np_arrays(name, shape, **kw):
    """NumPy arrays of dtype ``name`` (strategies for shape or a fixed shape)."""
    return hnp.arrays(np.dtype(name), shape, elements=elements(name, **kw))


def xp_arrays_from(xp, a):
    return xp.asarray(a)


def ftz_hazard(xp, name, *values):
    """True when ``xp`` flushes ``name``'s subnormals (numr cuda: CuPy compiles every kernel
    with -ftz=true, docs/cuda.md) and one of ``values`` (inputs, exact results or exact
    intermediates, any dtype) lies in float32's subnormal range: there the flushed result
    is the documented behaviour, not a bug a test should report."""
    if getattr(xp, "__name__", "") != "numr_array_api.cuda" or name not in ("float32",
                                                                              "complex64"):
        return False
    tiny = float(np.finfo(np.float32).tiny)
    for v in values:
        v = np.asarray(v)
        if v.dtype.kind not in "fc":
            continue
        parts = (v.real, v.imag) if v.dtype.kind == "c" else (v,)
        for p in parts:
            m = np.abs(p.astype(np.float64))
            if ((m < tiny) & (m != 0)).any():
                return True
    return False


def random_array(rng, shape, name, lo=-50, hi=50):
    """NumPy data of dtype ``name``: booleans, standard normals (complex: both parts), or
    integers in [lo, hi] clipped to the dtype's range."""
    if name == "bool":
        return rng.random(shape) > 0.5
    if name.startswith("complex"):
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(name)
    if name.startswith("float"):
        return rng.standard_normal(shape).astype(name)
    info = np.iinfo(name)
    return rng.integers(max(info.min, lo), min(info.max, hi), shape, endpoint=True).astype(name)
