"""Tournament-pivoting LU of a tall leaf panel (TSLU / CALU, Grigori-Demmel-Xiang),
spread over many workgroups.

The one-workgroup leaf (LULeafSpec) is latency bound: one SM walks every column of an
m x 16 panel with a workgroup-wide pivot search per column, and beyond ~2048 rows the
panel does not fit one SM's registers (it spills). Here a leaf takes four dispatches, none
serial over m:

1. ``TsluSpec(cand)``: every block of R rows (a workgroup, rows in registers, fully
   unrolled so they stay there) runs partial pivoting on its rows and writes the W rows it
   picked (their original values and row numbers) as candidates.
2. ``TsluSpec(final)``: one workgroup per matrix runs partial pivoting on the stacked
   candidates: the W pivot rows, L11 \\ U11, the interchanges (LAPACK order, so det's sign
   comes from the actual permutation) and the singular status bit.
3. LeafSwapSpec applies the interchanges to whole rows (the leaf's columns included).
4. ``TsluApplySpec``: rows below the pivots get L21 = A21 U11^-1, a row per invocation;
   the pivot rows get L11 \\ U11.

The pivots are those of partial pivoting on the candidates, not on the whole panel
(tournament pivoting: rank-revealing the same way, |L| may exceed 1 slightly; stable in
practice). A pivot that is exactly zero still means an exactly rank-deficient panel.
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from .scalar import prelude
from .panel_specs import PIVOT_WG_SUBGROUP, PIVOT_WG_TREE, shuffles

NONE = "0xffffffffu"


def _gepp(W, rpt, wg, sg, final):
    """Partial pivoting on rows held in registers a{q}_{c} (row tid + q * wg, valid where
    ok{q}; row number g{q}), the first kmax columns, unrolled. The workgroup arrays of
    step j are set j % 2, so no barrier closes a step (a step's writes come after the
    next step's first barrier, by which every invocation has finished reading the
    previous step's set): two barriers a column, not three."""
    import re
    out = []
    for j in range(W):
        o = []
        o.append(f"  if ({j}u < kmax) {{")
        o.append("    var best = R(-1.0);")
        o.append(f"    var bi = {j}u;")
        for q in range(rpt):
            o.append(f"    if (ok{q} && tid + {q * wg}u >= {j}u) {{ let v = cabs1(a{q}_{j}); "
                     f"if (v > best) {{ best = v; bi = tid + {q * wg}u; }} }}")
        # the workgroup's pivot search of LULeafSpec: the largest, the
        # first row on ties (subgroup shuffles, or a tree)
        o.append((PIVOT_WG_SUBGROUP if sg else PIVOT_WG_TREE).replace("${wg}", str(wg)))
        for q in range(rpt):
            row = ", ".join(f"a{q}_{c}" for c in range(W))
            o.append(f"    if (tid + {q * wg}u == p) {{ prow = array<T, {W}>({row}); pg = g{q}; }}")
            o.append(f"    if (tid + {q * wg}u == {j}u) {{ jrow = array<T, {W}>({row}); jg = g{q}; }}")
        if final:
            o.append("    if (tid == 0u && pv == R(0.0)) { atomicOr(&st[0], 1u); }")
        o.append("    workgroupBarrier();")
        o.append(f"    let d = prow[{j}];")
        o.append("    let pgv = pg;")
        o.append("    let jgv = jg;")
        for q in range(rpt):
            r = f"tid + {q * wg}u"
            o.append(f"    if ({r} == p) {{")
            for c in range(W):
                o.append(f"      a{q}_{c} = jrow[{c}];")
            o.append(f"      g{q} = jgv;")
            o.append("    }")
            o.append(f"    if ({r} == {j}u) {{")
            for c in range(W):
                o.append(f"      a{q}_{c} = prow[{c}];")
            o.append(f"      g{q} = pgv;")
            o.append("    }")
            o.append(f"    if (ok{q} && {r} > {j}u) {{")
            o.append(f"      var l = a{q}_{j};")
            o.append(f"      if (pv != R(0.0)) {{ l = dv(l, d); a{q}_{j} = l; }}")
            for c in range(j + 1, W):
                o.append(f"      a{q}_{c} = a{q}_{c} - mul(l, prow[{c}]);")
            o.append("    }")
        o.append("  }")
        step = "\n".join(o)
        step = re.sub(r"\b(rv|ri|prow|jrow|pg|jg)\b", lambda mt: f"{mt.group(1)}{j % 2}",
                      step)
        out.append(step)
    return "\n".join(out)


@dataclasses.dataclass(frozen=True)
class TsluSpec(KernelSpec):
    """Partial pivoting on blocks of ``rpt * wg`` rows of a W-column panel held in
    registers. ``final`` False: a workgroup per (matrix, block) of the panel A, writing
    candidates (Cv (B, nblk * W, W) values, Ci row numbers, 0xffffffff where none). True: a
    workgroup per matrix over the candidates, writing L11 \\ U11 (Lu, (B, W, W)), ipiv
    (LAPACK interchanges + pbase) and the status bit."""

    t: WType
    W: int
    wg: int
    rpt: int
    final: bool
    sg: bool = False
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # every index is structural: A / Cv / Ci / Lu / ipiv through the caller's words
    # (rows gated by < m / < nrow, columns by constants < W and < nc), the candidate
    # rows read back through sel clamped to m - 1 (their values come from data flow),
    # workgroup arrays by constants, tid + s < wg (tree), sid / s < nsg <= wg, private
    # arrays none; every loop is counted by W * W, wg, the subgroup size or nsg
    trusted: bool = False
    # (not final) one block holds the whole leaf (nblk == 1): its partial pivoting is the
    # leaf's, so it writes Lu / ipiv / the status bit itself and no final round runs
    solo: bool = False

    def layout(self, caps):
        words = ["m", "nc", "nbat", "nblk", "a_rs", "a_cs", "a_bs"]
        if self.solo and not self.final:
            bufs = [Buf("A", self.t.arr), Buf("Lu", self.t.arr, "rw"),
                    Buf("ipiv", "i32", "rw"), Buf("st", "atomic<u32>", "rw", offset=False)]
            words += ["p_bs", "pbase"]
        elif self.final:
            bufs = [Buf("Cv", self.t.arr), Buf("Ci", "u32"), Buf("Lu", self.t.arr, "rw"),
                    Buf("ipiv", "i32", "rw"), Buf("st", "atomic<u32>", "rw", offset=False)]
            words += ["rc", "p_bs", "pbase"]
        else:
            bufs = [Buf("A", self.t.arr), Buf("Cv", self.t.arr, "rw"),
                    Buf("Ci", "u32", "rw")]
        return Layout(bufs, words, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        W, wg, rpt = self.W, self.wg, self.rpt
        sg = self.sg and caps.subgroup
        sgargs = (", @builtin(subgroup_size) sgs: u32, @builtin(subgroup_invocation_id) "
                  "sgi: u32, @builtin(subgroup_id) sid: u32, @builtin(num_subgroups) nsg: u32"
                  ) if sg else ""
        pre = prelude(self.t) + ("\n" + shuffles(self.t) if sg else "")
        nblk, m, nc = tk["nblk"], tk["m"], tk["nc"]
        rows = rpt * wg
        head = [pre, tk["layout"]]
        for x in ("0", "1"):
            head += [f"var<workgroup> rv{x}: array<R, {wg}>;",
                     f"var<workgroup> ri{x}: array<u32, {wg}>;",
                     f"var<workgroup> prow{x}: array<T, {W}>;",
                     f"var<workgroup> jrow{x}: array<T, {W}>;",
                     f"var<workgroup> pg{x}: u32;",
                     f"var<workgroup> jg{x}: u32;"]
        head += [
                f"var<workgroup> sel: array<u32, {W}>;",
                f"@compute @workgroup_size({wg})",
                "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) "
                f"nw: vec3<u32>, @builtin(local_invocation_index) tid: u32{sgargs}) {{",
                "  let gid = wid.x + wid.y * nw.x;"]
        body = []
        if self.final:
            body.append(f"  if (gid >= {tk['nbat']}) {{ return; }}")
            body.append("  let b = gid;")
            body.append(f"  let cb = {tk['Cv_off']} + b * {nblk} * {W * W}u;")
            body.append(f"  let ib = {tk['Ci_off']} + b * {nblk} * {W}u;")
            body.append(f"  let nrow = {nblk} * {W}u;")
            for q in range(rpt):
                body.append(f"  var g{q} = {NONE};")
                body.append(f"  if (tid + {q * wg}u < nrow) {{ g{q} = Ci[ib + tid + {q * wg}u]; }}")
                body.append(f"  let ok{q} = g{q} != {NONE};")
                for c in range(W):
                    body.append(f"  var a{q}_{c} = zero();")
                body.append(f"  if (ok{q}) {{")
                for c in range(W):
                    body.append(f"    a{q}_{c} = Cv[cb + (tid + {q * wg}u) * {W}u + {c}u];")
                body.append("  }")
        else:
            body.append(f"  if (gid >= {tk['nbat']} * {nblk}) {{ return; }}")
            body.append(f"  let b = gid / {nblk};")
            body.append(f"  let blk = gid % {nblk};")
            body.append(f"  let ab = {tk['A_off']} + b * {tk['a_bs']};")
            body.append(f"  let r0 = blk * {rows}u;")
            for q in range(rpt):
                body.append(f"  let gr{q} = r0 + tid + {q * wg}u;")
                body.append(f"  let ok{q} = gr{q} < {m};")
                body.append(f"  var g{q} = gr{q};")
                for c in range(W):
                    body.append(f"  var a{q}_{c} = zero();")
                body.append(f"  if (ok{q}) {{")
                for c in range(W):
                    body.append(f"    if ({c}u < {nc}) {{ a{q}_{c} = A[ab + gr{q} * {tk['a_rs']} + "
                                f"{c}u * {tk['a_cs']}]; }}")
                body.append("  }")
        if self.final:
            # valid candidates: a prefix (only the last block can come short); counted
            # from the words, not the buffer, so the barriers stay in uniform control flow
            body.append(f"  let nvalid = ({nblk} - 1u) * {W}u + min({W}u, {m} - ({nblk} - 1u) * {tk['rc']});")
        else:
            body.append(f"  let nvalid = min({rows}u, {m} - r0);")
        body.append(f"  let kmax = min(nvalid, min({nc}, {W}u));")
        solo = self.solo and not self.final
        body.append(_gepp(W, rpt, wg, sg, self.final or solo))
        # the picked rows (local rows 0 .. kmax - 1 now) and their row numbers
        for q in range(rpt):
            body.append(f"  if (tid + {q * wg}u < kmax) {{ sel[tid + {q * wg}u] = g{q}; }}")
        body.append("  workgroupBarrier();")
        if self.final or solo:
            pb = f"{tk['ipiv_off']} + b * {tk['p_bs']}"
            lb = f"{tk['Lu_off']} + b * {W * W}u"
            for q in range(rpt):
                body.append(f"  if (tid + {q * wg}u < {W}u) {{")
                for c in range(W):
                    body.append(f"    Lu[{lb} + (tid + {q * wg}u) * {W}u + {c}u] = a{q}_{c};")
                body.append("  }")
            # the pivot rows as LAPACK interchanges: row i <-> the current place of sel[i]
            # sel[i] has not been picked before step i, so it moved only if it sat at
            # place k < i when step k swapped place k with p_k (p_k holds sel[k]):
            # p_i = sel[i] pushed through k = 0 .. i - 1 (x == k -> x = p_k), unrolled
            o = ["  if (tid == 0u) {"]
            o += [f"    var p{i} = 0u;" for i in range(W)]
            for i in range(W):
                o.append(f"    if ({i}u < kmax) {{")
                o.append(f"      var x = sel[{i}];")
                for k in range(i):
                    o.append(f"      x = select(x, p{k}, x == {k}u);")
                o.append(f"      p{i} = x;")
                o.append(f"      ipiv[{pb} + {i}u] = i32({tk['pbase']} + x);")
                o.append("    }")
            o.append("  }")
            body += o
        else:
            cb = f"{tk['Cv_off']} + gid * {W * W}u"
            ib = f"{tk['Ci_off']} + gid * {W}u"
            body.append(f"""  for (var e = tid; e < {W * W}u; e += {wg}u) {{
    let i = e / {W}u;
    let c = e % {W}u;
    var v = zero();
    if (i < kmax && c < {nc}) {{ v = A[ab + min(sel[i], {m} - 1u) * {tk['a_rs']} + c * {tk['a_cs']}]; }}
    Cv[{cb} + e] = v;
  }}
  for (var i = tid; i < {W}u; i += {wg}u) {{ Ci[{ib} + i] = select({NONE}, sel[i], i < kmax); }}""")
        body.append("}")
        return "\n".join(head + body)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class TsluApplySpec(KernelSpec):
    """After the interchanges: rows 0 .. W - 1 of the (B, m, nc) leaf take L11 \\ U11 from
    Lu; every row below solves l U11 = a (L21 = A21 U11^-1; a zero pivot leaves its column
    undivided, as partial pivoting does). A row per invocation."""

    t: WType
    W: int
    wg: int = 256
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # every index is structural: rows r < m and columns c < min(nc, W) of the caller's
    # view, Lu / u by e < W * W and r * W + c with r < kmax <= W, c < min(nc, W); the
    # loops are counted by W * W and min(nc, W). No index comes from data.
    trusted: bool = False

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("Lu", self.t.arr)],
                      ["m", "nc", "nbat", "nrb", "a_rs", "a_cs", "a_bs"], caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        W, wg = self.W, self.wg
        nc = tk["nc"]
        lines = [prelude(self.t), tk["layout"],
                 f"var<workgroup> u: array<T, {W * W}>;",
                 f"@compute @workgroup_size({wg})",
                 "fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) "
                 "nw: vec3<u32>, @builtin(local_invocation_index) tid: u32) {",
                 "  let gid = wid.x + wid.y * nw.x;",
                 f"  if (gid >= {tk['nbat']} * {tk['nrb']}) {{ return; }}",
                 f"  let b = gid / {tk['nrb']};",
                 f"  let r = (gid % {tk['nrb']}) * {wg}u + tid;",
                 f"  let lb = {tk['Lu_off']} + b * {W * W}u;",
                 f"  for (var e = tid; e < {W * W}u; e += {wg}u) {{ u[e] = Lu[lb + e]; }}",
                 "  workgroupBarrier();",
                 f"  if (r >= {tk['m']}) {{ return; }}",
                 f"  let ab = {tk['A_off']} + b * {tk['a_bs']} + r * {tk['a_rs']};",
                 f"  let kmax = min({tk['m']}, min({nc}, {W}u));",
                 "  if (r < kmax) {",
                 f"    for (var c = 0u; c < min({nc}, {W}u); c++) {{ A[ab + c * {tk['a_cs']}] = u[r * {W}u + c]; }}",
                 "    return;",
                 "  }"]
        for c in range(W):
            lines.append(f"  var x{c} = zero();")
            lines.append(f"  if ({c}u < {nc}) {{ x{c} = A[ab + {c}u * {tk['a_cs']}]; }}")
        for c in range(W):
            lines.append(f"  if ({c}u < kmax) {{")
            for k in range(c):
                lines.append(f"    x{c} = x{c} - mul(x{k}, u[{k * W + c}]);")
            lines.append(f"    let d{c} = u[{c * W + c}];")
            lines.append(f"    if (cabs1(d{c}) != R(0.0)) {{ x{c} = dv(x{c}, d{c}); }}")
            lines.append("  }")
        for c in range(W):
            lines.append(f"  if ({c}u < {nc}) {{ A[ab + {c}u * {tk['a_cs']}] = x{c}; }}")
        lines.append("}")
        return "\n".join(lines)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


def variants():
    from ....._core import dtypes as dt
    from ...codegen.types import WTYPES
    out = []
    for d in (dt.float32, dt.float64, dt.complex64, dt.complex128):
        t = WTYPES[d]
        for W in (16, 32):
            out += [TsluSpec(t, W, 256, r, f, sg, tr) for r in (1, 4) for f in (False, True)
                    for sg in (False, True) for tr in (False, True)]
            out += [TsluSpec(t, W, 128, 1, False, sg) for sg in (False, True)]
            out += [TsluSpec(t, W, 256, r, False, sg, tr, True) for r in (1, 2, 4)
                    for sg in (False, True) for tr in (False, True)]
            out += [TsluApplySpec(t, W), TsluApplySpec(t, W, trusted=True)]
    return out
