"""Kernel specs of the factorisations (float32 / float64 / complex64 / complex128): the
names the drivers import, and ``variants()``, every spec the render / compile tests cover.

panel_specs.py       FactorSpec (Cholesky, LU, Householder QR: a workgroup per matrix or
                     per panel), LULeafSpec, CholPanelSpec
triangular_specs.py  TrsmSpec, TrsmTileSpec
batch_specs.py       BatchSolveSpec, BatchCholSpec, BatchTinySpec (stacks of small
                     matrices), LUDiagSpec (det / sign of det from LU)
swap_specs.py        SwapSpec, PermSpec, LeafSwapSpec (LU's row interchanges)
update_specs.py      LarftSpec, NegCopySpec, QrVSpec, QrTSpec (trailing-update operands,
                     block reflectors)
wgsl/                their WGSL

Every kernel that can meet a singular / non-positive-definite matrix ors a bit into one
status word, read once per call by the caller.
"""

from __future__ import annotations

from ....._core import dtypes as dt
from ...codegen.types import WTYPES
from .batch_specs import BatchCholSpec, BatchSolveSpec, BatchTinySpec, LUDiagSpec
from .panel_specs import (CHOL_HEAD, LEAF_ROWS, PANEL, QR_PANEL, CholPanelSpec, FactorSpec, LULeafSpec,
                          shuffles, small_wg)
from .swap_specs import (LSWAP_KMAX, LSWAP_RPT, LSWAP_WG, PERM_MAPN, PERM_RPT, PERM_WG,
                         LeafSwapSpec, PermSpec, SwapSpec)
from .triangular_specs import TrsmSpec, TrsmTileSpec
from .update_specs import LARFT_KB_MAX, LarftSpec, NegCopySpec, QrTSpec, QrVSpec

__all__ = ["CHOL_HEAD", "FLOATS", "LARFT_KB_MAX", "LEAF_ROWS", "LSWAP_KMAX", "LSWAP_RPT",
           "LSWAP_WG", "PANEL", "PERM_MAPN", "PERM_RPT", "PERM_WG", "QR_PANEL", "SMALL",
           "BatchCholSpec", "BatchSolveSpec", "BatchTinySpec", "CholPanelSpec", "FactorSpec",
           "LULeafSpec", "LUDiagSpec", "LarftSpec", "LeafSwapSpec",
           "NegCopySpec", "PermSpec", "QrTSpec", "QrVSpec", "SwapSpec", "TrsmSpec",
           "TrsmTileSpec", "shuffles", "small_wg", "variants"]


FLOATS = (dt.float32, dt.float64, dt.complex64, dt.complex128)
SMALL = (4, 8, 16, 32)  # nmax of the small path (the matrix in workgroup memory)


def variants():
    out = []
    for d in FLOATS:
        t = WTYPES[d]
        for kind in ("chol", "lu", "qr"):
            out += [FactorSpec(t, kind, 0, wg) for wg in (256, 1024)]
            out += [FactorSpec(t, kind, n, small_wg(n)) for n in SMALL]
        for kind in ("lus", "qrq"):
            out += [FactorSpec(t, kind, n, small_wg(n)) for n in SMALL]
        out.append(LarftSpec(t))
        out += [LULeafSpec(t, wg, r, 16, sg) for wg in (256, 1024) for r in LEAF_ROWS
                for sg in (False, True)]
        out += [TrsmSpec(t, lo, u, c, nm, sm) for lo in (False, True) for u in (False, True)
                for c in (False, True) for nm in (0, 64) for sm in (False, True)]
        out += [SwapSpec(t), PermSpec(t), LeafSwapSpec(t), LeafSwapSpec(t, True),
                LUDiagSpec(t, False), LUDiagSpec(t, True)]
        out += [CholPanelSpec(t, nb, 64) for nb in ((32,) if d is dt.complex128 else (32, 64))]
        out += [CholPanelSpec(t, 32, 256, 16)]
        out += [BatchSolveSpec(t, n, k, max(64, n)) for n in SMALL for k in (1, n)]
        out += [BatchCholSpec(t, n, max(64, n)) for n in SMALL]
        out += [BatchTinySpec(t, n, k, k == n) for n, k in ((8, 1), (8, 8), (3, 3))]
        out += [NegCopySpec(t), QrVSpec(t), QrTSpec(t)]
        if t.name != "complex128":
            out += [TrsmTileSpec(t, lo, lo, c, sm) for lo in (False, True) for c in (False, True)
                    for sm in (False, True)]
            out += [TrsmTileSpec(t, lo, lo, False, False, False, i) for lo in (False, True)
                    for i in (1, -1)]
    return out
