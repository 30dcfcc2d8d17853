"""Stacks of small matrices in one dispatch: solve / inv / cholesky / qr.

Which kernel takes a stacked call, from the smallest matrices up (knobs in brackets):

* a subgroup a matrix, or a segment of one (warp.py, warp_seg.py: real types where the
  adapter runs one fixed subgroup size) [BWARP*];
* one invocation a matrix, [A | B] in registers (BatchTinySpec) [BTINY_N*];
* a row of [A | B] per invocation (BatchRowsSpec, batch_rows.py) [BROWS];
* a workgroup of several matrices in workgroup memory (BatchSolveSpec, BatchCholSpec)
  [BSOLVE_MAX];
* a workgroup per matrix in workgroup memory (FactorSpec "lus" / "qrq" / "chol" /
  "lu"): ``small_path``, which the blocked drivers take for matrices up to 32 x 32.

A failed factorisation ors a bit into the status word, read once by mixin.py.
"""

from __future__ import annotations

from ....._core import dtypes as dt
from .....tuning.registry import epoch, get as tuned
from ...codegen.caps import Caps
from ...codegen.types import wtype
from . import warp
from .batch_rows import (NMAX as ROWS_NMAX, WG as ROWS_WG, BatchRowsSpec, rows_per_matrix,
                         tiny_n)
from .dispatch import grid, thread_grid
from .specs import (SMALL, BatchCholSpec, BatchSolveSpec, BatchTinySpec, FactorSpec,
                    small_wg)

WRONG_SUBGROUP = warp.WRONG_SUBGROUP


def batch_route(client, kind, dtype, n, k=0):
    """(key, nmax, sg) of a stacked solve / inv (``kind`` "solve", k right-hand sides) or
    cholesky ("chol") call: the tuning epoch (a key of the call's recipe, so a process
    comparing variants replays each under its own), the batched kernel's nmax and the
    warp kernel's subgroup size (0: not). Memoised per client on the epoch and the warp
    path's state (its subgroup size, its fallback): a repeated small call skips the
    decisions. May probe the subgroup size once: call it outside recorded work."""
    ep = epoch()
    own = vars(client)
    memo = own.get("_batch_routes")
    if memo is None or len(memo) > 512:
        memo = client._batch_routes = {}
    key = (kind, dtype, n, k, ep, own.get("_bwarp_sg"), own.get("_bwarp_off"))
    r = memo.get(key)
    if r is None:
        if kind == "chol":
            r = (ep, batch_chol_nmax(n), warp.chol_sg(client, dtype, n))
        else:
            r = (ep, batch_solve_nmax(client, dtype, n, k), warp.solve_sg(client, dtype, n, k))
        memo[key] = r
    return r


def small_nmax(t, m, n, caps):
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
    return small_nmax(t, w.shape[1], w.shape[2], Caps.of(w.client)) > 0


def lu_solve_small(w, ipiv, x, status, ident):
    """LU of every matrix of ``w`` and A^-1 x into ``x`` (B, n, k) in one dispatch;
    ``ident``: x is written only, the right-hand sides being the identity's columns."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.solve")
    B, n, _ = w.shape
    nmax = small_nmax(t, n, n, Caps.of(client))
    k = client.kernel(FactorSpec(t, "lus", nmax, small_wg(nmax)))
    k.launch(grid(B, client), A=w, ipiv=ipiv, X=x, st=status, m=n, nc=n, nbat=B,
             a_rs=w.strides[1], a_cs=w.strides[2], a_bs=w.strides[0], p_bs=ipiv.strides[0],
             pbase=0, kx=x.shape[2], x_rs=x.strides[1], x_cs=x.strides[2],
             x_bs=x.strides[0], ident=int(ident))


def qr_small(w, tau, q):
    """QR of every matrix of ``w`` (R and reflectors in place) and the first qc columns of
    Q into ``q`` (B, m, qc), in one dispatch."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.qr")
    B, m, n = w.shape
    nmax = small_nmax(t, m, n, Caps.of(client))
    k = client.kernel(FactorSpec(t, "qrq", nmax, small_wg(nmax)))
    k.launch(grid(B, client), A=w, tau_=tau, Q=q, m=m, nc=n, nbat=B, a_rs=w.strides[1],
             a_cs=w.strides[2], a_bs=w.strides[0], tau_bs=tau.strides[0], qc=q.shape[2],
             q_rs=q.strides[1], q_bs=q.strides[0])


def batch_solve_nmax(client, dtype, n, k):
    """nmax of the stacked solve for (n, n) systems with k right-hand sides, or 0 (a
    workgroup per matrix: small_path, or blocked)."""
    nmax = next((s for s in SMALL if n <= s), 0)
    if rows_kernel(client, dtype, n, k):
        return max(nmax, 16)
    # H100: rows per invocation win up to 16 x 16; at 32 x 32 the workgroup-per-matrix
    # kernel (FactorSpec "lus") was faster for inv (2.1 vs 5.8 ms for 10000 matrices)
    if nmax > tuned("BSOLVE_MAX", client):
        return 0
    return nmax if nmax and k <= nmax else 0


def rows_kernel(client, dtype, n, k):
    """Whether BatchRowsSpec (batch_rows.py) takes (n, n) systems with k right-hand sides:
    up to 32 x 32 and 32 of them while a row stays within 72 registers (BROWS; off on CPU
    adapters, where llvmpipe compiles its straight-line code across 2n barriers for
    minutes at 24 x 24 and beyond: coroutine frames)."""
    # registers: 32-bit words of the row [A | B] within 72 (H100: float64 32 x 32 inv,
    # 128 words, ran 2.3 ms against CuPy's 0.9 and compiled for 9 s)
    return (n <= ROWS_NMAX and k <= ROWS_NMAX and tuned("BROWS", client)
            and (n + k) * dtype.itemsize // 4 <= 72
            and (dtype is not dt.float64 or Caps.of(client).int64))  # (its NaN test)


def batch_solve(a, b, x, status, nmax, sg=None):
    """x (B, n, k) <- a^-1 b for every matrix of the (B, n, n) view ``a`` (b None: the
    identity, k = n), one dispatch (``sg``: the warp kernel compiled for subgroups of sg;
    0: not; None: as warp.solve_sg decides); a and b are only read."""
    client = x.client
    t = wtype(x.dtype, client, "linalg.solve")
    B, n, k = x.shape
    if sg is None:
        sg = warp.solve_sg(client, x.dtype, n, k)
    if sg:
        warp.solve(t, a, b, x, status, sg)
        return
    # one invocation a matrix, [A | B] in registers: H100 2026-11-26, float32 16 x 16
    # solve of 10000 matrices 0.049 ms against 0.495 for the rows-per-invocation kernel
    # (inv 0.200 against 0.392); wider elements keep 8 (twice the registers: not measured)
    tiny = tiny_n(client, x.dtype)
    bv = a if b is None else b
    words = dict(nbat=B, a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0],
                 b_rs=bv.strides[1], b_cs=bv.strides[2], b_bs=bv.strides[0],
                 x_rs=x.strides[1], x_cs=x.strides[2], x_bs=x.strides[0])
    if n <= tiny and k <= tiny:
        client.kernel(BatchTinySpec(t, n, k, b is None)).launch(
            thread_grid(B, client), A=a, Bm=bv, X=x, st=status, **words)
        return
    if rows_kernel(client, x.dtype, n, k):
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
    """nmax of BatchCholSpec for n x n matrices, or 0 (blocked)."""
    return next((s for s in SMALL if n <= s), 0)


def batch_cholesky(a, out, status, nmax, upper, sg=None):
    """out (B, n, n) <- L (or L^H) of every matrix of the (B, n, n) view ``a`` (only read),
    one dispatch (``sg``: the warp kernel for subgroups of sg; 0: not; None: as
    warp.chol_sg decides)."""
    client = out.client
    t = wtype(out.dtype, client, "linalg.cholesky")
    B, n, _ = out.shape
    if sg is None:
        sg = warp.chol_sg(client, out.dtype, n)
    if sg:
        warp.cholesky(t, a, out, status, upper, sg)
        return
    wg = max(64, nmax)
    per = wg // nmax
    kern = client.kernel(BatchCholSpec(t, nmax, wg))
    kern.launch(grid(-(-B // per), client), A=a, L=out, st=status, m=n, nbat=B,
                upper=int(upper), a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0],
                l_rs=out.strides[1], l_bs=out.strides[0])
