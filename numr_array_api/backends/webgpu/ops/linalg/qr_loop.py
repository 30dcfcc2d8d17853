"""A Householder QR panel in one workgroup, its rows held in registers across columns.

The wide panel (qr_wide.py) costs a dispatch per column, each ~10-15 us on the H100
whatever its size. A panel whose rows fit one workgroup walks its columns here in ONE
dispatch: each invocation loads its rows of the panel (one column a lane, ``rpt`` rows)
once, and per column the reflector's inputs (the partials of the column, its diagonal
row, the column itself) pass through workgroup memory between barriers. The earlier
looped form of the wide kernel reloaded the block from global memory and exchanged the
partials there at every column (a storage barrier each): 16 rows a thread cost it
458 / 825 us a 512-row panel (float32 / float64), more than the wide panel (H100,
2026-11-27).

The arithmetic is the wide kernel's (wgsl/qr_reflect.wgsl, wgsl/qr_partials.wgsl:
geqr2's conventions, scaled sums), so R, tau and the reflectors come out as there; the
panel is stored once, at the end.
"""

from __future__ import annotations

import dataclasses

from .....tuning.registry import get as tuned
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from .qr_wide import NCAP, PW, panel_layout, panel_tokens
from .scalar import prelude
from .wgsl import kernel

# Panels of at most QR_LOOP_MAX rows (128; H100, 2026-11-27: qr
# 512 float32 3.10x -> 2.75x) take the looped kernel on QR_LOOP_NS row slices (16); float32
# panels of up to 512 rows on 32 slices (QR_LOOP_MAX_F32, QR_LOOP_NS_F32; H100,
# 2026-11-27: qr 512 float32 3.50x -> 2.46x of cuSOLVER, 2048
# 2.20x -> 2.12x); wider elements keep 128 rows on 16 (float64 512: 7.3 -> 8.4 ms looped
# from 512 rows, 7.6 from 256: 16-32 doubles a thread on 512-1024 invocations crowd the
# register file)


@dataclasses.dataclass(frozen=True)
class QrLoopSpec(KernelSpec):
    """Every column of a Householder QR panel of at most ns * rpt rows, one workgroup
    per matrix (bound as the wide panel: qr_wide.WidePanel; wgsl/qr_loop.wgsl)."""

    t: WType
    rpt: int = 4
    ns: int = 16     # row slices: a workgroup of ns * 32 invocations
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # workgroup indices are structural (tid < ns * NCAP, lane and q < NCAP since the host
    # keeps nc <= NCAP, rows i < ns rpt, xv halves of ns rpt); loops counted by constants
    # or the uniform nc; global indices stay in the bound views (i < m, lane < nc, b < nbat)
    trusted: bool = False
    looped = True

    def layout(self, caps):
        return panel_layout(self.t, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        return kernel("qr_loop.wgsl").render(
            tk, panel_tokens(self.t, tk, self.ns, self.rpt, f"xv[xo + sl + {self.ns}u * t]"),
            prelude=prelude(self.t), rows=self.rows, rows2=2 * self.rows,
            wg=self.ns * NCAP, ns=self.ns, ncap=NCAP, pw=PW, rpt=self.rpt)

    @property
    def rows(self):
        return self.ns * self.rpt

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


def loop_max(client, t):
    """Panels of at most this many rows of WType ``t`` take the looped kernel, one
    dispatch a panel (QR_LOOP_MAX_F32 for float32, else QR_LOOP_MAX; 0: none; at most 64
    rows a thread)."""
    return tuned("QR_LOOP_MAX_F32" if t.val == "f32" else "QR_LOOP_MAX", client)


def loop_spec(client, t, m):
    """The looped panel's spec for panels of m rows: QR_LOOP_NS(_F32) row slices and the
    fewest rows a thread."""
    ns = tuned("QR_LOOP_NS_F32" if t.val == "f32" else "QR_LOOP_NS", client)
    rpt = 4
    while ns * rpt < m and rpt < 64:
        rpt *= 2
    return QrLoopSpec(t, rpt, ns, tuned("LINALG_TRUSTED", client))


def variants():
    from ...codegen.types import WTYPES
    from .specs import FLOATS
    return [QrLoopSpec(WTYPES[d], r, ns, tr) for d in FLOATS for r, ns in
            ((4, 16), (8, 16), (16, 32), (32, 32)) for tr in (False, True)]
