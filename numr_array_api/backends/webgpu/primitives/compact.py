"""Stream compaction: the flat positions of a mask's true elements, in order.

``positions(mask)``: the ranks (an exclusive scan with the total, primitives/scan.py) give
every true element its output slot; one pass writes ``D[rank[i]] = i``. The count is
the ranks' last entry; the caller reads it (4 bytes) to size the output, the one host read
of data-dependent shapes. Masks beyond one binding are walked in windows whose mask and
rank views fit one binding; positions are global u32, so masks hold < 2^32 elements.
"""

from __future__ import annotations

import dataclasses

from ...._core import dtypes as dt
from ...._core.errors import BackendLimitation
from ..codegen.layout import Buf, Layout
from ..codegen.render import WG, workgroups
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..codegen.types import WTYPES, WType, load, render_helpers
from ..storage import new_output
from .scan import scan

__all__ = ["ranks", "positions", "variants"]

_FRAME = Template("""${helpers}
${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  for (var i = g.x; i < ${n}; i += nw.x * ${wg}u) {
    let j = ${S_off} + i;
    if (${flag}) { D[${D_off} + R[${R_off} + i]] = ${base} + i; }
  }
}
""", "compact")


@dataclasses.dataclass(frozen=True)
class CompactSpec(KernelSpec):
    t: WType   # the mask's type (bool; any dtype counts nonzero)

    def layout(self, caps):
        return Layout([Buf("S", self.t.arr), Buf("R", "u32"), Buf("D", "u32", "rw")],
                      ["n", "base"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        h = set()
        from ..codegen.types import convert
        flag = convert(self.t, WTYPES[dt.bool_], load(self.t, "S", "j", h), h, caps.int64)
        return _FRAME.render(lay.tokens(), helpers=render_helpers(h, caps.int64), wg=WG,
                             flag=flag)


def variants():
    return [CompactSpec(WTYPES[d]) for d in (dt.bool_, dt.int32, dt.float32)]


def ranks(mask):
    """u32 (n + 1,): the exclusive running count of nonzero elements of the contiguous
    1-D ``mask``; the last entry is the count."""
    n = mask.size
    if n >= 1 << 32:
        raise BackendLimitation("webgpu", f"compaction of {n} elements",
                                "positions are u32: masks hold fewer than 2^32 elements")
    return scan(mask.reshape((1, n)), "add", dt.uint32, "total").reshape((n + 1,))


def positions(mask, rk, count):
    """u32 (count,): the flat positions of the true elements of the contiguous 1-D
    ``mask``, given its ``ranks`` ``rk`` and their ``count`` (read by the caller)."""
    client = mask.client
    out = new_output((count,), dt.uint32, client)
    n = mask.size
    if count == 0 or n == 0:
        return out
    k = client.kernel(CompactSpec(WTYPES[mask.dtype]))
    i0 = 0
    while i0 < n:
        step = n - i0
        while step > 1024 and not (mask[i0:i0 + step].fits_binding()
                                   and rk[i0:i0 + step].fits_binding()
                                   and step <= 1 << 30):
            step = (step + 1) // 2
        sv, rv = mask[i0:i0 + step], rk[i0:i0 + step]
        if not sv.fits_binding():
            sv = sv.copy()
        if not rv.fits_binding():
            rv = rv.copy()
        k.launch(workgroups(step, client), S=sv, R=rv, D=out, n=step, base=i0)
        i0 += step
    return out
