"""The subgroup-per-matrix kernels (ops/linalg/warp.py): solve / inv / cholesky of stacks of
small real matrices, one matrix per subgroup.

Every n up to 8 the path can take on this adapter and its edges beyond are tested
(BWARP_MIN=1 here, the upper end min(S, 32) from warp.solve_range /
chol_range, the functions the dispatcher asks: lavapipe's subgroups of 8 give n <= 8,
NVIDIA's of 32 n <= 8 and 11, 16, 17, 24, 31, 32), against NumPy in
float64: backward errors, a stack not a multiple of the matrices per workgroup, a pivot
from the last row, singular / not positive definite members raising numr's error, NaN
input, views. Each test checks the warp kernel was recorded (warp.LAUNCHES, recipes off),
so none can pass on the workgroup kernels; one compiles the kernels for a wrong subgroup size
to show the status bit and the rerun on the workgroup kernels.
"""

import numpy as np
import pytest

from numr_array_api import tuning
from numr_array_api._core.errors import InvalidArgument

DTYPES = ["float32", "float64"]
EPS = {"float32": np.finfo(np.float32).eps, "float64": np.finfo(np.float64).eps}
B = 37   # not a multiple of the matrices per workgroup (128 / S: 16 on lavapipe, 4 on NVIDIA)


def host(x):
    return np.asarray(x.to_device("cpu"))


def bound(n, dtype):
    return 10 * max(n, 2) * EPS[dtype]


@pytest.fixture(params=[0, 1], ids=["direct", "staged"])
def env(wgpu_xp, monkeypatch, knobs, request):
    """(xp, client, warp) with the warp path on for every n it can take, recipes off (so
    each call records its kernels), its fallback state reset before and after; float32
    cholesky with its loads and stores direct or staged through workgroup memory
    (BWARP_STAGE_MIN)."""
    from numr_array_api.backends.webgpu.ops.linalg import warp
    xp = wgpu_xp
    client = xp.asarray([0.0])._data.client
    # one matrix a subgroup here; the segmented kernels (small n by default) in test_warp_seg
    knobs(BWARP_MIN=1, BWARP_CHOL_MIN=1, BWARP_CHOL_MAX=32, BWARP_SEG=False,
          BWARP_STAGE_MIN=request.param)
    monkeypatch.setattr(client.recipes, "enabled", False)
    warp.reset(client)
    yield xp, client, warp
    warp.reset(client)


def _sizes(client, warp, dtype, chol=False):
    from numr_array_api._core import dtypes as dt
    d = getattr(dt, dtype)
    if dtype == "float64" and not client.has("shader-f64"):
        pytest.skip("adapter without shader-f64")
    lo, hi, s = (warp.chol_range if chol else warp.solve_range)(client, d)
    if not s or lo > hi:
        pytest.skip("no fixed subgroup size: the warp path is off on this adapter")
    print(f"subgroup size {s}: n in {lo}..{hi}")
    # every n up to 8, then the edges beyond (BatchTiny's limit 16 / 17, odd sizes, S):
    # NVIDIA compiles each fully unrolled kernel in 1-3 s, and every n of 1..32 in each
    # test ran past 150 s on the H100
    return [n for n in range(lo, hi + 1) if n <= 8 or n in (11, 16, 17, 24, hi - 1, hi)]


def _backward(a, x, b):
    a, x, b = (np.asarray(v, np.float64) for v in (a, x, b))
    r = np.linalg.norm(a @ x - b, axis=(-2, -1))
    return (r / (np.linalg.norm(a, axis=(-2, -1)) * np.linalg.norm(x, axis=(-2, -1))
                 + np.linalg.norm(b, axis=(-2, -1)))).max()


def _spd(rng, n, dtype):
    g = rng.standard_normal((B, n, n))
    return (g @ g.transpose(0, 2, 1) + n * np.eye(n)).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_and_inv(env, dtype):
    xp, client, warp = env
    rng = np.random.default_rng(1)
    for n in _sizes(client, warp, dtype):
        a = rng.standard_normal((B, n, n)).astype(dtype)
        a[5, : n - 1, 0] = 0.0            # the pivot of column 0 is the last row
        for k in (1, 3, n):
            b = rng.standard_normal((B, n, k)).astype(dtype)
            before = warp.LAUNCHES["solve"]
            x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
            assert warp.LAUNCHES["solve"] == before + 1, (n, k)
            assert x.dtype == np.dtype(dtype) and x.shape == (B, n, k)
            assert _backward(a, x, b) <= bound(n, dtype), (n, k, _backward(a, x, b))
            ref = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
            cond = np.linalg.cond(a.astype(np.float64)).max()
            assert np.abs(x - ref).max() <= 10 * n * EPS[dtype] * cond * np.abs(ref).max()
        # a vector right-hand side broadcast over the stack
        bv = rng.standard_normal(n).astype(dtype)
        before = warp.LAUNCHES["solve"]
        xv = host(xp.linalg.solve(xp.asarray(a), xp.asarray(bv)))
        assert warp.LAUNCHES["solve"] == before + 1
        refv = np.linalg.solve(a.astype(np.float64), bv.astype(np.float64))
        assert xv.shape == refv.shape
        assert _backward(a, xv[..., None], np.broadcast_to(bv[:, None], (B, n, 1))) \
            <= bound(n, dtype)
        before = warp.LAUNCHES["inv"]
        ai = host(xp.linalg.inv(xp.asarray(a)))
        assert warp.LAUNCHES["inv"] == before + 1
        ra = a.astype(np.float64)
        res = np.linalg.norm(ra @ ai - np.eye(n), axis=(1, 2)) / (
            np.linalg.norm(ra, axis=(1, 2)) * np.linalg.norm(ai.astype(np.float64), axis=(1, 2)))
        assert res.max() <= bound(n, dtype), (n, res.max())


@pytest.mark.parametrize("dtype", DTYPES)
def test_cholesky(env, dtype):
    xp, client, warp = env
    rng = np.random.default_rng(2)
    for n in _sizes(client, warp, dtype, chol=True):
        h = _spd(rng, n, dtype)
        ref = np.linalg.cholesky(h.astype(np.float64))
        staged = dtype == "float32" and tuning.get("BWARP_STAGE_MIN", client) == 1
        for upper in (False, True):
            before = warp.LAUNCHES["chol"], warp.LAUNCHES["chol_staged"]
            f = host(xp.linalg.cholesky(xp.asarray(h), upper=upper))
            assert (warp.LAUNCHES["chol"], warp.LAUNCHES["chol_staged"]) == \
                (before[0] + 1, before[1] + staged), (n, upper)
            want = ref.transpose(0, 2, 1) if upper else ref
            assert f.dtype == np.dtype(dtype)
            assert np.array_equal(f == 0, want == 0) or n == 1   # the zero triangle written
            assert np.abs(f - want).max() <= 10 * n * EPS[dtype] * np.abs(want).max(), (n, upper)


@pytest.mark.parametrize("dtype", DTYPES)
def test_singular_and_not_positive_definite_raise(env, dtype):
    xp, client, warp = env
    rng = np.random.default_rng(3)
    for n in _sizes(client, warp, dtype):
        a = rng.standard_normal((B, n, n)).astype(dtype)
        a[9, :, n // 2] = 0.0             # a zero column: singular whatever the pivoting
        b = rng.standard_normal((B, n, 2)).astype(dtype)
        before = warp.LAUNCHES["solve"], warp.LAUNCHES["inv"]
        with pytest.raises(InvalidArgument, match="linalg.solve: Singular"):
            xp.linalg.solve(xp.asarray(a), xp.asarray(b))
        with pytest.raises(InvalidArgument, match="linalg.inv: Singular"):
            xp.linalg.inv(xp.asarray(a))
        assert (warp.LAUNCHES["solve"], warp.LAUNCHES["inv"]) == (before[0] + 1, before[1] + 1)
        # the others alone still solve
        ok = np.delete(a, 9, axis=0)
        assert np.isfinite(host(xp.linalg.inv(xp.asarray(ok)))).all()
    for n in _sizes(client, warp, dtype, chol=True):
        h = _spd(rng, n, dtype)
        bad = h.copy()
        bad[11, n - 1, n - 1] = -1.0 - np.abs(bad[11]).sum()   # not positive definite
        before = warp.LAUNCHES["chol"]
        with pytest.raises(InvalidArgument, match="linalg.cholesky: Matrix is not positive"):
            xp.linalg.cholesky(xp.asarray(bad))
        assert warp.LAUNCHES["chol"] == before + 1
        bad = h.copy()
        bad[0, n - 1, n - 1] = np.nan                          # a NaN diagonal
        with pytest.raises(InvalidArgument, match="positive definite"):
            xp.linalg.cholesky(xp.asarray(bad), upper=True)


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_input_as_the_workgroup_kernels(env, dtype, knobs):
    """NaN propagates to its matrix only and is no error (solve, inv); a NaN below the
    diagonal reaches a pivot of cholesky, which then raises: as the workgroup kernels."""
    xp, client, warp = env
    rng = np.random.default_rng(4)

    def run(n):
        a = rng.standard_normal((B, n, n)).astype(dtype)
        a[2, (3 % n), (4 % n)] = np.nan
        b = rng.standard_normal((B, n, 1)).astype(dtype)
        x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
        ai = host(xp.linalg.inv(xp.asarray(a)))
        h = _spd(rng, n, dtype)
        h[6, n - 1, 0] = np.nan
        try:
            xp.linalg.cholesky(xp.asarray(h))
            chol = "ok"
        except InvalidArgument:
            chol = "raised"
        return (np.isnan(x).any(axis=(1, 2)), np.isnan(ai).any(axis=(1, 2)), chol)

    for n in _sizes(client, warp, dtype):
        before = dict(warp.LAUNCHES)
        new = run(n)
        assert warp.LAUNCHES["solve"] == before["solve"] + 1
        assert new[0][2] and new[1][2] and new[0].sum() == 1 and new[1].sum() == 1
        knobs(BWARP=False)
        other = run(n)
        knobs(BWARP=None)
        assert np.array_equal(new[0], other[0]) and np.array_equal(new[1], other[1])
        assert new[2] == other[2], (n, new[2], other[2])


@pytest.mark.parametrize("dtype", DTYPES)
def test_views(env, dtype):
    """a and b read in place through their strides: a transposed / strided, b a column of
    a wider stack, cholesky of a strided view."""
    xp, client, warp = env
    rng = np.random.default_rng(5)
    for n in _sizes(client, warp, dtype):
        big = rng.standard_normal((B, n, 2 * n)).astype(dtype)
        bb = rng.standard_normal((B, n, 4)).astype(dtype)
        av = xp.asarray(big)[:, :, ::2]                  # column stride 2
        at = xp.matrix_transpose(xp.asarray(big[:, :, :n]))
        bv = xp.asarray(bb)[:, :, 1:3]
        for a_dev, a_np in ((av, big[:, :, ::2]), (at, big[:, :, :n].transpose(0, 2, 1))):
            before = warp.LAUNCHES["solve"]
            x = host(xp.linalg.solve(a_dev, bv))
            assert warp.LAUNCHES["solve"] == before + 1
            assert _backward(a_np, x, bb[:, :, 1:3]) <= bound(n, dtype)
            ai = host(xp.linalg.inv(a_dev))
            res = np.linalg.norm(a_np.astype(np.float64) @ ai - np.eye(n), axis=(1, 2))
            assert res.max() <= bound(n, dtype) * np.linalg.cond(a_np.astype(np.float64)).max()
    for n in _sizes(client, warp, dtype, chol=True):
        h = _spd(rng, n, dtype)
        wide = np.zeros((B, n, 2 * n), dtype)
        wide[:, :, ::2] = h
        before = warp.LAUNCHES["chol"]
        f = host(xp.linalg.cholesky(xp.asarray(wide)[:, :, ::2]))
        assert warp.LAUNCHES["chol"] == before + 1
        ref = np.linalg.cholesky(h.astype(np.float64))
        assert np.abs(f - ref).max() <= 10 * n * EPS[dtype] * np.abs(ref).max()


def test_wrong_subgroup_size_reruns_on_the_workgroup_kernels(env, knobs):
    """Kernels compiled for twice the adapter's subgroup size see another ``subgroup_size``,
    set status bit 2 and do nothing; the call turns the path off and reruns on the
    workgroup kernels, with the right answer and the right errors."""
    xp, client, warp = env
    s = warp.subgroup_size(client)
    if not s:
        pytest.skip("no fixed subgroup size: the warp path is off on this adapter")
    knobs(BWARP_S=2 * s)
    rng = np.random.default_rng(6)
    n = min(s, 8)
    a = rng.standard_normal((B, n, n)).astype(np.float32)
    b = rng.standard_normal((B, n, 2)).astype(np.float32)
    h = _spd(rng, n, "float32")
    from numr_array_api.backends.webgpu.ops.linalg.warp import WarpCholSpec, WarpSolveSpec

    eye = np.broadcast_to(np.eye(n), a.shape)
    low = np.linalg.cholesky(h.astype(np.float64))
    calls = (("solve", lambda: xp.linalg.solve(xp.asarray(a), xp.asarray(b)),
              lambda r: _backward(a, r, b) <= bound(n, "float32")),
             ("inv", lambda: xp.linalg.inv(xp.asarray(a)),
              lambda r: _backward(a, r, eye) <= bound(n, "float32")),
             ("chol", lambda: xp.linalg.cholesky(xp.asarray(h)),
              lambda r: np.abs(r - low).max() <= 10 * n * EPS["float32"] * np.abs(low).max()))
    for kind, call, good in calls:
        warp.reset(client)
        before = warp.LAUNCHES[kind]
        r = host(call())
        assert warp.LAUNCHES[kind] == before + 1        # the warp kernel ran first ...
        assert getattr(client, "_bwarp_off", False)     # ... saw the other size ...
        assert good(r), kind                            # ... and the rerun answered
        host(call())
        assert warp.LAUNCHES[kind] == before + 1        # later calls: the workgroup kernels
    assert any(isinstance(sp, WarpSolveSpec) and sp.sg == 2 * s for sp in client._kernels)
    assert any(isinstance(sp, WarpCholSpec) and sp.sg == 2 * s for sp in client._kernels)
    # an error found by the rerun is the call's error
    warp.reset(client)
    sing = a.copy()
    sing[3, :, 0] = 0.0
    with pytest.raises(InvalidArgument, match="linalg.solve: Singular"):
        xp.linalg.solve(xp.asarray(sing), xp.asarray(b))
    assert getattr(client, "_bwarp_off", False)


def test_default_range_and_knobs(env, knobs):
    """Defaults: solve / inv from one past BatchTiny's limit (BTINY_N + 1) to min(S, 32),
    cholesky from 2 to min(S, 32); BWARP off turns the path off; a knob's change is a new
    recipe key (the tuning epoch)."""
    xp, client, warp = env
    from numr_array_api._core import dtypes as dt
    from numr_array_api.backends.webgpu.ops.linalg import batched
    s = warp.subgroup_size(client)
    if not s:
        pytest.skip("no fixed subgroup size: the warp path is off on this adapter")
    knobs(BWARP_MIN=None, BWARP_CHOL_MIN=None, BWARP_CHOL_MAX=None)
    assert warp.solve_range(client, dt.float32) == (17, min(s, 32), s)
    if client.has("shader-f64") and client.has("shader-int64"):
        assert warp.solve_range(client, dt.float64) == (9, min(s, 32), s)
    assert warp.chol_range(client, dt.float32) == (2, min(s, 32), s)
    if client.has("shader-f64") and client.has("shader-int64"):
        assert warp.chol_range(client, dt.float64) == (2, min(s, 32), s)
    knobs(BWARP_MAX=4)
    assert warp.solve_range(client, dt.float32)[1] == min(s, 4)
    assert warp.solve_sg(client, dt.complex64, 4, 1) == 0
    key = batched.batch_route(client, "solve", dt.float32, 4, 1)[0]
    knobs(BWARP=False)
    assert warp.solve_sg(client, dt.float32, 2, 1) == 0 and warp.chol_sg(client, dt.float32, 2) == 0
    assert batched.batch_route(client, "solve", dt.float32, 4, 1)[0] != key


@pytest.mark.parametrize("wg", ["min", "256"])
def test_workgroup_sizes_and_two_dimensional_grid(env, wg, knobs, monkeypatch):
    """Other matrices-per-workgroup counts (BWARP_WG: one subgroup, 256
    invocations) and a grid over two dimensions (the per-dimension limit shrunk to 2
    workgroups)."""
    xp, client, warp = env
    s = warp.subgroup_size(client)
    if not s:
        pytest.skip("no fixed subgroup size: the warp path is off on this adapter")
    knobs(BWARP_WG=s if wg == "min" else int(wg))
    monkeypatch.setattr(client, "max_groups", 2)
    rng = np.random.default_rng(7)
    n = min(s, 32)
    nb = 5 * (256 // s) + 3      # over 2 x 2 workgroups at 256 invocations too
    a = rng.standard_normal((nb, n, n)).astype(np.float32)
    b = rng.standard_normal((nb, n, 2)).astype(np.float32)
    before = dict(warp.LAUNCHES)
    x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
    assert _backward(a, x, b) <= bound(n, "float32")
    ai = host(xp.linalg.inv(xp.asarray(a)))
    assert _backward(a, ai, np.broadcast_to(np.eye(n), a.shape)) <= bound(n, "float32")
    g = rng.standard_normal((nb, n, n))
    h = (g @ g.transpose(0, 2, 1) + n * np.eye(n)).astype(np.float32)
    f = host(xp.linalg.cholesky(xp.asarray(h)))
    ref = np.linalg.cholesky(h.astype(np.float64))
    assert np.abs(f - ref).max() <= 10 * n * EPS["float32"] * np.abs(ref).max()
    assert all(warp.LAUNCHES[k] == before[k] + 1 for k in ("solve", "inv", "chol"))
