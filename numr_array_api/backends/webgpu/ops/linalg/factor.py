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

from ....._core import dtypes as dt
from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...kernels.fill import full
from ...primitives.slabs import MAX_BOX_ELEMS
from ...storage import new_output
from ..matmul.gemm import _launch, _panels
from .specs import (PANEL, SMALL, ApplyHSpec, FactorSpec, LUDiagSpec, SwapSpec, TrsmSpec,
                    small_wg)

NB = PANEL


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
            nbytes = nmax * nmax * t.itemsize + wg * 8 + 2 * nmax * t.itemsize + 64
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
    wg = small_wg(nmax) if nmax else 256
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


def _thread_grid(n, client, wg=64):
    return grid(-(-n // wg), client)


def trsm(client, t, tri, x, lower, unit, conj, vec_axis):
    """Solve op(tri) x = x in place: tri (B, n, n) view; x (B, n, k) view whose vectors run
    along axis 1 (``vec_axis`` 2: columns) or (B, k, n) with vectors along axis 2
    (``vec_axis`` 1: rows). ``tri`` must not share a buffer with ``x``."""
    B, n = tri.shape[0], tri.shape[1]
    if vec_axis == 2:
        nv, es, vs = x.shape[2], x.strides[1], x.strides[2]
    else:
        nv, es, vs = x.shape[1], x.strides[2], x.strides[1]
    if nv == 0 or n == 0 or B == 0:
        return
    k = client.kernel(TrsmSpec(t, lower, unit, conj))
    k.launch(_thread_grid(nv * B, client), Tm=tri, X=x, n=n, nv=nv, nbat=B,
             t_rs=tri.strides[1], t_cs=tri.strides[2], t_bs=tri.strides[0], x_es=es,
             x_vs=vs, x_bs=x.strides[0])


def swap_rows(client, t, a, ipiv, kb, pbase):
    """Rows i <-> ipiv[i] - pbase (i < kb, in order) of the (B, rows, nc) view ``a``."""
    B, _, nc = a.shape
    if nc == 0 or B == 0 or kb == 0:
        return
    k = client.kernel(SwapSpec(t))
    k.launch(_thread_grid(nc * B, client), A=a, ipiv=ipiv, nc=nc, nbat=B, kb=kb,
             a_rs=a.strides[1], a_cs=a.strides[2], a_bs=a.strides[0], p_bs=ipiv.strides[0],
             pbase=pbase)


def gemm_sub(be, a, b, c):
    """c -= a @ b for (B, m, k) / (B, k, n) views; c's rows contiguous; a and b may share
    c's buffer (they are negated / copied first)."""
    client = c.client
    if c.size == 0 or a.shape[-1] == 0:
        return
    t = wtype(c.dtype, client, "matmul")
    na = be.unary_kernel("negative")(a)
    bb = b.copy() if b.block is c.block else b
    views = (na, bb, c)
    if all(v.size <= MAX_BOX_ELEMS and v.fits_binding() for v in views):
        _launch(client, t, t, na, bb, c, None, True)
        return
    for i in range(c.shape[0]):
        _panels(client, t, t, na[i], bb[i], c[i], None, True)


# ---- Cholesky ------------------------------------------------------------------------------

def cholesky(be, w, status):
    """Lower Cholesky factor in the lower triangle of every (n, n) matrix of ``w``."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.cholesky")
    n = w.shape[-1]
    nmax = _small_nmax(t, n, n, "chol", Caps.of(client))
    if nmax:
        _factor_launch(client, t, "chol", nmax, w, status=status)
        return
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

def lu(be, w, ipiv, status):
    """LU with partial pivoting of every (n, n) matrix of ``w`` in place (unit L below the
    diagonal, U on and above); ``ipiv`` (B, n) int32 gets LAPACK's 0-based interchanges."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.lu")
    n = w.shape[-1]
    nmax = _small_nmax(t, n, n, "lu", Caps.of(client))
    if nmax:
        _factor_launch(client, t, "lu", nmax, w, status=status, ipiv=ipiv)
        return
    for k in range(0, n, NB):
        kb = min(NB, n - k)
        _factor_launch(client, t, "lu", 0, w[:, k:, k:k + kb], status=status,
                       ipiv=ipiv[:, k:k + kb], pbase=k)
        piv = ipiv[:, k:k + kb]
        if k:
            swap_rows(client, t, w[:, k:, :k], piv, kb, k)
        if k + kb == n:
            break
        swap_rows(client, t, w[:, k:, k + kb:], piv, kb, k)
        l11 = w[:, k:k + kb, k:k + kb].copy()
        u12 = w[:, k:k + kb, k + kb:]
        trsm(client, t, l11, u12, lower=True, unit=True, conj=False, vec_axis=2)
        gemm_sub(be, w[:, k + kb:, k:k + kb], u12, w[:, k + kb:, k + kb:])


def lu_solve(be, w, ipiv, x):
    """x <- A^-1 x in place for the LU factors ``w`` (B, n, n) / ``ipiv`` and x (B, n, k)."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.solve")
    n = w.shape[-1]
    swap_rows(client, t, x, ipiv, n, 0)
    if n <= NB:
        trsm(client, t, w, x, lower=True, unit=True, conj=False, vec_axis=2)
        trsm(client, t, w, x, lower=False, unit=False, conj=False, vec_axis=2)
        return
    for k in range(0, n, NB):
        kb = min(NB, n - k)
        trsm(client, t, w[:, k:k + kb, k:k + kb], x[:, k:k + kb], True, True, False, 2)
        if k + kb < n:
            gemm_sub(be, w[:, k + kb:, k:k + kb], x[:, k:k + kb], x[:, k + kb:])
    starts = list(range(0, n, NB))
    for k in reversed(starts):
        kb = min(NB, n - k)
        trsm(client, t, w[:, k:k + kb, k:k + kb], x[:, k:k + kb], False, False, False, 2)
        if k:
            gemm_sub(be, w[:, :k, k:k + kb], x[:, k:k + kb], x[:, :k])


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

def apply_h(client, t, v, tau, c, form_q):
    """Reflectors stored in the (B, m, kb) view ``v`` (unit lower, LAPACK layout) and
    ``tau`` (B, kb) applied to the (B, m, ncol) view ``c`` (a different buffer)."""
    B, m, kb = v.shape
    ncol = c.shape[2]
    if ncol == 0 or kb == 0 or B == 0:
        return
    k = client.kernel(ApplyHSpec(t, form_q))
    k.launch(grid(ncol * B, client), V=v, tau=tau, C=c, m=m, kb=kb, ncol=ncol, nbat=B,
             v_rs=v.strides[1], v_cs=v.strides[2], v_bs=v.strides[0], tau_bs=tau.strides[0],
             c_rs=c.strides[1], c_cs=c.strides[2], c_bs=c.strides[0])


def qr(w, tau):
    """Householder QR of every (m, n) matrix of ``w`` in place: R on and above the
    diagonal, the reflectors below; ``tau`` (B, min(m, n))."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.qr")
    _, m, n = w.shape
    kmin = min(m, n)
    nmax = _small_nmax(t, m, n, "qr", Caps.of(client))
    if nmax:
        _factor_launch(client, t, "qr", nmax, w, tau=tau)
        return
    for k in range(0, kmin, NB):
        kb = min(NB, kmin - k)
        _factor_launch(client, t, "qr", 0, w[:, k:, k:k + kb], tau=tau[:, k:k + kb])
        if k + kb < n:
            v = w[:, k:, k:k + kb].copy()
            apply_h(client, t, v, tau[:, k:k + kb], w[:, k:, k + kb:], False)


def form_q(w, tau, q):
    """q (B, m, qc), set to the first qc columns of the identity by the caller, becomes
    the first qc columns of Q = H_0 H_1 .. H_{k-1}."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.qr")
    kmin = tau.shape[1]
    starts = list(range(0, kmin, NB))
    for k in reversed(starts):
        kb = min(NB, kmin - k)
        apply_h(client, t, w[:, k:, k:k + kb], tau[:, k:k + kb], q[:, k:, k:], True)
