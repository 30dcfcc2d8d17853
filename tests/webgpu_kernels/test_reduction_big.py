"""Reductions at the sizes where index arithmetic and bindings run out (the reported
reproducers 3-5 of tests/reliability/test_reported_reproducers.py): first indices beyond 2^24,
views of 2^32 elements, data beyond one binding / buffer (``small_limits`` shrinks the limits
so megabytes take the gigabyte paths), a real 300 MB array, and the accuracy of one-pass float
sums and variances."""

import contextlib
import os
import warnings

import numpy as np
import pytest

from numr_array_api.backends.webgpu.ops.reduction import plan
from _support import random_array

OPS = ("sum", "prod", "max", "min", "mean", "var", "std", "argmax", "argmin", "all", "any",
       "count_nonzero")
KINDS = {"sum": "biufc", "prod": "biufc", "max": "iuf", "min": "iuf", "mean": "fc",
         "var": "f", "std": "f", "argmax": "iuf", "argmin": "iuf", "all": "biufc",
         "any": "biufc", "count_nonzero": "biufc"}


def host(x):
    return np.asarray(x.to_device("cpu"))


def _expect(op, a, axis, keepdims, rdtype):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        if op in ("var", "std"):
            return getattr(np, op)(a.astype(np.float64), axis=axis, keepdims=keepdims)
        if op in ("argmax", "argmin"):
            return getattr(np, op)(a, axis=axis, keepdims=keepdims)
        if op == "count_nonzero":
            return np.count_nonzero(a, axis=axis, keepdims=keepdims)
        if op in ("all", "any"):
            return getattr(np, op)(a, axis=axis, keepdims=keepdims)
        if a.dtype.kind in "fc":
            wide = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
            return getattr(np, op)(wide, axis=axis, keepdims=keepdims)
        kw = {"dtype": rdtype} if op in ("sum", "prod") else {}
        return getattr(np, op)(a, axis=axis, keepdims=keepdims, **kw)


def _check(xp, op, a, x, axis, keepdims=False):
    r = host(getattr(xp, op)(x, axis=axis, keepdims=keepdims))
    e = np.asarray(_expect(op, a, axis, keepdims, r.dtype))
    assert r.shape == e.shape, (op, axis, r.shape, e.shape)
    if e.dtype.kind in "fc":
        tol = {"float16": 2e-2, "float32": 2e-4, "complex64": 2e-4}.get(a.dtype.name, 1e-9)
        fin = np.abs(e[np.isfinite(e)])
        scale = max(1.0, float(fin.max())) if fin.size else 1.0
        np.testing.assert_allclose(r, e.astype(r.dtype), rtol=tol, atol=tol * scale,
                                   equal_nan=True, err_msg=f"{op} axis={axis}")
    else:
        np.testing.assert_array_equal(r, e, err_msg=f"{op} axis={axis}")


@contextlib.contextmanager
def _max_box(elems):
    old = plan.MAX_BOX_ELEMS
    plan.MAX_BOX_ELEMS = elems
    try:
        yield
    finally:
        plan.MAX_BOX_ELEMS = old


# ---- reported reproducer 3: first index of the extreme beyond 2^24 elements ------------------
@pytest.mark.parametrize("dtype", ["float32", "int32", "float64"])
def test_argmax_first_index_beyond_2_24(wgpu_xp, dtype):
    xp = wgpu_xp
    n = 2 ** 24 + 3
    h = np.zeros(n, dtype)
    h[5] = 1
    h[n - 1] = 1
    x = xp.asarray(h)
    assert int(xp.argmax(x)) == 5
    assert int(xp.argmin(-x)) == 5
    assert float(xp.max(x)) == 1 and float(xp.sum(x)) == 2
    h[5] = 0
    assert int(xp.argmax(xp.asarray(h))) == n - 1
    if dtype.startswith("float"):
        h[[70, 2 ** 24 + 1]] = np.nan
        y = xp.asarray(h)
        assert int(xp.argmax(y)) == 70 and int(xp.argmin(y)) == 70


# ---- reported reproducer 4: views of >= 2^32 elements ----------------------------------------
def _broadcast_checks(xp, n):
    b = xp.broadcast_to(xp.asarray([1.0], dtype=xp.float32), (n,))
    assert float(xp.sum(b)) == float(np.float32(n))  # float32's rounding of n
    assert float(xp.max(b)) == 1.0 and float(xp.min(b)) == 1.0
    assert float(xp.mean(b)) == 1.0
    assert int(xp.count_nonzero(b)) == n
    assert bool(xp.all(b)) and int(xp.argmax(b)) == 0
    z = xp.broadcast_to(xp.asarray([2], dtype=xp.int32), (n,))
    assert int(xp.sum(z)) == 2 * n  # int64 accumulator


def test_broadcast_view_beyond_the_box_limit(wgpu_xp):
    """The path of 2^32-element views (box splitting, per-box states merged in 64-bit),
    at a size lavapipe runs in a second: boxes shrunk to 2^20 elements."""
    with _max_box(1 << 20):
        _broadcast_checks(wgpu_xp, (1 << 22) + 5)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2 ** 32, 2 ** 32 + 5])
def test_broadcast_view_of_2_32_elements(wgpu_xp, n):
    """The reproducer itself: 2^32 reads per reduction, about a minute each on lavapipe
    (run there with NUMR_TEST_SLOW=1); seconds on a GPU."""
    client = wgpu_xp.asarray([0.0])._data.client
    if client.info.get("type") == "CPU" and not os.environ.get("NUMR_TEST_SLOW"):
        pytest.skip("2^32-element reductions on a CPU adapter: set NUMR_TEST_SLOW=1")
    _broadcast_checks(wgpu_xp, n)


# ---- reported reproducer 5: data beyond one binding / one buffer ------------------------------
@pytest.mark.parametrize("dtype", ["bool", "int8", "int32", "uint64", "float16", "float32",
                                   "float64", "complex64"])
def test_every_reduction_over_boxes(wgpu_xp, small_limits, dtype):
    xp = wgpu_xp
    rng = np.random.default_rng(11)
    a = random_array(rng, (600, 701), dtype, -3, 3)
    if dtype.startswith("float"):
        a[3, 5] = np.nan
    with small_limits(binding=256 << 10, segment=1 << 20):
        x = xp.asarray(a)
        if a.nbytes > 1 << 20:
            assert len(x._data.block.segments) >= 2
        for op in OPS:
            if a.dtype.kind not in KINDS[op]:
                continue
            b = a
            if op == "prod":  # keep products finite
                b = ((a % 2 + 1) if a.dtype.kind in "iu" else 1 + a / 64).astype(dtype)
            y = x if b is a else xp.asarray(b)
            for axis in ((None, 0, 1) if op.startswith("arg") else (None, 0, 1, (0, 1))):
                _check(xp, op, b, y, axis)
        # views: flipped rows, transposed, strided
        _check(xp, "sum", a[::-1, ::3], xp.flip(x, axis=0)[:, ::3], 0)
        if a.dtype.kind in "iuf":
            _check(xp, "argmax", a.T, x.T, None)
            _check(xp, "max", a[::-1].T, xp.flip(x, axis=0).T, 1, keepdims=True)


@pytest.mark.parametrize("op", ["argmax", "argmin", "var", "sum", "count_nonzero"])
def test_reductions_split_inside_rows(wgpu_xp, small_limits, op):
    """Rows longer than a box: each box yields one state per output, merged across boxes
    (argmax: the box's base + the local index)."""
    xp = wgpu_xp
    rng = np.random.default_rng(12)
    a = rng.standard_normal((3, 400_000)).astype(np.float32)
    a[1, 350_000] = 9.0
    a[1, 390_000] = 9.0
    a[2, 123_457] = -9.0
    with small_limits(), _max_box(1 << 17):
        x = xp.asarray(a)
        for axis in (None, 1):
            _check(xp, op, a, x, axis)
        _check(xp, op, a[:, ::-1], xp.flip(x, axis=1), 1)


@pytest.mark.bigmem
def test_real_300mb_array_on_the_adapters_own_limits(wgpu_xp):
    """75M float32 (more than twice lavapipe's 128 MiB binding), no shrunken limits."""
    xp = wgpu_xp
    n = 75_000_000
    rng = np.random.default_rng(13)
    a = rng.random(n, dtype=np.float32) + 100.0
    a[61_000_001] = 1000.0
    x = xp.asarray(a)
    # beyond lavapipe's 128 MiB binding; NVIDIA's 2 GiB holds it (the 10 GiB test below
    # goes beyond there)
    assert not x._data.fits_binding() or x._data.client.max_binding > 300_000_000
    s = float(xp.sum(x))
    exact = float(a.sum(dtype=np.float64))
    assert abs(s - exact) <= 1e-6 * exact
    assert int(xp.argmax(x)) == 61_000_001
    v = float(xp.var(x))
    ev = float(np.var(a.astype(np.float64)))
    assert abs(v - ev) <= 1e-4 * ev
    del x


@pytest.mark.gpu
@pytest.mark.slow
def test_10_gib_array_beyond_the_max_buffer_on_a_gpu(wgpu_xp):
    """Size acceptance for reductions: a 10 GiB float32 array (several buffers
    on NVIDIA's 4 GiB max buffer), an extreme beyond index 2^31. GPU adapters only."""
    xp = wgpu_xp
    client = xp.asarray([0.0])._data.client
    if client.info.get("type") == "CPU":
        pytest.skip("10 GiB on a CPU adapter: GPU machine only")
    n = 10 * 2 ** 30 // 4
    x = xp.ones(n, dtype=xp.float32)
    assert len(x._data.block.segments) >= 3
    far = 2_500_000_001  # beyond 2^31 (10 GiB of float32 holds 2.68e9 elements < 2^32)
    assert 2 ** 31 < far < n - 11
    x[far] = 5.0
    x[far + 10] = 5.0
    x[12] = -3.0
    assert abs(float(xp.sum(x)) - (n + 4 + 4 - 4)) <= 1e-6 * n
    assert int(xp.argmax(x)) == far and int(xp.argmin(x)) == 12
    assert float(xp.max(x)) == 5.0 and float(xp.min(x)) == -3.0
    mean = (n + 4) / n
    ev = ((n - 3) * (1 - mean) ** 2 + 2 * (5 - mean) ** 2 + (-3 - mean) ** 2) / n
    assert abs(float(xp.var(x)) - ev) <= 1e-3 * ev
    assert int(xp.count_nonzero(x)) == n
    del x


# ---- accuracy: pairwise-like sums, one-pass stable variances ----------------------------------
def test_float32_sum_is_not_sequential(wgpu_xp):
    """2^24 uniform [0, 1) float32: a sequential float32 sum stalls near 2^24 (error ~1e-1
    relative); the tree of short runs stays within a few ulp of the float64 sum."""
    xp = wgpu_xp
    a = np.random.default_rng(14).random(1 << 24, dtype=np.float32)
    exact = a.sum(dtype=np.float64)
    r = float(xp.sum(xp.asarray(a)))
    assert abs(r - exact) <= 2e-6 * exact
    seq = np.cumsum(a)[-1]  # NumPy's cumsum adds in sequence: the failure mode
    assert abs(seq - exact) > 2e-6 * exact


@pytest.mark.parametrize("dtype,mean,sigma,tol", [
    ("float32", 1e4, 1.0, 1e-3), ("float32", 1e3, 1e-2, 1e-3), ("float64", 1e6, 1e-2, 1e-6),
    ("float16", 100.0, 1.0, 3e-2)])
def test_var_large_mean_small_variance(wgpu_xp, dtype, mean, sigma, tol):
    xp = wgpu_xp
    rng = np.random.default_rng(15)
    a = (mean + sigma * rng.standard_normal(200_000)).astype(dtype)
    e = np.var(a.astype(np.float64))
    x = xp.asarray(a)
    r = float(xp.var(x))
    assert abs(r - e) <= tol * e, (r, e)
    r = host(xp.var(xp.reshape(x, (400, 500)), axis=0))
    np.testing.assert_allclose(r, np.var(a.astype(np.float64).reshape(400, 500), axis=0),
                               rtol=tol * 3)
    if dtype != "float16":  # (float16 computes in float32, where the data is benign)
        # the textbook one-pass formula in the same precision fails this test
        naive = float(np.mean(a * a) - np.mean(a) ** 2)
        assert abs(naive - e) > tol * e


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_whole_array_reductions_through_rows(wgpu_xp, dtype):
    # >= 2^22 contiguous elements are reduced as rows, then the row results (ops/reduction/
    # mixin.py::_row_split): equal to NumPy's, NaN propagating, odd sizes on the whole path
    xp = wgpu_xp
    if dtype not in xp.__array_namespace_info__().dtypes():
        pytest.skip(f"no {dtype}")
    rng = np.random.default_rng(21)
    for n in (1 << 22, (1 << 22) + 8192 * 3, (1 << 22) + 1):
        a = (rng.random(n) * 2 - 0.5).astype(dtype)
        a[n // 3] = 7.0
        a[n // 2] = -3.0
        x = xp.asarray(a)
        ref = a.astype(np.float64)
        tol = 1e-5 if dtype == "float32" else 1e-12
        assert abs(float(xp.sum(x)) - ref.sum()) <= tol * np.abs(ref).sum()
        assert abs(float(xp.mean(x)) - ref.mean()) <= tol * np.abs(ref).mean()
        assert float(xp.max(x)) == 7.0 and float(xp.min(x)) == -3.0
        assert float(xp.max(xp.reshape(x[: n - n % 2], (2, -1)))) == 7.0
    a[5] = np.nan
    x = xp.asarray(a[: 1 << 22])
    assert np.isnan(float(xp.max(x))) and np.isnan(float(xp.sum(x)))
