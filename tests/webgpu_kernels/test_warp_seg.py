"""The segmented warp kernels (ops/linalg/warp_seg.py): solve / inv of small matrices, S / w
matrices a subgroup (w the power of two >= n, below the subgroup size S).

Lavapipe's subgroups of 8 give w = 1, 2, 4 (8, 4, 2 matrices a subgroup); NVIDIA's of 32
w up to 16. Stacks whose size is no multiple of the matrices a subgroup (the last subgroup
partly past the stack: those segments must neither write nor report), singular members in
the middle, NaN input, several leading batch dimensions, several and vector right-hand
sides, against NumPy in float64. Each call checks a segmented kernel ran (warp.LAUNCHES
"seg" and the compiled spec's w), and the results are compared bit for bit with the
one-matrix-a-subgroup kernel's, which chooses the same pivots. Every test runs with the
lanes loading their rows directly and with the matrices of calls with as many right-hand
sides as rows staged through workgroup memory (BWARP_SSTAGE_MIN).
"""

import contextlib

import numpy as np
import pytest

from numr_array_api import tuning
from numr_array_api._core.errors import InvalidArgument

from .test_warp_small import DTYPES, EPS, _backward, bound, host

SHAPES = [(37,), (1,), (3, 5)]   # 37, 1, 15 matrices: none a multiple of S / w >= 2


@pytest.fixture(params=[0, 1], ids=["direct", "staged"])
def env(wgpu_xp, monkeypatch, knobs, request):
    """(xp, client, warp, S) with segments for every n below S (off by default on CPU
    adapters), recipes off; A and X of calls with k = n right-hand sides (inv) loaded and
    stored by each lane's row, or staged through workgroup memory."""
    from numr_array_api.backends.webgpu.ops.linalg import warp
    xp = wgpu_xp
    client = xp.asarray([0.0])._data.client
    knobs(BWARP_SSTAGE_MIN=request.param, BWARP_SEG=True, BWARP_SEG_MIN=1, BWARP_SEG_MAX=32)
    monkeypatch.setattr(client.recipes, "enabled", False)
    warp.reset(client)
    s = warp.subgroup_size(client)
    if not s:
        pytest.skip("no fixed subgroup size: the warp path is off on this adapter")
    yield xp, client, warp, s
    warp.reset(client)


def _width(n):
    from numr_array_api.backends.webgpu.ops.linalg.warp_seg import width
    return width(n)


def _sizes(client, s, dtype):
    if dtype == "float64" and not (client.has("shader-f64") and client.has("shader-int64")):
        pytest.skip("adapter without shader-f64 / shader-int64")
    ns = [n for n in (1, 2, 3, 4, 5, 7, 8, 9, 12, 16) if _width(n) < s]
    if not ns:
        pytest.skip(f"subgroups of {s}: no segment")
    print(f"subgroup size {s}: n in {ns}")
    return ns


class _Seg:
    """Asserts one call ran exactly one segmented kernel of width w (``k`` right-hand
    sides: n for inv)."""

    def __init__(self, client, warp, kind, n, s, k=None):
        self.client, self.warp, self.kind, self.n, self.s = client, warp, kind, n, s
        self.k = n if k is None else k

    def __enter__(self):
        L = self.warp.LAUNCHES
        self.before = L[self.kind], L["seg"], L["seg_staged"]

    def __exit__(self, *exc):
        if exc[0] is None:
            w = _width(self.n)
            staged = tuning.get("BWARP_SSTAGE_MIN", self.client) == 1 and self.k == self.n
            L = self.warp.LAUNCHES
            assert (L[self.kind], L["seg"], L["seg_staged"]) == \
                (self.before[0] + 1, self.before[1] + 1, self.before[2] + staged), \
                (self.kind, self.n)
            assert any(isinstance(sp, self.warp.WarpSolveSpec) and sp.w == w and sp.n == self.n
                       and sp.sg == self.s and sp.stage == staged for sp in self.client._kernels)


def _unsegmented(knobs, call):
    """``call()`` on the one-matrix-a-subgroup kernel."""
    knobs(BWARP_SEG=False, BWARP_MIN=1)
    try:
        return call()
    finally:
        knobs(BWARP_SEG=True, BWARP_MIN=None)   # back to the fixture's segments


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_and_inv(env, dtype, knobs):
    xp, client, warp, s = env
    rng = np.random.default_rng(11)
    for n in _sizes(client, s, dtype):
        for shape in SHAPES:
            a = rng.standard_normal(shape + (n, n)).astype(dtype)
            flat = a.reshape(-1, n, n)
            flat[-1, : n - 1, 0] = 0.0          # the last matrix: column 0's pivot the last row
            if flat.shape[0] > 3:
                flat[2, :, 0] = 2.0 * (-1.0) ** np.arange(n)   # a tie in every row: row 0
            ra = a.astype(np.float64)
            for k in (1, 3, n):
                b = rng.standard_normal(shape + (n, k)).astype(dtype)
                with _Seg(client, warp, "solve", n, s, k):
                    x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
                assert x.dtype == np.dtype(dtype) and x.shape == shape + (n, k)
                be = _backward(ra.reshape(-1, n, n), x.reshape(-1, n, k), b.reshape(-1, n, k))
                assert be <= bound(n, dtype), (n, shape, k, be)
                ref = np.linalg.solve(ra, b.astype(np.float64))
                cond = np.linalg.cond(ra).max()
                assert np.abs(x - ref).max() <= 10 * n * EPS[dtype] * cond * np.abs(ref).max()
                if k == 3:
                    one = host(_unsegmented(knobs, lambda: xp.linalg.solve(
                        xp.asarray(a), xp.asarray(b))))
                    assert np.array_equal(x, one), (n, shape)   # the same pivots, same sums
            bv = rng.standard_normal(n).astype(dtype)   # a vector, broadcast over the stack
            with _Seg(client, warp, "solve", n, s, 1):
                xv = host(xp.linalg.solve(xp.asarray(a), xp.asarray(bv)))
            assert xv.shape == shape + (n,)
            bb = np.broadcast_to(bv[:, None], (xv.size // n, n, 1))
            assert _backward(ra.reshape(-1, n, n), xv.reshape(-1, n, 1), bb) <= bound(n, dtype)
            with _Seg(client, warp, "inv", n, s):
                ai = host(xp.linalg.inv(xp.asarray(a)))
            assert ai.shape == a.shape
            res = np.linalg.norm(ra @ ai - np.eye(n), axis=(-2, -1)) / (
                np.linalg.norm(ra, axis=(-2, -1)) * np.linalg.norm(ai.astype(np.float64),
                                                                   axis=(-2, -1)))
            assert res.max() <= bound(n, dtype), (n, shape, res.max())
            one = host(_unsegmented(knobs, lambda: xp.linalg.inv(xp.asarray(a))))
            assert np.array_equal(ai, one), (n, shape)


@pytest.mark.parametrize("dtype", DTYPES)
def test_singular_in_the_middle_raises(env, dtype):
    """A singular member anywhere in a subgroup (first, middle or last segment) raises;
    the same stack without it solves (no report from segments past the stack)."""
    xp, client, warp, s = env
    rng = np.random.default_rng(12)
    for n in _sizes(client, s, dtype):
        for at in (0, 17, 36):
            a = rng.standard_normal((37, n, n)).astype(dtype)
            a[at, :, n // 2] = 0.0          # a zero column: singular whatever the pivoting
            b = rng.standard_normal((37, n, 2)).astype(dtype)
            with pytest.raises(InvalidArgument, match="linalg.inv: Singular"):
                with _Seg(client, warp, "inv", n, s):
                    xp.linalg.inv(xp.asarray(a))
            with pytest.raises(InvalidArgument, match="linalg.solve: Singular"):
                with _Seg(client, warp, "solve", n, s, 2):
                    xp.linalg.solve(xp.asarray(a), xp.asarray(b))
            ok = np.delete(a, at, axis=0)
            with _Seg(client, warp, "inv", n, s):
                assert np.isfinite(host(xp.linalg.inv(xp.asarray(ok)))).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_nan_input_as_the_one_invocation_kernel(env, dtype, knobs):
    """A NaN reaches its own matrix only and is no error, as on BatchTinySpec."""
    xp, client, warp, s = env
    rng = np.random.default_rng(13)
    for n in _sizes(client, s, dtype):
        a = rng.standard_normal((37, n, n)).astype(dtype)
        a[2, n - 1, 0] = np.nan
        a[20, 0, n - 1] = np.nan
        b = rng.standard_normal((37, n, 1)).astype(dtype)

        def run(solve_seg=None, inv_seg=None):
            with solve_seg or contextlib.nullcontext():
                x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
            with inv_seg or contextlib.nullcontext():
                ai = host(xp.linalg.inv(xp.asarray(a)))
            return np.isnan(x).any(axis=(1, 2)), np.isnan(ai).any(axis=(1, 2))

        new = run(_Seg(client, warp, "solve", n, s, 1), _Seg(client, warp, "inv", n, s))
        want = np.zeros(37, bool)
        want[[2, 20]] = True
        assert np.array_equal(new[0], want) and np.array_equal(new[1], want), n
        knobs(BWARP=False)
        other = run()
        knobs(BWARP=None)
        assert np.array_equal(new[0], other[0]) and np.array_equal(new[1], other[1]), n


def test_wrong_subgroup_size_reruns(env, knobs):
    """Segmented kernels compiled for twice the adapter's size set status bit 2; the call
    turns the warp path off and answers on the workgroup kernels."""
    xp, client, warp, s = env
    knobs(BWARP_S=2 * s)
    rng = np.random.default_rng(14)
    n = 2
    a = rng.standard_normal((37, n, n)).astype(np.float32)
    b = rng.standard_normal((37, n, 2)).astype(np.float32)
    for kind, call, want in (("solve", lambda: xp.linalg.solve(xp.asarray(a), xp.asarray(b)), b),
                             ("inv", lambda: xp.linalg.inv(xp.asarray(a)),
                              np.broadcast_to(np.eye(n), a.shape))):
        warp.reset(client)
        before = warp.LAUNCHES[kind], warp.LAUNCHES["seg"]
        r = host(call())
        assert (warp.LAUNCHES[kind], warp.LAUNCHES["seg"]) == (before[0] + 1, before[1] + 1)
        assert getattr(client, "_bwarp_off", False)
        assert _backward(a, r, want) <= bound(n, "float32"), kind
    assert any(isinstance(sp, warp.WarpSolveSpec) and sp.sg == 2 * s and sp.w == 2
               for sp in client._kernels)


def test_default_routing_and_knobs(env, knobs):
    """BWARP_SEG (on by default on GPUs): segments for 2 <= n <= BTINY_N (16 float32, 8
    float64) where w <= S (w = S: the unsegmented kernel); off (the default on CPU
    adapters): the one-invocation kernel; a knob's change is a new recipe key."""
    xp, client, warp, s = env
    from numr_array_api._core import dtypes as dt
    from numr_array_api.backends.webgpu.ops.linalg import batched
    from numr_array_api.backends.webgpu.runtime.adapters import is_cpu
    knobs(BWARP_SEG_MIN=None, BWARP_SEG_MAX=None)
    f32 = dt.float32
    assert warp.solve_sg(client, f32, 1, 1) == 0            # n = 1: BatchTinySpec
    for n in (2, 3, 4, 8, 16):
        want = s if _width(n) <= s else 0
        assert warp.solve_sg(client, f32, n, n) == want, n
        if want:
            assert warp.solve_width(client, f32, n, s) == _width(n)
    if client.has("shader-f64") and client.has("shader-int64"):
        assert warp.solve_sg(client, dt.float64, 8, 1) == (s if s >= 8 else 0)
        if s >= 32:   # n = 9..16: the unsegmented kernel
            assert warp.solve_width(client, dt.float64, 12, s) == s
    key = batched.batch_route(client, "solve", f32, 2, 1)[0]
    knobs(BWARP_SEG=False)
    assert batched.batch_route(client, "solve", f32, 2, 1)[0] != key
    assert warp.solve_sg(client, f32, 2, 1) == 0 and warp.solve_sg(client, f32, 4, 1) == 0
    # inv (k >= n) takes the unsegmented kernel from n = 2 (solve_sg's BWARP_INV_MIN)
    assert warp.solve_sg(client, f32, 4, 4) == s and warp.solve_width(client, f32, 4, s) == s
    knobs(BWARP_SEG=None)   # the default: on GPUs, off on CPU adapters
    assert warp.solve_sg(client, f32, 2, 1) == (0 if is_cpu(client.info) else s)
    knobs(BWARP_SEG=True, BWARP=False)
    assert warp.solve_sg(client, f32, 2, 1) == 0
    knobs(BWARP=None)
    assert warp.solve_sg(client, dt.complex64, 2, 1) == 0   # complex: the workgroup kernels
    # staging by default: k = n from 5 rows on GPUs, never on CPU adapters
    knobs(BWARP_SSTAGE_MIN=None)
    gpu = not is_cpu(client.info)
    for n, k, want in ((8, 8, gpu), (5, 5, gpu), (4, 4, False), (8, 1, False), (8, 3, False)):
        assert warp._solve_stage(client, n, k) == want, (n, k)
    knobs(BWARP_SSTAGE_MIN=1)
    assert warp._solve_stage(client, 4, 4) and not warp._solve_stage(client, 4, 1)
    knobs(BWARP_SSTAGE_MIN=0)
    assert not warp._solve_stage(client, 8, 8)
    # a default call: 2 x 2 float32 takes segments (S >= 2), 0 of them with BWARP_SEG off
    a = np.random.default_rng(15).standard_normal((37, 2, 2)).astype(np.float32)
    for mode, runs in ((True, 1), (False, 0)):
        knobs(BWARP_SEG=mode)
        before = warp.LAUNCHES["seg"]
        ai = host(xp.linalg.inv(xp.asarray(a)))
        assert warp.LAUNCHES["seg"] == before + runs
        assert _backward(a, ai, np.broadcast_to(np.eye(2), a.shape)) <= bound(2, "float32")


def test_two_dimensional_grid(env, knobs, monkeypatch):
    """Grids folded over two dimensions (the per-dimension limit shrunk to 2 workgroups),
    one subgroup a workgroup and 256 invocations."""
    xp, client, warp, s = env
    monkeypatch.setattr(client, "max_groups", 2)
    rng = np.random.default_rng(16)
    n = 2
    for wg in (s, 256):
        knobs(BWARP_WG=wg)
        nb = 5 * (256 // n) + 3
        a = rng.standard_normal((nb, n, n)).astype(np.float32)
        b = rng.standard_normal((nb, n, 2)).astype(np.float32)
        with _Seg(client, warp, "solve", n, s, 2):
            x = host(xp.linalg.solve(xp.asarray(a), xp.asarray(b)))
        assert _backward(a, x, b) <= bound(n, "float32")
        with _Seg(client, warp, "inv", n, s):
            ai = host(xp.linalg.inv(xp.asarray(a)))
        assert _backward(a, ai, np.broadcast_to(np.eye(n), a.shape)) <= bound(n, "float32")


@pytest.mark.parametrize("view", ["every_other", "transposed", "offset"])
def test_views(env, view):
    """Every other matrix of a stack and each matrix transposed (copied to a contiguous
    stack on the way: Storage.reshape), and a stack starting past its buffer's first
    matrix, which the kernels read in place from its offset (A_off, also in the tile's
    moves)."""
    xp, client, warp, s = env
    rng = np.random.default_rng(17)
    for n in [n for n in (3, 5, 8) if _width(n) < s]:
        base = rng.standard_normal((75, n, n)).astype(np.float32)
        x = xp.asarray(base)
        if view == "every_other":
            a, v = base[::2], x[::2]
        elif view == "transposed":
            a, v = np.swapaxes(base, -1, -2), xp.matrix_transpose(x)
        else:
            a, v = base[3:40], x[3:40]
        with _Seg(client, warp, "inv", n, s):
            ai = host(xp.linalg.inv(v))
        assert _backward(a, ai, np.broadcast_to(np.eye(n), a.shape)) <= bound(n, "float32")
        b = rng.standard_normal(a.shape[:-1] + (2,)).astype(np.float32)
        with _Seg(client, warp, "solve", n, s, 2):
            xs = host(xp.linalg.solve(v, xp.asarray(b)))
        assert _backward(a, xs, b) <= bound(n, "float32")
        np.testing.assert_array_equal(host(x), base)   # the input is left as it was
