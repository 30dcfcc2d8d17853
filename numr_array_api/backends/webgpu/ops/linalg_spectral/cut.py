"""The singular-value cut of pinv and matrix_rank: per matrix, which s_j exceed
rtol * max(s) (the front-end's rule, as NumPy's). One thread per matrix."""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType


@dataclasses.dataclass(frozen=True)
class CutSpec(KernelSpec):
    t: WType
    rank: bool     # True: O[b] = count (int32); False: O[b, j] = 1 / s_j or 0

    def needs(self):
        return ("f64",) if self.t.val == "f64" else ()

    def layout(self, caps):
        T = self.t.val
        return Layout([Buf("S", T), Buf("RT", T), Buf("O", "i32" if self.rank else T, "rw")],
                      ["nb", "K"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        T = self.t.val
        o = lay.word("O_off")
        if self.rank:
            body = f"""    var r = 0i;
    for (var j = 0u; j < K; j++) {{ if (S[sb + j] > cut) {{ r++; }} }}
    O[{o} + b] = r;"""
        else:
            one, zero = ("1.0f", "0.0f") if T == "f32" else ("1.0lf", "0.0lf")
            body = f"""    for (var j = 0u; j < K; j++) {{
      let s = S[sb + j];
      O[{o} + b * K + j] = select({zero}, {one} / s, s > cut);
    }}"""
        return Template.file(__package__, "sv_cut.wgsl").render(lay.tokens(), body=body)

    @property
    def label(self):
        return f"svcut_{self.t.name}_{'rank' if self.rank else 'inv'}"


def variants():
    return [CutSpec(WTYPES[d], r) for d in (dt.float32, dt.float64) for r in (False, True)]
