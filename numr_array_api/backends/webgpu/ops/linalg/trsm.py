"""Triangular solves of the blocked factorisations.

``trsm`` solves small triangles (n <= 128) in one dispatch: TrsmTileSpec (the triangle
and 16 vectors a workgroup in workgroup memory) where it fits, else TrsmSpec (a vector an
invocation). Larger triangles are blocked: ``trsm_blocked`` (TrsmSpec diagonal blocks,
GEMM between) and ``trsm_inv`` (the diagonal blocks inverted in one batched dispatch,
then only GEMMs: no serial chain longer than a block), which lu_solve takes.
"""

from __future__ import annotations

from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...storage import new_output
from .blas import gemm_acc, gemm_sub, same_window
from .dispatch import grid, thread_grid
from .specs import TrsmSpec, TrsmTileSpec


def tile_fits(client, t, n):
    """Whether TrsmTileSpec takes triangles of n rows (n <= 64 and its tiles within the
    adapter's workgroup memory: not complex128 at WebGPU's minimum 16 KiB)."""
    return n <= 64 and (2080 + 1024) * t.itemsize <= Caps.of(client).workgroup_storage


def trsm(client, t, tri, x, lower, unit, conj, vec_axis, ident=0):
    """Solve op(tri) x = x in place: tri (B, n, n) view; x (B, n, k) view whose vectors run
    along axis 1 (``vec_axis`` 2: columns) or (B, k, n) with vectors along axis 2
    (``vec_axis`` 1: rows). ``tri`` may share x's buffer where both bind through one
    window (``same_window``: then one read-write binding serves both); never overlap x.
    ``ident`` (1 / -1, TrsmTileSpec only, x in a buffer of its own): x is not read, it
    starts as +-I (the caller checked tile_fits)."""
    B, n = tri.shape[0], tri.shape[1]
    if vec_axis == 2:
        nv, es, vs = x.shape[2], x.strides[1], x.strides[2]
    else:
        nv, es, vs = x.shape[1], x.strides[2], x.strides[1]
    if nv == 0 or n == 0 or B == 0:
        return
    nmax = (64 if n <= 64 else 128) if n <= 128 else 0
    words = dict(n=n, nv=nv, nbat=B, t_rs=tri.strides[1], t_cs=tri.strides[2],
                 t_bs=tri.strides[0], x_es=es, x_vs=vs, x_bs=x.strides[0])
    tile = tile_fits(client, t, n)
    if ident and (not tile or tri.block is x.block or vec_axis != 2):
        raise ValueError("trsm: ident needs the tile kernel and x in its own buffer")
    grid_t = grid(B * -(-nv // 16), client)
    # TrsmTileSpec without wgpu's runtime checks (its n clamped to 64 in the kernel; H100,
    # 2026-11-26, with the tournament LU's trusted kernels and
    # the identity made in the kernel)
    tr = tuned("LINALG_TRUSTED", client)
    if tri.block is x.block:
        tb, xb = tri.binding(), x.binding()
        if tb[:3] != xb[:3]:
            raise ValueError("trsm: triangle and vectors in one buffer, different windows")
        if tile:
            client.kernel(TrsmTileSpec(t, lower, unit, conj, True, tr)).launch(
                grid_t, X=x, t_off=tb[3], **words)
            return
        k = client.kernel(TrsmSpec(t, lower, unit, conj, nmax, True))
        k.launch(thread_grid(nv * B, client), X=x, t_off=tb[3], **words)
        return
    if tile:
        client.kernel(TrsmTileSpec(t, lower, unit, conj, False, tr, ident)).launch(
            grid_t, Tm=tri, X=x, **words)
        return
    k = client.kernel(TrsmSpec(t, lower, unit, conj, nmax))
    k.launch(thread_grid(nv * B, client), Tm=tri, X=x, **words)


def trsm_blocked(be, tri, x, lower, unit):
    """x <- tri^-1 x for the (B, n, n) triangle view ``tri`` and the (B, n, k) view ``x``
    (left side, columns of x independent): TRSM_NB-row diagonal blocks by ``trsm``, the
    rest of each block column by GEMM. ``tri`` may share x's buffer."""
    client = x.client
    t = wtype(x.dtype, client, "linalg.trsm")
    n = tri.shape[-1]
    nbt = min(128, tuned("TRSM_NB", client))
    starts = list(range(0, n, nbt))
    for k in (starts if lower else reversed(starts)):
        kb = min(nbt, n - k)
        d = tri[:, k:k + kb, k:k + kb]
        if d.block is x.block and not same_window(d, x):
            d = d.copy()
        trsm(client, t, d, x[:, k:k + kb], lower, unit, False, 2)
        if lower and k + kb < n:
            gemm_sub(be, tri[:, k + kb:, k:k + kb], x[:, k:k + kb], x[:, k + kb:])
        elif not lower and k:
            gemm_sub(be, tri[:, :k, k:k + kb], x[:, k:k + kb], x[:, :k])


def trsm_inv(be, tri, x, y, lower, unit):
    """y <- -(tri^-1 x) for the (B, n, n) triangle view ``tri`` (lower / upper part of the
    LU factors) and (B, n, k) ``x``, which is overwritten (it holds the updated right-hand
    sides). The diagonal blocks' negated inverses -T_kk^-1 (TRSM_INV_NB rows, at most 64:
    inverted by TrsmTileSpec where it fits) come from one batched solve against -I; then
    per block (forward for lower, backward for upper) two GEMMs: y_k = (-T_kk^-1) x_k,
    and x_rest += T_rest,k y_k. No serial chain longer than a block and no copies: tri, x
    and y are three buffers. Calling it twice (x -> y, then y -> x) gives the solve with
    its sign restored."""
    client = x.client
    t = wtype(x.dtype, client, "linalg.trsm")
    B, n, k = x.shape
    if B == 0 or n == 0 or k == 0:
        return
    nb = tuned("TRSM_INV_NB", client)
    starts = list(range(0, n, nb))
    nblk = len(starts)
    nfull = n // nb
    d = neg_inv_blocks(be, client, t, tri, nb, nfull, n - nfull * nb, lower, unit)
    for i in (range(nblk) if lower else reversed(range(nblk))):
        k0 = starts[i]
        kb = min(nb, n - k0)
        dk = d._view((B, kb, kb), (nblk * nb * nb, nb, 1), d.offset + i * nb * nb * d.itemsize)
        gemm_acc(client, t, dk, x[:, k0:k0 + kb], y[:, k0:k0 + kb], False)
        if lower and k0 + kb < n:
            gemm_acc(client, t, tri[:, k0 + kb:, k0:k0 + kb], y[:, k0:k0 + kb],
                     x[:, k0 + kb:], True)
        elif not lower and k0:
            gemm_acc(client, t, tri[:, :k0, k0:k0 + kb], y[:, k0:k0 + kb], x[:, :k0], True)


def neg_inv_blocks(be, client, t, tri, nb, nfull, rem, lower, unit, neg=True):
    """(B * nblk, nb, nb) contiguous: -T_kk^-1 (``neg``, else T_kk^-1) of every diagonal
    block of ``tri`` (the last, of ``rem`` rows, in the top-left corner of its slot).
    TrsmTileSpec starts from +-I itself where it fits (no identity made, negated and
    copied: three dispatches fewer a call; the slots beyond a short last block stay
    unwritten, only their kb x kb corner is read); else TrsmSpec solves against a copied
    -I (I). A dispatch per block over the stack, or per matrix over its blocks, whichever
    is fewer."""
    B = tri.shape[0]
    nblk = nfull + (1 if rem else 0)
    dtype = tri.dtype
    ident = tile_fits(client, t, nb)
    sgn = (-1 if neg else 1) if ident else 0
    if ident:
        d = new_output((B * nblk, nb, nb), dtype, client)
    else:
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
                 False, 2, sgn)
        return d
    for b in range(B):  # a dispatch per matrix, over its blocks
        tb = tri[b:b + 1]
        db = d[b * nblk:(b + 1) * nblk]
        if nfull:
            tv = tb._view((nfull, nb, nb), (nb * (rs + cs), rs, cs))
            trsm(client, t, tv, db[:nfull], lower, unit, False, 2, sgn)
        if rem:
            o = nfull * nb
            trsm(client, t, tb[:, o:, o:], db[nfull:, :rem, :rem], lower, unit, False, 2,
                 sgn)
    return d
