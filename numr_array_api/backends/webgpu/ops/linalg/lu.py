"""LU with partial pivoting, the solves on its factors (solve, inv) and det / slogdet's
diagonal.

Matrices up to 32 x 32 take one workgroup each (FactorSpec "lu"). Larger ones are
factored by recursion on column halves (Toledo): the left half, a triangular solve and
one GEMM update, then the right half, down to LU_LEAF-wide leaves, each factored by one
workgroup with its rows in registers (LULeafSpec) or, when taller than LU_TSLU rows, by
tournament pivoting over many workgroups (tslu.py). Each leaf's interchanges go to whole
rows of the matrix (and of the right-hand sides) right after it (LeafSwapSpec), so the
recursion itself moves no rows.
"""

from __future__ import annotations

from ....._core import dtypes as dt
from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...storage import new_output
from .batched import small_nmax
from .blas import gemm_acc, gemm_sub, swap_rows
from .dispatch import check_rows, factor_launch, grid, panel_wg, thread_grid
from .specs import LEAF_ROWS, LSWAP_KMAX, LSWAP_RPT, LSWAP_WG, LeafSwapSpec, LUDiagSpec, \
    LULeafSpec
from .trsm import neg_inv_blocks, trsm_blocked, trsm_inv


def lu(be, w, ipiv, status, rhs=None):
    """LU with partial pivoting of every (n, n) matrix of ``w`` in place (unit L below the
    diagonal, U on and above); ``ipiv`` (B, n) int32 gets LAPACK's 0-based interchanges.
    ``rhs`` (B, n, k): right-hand sides that take the interchanges too (blocked path);
    returns whether they did (else the caller permutes them)."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.lu")
    n = w.shape[-1]
    nmax = small_nmax(t, n, n, Caps.of(client))
    if nmax:
        factor_launch(client, t, "lu", nmax, w, status=status, ipiv=ipiv)
        return False
    check_rows(client, "lu", n)
    if rhs is not None and rhs.shape[2] == 0:
        rhs = None
    _lu_rec(be, client, t, w, ipiv, status, 0, (w, rhs))
    return rhs is not None


def _lu_rec(be, client, t, a, piv, status, base, top):
    """Recursive LU (Toledo) of the (B, m, nc) view ``a`` (m >= nc), whose row 0 is row
    ``base`` of the matrix: the left half, a triangular solve and one GEMM update, then
    the right half. Only LU_LEAF-wide column blocks reach a panel kernel; the bulk is GEMM
    at every level. ``top``: (the whole (B, n, n) matrix, the right-hand sides or None),
    whose rows take every leaf's interchanges at once: every column still sees the
    interchanges in order, those right of a leaf before any update reads them."""
    nc = a.shape[2]
    leaf = tuned("LU_LEAF", client)
    if nc <= leaf:
        if _lu_tslu(client, t, a, piv, status, base, leaf, top):
            return
        _lu_leaf(client, t, a, piv, status, base, leaf)
        leaf_swap(client, t, *top, piv, base, nc)
        return
    h = nc // 2
    if h > 64:
        h -= h % 32
    _lu_rec(be, client, t, a[:, :, :h], piv[:, :h], status, base, top)
    _node_update(be, client, t, a, h)
    _lu_rec(be, client, t, a[:, h:, h:], piv[:, h:], status, base + h, top)


def _node_update(be, client, t, a, h):
    """U12 = L11^-1 A12 and A22 -= L21 U12 for the (B, m, nc) node ``a`` split at column h.
    From h >= LU_TRSM_MIN: one negated copy of the left block [L11; L21], the diagonal
    blocks of L11 inverted in one batched dispatch, then two GEMMs per 64-row block
    (U12_k = L_kk^-1 A12_k into a buffer of its own; A12_rest -= L_rest,k U12_k), U12
    stored back, and the trailing GEMM reading the copies: no 64-step serial TrsmSpec per
    block and no operand copies per block. Below: trsm_blocked and gemm_sub."""
    B, m, nc = a.shape
    if h < tuned("LU_TRSM_MIN", client):
        trsm_blocked(be, a[:, :h, :h], a[:, :h, h:], lower=True, unit=True)
        gemm_sub(be, a[:, h:, :h], a[:, :h, h:], a[:, h:, h:])
        return
    nl = be.unary_kernel("negative")(a[:, :, :h])   # (B, m, h): -L11 (and U11), -L21
    x = a[:, :h, h:]
    y = new_output((B, h, nc - h), a.dtype, client)
    nb = 64
    nblk = -(-h // nb)
    d = neg_inv_blocks(be, client, t, a[:, :h, :h], nb, h // nb, h % nb, True, True,
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


def _lu_leaf(client, t, a, piv, status, base, leaf):
    """LU of a (B, m, <= leaf) panel: rows in registers (LULeafSpec) when m fits the
    workgroup's LEAF_ROWS[-1] rows per invocation, else the global-memory panel kernel."""
    B, m, nc = a.shape
    wg = panel_wg(client, t)
    rpt = next((r for r in LEAF_ROWS if r * wg >= m), None)
    if rpt is None:
        factor_launch(client, t, "lu", 0, a, status=status, ipiv=piv, pbase=base)
        return
    sg = tuned("LU_LEAF_SG", client) and Caps.of(client).subgroup
    k = client.kernel(LULeafSpec(t, wg, rpt, leaf, sg))
    k.launch(grid(B, client), A=a, ipiv=piv, st=status, m=m, nc=nc, nbat=B,
             a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], p_bs=piv.strides[0],
             pbase=base)


# Leaves of more than LU_TSLU rows take tournament pivoting over many workgroups (H100,
# 2026-11-26: 16, i.e. every leaf, against 512: solve 512 float32
# 6.64 -> 3.70x CuPy, 2048 3.60 -> 3.02x, 4096 2.73 -> 2.49x; inv 4096 2.70 -> 2.49x).
# Their kernels without wgpu's runtime checks (LINALG_TRUSTED: their indices are
# structural, see the specs' runtime_checks) and one-block leaves up to LU_TSLU_SOLO rows
# (H100, 2026-11-26, with TrsmTileSpec trusted and making its
# identity itself: solve 512 float32 3.43 -> 2.26x CuPy, 2048 2.99 -> 2.25x, solve 4096
# float64 3.33 -> 2.27x, inv 2048 float64 3.83 -> 2.52x, inv 4096 float32 2.45 -> 2.03x)


def _lu_tslu(client, t, a, piv, status, base, leaf, top):
    """LU of the (B, m, nc <= leaf) leaf ``a`` by tournament pivoting (tslu.py), its
    interchanges applied to whole rows of ``top`` = (matrix, rhs) too; False where it
    does not apply (nothing done)."""
    from .tslu import TsluSpec
    B, m, nc = a.shape
    lim = tuned("LU_TSLU", client)
    if not lim or m <= lim or nc > 32 or B == 0:
        return False
    W = 16 if leaf <= 16 else 32
    wg = 256
    caps = Caps.of(client)
    sg = tuned("LU_SG", client) and caps.subgroup
    # candidate blocks of rc rows (LU_TSLU_WG threads: smaller blocks, more workgroups,
    # more candidates), so that the final round holds at most 4 rows a thread (LU_TSLU_RC
    # / _RF: at least that many rows a thread)
    wgc = caps.wg_size(tuned("LU_TSLU_WG", client))
    rcmin, rfmin = tuned("LU_TSLU_RC", client), tuned("LU_TSLU_RF", client)
    rc = next((wgc * r for r in (1, 2, 4) if r >= rcmin and -(-m // (wgc * r)) * W <= 4 * wg),
              0)
    if not rc:
        return False
    nblk = -(-m // rc)
    rf = next(r for r in (1, 2, 4) if r >= rfmin and nblk * W <= wg * r)
    trusted = tuned("LINALG_TRUSTED", client)
    lu11 = new_output((B * W * W,), a.dtype, client)
    # leaves of at most LU_TSLU_SOLO rows (<= 4 * wgc) are one block of 1, 2 or 4 rows a
    # thread whose partial pivoting is the leaf's: it writes L11 \ U11, the interchanges
    # and the status bit itself, no final round
    solo = min(4 * wgc, tuned("LU_TSLU_SOLO", client))
    if m <= solo:
        r = next(r for r in (1, 2, 4) if wgc * r >= m)
        client.kernel(TsluSpec(t, W, wgc, r, False, sg, trusted, True)).launch(
            grid(B, client), A=a, Lu=lu11, ipiv=piv, st=status, m=m, nc=nc, nbat=B, nblk=1,
            a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], p_bs=piv.strides[0],
            pbase=base)
        _tslu_finish(client, t, a, piv, base, nc, top, lu11, W, trusted)
        return True
    cv = new_output((B * nblk * W * W,), a.dtype, client)
    ci = new_output((B * nblk * W,), dt.uint32, client)
    words = dict(m=m, nc=nc, nbat=B, nblk=nblk, a_rs=a.strides[1], a_cs=a.strides[2],
                 a_bs=a.strides[0])
    client.kernel(TsluSpec(t, W, wgc, rc // wgc, False, sg, trusted)).launch(
        grid(B * nblk, client), A=a, Cv=cv, Ci=ci, **words)
    client.kernel(TsluSpec(t, W, wg, rf, True, sg, trusted)).launch(
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


def lu_solve(be, w, ipiv, x, permuted=False):
    """x <- A^-1 x in place for the LU factors ``w`` (B, n, n) / ``ipiv`` and x (B, n, k)
    (``permuted``: the interchanges are already applied to x, see ``lu``): both
    triangles by GEMMs against inverted diagonal blocks (trsm_inv; it replaced a walk of the
    whole triangle row by row in one workgroup per right-hand side: n dependent barrier
    steps per triangle, 10.8 ms of solve 4096 on the H100)."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.solve")
    n = w.shape[-1]
    if not permuted:
        swap_rows(client, t, x, ipiv, n, 0)
    z = new_output(x.shape, x.dtype, client)
    trsm_inv(be, w, x, z, lower=True, unit=True)    # z = -(L^-1 x)
    trsm_inv(be, w, z, x, lower=False, unit=False)  # x = U^-1 L^-1 x


def lu_diag(w, ipiv, sign):
    """det (``sign`` False) or sign(det) per matrix, shape (B,)."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.det")
    B, n = w.shape[0], w.shape[-1]
    out = new_output((B,), w.dtype, client)
    if B:
        k = client.kernel(LUDiagSpec(t, sign))
        k.launch(thread_grid(B, client), A=w, ipiv=ipiv, D=out, n=n, nbat=B,
                 a_ds=w.strides[1] + w.strides[2], a_bs=w.strides[0], p_bs=ipiv.strides[0])
    return out
