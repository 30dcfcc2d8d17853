"""1-D filter passes through workgroup-memory tiles (correlate1d, uniform, 1-D min / max).

A C-contiguous input is seen as (outer, n, inner) around the filtered axis. A workgroup
owns a tile of TA positions along the axis by TI neighbours along ``inner`` (TI = 1 when
the axis is the last one: then TA runs along memory). It loads the TA + K - 1 rows the
tile's windows need once, each through the axis's boundary mode, converted to the compute
type, into workgroup memory (coalesced: consecutive threads take consecutive addresses),
then every output folds its K taps from workgroup memory. Against the stencil kernel
(stencil.py, which reads every tap from the buffer and maps every coordinate), a K-tap
pass reads each input element (TA + K - 1) / TA times instead of K times.

Tiles are visited by a loop over a flat tile number (uniform per workgroup, so the
barriers inside are in uniform control flow), so any array fits in 65535 workgroups.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as D
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WTYPES, convert, load, render_helpers
from .stencil import _PMOD, _VAL, _map

__all__ = ["LineSpec", "tile_shape", "variants"]

WG = 256
_ZERO = {"f32": "0.0f", "f64": "0.0lf"}


def tile_shape(inner, k, val, caps):
    """(TI, TA, rows) for a K-tap pass, or None when the rows do not fit workgroup memory."""
    size = 8 if val == "f64" else 4
    ti, ta = (1, 512) if inner == 1 else (32, 32)
    rows = ta + k - 1
    rows = -(-rows // 32) * 32   # buckets of 32 rows: few variants per kernel
    if rows * ti * size > caps.workgroup_storage:
        return None
    return ti, ta, rows


@dataclasses.dataclass(frozen=True)
class LineSpec(KernelSpec):
    src: object      # input numr DType
    val: str         # "f32" / "f64": values are compared / summed in it
    dst: object      # output buffer DType (never packed)
    mode: str        # boundary mode of the filtered axis
    op: str          # corr, uniform, min, max
    ti: int
    ta: int
    rows: int

    def needs(self):
        need = set()
        for d in (self.src, self.dst, _VAL[self.val]):
            t = WTYPES[d].need
            if t == "shader-f64":
                need.update(("f64", "int64"))
            elif t == "shader-int64":
                need.add("int64")
        return tuple(sorted(need))

    def layout(self, caps):
        return Layout([Buf("x", WTYPES[self.src].arr), Buf("w", self.val),
                       Buf("y", WTYPES[self.dst].arr, "rw")],
                      ["outer", "n", "inner", "k", "lo", "tiles_a", "tiles_i", "ntiles"],
                      caps)

    def render(self, caps):
        lay = self.layout(caps)
        t = lay.tokens()
        V, TI, TA, R = self.val, self.ti, self.ta, self.rows
        helpers = set()
        st, vt = WTYPES[self.src], WTYPES[_VAL[V]]
        value = convert(st, vt, load(st, "x", "xi", helpers), helpers, caps.int64)
        out = convert(vt, WTYPES[self.dst], "res", helpers, caps.int64)
        mapping = _map(self.mode, "p", "n", "q")
        oob = "p < 0i || p >= n" if self.mode == "constant" else "false"
        if self.op == "corr":
            fold = "acc = acc + w[2u + j] * sh[(r + j) * TI + c];"
            init, fin = f"var acc: {V} = {_ZERO[V]};", "let res = acc;"
        elif self.op == "uniform":
            fold = "acc = acc + sh[(r + j) * TI + c];"
            init = f"var acc: {V} = {_ZERO[V]};"
            fin = "let d = w[1];\n      var res = acc / d;\n      res = res + (acc - res * d) / d;"
        else:
            cmp = "<" if self.op == "min" else ">"
            fold = f"let v = sh[(r + j) * TI + c];\n        if (v {cmp} acc) {{ acc = v; }}"
            init, fin = "var acc = sh[r * TI + c];", "let res = acc;"
        first = "1u" if self.op in ("min", "max") else "0u"
        return f"""{t['layout']}
{render_helpers(helpers, caps.int64)}
{_PMOD}
const TI: u32 = {TI}u;
const TA: u32 = {TA}u;
var<workgroup> sh: array<{V}, {R * TI}>;

@compute @workgroup_size({WG})
fn main(@builtin(local_invocation_index) lid: u32,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {{
  let n = i32({t['n']});
  let inner = {t['inner']};
  let k = {t['k']};
  let lo = bitcast<i32>({t['lo']});
  let cval = w[0];
  let rows = TA + k - 1u;
  for (var tile = wid.x; tile < {t['ntiles']}; tile = tile + nwg.x) {{
    let ti = tile % {t['tiles_i']};
    let rest = tile / {t['tiles_i']};
    let ta = rest % {t['tiles_a']};
    let o = rest / {t['tiles_a']};
    let i0 = ti * TI;
    let p0 = i32(ta * TA);
    let base = o * u32(n) * inner;
    for (var s = lid; s < rows * TI; s = s + {WG}u) {{
      let r = s / TI;
      let c = s % TI;
      let p = p0 + i32(r) + lo;
      {mapping}
      var v: {V} = cval;
      if (!({oob}) && i0 + c < inner) {{
        let xi = {t['x_off']} + base + u32(q) * inner + i0 + c;
        v = {value};
      }}
      sh[s] = v;
    }}
    workgroupBarrier();
    for (var s = lid; s < TA * TI; s = s + {WG}u) {{
      let r = s / TI;
      let c = s % TI;
      let p = u32(p0) + r;
      if (p < u32(n) && i0 + c < inner) {{
        {init}
        for (var j = {first}; j < k; j = j + 1u) {{
          {fold}
        }}
        {fin}
        y[{t['y_off']} + base + p * inner + i0 + c] = {out};
      }}
    }}
    workgroupBarrier();
  }}
}}
"""


def variants():
    return [LineSpec(D.float32, "f64", D.float32, "reflect", "corr", 1, 512, 544),
            LineSpec(D.uint8, "f64", D.float64, "constant", "uniform", 32, 32, 64),
            LineSpec(D.int32, "f32", D.int32, "mirror", "max", 32, 32, 64)]
