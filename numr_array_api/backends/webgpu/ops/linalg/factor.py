"""Factorisation drivers: small matrices in one dispatch, large ones blocked.

Every routine works in place on a contiguous working stack ``w`` of shape (B, M, N) that
the caller owns (a copy of the input), so views of it can be handed to the kernels and to
the tiled GEMM. Small matrices (both sides <= 32 and workgroup memory permitting) take
one FactorSpec dispatch for the whole batch, one workgroup per matrix. Larger ones are
right-looking blocked algorithms: a panel kernel on global memory for NB columns, then the
trailing matrix through the GEMM of ops/matmul (accumulating ``C += (-A) @ B``), with the
small triangular solves of TrsmSpec and the row interchanges of SwapSpec around it.

WebGPU forbids one buffer bound read-only and writable in one dispatch, so operands of the
trailing update that live in ``w`` itself are copied first (O(n * NB) per step against the
GEMM's O(n^2 * NB)).
"""

from __future__ import annotations

from ...runtime.adapters import is_cpu
from ....._core import dtypes as dt
from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...codegen.wgmem import spec_fits
from ...kernels.fill import full
from ...primitives.slabs import MAX_BOX_ELEMS
from ...runtime.switches import snapshot, switch as _env
from ...storage import new_output
from ..matmul.gemm import _launch, _panels, gemm
from . import qr_loop, qr_wide, warp
from .batch_rows import NMAX as ROWS_NMAX, WG as ROWS_WG, BatchRowsSpec, rows_per_matrix
from .chol_regs import regs_spec
from .pow2 import pow2_normalise
from .specs import (LEAF_ROWS, BatchCholSpec, BatchSolveSpec, BatchTinySpec, PANEL, QR_PANEL, SMALL, CholPanelSpec, FactorSpec, LarftSpec,
                    LULeafSpec, LUDiagSpec, LUPanelSpec, NegCopySpec, TrsmTileSpec, TrsvSpec, QrTSpec, QrVSpec, PERM_MAPN, PERM_RPT, PERM_WG, PermSpec,
                    LSWAP_KMAX, LSWAP_RPT, LSWAP_WG, LeafSwapSpec,
                    SwapSpec, TrsmSpec, small_wg)

NB = PANEL


_BATCH_SWITCHES = ("BSOLVE", "BTINY", "BTINY_N", "BROWS", "BCHOL", "BCHOL_UNROLL",
                   "BWARP", "BWARP_MIN", "BWARP_MAX", "BWARP_CHOL_MIN", "BWARP_CHOL_MAX",
                   "BWARP_S", "BWARP_WG", "BWARP_INV", "BWARP_SEL", "BWARP_INV_MIN",
                   "BWARP_SEG", "BWARP_SEG_MIN", "BWARP_SEG_MAX", "BWARP_STAGE",
                   "BWARP_SSTAGE")

# subgroup-per-matrix kernels (warp.py): solve / inv / cholesky of stacks of small real
# matrices where the adapter runs one fixed subgroup size S >= n. NUMR_WEBGPU_BWARP=0 turns
# them off; NUMR_WEBGPU_BWARP_MIN / _MAX (solve, inv: default BTINY_N + 1 .. min(S, 32)) and
# NUMR_WEBGPU_BWARP_CHOL_MIN / _CHOL_MAX (default 2 .. min(S, 32)) set the sizes they take;
# NUMR_WEBGPU_BWARP_WG the invocations of a workgroup (default 128: 128 / S matrices);
# NUMR_WEBGPU_BWARP_INV=lu: inv by elimination on [A | I] and back substitution instead of
# in-place Gauss-Jordan (gj, default); NUMR_WEBGPU_BWARP_SEL=0: masked updates inside ifs
# instead of selects. Segments (warp_seg.py: S / w matrices a subgroup, w the power of two
# >= n) take solve / inv of 2 <= n <= BTINY_N by default, ahead of BatchTinySpec;
# NUMR_WEBGPU_BWARP_SEG=0 turns them off, =all segments the warp range's n too,
# NUMR_WEBGPU_BWARP_SEG_MIN / _SEG_MAX move their range; NUMR_WEBGPU_BWARP_SSTAGE=0 / 1:
# segments load A (and store X of inv) directly / through workgroup memory (default: inv
# of 5+ rows on GPUs).
WRONG_SUBGROUP = warp.WRONG_SUBGROUP


def warp_solve_sg(client, dtype, n, k):
    """S when the warp kernel takes (n, n) systems with k right-hand sides, else 0 (may
    probe the subgroup size once per client: call it outside recorded work)."""
    return warp.solve_sg(client, dtype, n, k)


def warp_chol_sg(client, dtype, n):
    return warp.chol_sg(client, dtype, n)


def warp_disable(client):
    """A warp kernel saw another subgroup size than it was compiled for (status bit
    WRONG_SUBGROUP): the client takes the workgroup kernels from now on."""
    warp.disable(client)


def batch_switches():
    """The batched kernels' tuning variants (raw values), a key of their call recipes
    (mixin.py): a process comparing variants replays each under its own."""
    return snapshot(_BATCH_SWITCHES)


def batch_route(client, kind, dtype, n, k=0):
    """(switches, nmax, sg) of a stacked solve / inv (``kind`` "solve", k right-hand
    sides) or cholesky ("chol") call: batch_switches() (the recipe key), the batched
    kernel's nmax and the warp kernel's subgroup size (0: not). Memoised per client on the
    switches and the warp path's state (its subgroup size, its fallback), so a repeated
    small call skips the ~30 switch lookups deciding them (H100: ~15 us of a ~0.2 ms
    call). May probe the subgroup size once: call it outside recorded work."""
    sw = batch_switches()
    own = vars(client)
    memo = own.get("_batch_routes")
    if memo is None or len(memo) > 512:
        memo = client._batch_routes = {}
    key = (kind, dtype, n, k, sw, own.get("_bwarp_sg"), own.get("_bwarp_off"))
    r = memo.get(key)
    if r is None:
        if kind == "chol":
            r = (sw, batch_chol_nmax(n), warp_chol_sg(client, dtype, n))
        else:
            r = (sw, batch_solve_nmax(client, dtype, n, k), warp_solve_sg(client, dtype, n, k))
        memo[key] = r
    return r


def grid(n, client):
    """(gx, gy, 1) covering ``n`` workgroups (2-D beyond the per-dimension limit)."""
    mg = client.max_groups
    gx = max(1, min(n, mg))
    return gx, max(1, -(-n // gx)), 1


def status_word(client):
    return full((1,), 0, dt.uint32, client)


def _small_nmax(t, m, n, kind, caps):
    """Workgroup-memory capacity for an m x n matrix, or 0 when it takes the blocked path."""
    for nmax in SMALL:
        if m <= nmax and n <= nmax:
            wg = small_wg(nmax)
            nbytes = (nmax * nmax + 2 * nmax + wg) * t.itemsize + wg * 8 + 64
            return nmax if nbytes <= caps.workgroup_storage else 0
    return 0


def small_path(w):
    """Whether the (B, m, n) stack ``w`` takes the one-dispatch path."""
    t = wtype(w.dtype, w.client, "linalg")
    return _small_nmax(t, w.shape[1], w.shape[2], "", Caps.of(w.client)) > 0


def lu_solve_small(w, ipiv, x, status, ident):
    """LU of every matrix of ``w`` and A^-1 x into ``x`` (B, n, k) in one dispatch;
    ``ident``: x is written only, the right-hand sides being the identity's columns."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.solve")
    B, n, _ = w.shape
    nmax = _small_nmax(t, n, n, "lus", Caps.of(client))
    k = client.kernel(FactorSpec(t, "lus", nmax, small_wg(nmax)))
    k.launch(grid(B, client), A=w, ipiv=ipiv, X=x, st=status, m=n, nc=n, nbat=B,
             a_rs=w.strides[1], a_cs=w.strides[2], a_bs=w.strides[0], p_bs=ipiv.strides[0],
             pbase=0, kx=x.shape[2], x_rs=x.strides[1], x_cs=x.strides[2],
             x_bs=x.strides[0], ident=int(ident))


def batch_solve_nmax(client, dtype, n, k):
    """nmax of BatchSolveSpec for (n, n) systems with k right-hand sides, or 0 (old path)."""
    mode = _env("BSOLVE", "rows16")
    if mode == "old":
        return 0
    nmax = next((s for s in SMALL if n <= s), 0)
    if _rows_kernel(client, dtype, n, k):
        return max(nmax, 16)
    # H100: rows per invocation win up to 16 x 16; at 32 x 32 the workgroup-per-matrix
    # kernel (FactorSpec "lus") was faster for inv (2.1 vs 5.8 ms for 10000 matrices)
    if mode == "rows16" and nmax > 16:
        return 0
    return nmax if nmax and k <= nmax else 0


def _rows_kernel(client, dtype, n, k):
    """Whether BatchRowsSpec (batch_rows.py) takes (n, n) systems with k right-hand sides:
    up to 32 x 32 and 32 of them while a row stays within 72 registers, on GPU adapters
    (llvmpipe compiles its straight-line code across 2n barriers for minutes at 24 x 24
    and beyond: coroutine frames). NUMR_WEBGPU_BROWS=0 turns it off, =all takes it on
    any adapter."""
    mode = _env("BROWS", "1")
    # registers: 32-bit words of the row [A | B] within 72 (H100: float64 32 x 32 inv,
    # 128 words, ran 2.3 ms against CuPy's 0.9 and compiled for 9 s)
    return (n <= ROWS_NMAX and k <= ROWS_NMAX and mode != "0"
            and (n + k) * dtype.itemsize // 4 <= 72
            and (mode == "all" or not is_cpu(client.info))
            and (dtype is not dt.float64 or Caps.of(client).int64))  # (its NaN test)


def batch_solve(a, b, x, status, nmax, sg=None):
    """x (B, n, k) <- a^-1 b for every matrix of the (B, n, n) view ``a`` (b None: the
    identity, k = n), one BatchSolveSpec dispatch (``sg``: the warp kernel compiled for
    subgroups of sg; 0: not; None: as warp_solve_sg decides); a and b are only read."""
    client = x.client
    t = wtype(x.dtype, client, "linalg.solve")
    B, n, k = x.shape
    if sg is None:
        sg = warp_solve_sg(client, x.dtype, n, k)
    if sg:
        warp.solve(t, a, b, x, status, sg)
        return
    # one invocation a matrix, [A | B] in registers: H100 2026-11-26, float32 16 x 16
    # solve of 10000 matrices 0.049 ms against 0.495 for the rows-per-invocation kernel
    # (inv 0.200 against 0.392); wider elements keep 8 (twice the registers: not measured)
    tiny = int(_env("BTINY_N", "16" if t.val == "f32" else "8"))
    bv = a if b is None else b
    words = dict(nbat=B, a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0],
                 b_rs=bv.strides[1], b_cs=bv.strides[2], b_bs=bv.strides[0],
                 x_rs=x.strides[1], x_cs=x.strides[2], x_bs=x.strides[0])
    if n <= tiny and k <= tiny and _env("BTINY", "1") != "0":
        client.kernel(BatchTinySpec(t, n, k, b is None)).launch(
            _thread_grid(B, client), A=a, Bm=bv, X=x, st=status, **words)
        return
    if _rows_kernel(client, x.dtype, n, k):
        client.kernel(BatchRowsSpec(t, n, k, b is None)).launch(
            grid(-(-B // (ROWS_WG // rows_per_matrix(n))), client), A=a, Bm=bv, X=x,
            st=status, **words)
        return
    wg = max(64, nmax)
    per = wg // nmax
    kcap = 1
    while kcap < k:
        kcap *= 2
    client.kernel(BatchSolveSpec(t, nmax, kcap, wg)).launch(
        grid(-(-B // per), client), A=a, Bm=bv, X=x, st=status, m=n, kx=k,
        ident=int(b is None), **words)


def batch_chol_nmax(n):
    if _env("BCHOL", "rows") == "old":
        return 0
    return next((s for s in SMALL if n <= s), 0)


def batch_cholesky(a, out, status, nmax, upper, sg=None):
    """out (B, n, n) <- L (or L^H) of every matrix of the (B, n, n) view ``a`` (only read),
    one BatchCholSpec dispatch (``sg``: the warp kernel for subgroups of sg; 0: not;
    None: as warp_chol_sg decides)."""
    client = out.client
    t = wtype(out.dtype, client, "linalg.cholesky")
    B, n, _ = out.shape
    if sg is None:
        sg = warp_chol_sg(client, out.dtype, n)
    if sg:
        warp.cholesky(t, a, out, status, upper, sg)
        return
    wg = max(64, nmax)
    per = wg // nmax
    kern = client.kernel(BatchCholSpec(t, nmax, wg, _env("BCHOL_UNROLL", "1") != "0"))
    kern.launch(grid(-(-B // per), client), A=a, L=out, st=status, m=n, nbat=B,
                upper=int(upper), a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0],
                l_rs=out.strides[1], l_bs=out.strides[0])


def qr_small(w, tau, q):
    """QR of every matrix of ``w`` (R and reflectors in place) and the first qc columns of
    Q into ``q`` (B, m, qc), in one dispatch."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.qr")
    B, m, n = w.shape
    nmax = _small_nmax(t, m, n, "qrq", Caps.of(client))
    k = client.kernel(FactorSpec(t, "qrq", nmax, small_wg(nmax)))
    k.launch(grid(B, client), A=w, tau_=tau, Q=q, m=m, nc=n, nbat=B, a_rs=w.strides[1],
             a_cs=w.strides[2], a_bs=w.strides[0], tau_bs=tau.strides[0], qc=q.shape[2],
             q_rs=q.strides[1], q_bs=q.strides[0])


def _factor_launch(client, t, kind, nmax, w, status=None, ipiv=None, tau=None, pbase=0):
    """One FactorSpec dispatch over every matrix of the (B, m, nc) view ``w``."""
    wg = small_wg(nmax) if nmax else panel_wg(client, t)
    k = client.kernel(FactorSpec(t, kind, nmax, wg))
    B, m, nc = w.shape
    args = dict(A=w, m=m, nc=nc, nbat=B, a_rs=w.strides[1], a_cs=w.strides[2],
                a_bs=w.strides[0])
    if kind == "lu":
        args.update(ipiv=ipiv, p_bs=ipiv.strides[0], pbase=pbase, st=status)
    elif kind == "qr":
        args.update(tau_=tau, tau_bs=tau.strides[0])
    else:
        args.update(st=status)
    k.launch(grid(B, client), **args)


def panel_wg(client, t):
    """Threads of a global-memory panel workgroup: the panel loops are latency bound, so
    GPUs get as many warps in flight as one workgroup holds (up to 1024, as far as the
    per-thread reduction slots fit workgroup memory); CPU adapters, whose barriers cost in
    proportion to the invocations, 256."""
    caps = Caps.of(client)
    force = int(_env("PANEL_WG", 0))
    if is_cpu(client.info) and not force:
        return 256
    wg = caps.wg_size(force or 1024)
    while wg > 256 and wg * (t.itemsize + 8) + 4096 > caps.workgroup_storage:
        wg //= 2
    return wg


def _thread_grid(n, client, wg=64):
    return grid(-(-n // wg), client)


def _tile_fits(client, t, n):
    return _env("TRSM", "tile") == "tile" and n <= 64 and (2080 + 1024) * t.itemsize <= \
        Caps.of(client).workgroup_storage


def trsm(client, t, tri, x, lower, unit, conj, vec_axis, ident=0):
    """Solve op(tri) x = x in place: tri (B, n, n) view; x (B, n, k) view whose vectors run
    along axis 1 (``vec_axis`` 2: columns) or (B, k, n) with vectors along axis 2
    (``vec_axis`` 1: rows). ``tri`` may share x's buffer where both bind through one
    window (``same_window``: then one read-write binding serves both); never overlap x."""
    B, n = tri.shape[0], tri.shape[1]
    if vec_axis == 2:
        nv, es, vs = x.shape[2], x.strides[1], x.strides[2]
    else:
        nv, es, vs = x.shape[1], x.strides[2], x.strides[1]
    if nv == 0 or n == 0 or B == 0:
        return
    mode = _env("TRSM", "tile")
    local = mode != "old" and n <= 128
    nmax = (64 if n <= 64 else 128) if local else 0
    words = dict(n=n, nv=nv, nbat=B, t_rs=tri.strides[1], t_cs=tri.strides[2],
                 t_bs=tri.strides[0], x_es=es, x_vs=vs, x_bs=x.strides[0])
    tile = _tile_fits(client, t, n)
    # ident (1 / -1, TrsmTileSpec only, x in a buffer of its own): x is not read, it
    # starts as +-I (the caller checked _tile_fits)
    if ident and (not tile or tri.block is x.block or vec_axis != 2):
        raise ValueError("trsm: ident needs the tile kernel and x in its own buffer")
    grid_t = grid(B * -(-nv // 16), client)
    # TrsmTileSpec without wgpu's runtime checks (its n clamped to 64 in the kernel; H100,
    # benchmarks/gpu/runs/2026-11-26-36.sh, with the three switches below); NUMR_WEBGPU_TRSM_TRUSTED=0:
    # checked
    tr = _env("TRSM_TRUSTED", "1") != "0"
    if tri.block is x.block:
        tb, xb = tri.binding(), x.binding()
        if tb[:3] != xb[:3]:
            raise ValueError("trsm: triangle and vectors in one buffer, different windows")
        if tile:
            client.kernel(TrsmTileSpec(t, lower, unit, conj, True, tr)).launch(
                grid_t, X=x, t_off=tb[3], **words)
            return
        k = client.kernel(TrsmSpec(t, lower, unit, conj, nmax, True))
        k.launch(_thread_grid(nv * B, client), X=x, t_off=tb[3], **words)
        return
    if tile:
        client.kernel(TrsmTileSpec(t, lower, unit, conj, False, tr, ident)).launch(
            grid_t, Tm=tri, X=x, **words)
        return
    k = client.kernel(TrsmSpec(t, lower, unit, conj, nmax))
    k.launch(_thread_grid(nv * B, client), Tm=tri, X=x, **words)


def same_window(a, b):
    """Whether views ``a`` and ``b`` of one buffer bind through the same window (one
    binding can then serve both)."""
    if a.block is not b.block:
        return False
    try:
        return a.binding()[:3] == b.binding()[:3]
    except Exception:
        return False


def swap_rows(client, t, a, ipiv, kb, pbase):
    """Rows i <-> ipiv[i] - pbase (i < kb, in order) of the (B, rows, nc) view ``a``."""
    B, m, nc = a.shape
    if nc == 0 or B == 0 or kb == 0:
        return
    slots = m if 2 * kb > m else 2 * kb
    cap = PERM_WG * PERM_RPT
    if _env("SWAP", "perm") != "old" and m <= PERM_MAPN and slots <= cap and \
            Caps.of(client).workgroup_storage >= 8 * PERM_MAPN:
        cw = min(nc, cap // slots)
        ncb = -(-nc // cw)
        k = client.kernel(PermSpec(t))
        k.launch(grid(B * ncb, client), A=a, ipiv=ipiv, m=m, nc=nc, nbat=B, kb=kb, ncb=ncb,
                 cw=cw, a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0],
                 p_bs=ipiv.strides[0], pbase=pbase)
        return
    k = client.kernel(SwapSpec(t))
    k.launch(_thread_grid(nc * B, client), A=a, ipiv=ipiv, nc=nc, nbat=B, kb=kb,
             a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], p_bs=ipiv.strides[0],
             pbase=pbase)


def neg_copy(client, t, a, b):
    """(-a, b) as contiguous copies of the (B, r, c) views ``a`` and ``b``, one dispatch."""
    B = a.shape[0]
    na = new_output(a.shape, a.dtype, client)
    bb = new_output(b.shape, b.dtype, client)
    total = max(a.size, b.size)
    if total == 0:
        return na, bb
    k = client.kernel(NegCopySpec(t))
    k.launch(_thread_grid(total, client, 256), Sa=a, Sb=b, N=na, Pc=bb, nbat=B,
             ar=a.shape[1], ac=a.shape[2], a_rs=a.strides[1], a_cs=a.strides[2],
             a_bs=a.strides[0], br=b.shape[1], bc=b.shape[2], b_rs=b.strides[1],
             b_cs=b.strides[2], b_bs=b.strides[0])
    return na, bb


def gemm_sub(be, a, b, c):
    """c -= a @ b for (B, m, k) / (B, k, n) views; c's rows contiguous; a and b may share
    c's buffer (they are negated / copied first)."""
    client = c.client
    if c.size == 0 or a.shape[-1] == 0:
        return
    t = wtype(c.dtype, client, "matmul")
    if b.block is c.block and _env("GEMM_PREP", "1") != "0":
        na, bb = neg_copy(client, t, a, b)
    else:
        na = be.unary_kernel("negative")(a)
        bb = b.copy() if b.block is c.block else b
    gemm_acc(client, t, na, bb, c)


# ---- Cholesky ------------------------------------------------------------------------------

CHOL_NB = 64     # the fused panel's diagonal block (NUMR_WEBGPU_CHOL_NB)
CHOL_SPLIT = 2   # column pieces of the trailing update, lower part only (NUMR_WEBGPU_CHOL_SPLIT)
CHOL_WG = 512    # panel workgroup (NUMR_WEBGPU_CHOL_WG; the adapter's limit still applies)
CHOL_TR = 32     # rows of A21 a register panel's workgroup takes (NUMR_WEBGPU_CHOL_TR)
# H100 2026-11-26 (benchmarks/gpu/runs/2026-11-26-15.sh): 4096 float32 15.1 -> 11.2 ms, float64
# 20.0 -> 15.1 ms with 512 threads and 2 pieces (from 256 and 4); 512 / 2048 faster too


def cholesky(be, w, status):
    """Lower Cholesky factor in the lower triangle of every (n, n) matrix of ``w``."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.cholesky")
    n = w.shape[-1]
    nmax = _small_nmax(t, n, n, "chol", Caps.of(client))
    if nmax:
        _factor_launch(client, t, "chol", nmax, w, status=status)
        return
    if _env("CHOL", "fused") == "old":
        _cholesky_old(be, client, t, w, status)
        return
    _cholesky_fused(be, client, t, w, status)


def _chol_nb(t, client):
    """The widest diagonal block (a power of two <= NUMR_WEBGPU_CHOL_NB) whose packed lower
    triangle fits workgroup memory."""
    nb = max(8, int(_env("CHOL_NB", CHOL_NB)))
    cap = Caps.of(client).workgroup_storage - 256
    while nb > 8 and nb * (nb + 1) // 2 * t.itemsize > cap:
        nb //= 2
    return nb


def _chol_panel(client, t, nb):
    """The panel spec of a step: CholRegsSpec where it fits (NUMR_WEBGPU_CHOL_TR: its rows
    a workgroup; NUMR_WEBGPU_CHOL_STAGE=1: Pt written through workgroup memory), else and
    with NUMR_WEBGPU_CHOL_PANEL=old CholPanelSpec. H100, benchmarks/gpu/runs/2026-11-27-20.sh: the panel
    80 -> 28 us (float32, 64 columns), cholesky 512 2.96x -> 1.91x CuPy (STAGE=0; 2.15x with
    STAGE=1)."""
    caps = Caps.of(client)
    trusted = _env("CHOL_TRUSTED", "1") != "0"
    if _env("CHOL_PANEL", "regs") == "regs":
        # CPU adapters' barriers cost in proportion to the invocations (panel_wg)
        want = int(_env("CHOL_WG", 256 if is_cpu(client.info) else CHOL_WG))
        spec = regs_spec(t, nb, caps.wg_size(want), int(_env("CHOL_TR", CHOL_TR)), caps,
                         trusted, _env("CHOL_STAGE", "0") != "0")
        if spec is not None:
            return spec
    wg = caps.wg_size(int(_env("CHOL_WG", CHOL_WG)))
    tr = 0
    if _env("CHOL_ROWS", "tile") == "tile":
        tr = next((r for r in (32, 16, 8) if spec_fits(CholPanelSpec(t, nb, wg, r), caps)), 0)
    return CholPanelSpec(t, nb, wg, tr, trusted)


def _cholesky_fused(be, client, t, w, status):
    """Right-looking blocked Cholesky, two dispatches a step: the panel (_chol_panel:
    diagonal block and the rows below it) and the GEMM update of the trailing lower
    triangle, in
    ``CHOL_SPLIT`` column pieces (the upper part is never computed)."""
    B, n, _ = w.shape
    nb = _chol_nb(t, client)
    spec = _chol_panel(client, t, nb)
    tr = spec.tr
    k_panel = client.kernel(spec)
    mx = max(1, n - nb)
    nbuf = new_output((B * mx * nb,), w.dtype, client)
    pbuf = new_output((B * mx * nb,), w.dtype, client)
    dbuf = new_output((B * 2 * nb * nb,), w.dtype, client)
    split = max(1, int(_env("CHOL_SPLIT", CHOL_SPLIT)))
    o = 0  # size of the previous diagonal block still in dbuf
    for step, k in enumerate(range(0, n, nb)):
        kb = min(nb, n - k)
        m2 = n - k - kb
        nblk = max(1, -(-m2 // (tr or spec.wg)))
        d = w[:, k - o:, k - o:]
        k_panel.launch(grid(B * nblk, client), A=d, st=status, Nn=nbuf, Pt=pbuf, D=dbuf,
                       kb=kb, m2=m2, nbat=B, nblk=nblk, a_rs=d.strides[1],
                       a_cs=d.strides[2], a_bs=d.strides[0], n_bs=m2 * kb, p_bs=m2 * kb,
                       o=o, par=step % 2, d_bs=2 * nb * nb)
        o = kb if nblk > 1 else 0
        if m2 == 0:
            break
        na = nbuf._view((B, m2, kb), (m2 * kb, kb, 1))
        pt = pbuf._view((B, kb, m2), (m2 * kb, m2, 1))
        c = w[:, k + kb:, k + kb:]
        pieces = min(split, max(1, m2 // 256))
        cuts = [m2 * i // pieces for i in range(pieces + 1)]
        if pieces > 1:  # keep piece edges on 64-column boundaries (whole GEMM tiles)
            cuts = [0] + [x - x % 64 for x in cuts[1:-1]] + [m2]
        for c0, c1 in zip(cuts[:-1], cuts[1:]):
            if c1 > c0:
                gemm_acc(client, t, na[:, c0:], pt[:, :, c0:c1], c[:, c0:, c0:c1])


def gemm_acc(client, t, a, b, c, acc=True):
    """c += a @ b (``acc`` False: c = a @ b, k > 0) for (B, m, k) / (B, k, n) views in
    buffers other than c's."""
    if c.size == 0 or a.shape[-1] == 0:
        return
    if all(v.size <= MAX_BOX_ELEMS and v.fits_binding() for v in (a, b, c)):
        _launch(client, t, t, a, b, c, None, acc)
        return
    for i in range(c.shape[0]):
        _panels(client, t, t, a[i], b[i], c[i], None, acc)


def _cholesky_old(be, client, t, w, status):
    n = w.shape[-1]
    for k in range(0, n, NB):
        kb = min(NB, n - k)
        _factor_launch(client, t, "chol", 0, w[:, k:k + kb, k:k + kb], status=status)
        if k + kb == n:
            break
        l11 = w[:, k:k + kb, k:k + kb].copy()
        a21 = w[:, k + kb:, k:k + kb]
        # rows of A21 solve X L11^H = A21, i.e. conj(L11) x = a for each row a
        trsm(client, t, l11, a21, lower=True, unit=False, conj=True, vec_axis=1)
        a21c = a21.copy()
        a21h = (be.unary_kernel("conj")(a21c) if w.dtype.kind == "c" else a21c).permute(
            (0, 2, 1))
        gemm_sub(be, a21c, a21h, w[:, k + kb:, k + kb:])


# ---- LU ------------------------------------------------------------------------------------

LEAF = 16  # widest column block the LU panel kernel factorises (recursion below it): the
           # panel's rank-1 updates are latency bound in one workgroup, GEMM is not


def lu(be, w, ipiv, status, rhs=None):
    """LU with partial pivoting of every (n, n) matrix of ``w`` in place (unit L below the
    diagonal, U on and above); ``ipiv`` (B, n) int32 gets LAPACK's 0-based interchanges.
    ``rhs`` (B, n, k): right-hand sides that take the interchanges too where the leaves
    apply them to whole rows; returns whether they did (else the caller permutes them)."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.lu")
    n = w.shape[-1]
    nmax = _small_nmax(t, n, n, "lu", Caps.of(client))
    if nmax:
        _factor_launch(client, t, "lu", nmax, w, status=status, ipiv=ipiv)
        return False
    _check_rows(client, "lu", n)
    eager = _eager_swaps()
    if rhs is not None and (not eager or rhs.shape[2] == 0):
        rhs = None
    _lu_rec(be, client, t, w, ipiv, status, 0, (w, rhs) if eager else None)
    return rhs is not None


def _check_rows(client, what, m):
    """CPU adapters (lavapipe) silently end a loop after 65535 iterations per invocation,
    counted over all its entries; the panel kernels loop about 2 * m / 256 * 256 times
    per thread over a panel of m rows: refuse what could reach that."""
    if m > 30000 and is_cpu(client.info):
        from ....._core.errors import BackendLimitation
        raise BackendLimitation("webgpu", f"linalg {what} of matrices with {m} rows on a "
                                "CPU adapter", "lavapipe stops loops beyond 65535 "
                                "iterations; the panel kernel could exceed that")


def _eager_swaps():
    """NUMR_WEBGPU_LU_SWAP: "leaf" (default) applies each leaf's interchanges to whole rows
    right after the leaf (LeafSwapSpec, one dispatch a leaf); "node" applies them per
    recursion node to half-blocks (PermSpec / SwapSpec, two dispatches a node; H100
    2026-11-26: 9.9 ms of solve 4096 float32, serial replays of up to n / 2 interchanges
    in every workgroup)."""
    return _env("LU_SWAP", "leaf") != "node"


def _lu_rec(be, client, t, a, piv, status, base, top=None):
    """Recursive LU (Toledo) of the (B, m, nc) view ``a`` (m >= nc), whose row 0 is row
    ``base`` of the matrix: the left half, its interchanges applied to the right half, a
    triangular solve and one GEMM update, then the right half, whose interchanges go back
    to the left half. Only LEAF-wide column blocks reach the one-workgroup panel kernel;
    the bulk is GEMM at every level. ``top``: the whole (B, n, n) matrix, whose rows take
    every leaf's interchanges at once (``_eager_swaps``; the recursion then swaps nothing:
    every column still sees the interchanges in order, those right of a leaf before any
    update reads them)."""
    nc = a.shape[2]
    leaf = int(_env("LU_LEAF", LEAF))
    if nc <= leaf:
        if top is not None and _lu_tslu(be, client, t, a, piv, status, base, leaf, top):
            return
        _lu_leaf(client, t, a, piv, status, base, leaf)
        if top is not None:
            leaf_swap(client, t, *top, piv, base, nc)
        return
    pnb = int(_env("LU_PANEL", LU_PANEL))
    if nc <= pnb and _lu_panel(client, t, a, piv, status, base, pnb):
        if top is not None:
            leaf_swap(client, t, *top, piv, base, nc)
        return
    h = nc // 2
    if h > 64:
        h -= h % 32
    _lu_rec(be, client, t, a[:, :, :h], piv[:, :h], status, base, top)
    if top is None:
        swap_rows(client, t, a[:, :, h:], piv[:, :h], h, base)
    _node_update(be, client, t, a, h)
    _lu_rec(be, client, t, a[:, h:, h:], piv[:, h:], status, base + h, top)
    if top is None:
        swap_rows(client, t, a[:, h:, :h], piv[:, h:], nc - h, base + h)


LU_TRSM_MIN = 128  # left halves from which _node_update solves by inverted blocks


def _node_update(be, client, t, a, h):
    """U12 = L11^-1 A12 and A22 -= L21 U12 for the (B, m, nc) node ``a`` split at column h.
    NUMR_WEBGPU_LU_TRSM "inv" (default, for h >= NUMR_WEBGPU_LU_TRSM_MIN): one negated
    copy of the left block [L11; L21], the diagonal blocks of L11 inverted in one batched
    dispatch, then two GEMMs per 64-row block (U12_k = L_kk^-1 A12_k into a buffer of its
    own; A12_rest -= L_rest,k U12_k), U12 stored back, and the trailing GEMM reading the
    copies: no 64-step serial TrsmSpec per block and no operand copies per block. "tile":
    trsm_blocked (TrsmSpec diagonal blocks, a NegCopy + GEMM per block) and gemm_sub."""
    B, m, nc = a.shape
    if _env("LU_TRSM", "inv") != "inv" or h < int(_env("LU_TRSM_MIN", LU_TRSM_MIN)):
        trsm_blocked(be, a[:, :h, :h], a[:, :h, h:], lower=True, unit=True)
        gemm_sub(be, a[:, h:, :h], a[:, :h, h:], a[:, h:, h:])
        return
    nl = be.unary_kernel("negative")(a[:, :, :h])   # (B, m, h): -L11 (and U11), -L21
    x = a[:, :h, h:]
    y = new_output((B, h, nc - h), a.dtype, client)
    nb = 64
    nblk = -(-h // nb)
    d = _neg_inv_blocks(be, client, t, a[:, :h, :h], nb, h // nb, h % nb, True, True,
                        neg=False)
    for i in range(nblk):
        k0 = i * nb
        kb = min(nb, h - k0)
        dk = d._view((B, kb, kb), (nblk * nb * nb, nb, 1),
                     d.offset + i * nb * nb * d.itemsize)
        gemm_acc(client, t, dk, x[:, k0:k0 + kb], y[:, k0:k0 + kb], False)
        if k0 + kb < h:
            gemm_acc(client, t, nl[:, k0 + kb:h, k0:k0 + kb], y[:, k0:k0 + kb],
                              x[:, k0 + kb:], True)
    be.store(x, y)
    gemm_acc(client, t, nl[:, h:, :], y, a[:, h:, h:])


def leaf_swap(client, t, top, rhs, piv, base, kb, skip=True):
    """The interchanges ``piv[:, :kb]`` (rows base + i <-> piv) of a leaf whose columns are
    [base, base + kb) applied to every other column of the (B, n, n) matrix ``top`` (every
    column when not ``skip``) and to the rows of ``rhs`` (B, n, k) if given."""
    B, n, ncol = top.shape
    sw = kb if skip else 0
    nc = ncol - sw
    kx = 0 if rhs is None else rhs.shape[2]
    if nc + kx == 0 or B == 0 or kb == 0:
        return
    if kb > LSWAP_KMAX:
        if skip:
            swap_rows(client, t, top[:, base:, :base], piv[:, :kb], kb, base)
            swap_rows(client, t, top[:, base:, base + kb:], piv[:, :kb], kb, base)
        else:
            swap_rows(client, t, top[:, base:, :], piv[:, :kb], kb, base)
        if kx:
            swap_rows(client, t, rhs[:, base:, :], piv[:, :kb], kb, base)
        return
    a = top[:, base:, :]
    cw = max(1, LSWAP_WG * LSWAP_RPT // (2 * kb))
    ncb = -(-(nc + kx) // cw)
    args = dict(A=a, ipiv=piv, nc=nc, nbat=B, kb=kb, ncb=ncb, cw=cw, s0=base if skip else ncol,
                sw=sw, a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0],
                p_bs=piv.strides[0], pbase=base)
    if kx:
        x = rhs[:, base:, :]
        args.update(X=x, kx=kx, x_rs=x.strides[1], x_cs=x.strides[2], x_bs=x.strides[0])
    client.kernel(LeafSwapSpec(t, bool(kx))).launch(grid(B * ncb, client), **args)


LU_PANEL = 0   # widest panel LUPanelSpec factorises in one dispatch (NUMR_WEBGPU_LU_PANEL;
               # H100 2026-11-26: 64 -> 0 took solve 4096 float32 from 126 to 82 ms: the
               # 64-column panel's rows spill out of registers, the 16-column leaves do not;
               # 0: recursion down to LEAF columns)


def _lu_panel(client, t, a, piv, status, base, nb):
    """LU of a (B, m, nc <= nb) panel in one LUPanelSpec dispatch; False where its rows
    do not fit the registers of one workgroup."""
    B, m, nc = a.shape
    wg = panel_wg(client, t)
    rpt = next((r for r in LEAF_ROWS if r * wg >= m), None)
    if rpt is None or wg < 16:
        return False
    caps = Caps.of(client)
    sg = _env("LU_SG", "1") != "0" and caps.subgroup
    spec = LUPanelSpec(t, wg, rpt, nb, sg)
    # measured from the rendered source (the estimate LUPanelSpec.shared_bytes missed the
    # subgroup scratch: 16768 bytes for complex128 at 16 KiB on NVIDIA)
    if not spec_fits(spec, caps):
        spec = LUPanelSpec(t, wg, rpt, 32, sg)
        if nc > 32 or not spec_fits(spec, caps):
            return False
    k = client.kernel(spec)
    k.launch(grid(B, client), A=a, ipiv=piv, st=status, m=m, nc=nc, nbat=B,
             a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], p_bs=piv.strides[0],
             pbase=base)
    return True


def _lu_leaf(client, t, a, piv, status, base, leaf=LEAF):
    """LU of a (B, m, <= LEAF) panel: rows in registers (LULeafSpec) when m fits the
    workgroup's LEAF_ROWS[-1] rows per invocation, else the global-memory panel kernel."""
    B, m, nc = a.shape
    wg = panel_wg(client, t)
    rpt = next((r for r in LEAF_ROWS if r * wg >= m), None)
    if rpt is None:
        _factor_launch(client, t, "lu", 0, a, status=status, ipiv=piv, pbase=base)
        return
    # NUMR_WEBGPU_LU_LEAF_SG=0: the pivot search as a log2(wg)-barrier tree
    sg = _env("LU_LEAF_SG", "1") != "0" and Caps.of(client).subgroup
    k = client.kernel(LULeafSpec(t, wg, rpt, leaf, sg))
    k.launch(grid(B, client), A=a, ipiv=piv, st=status, m=m, nc=nc, nbat=B,
             a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], p_bs=piv.strides[0],
             pbase=base)


# leaves with more rows take tournament pivoting over many workgroups (H100,
# benchmarks/gpu/runs/2026-11-26-32.sh: 16, i.e. every leaf, against 512: solve 512 float32
# 6.64 -> 3.70x CuPy, 2048 3.60 -> 3.02x, 4096 2.73 -> 2.49x; inv 4096 2.70 -> 2.49x)
TSLU_ROWS = 16   # (NUMR_WEBGPU_LU_TSLU; 0: never): tslu.py


def _lu_tslu(be, client, t, a, piv, status, base, leaf, top):
    """LU of the (B, m, nc <= leaf) leaf ``a`` by tournament pivoting (tslu.py), its
    interchanges applied to whole rows of ``top`` = (matrix, rhs) too; False where it
    does not apply (nothing done)."""
    B, m, nc = a.shape
    env = _env("LU_TSLU", None)
    lim = int(env if env is not None else TSLU_ROWS)
    # CPU adapters: off unless asked (llvmpipe compiles the unrolled kernels for seconds)
    if not lim or m <= lim or nc > 32 or B == 0 or (env is None and is_cpu(client.info)):
        return False
    W = 16 if leaf <= 16 else 32
    wg = 256
    caps = Caps.of(client)
    sg = _env("LU_SG", "1") != "0" and caps.subgroup
    # candidate blocks of rc rows (NUMR_WEBGPU_LU_TSLU_WG threads, 64..256: smaller blocks,
    # more workgroups, more candidates), so that the final round holds at most 4 rows a
    # thread (NUMR_WEBGPU_LU_TSLU_RC / _RF: at least that many rows a thread, for tests)
    wgc = caps.wg_size(max(64, min(256, int(_env("LU_TSLU_WG", 256)))))
    rcmin, rfmin = int(_env("LU_TSLU_RC", 1)), int(_env("LU_TSLU_RF", 1))
    rc = next((wgc * r for r in (1, 2, 4) if r >= rcmin and -(-m // (wgc * r)) * W <= 4 * wg),
              0)
    if not rc:
        return False
    nblk = -(-m // rc)
    rf = next(r for r in (1, 2, 4) if r >= rfmin and nblk * W <= wg * r)
    from .tslu import TsluSpec
    db = _env("LU_TSLU_DB", "1") != "0"  # 0: a third barrier closing every column step
    # NUMR_WEBGPU_LU_TSLU_PREG=1: the final round's interchanges by an unrolled register
    # recurrence instead of invocation 0 walking a dictionary in private arrays;
    # LU_TSLU_TRUSTED=1: the three tournament kernels without wgpu's runtime checks
    # (their indices are structural, see the specs' runtime_checks; implies PREG)
    # (defaults from the H100, benchmarks/gpu/runs/2026-11-26-36.sh: TRUSTED, SOLO=1024, TRSM_TRUSTED and
    # TRSM_IDENT together took solve 512 float32 3.43 -> 2.26x CuPy, 2048 2.99 -> 2.25x,
    # solve 4096 float64 3.33 -> 2.27x, inv 2048 float64 3.83 -> 2.52x, inv 4096 float32
    # 2.45 -> 2.03x)
    trusted = _env("LU_TSLU_TRUSTED", "1") != "0"
    preg = trusted or _env("LU_TSLU_PREG", "0") == "1"
    lu11 = new_output((B * W * W,), a.dtype, client)
    # NUMR_WEBGPU_LU_TSLU_SOLO: leaves of at most this many rows (<= 4 * wgc) are one
    # block of 1, 2 or 4 rows a thread whose partial pivoting is the leaf's: it writes
    # L11 \ U11, the interchanges and the status bit itself, no final round (0: never)
    solo = min(4 * wgc, int(_env("LU_TSLU_SOLO", 1024)))
    if m <= solo:
        r = next(r for r in (1, 2, 4) if wgc * r >= m)
        client.kernel(TsluSpec(t, W, wgc, r, False, sg, db, True, trusted, True)).launch(
            grid(B, client), A=a, Lu=lu11, ipiv=piv, st=status, m=m, nc=nc, nbat=B, nblk=1,
            a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], p_bs=piv.strides[0],
            pbase=base)
        _tslu_finish(client, t, a, piv, base, nc, top, lu11, W, trusted)
        return True
    cv = new_output((B * nblk * W * W,), a.dtype, client)
    ci = new_output((B * nblk * W,), dt.uint32, client)
    words = dict(m=m, nc=nc, nbat=B, nblk=nblk, a_rs=a.strides[1], a_cs=a.strides[2],
                 a_bs=a.strides[0])
    client.kernel(TsluSpec(t, W, wgc, rc // wgc, False, sg, db, False, trusted)).launch(
        grid(B * nblk, client), A=a, Cv=cv, Ci=ci, **words)
    client.kernel(TsluSpec(t, W, wg, rf, True, sg, db, preg, trusted)).launch(
        grid(B, client), Cv=cv, Ci=ci, Lu=lu11, ipiv=piv, st=status, rc=rc,
        p_bs=piv.strides[0], pbase=base, **words)
    _tslu_finish(client, t, a, piv, base, nc, top, lu11, W, trusted)
    return True


def _tslu_finish(client, t, a, piv, base, nc, top, lu11, W, trusted):
    """A tournament leaf's interchanges applied to whole rows, then L11 \\ U11 and
    L21 = A21 U11^-1 into the leaf (TsluApplySpec)."""
    from .tslu import TsluApplySpec
    B, m = a.shape[0], a.shape[1]
    leaf_swap(client, t, *top, piv, base, nc, skip=False)
    nrb = -(-m // 256)
    client.kernel(TsluApplySpec(t, W, trusted=trusted)).launch(
        grid(B * nrb, client), A=a, Lu=lu11, m=m, nc=nc, nbat=B, nrb=nrb,
        a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0])


def trsm_blocked(be, tri, x, lower, unit):
    """x <- tri^-1 x for the (B, n, n) triangle view ``tri`` and the (B, n, k) view ``x``
    (left side, columns of x independent): NB x NB diagonal blocks by TrsmSpec, the rest
    of each block column by GEMM. ``tri`` may share x's buffer."""
    client = x.client
    t = wtype(x.dtype, client, "linalg.trsm")
    n = tri.shape[-1]
    nbt = min(128, int(_env("TRSM_NB", NB)))
    starts = list(range(0, n, nbt))
    for k in (starts if lower else reversed(starts)):
        kb = min(nbt, n - k)
        d = tri[:, k:k + kb, k:k + kb]
        if d.block is x.block and (_env("TRSM_SAME", "1") == "0" or not same_window(d, x)):
            d = d.copy()
        trsm(client, t, d, x[:, k:k + kb], lower, unit, False, 2)
        if lower and k + kb < n:
            gemm_sub(be, tri[:, k + kb:, k:k + kb], x[:, k:k + kb], x[:, k + kb:])
        elif not lower and k:
            gemm_sub(be, tri[:, :k, k:k + kb], x[:, k:k + kb], x[:, :k])


def lu_solve(be, w, ipiv, x, permuted=False):
    """x <- A^-1 x in place for the LU factors ``w`` (B, n, n) / ``ipiv`` and x (B, n, k)
    (``permuted``: the interchanges are already applied to x, see ``lu``)."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.solve")
    n = w.shape[-1]
    if not permuted:
        swap_rows(client, t, x, ipiv, n, 0)
    if _env("TRSM_INV", "1") != "0":
        # both triangles by GEMMs against inverted diagonal blocks (TrsvSpec walked the
        # whole triangle row by row in one workgroup per right-hand side: n dependent
        # barrier steps per triangle, 10.8 ms of solve 4096 on the H100)
        z = new_output(x.shape, x.dtype, client)
        trsm_inv(be, w, x, z, lower=True, unit=True)    # z = -(L^-1 x)
        trsm_inv(be, w, z, x, lower=False, unit=False)  # x = U^-1 L^-1 x
        return
    if not (trsv(client, t, w, x, True, True) and trsv(client, t, w, x, False, False)):
        trsm_blocked(be, w, x, lower=True, unit=True)
        trsm_blocked(be, w, x, lower=False, unit=False)


TRSM_INV_NB = 64  # diagonal block of trsm_inv (NUMR_WEBGPU_TRSM_INV_NB; at most 64: the
                  # blocks are inverted by TrsmTileSpec)


def trsm_inv(be, tri, x, y, lower, unit):
    """y <- -(tri^-1 x) for the (B, n, n) triangle view ``tri`` (lower / upper part of the
    LU factors) and (B, n, k) ``x``, which is overwritten (it holds the updated right-hand
    sides). The diagonal blocks' negated inverses -T_kk^-1 come from one batched TrsmSpec
    solve against -I; then per block (forward for lower, backward for upper) two GEMMs:
    y_k = (-T_kk^-1) x_k, and x_rest += T_rest,k y_k. No serial chain longer than a block
    and no copies: tri, x and y are three buffers. Calling it twice (x -> y, then y -> x)
    gives the solve with its sign restored."""
    client = x.client
    t = wtype(x.dtype, client, "linalg.trsm")
    B, n, k = x.shape
    if B == 0 or n == 0 or k == 0:
        return
    nb = max(8, min(64, int(_env("TRSM_INV_NB", TRSM_INV_NB))))
    starts = list(range(0, n, nb))
    nblk = len(starts)
    nfull = n // nb
    d = _neg_inv_blocks(be, client, t, tri, nb, nfull, n - nfull * nb, lower, unit)
    for i in (range(nblk) if lower else reversed(range(nblk))):
        k0 = starts[i]
        kb = min(nb, n - k0)
        dk = d._view((B, kb, kb), (nblk * nb * nb, nb, 1), d.offset + i * nb * nb * d.itemsize)
        gemm_acc(client, t, dk, x[:, k0:k0 + kb], y[:, k0:k0 + kb], False)
        if lower and k0 + kb < n:
            gemm_acc(client, t, tri[:, k0 + kb:, k0:k0 + kb], y[:, k0:k0 + kb],
                              x[:, k0 + kb:], True)
        elif not lower and k0:
            gemm_acc(client, t, tri[:, :k0, k0:k0 + kb], y[:, k0:k0 + kb],
                              x[:, :k0], True)


def _neg_inv_blocks(be, client, t, tri, nb, nfull, rem, lower, unit, neg=True):
    """(B * nblk, nb, nb) contiguous: -T_kk^-1 (``neg``, else T_kk^-1) of every diagonal
    block of ``tri`` (the last, of ``rem`` rows, in the top-left corner of its slot), by
    TrsmSpec against -I (I)."""
    B = tri.shape[0]
    nblk = nfull + (1 if rem else 0)
    dtype = tri.dtype
    # NUMR_WEBGPU_TRSM_IDENT=1: TrsmTileSpec starts from +-I itself (no eye, negative and
    # broadcast copy: three dispatches fewer per call); d's slots beyond a short last
    # block stay unwritten (only their kb x kb corner is read)
    ident = _env("TRSM_IDENT", "1") != "0" and _tile_fits(client, t, nb)
    if ident:
        d = new_output((B * nblk, nb, nb), dtype, client)
    else:
        d = None
    sgn = -1 if neg else 1
    rs, cs = tri.strides[1], tri.strides[2]
    if d is not None and B > nfull:
        dv = d._view((B, nblk, nb, nb), (nblk * nb * nb, nb * nb, nb, 1))
        for i in range(nblk):
            o = i * nb
            kb = min(nb, tri.shape[1] - o)
            trsm(client, t, tri[:, o:o + kb, o:o + kb], dv[:, i, :kb, :kb], lower, unit,
                 False, 2, sgn)
        return d
    if d is not None:
        for b in range(B):
            tb = tri[b:b + 1]
            db = d[b * nblk:(b + 1) * nblk]
            if nfull:
                tv = tb._view((nfull, nb, nb), (nb * (rs + cs), rs, cs))
                trsm(client, t, tv, db[:nfull], lower, unit, False, 2, sgn)
            if rem:
                o = nfull * nb
                trsm(client, t, tb[:, o:, o:], db[nfull:, :rem, :rem], lower, unit, False,
                     2, sgn)
        return d
    eye = be.eye(nb, nb, 0, dtype, be.device_of(tri))
    if neg:
        eye = be.unary_kernel("negative")(eye)
    d = eye.broadcast_to((B * nblk, nb, nb)).copy()
    rs, cs = tri.strides[1], tri.strides[2]
    if B > nfull:  # a dispatch per block, over the stack
        dv = d._view((B, nblk, nb, nb), (nblk * nb * nb, nb * nb, nb, 1))
        for i in range(nblk):
            o = i * nb
            kb = min(nb, tri.shape[1] - o)
            trsm(client, t, tri[:, o:o + kb, o:o + kb], dv[:, i, :kb, :kb], lower, unit,
                 False, 2)
        return d
    for b in range(B):  # a dispatch per matrix, over its blocks
        tb = tri[b:b + 1]
        db = d[b * nblk:(b + 1) * nblk]
        if nfull:
            tv = tb._view((nfull, nb, nb), (nb * (rs + cs), rs, cs))
            trsm(client, t, tv, db[:nfull], lower, unit, False, 2)
        if rem:
            o = nfull * nb
            trsm(client, t, tb[:, o:, o:], db[nfull:, :rem, :rem], lower, unit, False, 2)
    return d


TRSV_K = 256  # right-hand sides up to which solve substitutes in one dispatch (TrsvSpec)


def trsv(client, t, tri, x, lower, unit):
    """x <- op(tri)^-1 x by TrsvSpec (one dispatch, a workgroup per right-hand side) when
    there are at most TRSV_K of them (NUMR_WEBGPU_TRSV_K; 0: never) and the vector fits
    workgroup memory; False otherwise (nothing done)."""
    B, n, k = x.shape
    if k > int(_env("TRSV_K", TRSV_K)) or B * k == 0 or n == 0:
        return False
    cap = Caps.of(client).workgroup_storage
    nmaxn = next((s for s in (256, 1024, 2048, 4096, 8192) if s >= n), 0)
    if not nmaxn or nmaxn * t.itemsize > cap:
        return False
    kern = client.kernel(TrsvSpec(t, lower, unit, nmaxn))
    kern.launch(grid(B * k, client), Tm=tri, X=x, n=n, kx=k, nbat=B, t_rs=tri.strides[1],
                t_cs=tri.strides[2], t_bs=tri.strides[0], x_rs=x.strides[1],
                x_cs=x.strides[2], x_bs=x.strides[0])
    return True


def lu_diag(w, ipiv, sign):
    """det (``sign`` False) or sign(det) per matrix, shape (B,)."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.det")
    B, n = w.shape[0], w.shape[-1]
    out = new_output((B,), w.dtype, client)
    if B:
        k = client.kernel(LUDiagSpec(t, sign))
        k.launch(_thread_grid(B, client), A=w, ipiv=ipiv, D=out, n=n, nbat=B,
                 a_ds=w.strides[1] + w.strides[2], a_bs=w.strides[0], p_bs=ipiv.strides[0])
    return out


# ---- QR ------------------------------------------------------------------------------------

def _block_reflector(be, panel, tau):
    """(V, T) of the (B, m, kb) panel view holding reflectors below its diagonal: V with
    its unit diagonal and zeros above made explicit, T from G = V^H V (LarftSpec)."""
    client = panel.client
    t = wtype(panel.dtype, client, "linalg.qr")
    B, m, kb = panel.shape
    eye = be.eye(m, kb, 0, panel.dtype, be.device_of(panel))
    v = be.binary_kernel("add")(be.tri(panel, -1, False), eye)
    vh = _ct(be, v)
    g = gemm(vh, v)
    tm = new_output((B, kb, kb), panel.dtype, client)
    k = client.kernel(LarftSpec(t))
    k.launch(grid(B, client), G=g, tau=tau, Tm=tm, kb=kb, nbat=B, tau_bs=tau.strides[0])
    return v, vh, tm


def _ct(be, x):
    """The conjugate transpose of the last two axes (a copy for complex, else a view)."""
    if x.dtype.kind == "c":
        x = be.unary_kernel("conj")(x)
    return x.permute((0, 2, 1))


def qr(be, w, tau):
    """Householder QR of every (m, n) matrix of ``w`` in place: R on and above the
    diagonal, the reflectors below; ``tau`` (B, min(m, n)). Returns the block reflectors
    for ``form_q``."""
    if _env("QR", "wy") == "old":
        return _qr_old(be, w, tau)
    client = w.client
    t = wtype(w.dtype, client, "linalg.qr")
    B, m, n = w.shape
    kmin = min(m, n)
    _check_rows(client, "qr", m)
    kt = QrTSpec(t, QR_PANEL)
    width = QR_PANEL
    if not spec_fits(kt, Caps.of(client)):
        # T of a 32-column complex128 panel is 16 KiB: WebGPU's minimum workgroup memory
        kt, width = QrTSpec(t, 16), 16
    wide = _qr_wide(client, t, w.dtype, B, m)
    loops = _QrLoops(client, t, w.dtype, B)
    scale = pow2_normalise(be, w) if wide is not None or loops.max else None
    blocks = []
    for k in range(0, kmin, width):
        kb = min(width, kmin - k)
        mk = m - k
        panel = w[:, k:, k:k + kb]
        tv = tau[:, k:k + kb]
        if lp := loops.get(mk):
            lp.factor(panel, tv)
        elif wide is not None and mk >= wide.min_rows:
            wide.factor(panel, tv)
        else:
            _factor_launch(client, t, "qr", 0, panel, tau=tv)
        v = new_output((B, mk, kb), w.dtype, client)
        vh = new_output((B, kb, mk), w.dtype, client)
        client.kernel(QrVSpec(t)).launch(
            _thread_grid(B * mk * kb, client, 256), Pn=panel, V=v, VH=vh, m=mk, kb=kb,
            nbat=B, p_rs=panel.strides[1], p_cs=panel.strides[2], p_bs=panel.strides[0])
        g = gemm(vh, v)
        y1 = new_output((B, kb, mk), w.dtype, client)
        y2 = new_output((B, kb, mk), w.dtype, client)
        nblk = -(-mk // kt.rows)
        client.kernel(kt).launch(grid(B * nblk, client), G=g, tau=tv, V=v, Y1=y1, Y2=y2,
                                 m=mk, kb=kb, nbat=B, nblk=nblk, tau_bs=tv.strides[0])
        if k + kb < n:
            # C <- (I - V T V^H)^H C = C + V (-(V T)^H C)
            c = w[:, k:, k + kb:]
            gemm_acc(client, t, v, gemm(y1, c), c)
        blocks.append((k, v, None, y2))
    if scale is not None:
        # R back to the input's scale (the reflectors below the diagonal, already copied
        # into the blocks, are not read again)
        be.store(w, be.binary_kernel("divide")(w, scale))
    return blocks


def _qr_wide(client, t, dtype, B, m):
    """The many-workgroup panel (qr_wide.py) for this call, or None: switched off
    (NUMR_WEBGPU_QR_WIDE=0, or NUMR_WEBGPU_QR_PANEL=one), no panel tall enough, or more
    matrices or row blocks than one grid dimension holds."""
    mg = client.max_groups
    if not qr_wide.enabled() or _env("QR_PANEL", "") == "one" or m < qr_wide.min_rows(t) \
            or B > mg:
        return None
    spec = qr_wide.spec(t, m)
    if -(-m // (qr_wide.NS * spec.rpt)) > mg or not spec_fits(spec, Caps.of(client)):
        return None
    return qr_wide.WidePanel(client, spec, dtype, B, m)


class _QrLoops:
    """The looped panel kernels of one qr call (qr_loop.loop_spec), one per rows per
    thread, for panels of at most qr_loop.loop_max(t) rows."""

    def __init__(self, client, t, dtype, B):
        ok = qr_wide.enabled() and _env("QR_PANEL", "") != "one" and B <= client.max_groups
        self.max = qr_loop.loop_max(t) if ok else 0
        self.client, self.t, self.dtype, self.B = client, t, dtype, B
        self.panels = {}

    def get(self, mk):
        spec = qr_loop.loop_spec(self.t, mk)
        if mk > min(self.max, spec.rows):
            return None
        if spec.rpt not in self.panels:
            fits = spec_fits(spec, Caps.of(self.client))
            self.panels[spec.rpt] = qr_wide.WidePanel(
                self.client, spec, self.dtype, self.B, spec.rows) if fits else None
        return self.panels[spec.rpt]


def _qr_old(be, w, tau):
    client = w.client
    t = wtype(w.dtype, client, "linalg.qr")
    _, m, n = w.shape
    kmin = min(m, n)
    _check_rows(client, "qr", m)
    blocks = []
    for k in range(0, kmin, QR_PANEL):
        kb = min(QR_PANEL, kmin - k)
        panel = w[:, k:, k:k + kb]
        _factor_launch(client, t, "qr", 0, panel, tau=tau[:, k:k + kb])
        v, vh, tm = _block_reflector(be, panel, tau[:, k:k + kb])
        blocks.append((k, v, vh, tm))
        if k + kb < n:
            # C <- (I - V T V^H)^H C = C - V (T^H (V^H C))
            c = w[:, k:, k + kb:]
            gemm_sub(be, v, gemm(_ct(be, tm), gemm(vh, c)), c)
    return blocks


def form_q(be, blocks, q):
    """q (B, m, qc), set to the first qc columns of the identity by the caller, becomes
    the first qc columns of Q = (I - V_0 T_0 V_0^H) (I - V_1 T_1 V_1^H) ..."""
    client = q.client
    t = wtype(q.dtype, client, "linalg.qr")
    for k, v, vh, tm in reversed(blocks):
        c = q[:, k:, k:]
        if not c.shape[2]:
            continue
        if vh is None:  # tm: -(T V^H), from QrTSpec
            gemm_acc(client, t, v, gemm(tm, c), c)
        else:
            gemm_sub(be, v, gemm(tm, gemm(vh, c)), c)
