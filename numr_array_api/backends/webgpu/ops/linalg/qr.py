"""Householder QR of stacks of matrices, blocked (compact WY), and the forming of Q.

Every 32-column panel is factored by one of three kernels, by its rows: one workgroup
walking the panel in its registers, one dispatch a panel (qr_loop.py, up to
QR_LOOP_MAX(_F32) rows); the panel's row blocks over many workgroups, a dispatch a column
(qr_wide.py, from QR_WIDE_MIN(_F64) rows); else FactorSpec "qr" (one workgroup walking
global memory). Its reflectors are then copied out as V and V^H (QrVSpec), G = V^H V by
GEMM, and QrTSpec forms -(T V^H) and -(V T)^H, so the trailing update and form_q are two
GEMMs a panel. Matrices whose panels take the register or wide kernels are first scaled
by a power of two (pow2.py), undone on R at the end.
"""

from __future__ import annotations

from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...codegen.wgmem import spec_fits
from ...storage import new_output
from ..matmul.gemm import gemm
from . import qr_loop, qr_wide
from .blas import gemm_acc
from .dispatch import check_rows, factor_launch, grid, thread_grid
from .pow2 import pow2_normalise
from .specs import QR_PANEL, QrTSpec, QrVSpec


def qr(be, w, tau):
    """Householder QR of every (m, n) matrix of ``w`` in place: R on and above the
    diagonal, the reflectors below; ``tau`` (B, min(m, n)). Returns the block reflectors
    (k, V, -(T V^H)) for ``form_q``."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.qr")
    B, m, n = w.shape
    kmin = min(m, n)
    check_rows(client, "qr", m)
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
            factor_launch(client, t, "qr", 0, panel, tau=tv)
        v = new_output((B, mk, kb), w.dtype, client)
        vh = new_output((B, kb, mk), w.dtype, client)
        client.kernel(QrVSpec(t)).launch(
            thread_grid(B * mk * kb, client, 256), Pn=panel, V=v, VH=vh, m=mk, kb=kb,
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
        blocks.append((k, v, y2))
    if scale is not None:
        # R back to the input's scale (the reflectors below the diagonal, already copied
        # into the blocks, are not read again)
        be.store(w, be.binary_kernel("divide")(w, scale))
    return blocks


def _qr_wide(client, t, dtype, B, m):
    """The many-workgroup panel (qr_wide.py) for this call, or None: no panel tall enough,
    or more matrices or row blocks than one grid dimension holds."""
    mg = client.max_groups
    if m < qr_wide.min_rows(client, t) or B > mg:
        return None
    spec = qr_wide.spec(client, t, m)
    if -(-m // (qr_wide.NS * spec.rpt)) > mg or not spec_fits(spec, Caps.of(client)):
        return None
    return qr_wide.WidePanel(client, spec, dtype, B, m)


class _QrLoops:
    """The looped panel kernels of one qr call (qr_loop.loop_spec), one per rows per
    thread, for panels of at most qr_loop.loop_max rows."""

    def __init__(self, client, t, dtype, B):
        self.max = qr_loop.loop_max(client, t) if B <= client.max_groups else 0
        self.client, self.t, self.dtype, self.B = client, t, dtype, B
        self.panels = {}

    def get(self, mk):
        spec = qr_loop.loop_spec(self.client, self.t, mk)
        if mk > min(self.max, spec.rows):
            return None
        if spec.rpt not in self.panels:
            fits = spec_fits(spec, Caps.of(self.client))
            self.panels[spec.rpt] = qr_wide.WidePanel(
                self.client, spec, self.dtype, self.B, spec.rows) if fits else None
        return self.panels[spec.rpt]


def form_q(be, blocks, q):
    """q (B, m, qc), set to the first qc columns of the identity by the caller, becomes
    the first qc columns of Q = (I - V_0 T_0 V_0^H) (I - V_1 T_1 V_1^H) ..."""
    client = q.client
    t = wtype(q.dtype, client, "linalg.qr")
    for k, v, tm in reversed(blocks):
        c = q[:, k:, k:]
        if c.shape[2]:
            gemm_acc(client, t, v, gemm(tm, c), c)
