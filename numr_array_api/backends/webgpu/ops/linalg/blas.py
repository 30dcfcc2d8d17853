"""The BLAS-like pieces of the blocked factorisations: GEMM updates into views of the
working stack, and row interchanges.

WebGPU forbids one buffer bound read-only and writable in one dispatch, so operands of a
trailing update that live in the updated buffer itself are copied first (O(n * NB) per
step against the GEMM's O(n^2 * NB)).
"""

from __future__ import annotations

from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...primitives.slabs import MAX_BOX_ELEMS
from ...storage import new_output
from ..matmul.gemm import _launch, _panels
from .dispatch import grid, thread_grid
from .specs import PERM_MAPN, PERM_RPT, PERM_WG, NegCopySpec, PermSpec, SwapSpec


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


def neg_copy(client, t, a, b):
    """(-a, b) as contiguous copies of the (B, r, c) views ``a`` and ``b``, one dispatch."""
    B = a.shape[0]
    na = new_output(a.shape, a.dtype, client)
    bb = new_output(b.shape, b.dtype, client)
    total = max(a.size, b.size)
    if total == 0:
        return na, bb
    k = client.kernel(NegCopySpec(t))
    k.launch(thread_grid(total, client, 256), Sa=a, Sb=b, N=na, Pc=bb, nbat=B,
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
    if b.block is c.block:
        na, bb = neg_copy(client, t, a, b)
    else:
        na = be.unary_kernel("negative")(a)
        bb = b
    gemm_acc(client, t, na, bb, c)


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
    """Rows i <-> ipiv[i] - pbase (i < kb, in order) of the (B, rows, nc) view ``a``:
    PermSpec (the permutation mapped in workgroup memory, then gathered) where the rows
    and the interchanges fit its map, else SwapSpec (the interchanges in order, a column
    an invocation)."""
    B, m, nc = a.shape
    if nc == 0 or B == 0 or kb == 0:
        return
    slots = m if 2 * kb > m else 2 * kb
    cap = PERM_WG * PERM_RPT
    if m <= PERM_MAPN and slots <= cap and \
            Caps.of(client).workgroup_storage >= 8 * PERM_MAPN:
        cw = min(nc, cap // slots)
        ncb = -(-nc // cw)
        k = client.kernel(PermSpec(t))
        k.launch(grid(B * ncb, client), A=a, ipiv=ipiv, m=m, nc=nc, nbat=B, kb=kb, ncb=ncb,
                 cw=cw, a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0],
                 p_bs=ipiv.strides[0], pbase=pbase)
        return
    k = client.kernel(SwapSpec(t))
    k.launch(thread_grid(nc * B, client), A=a, ipiv=ipiv, nc=nc, nbat=B, kb=kb,
             a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], p_bs=ipiv.strides[0],
             pbase=pbase)
