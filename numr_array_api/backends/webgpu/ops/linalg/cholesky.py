"""Cholesky of stacks of matrices: a workgroup per matrix up to 32 x 32, else blocked.

The blocked algorithm is right-looking, two dispatches a step: the panel (the CHOL_NB
diagonal block and the rows below it: CholRegsSpec with its columns in registers,
chol_regs.py, or CholPanelSpec where that does not fit) and the GEMM update of the
trailing lower triangle, in CHOL_SPLIT column pieces (the upper part is never computed).
"""

from __future__ import annotations

from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...codegen.wgmem import spec_fits
from ...storage import new_output
from .batched import small_nmax
from .blas import gemm_acc
from .chol_regs import regs_spec
from .dispatch import factor_launch, grid
from .specs import CholPanelSpec

# H100 2026-11-26 (2026-11-26): 4096 float32 15.1 -> 11.2 ms, float64
# 20.0 -> 15.1 ms with 512 panel threads and 2 update pieces (from 256 and 4); 512 / 2048
# faster too (CHOL_WG, CHOL_SPLIT)


def cholesky(be, w, status):
    """Lower Cholesky factor in the lower triangle of every (n, n) matrix of ``w``."""
    client = w.client
    t = wtype(w.dtype, client, "linalg.cholesky")
    n = w.shape[-1]
    nmax = small_nmax(t, n, n, Caps.of(client))
    if nmax:
        factor_launch(client, t, "chol", nmax, w, status=status)
        return
    _blocked(client, t, w, status)


def _chol_nb(t, client):
    """The widest diagonal block (a power of two <= CHOL_NB) whose packed lower triangle
    fits workgroup memory."""
    nb = tuned("CHOL_NB", client)
    cap = Caps.of(client).workgroup_storage - 256
    while nb > 8 and nb * (nb + 1) // 2 * t.itemsize > cap:
        nb //= 2
    return nb


def _chol_panel(client, t, nb):
    """The panel spec of a step: CholRegsSpec where it fits (CHOL_WG invocations, CHOL_TR
    rows of A21 a workgroup), else CholPanelSpec (CHOL_PANEL_WG invocations, its rows
    below the block in tiles where they fit). H100, 2026-11-27:
    the register panel took the panel 80 -> 28 us (float32, 64 columns), cholesky 512
    2.96x -> 1.91x CuPy."""
    caps = Caps.of(client)
    trusted = tuned("LINALG_TRUSTED", client)
    spec = regs_spec(t, nb, caps.wg_size(tuned("CHOL_WG", client)), tuned("CHOL_TR", client),
                     caps, trusted)
    if spec is not None:
        return spec
    wg = caps.wg_size(tuned("CHOL_PANEL_WG", client))
    tr = next((r for r in (32, 16, 8) if spec_fits(CholPanelSpec(t, nb, wg, r), caps)), 0)
    return CholPanelSpec(t, nb, wg, tr, trusted)


def _blocked(client, t, w, status):
    """Right-looking blocked Cholesky of the (B, n, n) stack ``w`` (see the module)."""
    B, n, _ = w.shape
    nb = _chol_nb(t, client)
    spec = _chol_panel(client, t, nb)
    tr = spec.tr
    k_panel = client.kernel(spec)
    mx = max(1, n - nb)
    nbuf = new_output((B * mx * nb,), w.dtype, client)
    pbuf = new_output((B * mx * nb,), w.dtype, client)
    dbuf = new_output((B * 2 * nb * nb,), w.dtype, client)
    split = tuned("CHOL_SPLIT", client)
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
