"""The one stencil kernel behind ndimage's filters: every output element visits a footprint.

A thread owns one output element of a C-ordered output. It walks the footprint with one
nested loop per axis (generated for the rank), maps each source coordinate through its
axis's boundary mode once per loop level, and folds the values:

* ``corr``: sum of weight x value (correlate1d: every weight, as SciPy's line loop does);
* ``corrnd``: the same, skipping weights with |w| <= DBL_EPSILON, as SciPy's n-d
  ``NI_Correlate`` does (a zero weight then never meets a NaN or inf);
* ``uniform``: the sum of the window divided by its size (exact for integer data, so a
  truncating integer output sees 1.0, never 0.999...);
* ``min`` / ``max``: over the footprint's nonzero entries, in footprint order with SciPy's
  strict comparisons (NaN handling follows), plus an additive structure when given;
* ``rank``: the footprint's values in private memory, Hoare quickselect of rank ``rk``.

The parameters travel in the small ``w`` buffer of the compute type:
``w[0]`` = cval, ``w[1]`` = divisor, ``w[2 ..]`` = weights / footprint mask, then (``struct``)
the structure values. Out-of-range coordinates in ``constant`` mode read cval.

Boundary maps (SciPy's filter extensions, any overhang): ``nearest`` clamps, ``wrap``
is periodic with period n, ``reflect`` (d c b a | a b c d | d c b a) period 2n,
``mirror`` (d c b | a b c d | c b a) period 2n - 2 (n == 1: the one element).
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as D
from ...codegen.layout import Buf, Layout, Words
from ...codegen.spec import KernelSpec
from ...codegen.types import WTYPES, convert, load, render_helpers

__all__ = ["StencilSpec", "MODES", "OPS", "variants"]

MODES = ("nearest", "wrap", "reflect", "mirror", "constant")
OPS = ("corr", "corrnd", "uniform", "min", "max", "rank")
WG = 256

# compute type per WGSL value type: the numr dtype whose WType the loads convert into
_VAL = {"f32": D.float32, "f64": D.float64, "i32": D.int32, "u32": D.uint32,
        "i64": D.int64, "u64": D.uint64}

_PMOD = """
fn nd_pmod(a: i32, b: i32) -> i32 {
  // remainder with the divisor's sign, without WGSL's signed % (wrong on some drivers)
  let q = a / b;
  var r = a - q * b;
  if (r < 0i) { r = r + b; }
  return r;
}
"""


def _map(mode, p, n, q):
    """WGSL statements turning coordinate ``p`` (i32) into in-range ``q`` for mode; inside
    the array (almost every tap) no division runs."""
    if mode == "nearest":
        return f"let {q} = clamp({p}, 0i, {n} - 1i);"
    if mode == "constant":
        return f"let {q} = {p};"  # the out-of-range flag decides
    if mode == "wrap":
        far = f"{q} = nd_pmod({p}, {n});"
    elif mode == "reflect":
        far = (f"{q} = nd_pmod({p}, 2i * {n});\n"
               f"  if ({q} >= {n}) {{ {q} = 2i * {n} - 1i - {q}; }}")
    else:  # mirror
        far = (f"{q} = 0i;\n"
               f"  if ({n} > 1i) {{ {q} = nd_pmod({p}, 2i * {n} - 2i);\n"
               f"    if ({q} >= {n}) {{ {q} = 2i * {n} - 2i - {q}; }} }}")
    return f"var {q} = {p};\nif ({p} < 0i || {p} >= {n}) {{\n  {far}\n}}"


def _wrap(src):
    """SciPy's C adds the structure in the input's own type (``_tmp += ss``): a sub-word
    integer sum wraps to its width (a uint8 0 - 1 is 255; bool inputs are refused)."""
    t = WTYPES[src]
    if not t.packed or t.name in ("float16", "bool"):
        return ""
    if t.signed:
        return f"v = extractBits(v, 0u, {t.bits}u);"
    return f"v = v & {(1 << t.bits) - 1}u;"


@dataclasses.dataclass(frozen=True)
class StencilSpec(KernelSpec):
    src: object          # numr DType of the input
    val: str             # WGSL compute type: f32 f64 i32 u32 i64 u64
    dst: object          # numr DType of the output buffer (never a packed dtype)
    rank: int
    modes: tuple         # one of MODES per axis
    op: str              # one of OPS
    kmax: int = 0        # rank: private buffer length
    struct: bool = False

    def needs(self):
        need = set()
        for d in (self.src, self.dst, _VAL[self.val]):
            t = WTYPES[d].need
            if t == "shader-f64":
                need.add("f64")
            elif t == "shader-int64":
                need.add("int64")
        if "f64" in need:
            need.add("int64")
        return tuple(sorted(need))

    def layout(self, caps):
        return Layout([Buf("x", WTYPES[self.src].arr), Buf("w", self.val),
                       Buf("y", WTYPES[self.dst].arr, "rw")],
                      ["n", "nf", "rk", Words("S", self.rank), Words("T", self.rank),
                       Words("F", self.rank), Words("L", self.rank)], caps)

    def render(self, caps):
        lay = self.layout(caps)
        tok = lay.tokens()
        R, V = self.rank, self.val
        helpers = set()
        st, vt = WTYPES[self.src], WTYPES[_VAL[V]]
        zero = {"f32": "0.0f", "f64": "0.0lf", "i32": "0i", "u32": "0u", "i64": "0li",
                "u64": "0lu"}[V]
        lines = []
        # coordinates of output element i (C order)
        lines.append("var r = i;")
        for a in reversed(range(R)):
            S = lay.word("S", a)
            if a:
                lines.append(f"let c{a} = i32(r % {S}); r = r / {S};")
            else:
                lines.append(f"let c{a} = i32(r);")
        lines.append("let cval = w[0];")
        op = self.op
        if op in ("corr", "corrnd", "uniform"):
            lines.append(f"var acc: {V} = {zero};")
        elif op in ("min", "max"):
            lines.append(f"var acc: {V} = {zero};\nvar first = true;")
        else:
            lines.append(f"var buf: array<{V}, {self.kmax}>;\nvar m = 0u;")
        lines.append("var k = 0u;")
        for a in range(R):
            S, F, L = (f"i32({lay.word('S', a)})", lay.word("F", a),
                       f"bitcast<i32>({lay.word('L', a)})")
            prev_o = f"o{a - 1}" if a else "false"
            prev_e = f"e{a - 1}" if a else "0i"
            lines.append(f"for (var f{a} = 0u; f{a} < {F}; f{a}++) {{")
            lines.append(f"let p{a} = c{a} + i32(f{a}) + {L};")
            lines.append(_map(self.modes[a], f"p{a}", S, f"q{a}"))
            if self.modes[a] == "constant":
                lines.append(f"let o{a} = {prev_o} || p{a} < 0i || p{a} >= {S};")
            else:
                lines.append(f"let o{a} = {prev_o};")
            lines.append(f"let e{a} = {prev_e} + q{a} * bitcast<i32>({lay.word('T', a)});")
        e = f"e{R - 1}" if R else "0i"
        o = f"o{R - 1}" if R else "false"
        lines.append(f"let xi = {tok['x_off']} + bitcast<u32>({e});")
        value = convert(st, vt, load(st, "x", "xi", helpers), helpers, caps.int64)
        lines.append(f"var v: {V} = cval;\nif (!{o}) {{ v = {value}; }}")
        lines.append("let wk = w[2u + k];")
        if op == "corr":
            lines.append("acc = acc + wk * v;")
        elif op == "corrnd":
            eps = "2.220446049250313e-16lf" if V == "f64" else "2.220446049250313e-16f"
            lines.append(f"if (wk > {eps} || wk < -{eps}) {{ acc = acc + wk * v; }}")
        elif op == "uniform":
            lines.append("acc = acc + v;")
        elif op in ("min", "max"):
            if self.struct:
                lines.append(f"v = v + w[2u + {tok['nf']} + k];")
                lines.append(_wrap(self.src))
            cmp = "<" if op == "min" else ">"
            lines.append(f"if (wk != {zero}) {{ if (first || v {cmp} acc) {{ acc = v; }} "
                         "first = false; }")
        else:
            lines.append(f"if (wk != {zero}) {{ buf[m] = v; m = m + 1u; }}")
        lines.append("k = k + 1u;")
        lines.extend("}" for _ in range(R))
        if op == "uniform":
            lines.append("let d = w[1];\nvar res = acc / d;\nres = res + (acc - res * d) / d;")
        elif op == "rank":
            lines.append(_QSELECT.replace("${rk}", tok["rk"]))
        else:
            lines.append("let res = acc;")
        out = convert(vt, WTYPES[self.dst], "res", helpers, caps.int64)
        lines.append(f"y[{tok['y_off']} + i] = {out};")
        body = "\n    ".join(x for x in "\n".join(lines).split("\n") if x)
        pre = render_helpers(helpers, caps.int64)
        return f"""{tok['layout']}
{pre}
{_PMOD}
@compute @workgroup_size({WG})
fn main(@builtin(global_invocation_id) g: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let n = {tok['n']};
  let step = nw.x * {WG}u;
  for (var i = g.x; i < n; i = i + step) {{
    {body}
  }}
}}
"""


# Hoare partition quickselect of rank rk among buf[0 .. m)
_QSELECT = """let kk = i32(${rk});
var lo = 0i;
var hi = i32(m) - 1i;
loop {
  if (lo >= hi) { break; }
  let pivot = buf[(lo + hi) / 2i];
  var a = lo;
  var b = hi;
  loop {
    loop { if (!(buf[a] < pivot)) { break; } a = a + 1i; }
    loop { if (!(pivot < buf[b])) { break; } b = b - 1i; }
    if (a <= b) {
      let t = buf[a]; buf[a] = buf[b]; buf[b] = t;
      a = a + 1i; b = b - 1i;
    }
    if (a > b) { break; }
  }
  if (kk <= b) { hi = b; } else if (kk >= a) { lo = a; } else { break; }
}
let res = buf[kk];"""


def variants():
    """Representative specs for the render-and-compile test."""
    out = []
    for op in OPS:
        out.append(StencilSpec(D.float32, "f32", D.float32, 2, ("reflect", "constant"), op,
                               kmax=16 if op == "rank" else 0))
    out.append(StencilSpec(D.uint8, "f64", D.float64, 3, ("mirror", "wrap", "nearest"),
                           "corrnd"))
    out.append(StencilSpec(D.int16, "i32", D.int32, 1, ("reflect",), "max", struct=True))
    return out
