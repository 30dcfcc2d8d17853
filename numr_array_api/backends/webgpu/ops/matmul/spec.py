"""The GEMM and row-dot kernels as specs.

GemmSpec: C[bi, r, c] (+)= sum_k A[bi, r, k] * B[bi, k, c], every operand read through its
own (row, column, batch) strides, so transposed, flipped and broadcast (batch stride 0)
views need no copy, and C is written through (row, batch) strides plus an offset, so a
launch can fill one panel of a larger output. Threads own interleaved register blocks
(rows ly * tm + i, columns lx * tn + j); K advances through workgroup tiles padded by one
element per row (scalar tiles) or stored as vec4 rows (float32). The accumulator is the
operand's WGSL value type (f32 also for float16, wrapping ints, vec2 for complex).
``accumulate``: C is read and added to (K panels of data beyond one binding).
``epilogue``: a fragment (ext's fused GEMM epilogues) with its own bindings and words,
applied to each accumulator in registers before its single store.

DotSpec: out[r] = sum_k conj(A[r, k]) * B[r, k] (vecdot): one thread per row, or one
64-thread workgroup per long row with a workgroup tree sum.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout, Words
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType, load, render_helpers
from .configs import CONFIGS, DB_NAMES, WG_X, WG_Y, TileConfig, db_fits

# 4-byte compute dtype of sub-word operands (the result is narrowed afterwards)
WIDE = {dt.int8: dt.int32, dt.int16: dt.int32, dt.uint8: dt.uint32, dt.uint16: dt.uint32,
        dt.float16: dt.float32, dt.bool_: dt.uint32}


F16X4 = """fn f16x4(w: vec2<u32>) -> vec4<f32> {
  return vec4<f32>(f16_to_f32(w.x & 0xffffu), f16_to_f32(w.x >> 16u),
                   f16_to_f32(w.y & 0xffffu), f16_to_f32(w.y >> 16u));
}"""


def zero(v: str) -> str:
    return {"f32": "0.0f", "f64": "0.0lf", "i32": "0i", "u32": "0u", "i64": "0li",
            "u64": "0lu", "vec2<f32>": "vec2<f32>(0.0f)", "vec2<f64>": "vec2<f64>(0.0lf)",
            "vec4<f32>": "vec4<f32>(0.0f)"}[v]


def batch_fn(lay: Layout, brank: int) -> str:
    """WGSL ``batch_off(bi) -> vec2<u32>``: A's and B's element offsets of batch ``bi``
    (word array ``batch``: per batch dim its extent, A's stride, B's stride)."""
    lines = ["fn batch_off(bi: u32) -> vec2<u32> {", "  var r = bi;",
             f"  var oa = {lay.word('A_off')};", f"  var ob = {lay.word('B_off')};"]
    for d in reversed(range(brank)):
        n, sa, sb = (lay.word("batch", 3 * d + j) for j in range(3))
        if d == 0:
            lines.append(f"  oa += r * {sa}; ob += r * {sb};")
        else:  # unsigned division only: signed % is miscompiled on some drivers
            lines.append(f"  let q{d} = r / {n}; let c{d} = r - q{d} * {n}; r = q{d};")
            lines.append(f"  oa += c{d} * {sa}; ob += c{d} * {sb};")
    lines += ["  return vec2<u32>(oa, ob);", "}"]
    return "\n".join(lines)


_GEMM = Template("""${helpers}
${layout}
var<workgroup> As: array<${sa_t}, ${sa_len}>;
var<workgroup> Bs: array<${sa_t}, ${sb_len}>;
${batch_fn}
${epilogue}
@compute @workgroup_size(${wgx}, ${wgy})
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let M = ${M}; let N = ${N}; let K = ${K}; let nb = ${nb};
  let lx = l.x; let ly = l.y;
  let tid = ly * ${wgx}u + lx;
  let row0 = wg.y * ${bm}u; let col0 = wg.x * ${bn}u;
  for (var bi = wg.z; bi < nb; bi += nw.z) {
    let o = batch_off(bi);
${decl}
    for (var k0 = 0u; k0 < K; k0 += ${bk}u) {
${loads}
      workgroupBarrier();
      for (var kk = 0u; kk < ${bk}u; kk++) {
${inner}
      }
      workgroupBarrier();
    }
    let cb = ${C_off} + bi * ${c_bs};
    let cc = col0 + lx * ${tn}u;
${rows}
${stores}
  }
}
""", "gemm")


def rolled_stores(V, n, vals, index, c_rs, acc, vec4=None):
    """The stores of an epilogue GEMM as one loop over the thread's ``n`` outputs, so the
    epilogue (with its inlined math library) is compiled once, not once a register.
    ``vals``: the register expressions in output order; ``index``: WGSL lines that derive
    ``r`` / ``c`` from the loop counter ``e``; ``vec4``: the vec4 type when C is bound as
    vec4s (``vals`` are then vec4 registers, ``c`` their first column)."""
    decl = f"array<{vec4 or V}, {n}u>"
    lines = [f"    var ev: {decl};"]
    lines += [f"    ev[{k}] = {v};" for k, v in enumerate(vals)]
    lines.append(f"    for (var e = 0u; e < {n}u; e++) {{")
    lines += ["      " + x for x in index]
    if vec4:
        lines.append(f"""      if (r < M && c < N) {{
        let ci = (cb + r * {c_rs} + c) >> 2u;
        let v = ev[e]{acc};
        var o = {vec4}();
        for (var q = 0u; q < 4u; q++) {{ o[q] = epilogue(v[q], r, c + q, bi); }}
        C[ci] = o;
      }}""")
    else:
        lines.append(f"      if (r < M && c < N) {{ let ci = cb + r * {c_rs} + c; "
                     f"C[ci] = epilogue(ev[e]{acc}, r, c, bi); }}")
    lines.append("    }")
    return lines


@dataclasses.dataclass(frozen=True)
class GemmSpec(KernelSpec):
    t: WType                  # operand type (loads)
    out_t: WType              # accumulator / output type
    brank: int                # collapsed batch rank
    cfg: TileConfig
    epilogue: Optional[Any] = None   # a frozen fragment spec (ext_kernels.EpilogueSpec)
    accumulate: bool = False
    vload: bool = False   # db kernels: A and B bound as vec4 arrays (aligned, contiguous)
    vstore: bool = False  # db kernels: C bound as a vec4 array (aligned rows, N % 4 == 0)
    style: str = ""       # db kernels: "u" the K loop unrolled in WGSL, "uf" also fma()
    trusted: bool = False  # compiled without wgpu's index clamps and loop counters
    # the epilogue's stores as one loop (one call site) rather than one copy per register:
    # an activation with erf / tanh inlined tm * tn times takes LLVM (lavapipe) minutes
    epi_loop: bool = False

    def runtime_checks(self):
        # every workgroup-tile index derives from the invocation id and constants, global
        # loads and stores are guarded by M / N / K, the loops run nt / nb times
        return 0 if self.trusted and self.epilogue is None else None

    def layout(self, caps):
        el = self.t.arr
        if self.vload:  # float16: 4 halves in a vec2<u32>
            el = "vec2<u32>" if self.t.name == "float16" else f"vec4<{self.t.arr}>"
        cel = f"vec4<{self.out_t.arr}>" if self.vstore else self.out_t.arr
        bufs = [Buf("A", el), Buf("B", el), Buf("C", cel, "rw")]
        words = ["M", "N", "K", "nb", "a_rs", "a_cs", "b_rs", "b_cs", "c_rs", "c_bs",
                 Words("batch", max(1, 3 * self.brank))]
        if self.epilogue is not None:
            bufs += self.epilogue.bufs(self.t)
            words += self.epilogue.words()
        return Layout(bufs, words, caps)

    def render(self, caps):
        if self.cfg.db:
            return self._render_db(caps)
        lay = self.layout(caps)
        t, cfg = self.t, self.cfg
        helpers = set()
        V = t.val
        tm, tn, bk, bm, bn = cfg.tm, cfg.tn, cfg.bk, cfg.bm, cfg.bn
        epi = "" if self.epilogue is None else self.epilogue.render(lay, t, helpers)

        def fin(v, r, c):
            return v if self.epilogue is None else f"epilogue({v}, {r}, {c}, bi)"
        la = load(t, "A", "ia", helpers)
        lb = load(t, "B", "ib", helpers)
        a_rs, a_cs, b_rs, b_cs = (lay.word(w) for w in ("a_rs", "a_cs", "b_rs", "b_cs"))
        if cfg.vec:
            sa_t, sa_row, sb_row = "vec4<f32>", bm // 4, bn // 4
            a_put = f"As[ak * {sa_row}u + am / 4u][am % 4u] = v;"
            b_put = f"Bs[bkk * {sb_row}u + bnn / 4u][bnn % 4u] = w;"
        else:
            sa_t, sa_row, sb_row = V, bm + 1, bn + 1
            a_put = f"As[ak * {sa_row}u + am] = v;"
            b_put = f"Bs[bkk * {sb_row}u + bnn] = w;"
        nthr = WG_X * WG_Y
        loads = []
        for i in range(bm * bk // nthr):
            loads.append(f"""      {{
        let e = tid + {i * nthr}u;
        let am = e / {bk}u; let ak = e % {bk}u;
        let gm = row0 + am; let gk = k0 + ak;
        var v = {zero(V)};
        if (gm < M && gk < K) {{ let ia = o.x + gm * {a_rs} + gk * {a_cs}; v = {la}; }}
        {a_put}
      }}""")
        for i in range(bn * bk // nthr):
            loads.append(f"""      {{
        let e = tid + {i * nthr}u;
        let bkk = e / {bn}u; let bnn = e % {bn}u;
        let gk = k0 + bkk; let gn = col0 + bnn;
        var w = {zero(V)};
        if (gk < K && gn < N) {{ let ib = o.y + gk * {b_rs} + gn * {b_cs}; w = {lb}; }}
        {b_put}
      }}""")
        inner, decl, stores = [], [], []
        c_rs = lay.word("c_rs")
        acc = " + C[ci]" if self.accumulate else ""

        def store(r, c, v):
            return (f"    if ({r} < M && {c} < N) {{ let ci = cb + {r} * {c_rs} + {c}; "
                    f"C[ci] = {fin(v + acc, r, c)}; }}")
        if cfg.vec:
            for i in range(tm // 4):
                inner.append(f"        let a{i} = As[kk * {sa_row}u + ly * {tm // 4}u + {i}u];")
            for j in range(tn // 4):
                inner.append(f"        let b{j} = Bs[kk * {sb_row}u + lx * {tn // 4}u + {j}u];")
            for i in range(tm):
                for j in range(tn // 4):
                    decl.append(f"    var c{i}_{j} = vec4<f32>(0.0f);")
                    inner.append(f"        c{i}_{j} += a{i // 4}[{i % 4}] * b{j};")
                    for q in range(4):
                        stores.append(store(f"r{i}", f"cc + {4 * j + q}u", f"c{i}_{j}[{q}]"))
        else:
            for i in range(tm):
                inner.append(f"        let a{i} = As[kk * {sa_row}u + ly * {tm}u + {i}u];")
            for j in range(tn):
                inner.append(f"        let b{j} = Bs[kk * {sb_row}u + lx * {tn}u + {j}u];")
            for i in range(tm):
                for j in range(tn):
                    decl.append(f"    var c{i}_{j} = {zero(V)};")
                    if V.startswith("vec2"):
                        inner.append(f"        c{i}_{j} += vec2(a{i}.x * b{j}.x - a{i}.y * b{j}.y,"
                                     f" a{i}.x * b{j}.y + a{i}.y * b{j}.x);")
                    else:
                        inner.append(f"        c{i}_{j} += a{i} * b{j};")
                    stores.append(store(f"r{i}", f"cc + {j}u", f"c{i}_{j}"))
        rows = [f"    let r{i} = row0 + ly * {tm}u + {i}u;" for i in range(tm)]
        if self.epi_loop and self.epilogue is not None:
            if cfg.vec:
                vals = [f"c{i}_{jj // 4}[{jj % 4}]" for i in range(tm) for jj in range(tn)]
            else:
                vals = [f"c{i}_{jj}" for i in range(tm) for jj in range(tn)]
            rows = []
            stores = rolled_stores(V, tm * tn, vals, [
                f"let r = row0 + ly * {tm}u + e / {tn}u; let c = cc + e % {tn}u;"],
                c_rs, acc)
        nl = "\n"
        return _GEMM.render(
            lay.tokens(), helpers=render_helpers(helpers, caps.int64), sa_t=sa_t,
            sa_len=bk * sa_row, sb_len=bk * sb_row, batch_fn=batch_fn(lay, self.brank),
            epilogue=epi, wgx=WG_X, wgy=WG_Y, bm=bm, bn=bn, bk=bk, tn=tn,
            decl=nl.join(decl), loads=nl.join(loads), inner=nl.join(inner),
            rows=nl.join(rows), stores=nl.join(stores))

    def _render_db(self, caps):
        """The double-buffered kernel (f32 / f64): K advances ``bk`` at a time through two
        pairs of workgroup tiles; while one pair feeds the FMAs, the next K tile is already
        loaded into registers (issued before the FMAs, stored after them), so one barrier
        per K tile suffices. Each thread loads whole 4-element chunks (4 consecutive k of a
        row of A, 4 consecutive columns of a row of B): one vec4 load each when ``vload``.
        A is stored transposed (k-major, one vec4 of padding per row for 4-byte types).
        Register blocks are interleaved: thread (lx, ly) owns rows ``h * 4 * WG_Y + 4 * ly
        + r`` and columns ``h * 4 * WG_X + 4 * lx + q``, so the vec4 reads of a warp are
        consecutive in workgroup memory (no bank conflicts)."""
        lay = self.layout(caps)
        t, cfg = self.t, self.cfg
        helpers = set()
        V = t.val
        V4 = f"vec4<{V}>"
        tm, tn, bk, bm, bn = cfg.tm, cfg.tn, cfg.bk, cfg.bm, cfg.bn
        nthr = WG_X * WG_Y
        epi = "" if self.epilogue is None else self.epilogue.render(lay, t, helpers)

        def fin(v, r, c):
            return v if self.epilogue is None else f"epilogue({v}, {r}, {c}, bi)"
        la = load(t, "A", "ia", helpers)
        lb = load(t, "B", "ib", helpers)
        a_rs, a_cs, b_rs, b_cs = (lay.word(w) for w in ("a_rs", "a_cs", "b_rs", "b_cs"))
        pad = 1 if t.itemsize == 4 else 0
        sa, sb = bm // 4 + pad, bn // 4          # vec4s per row of the A / B tiles
        a_size, b_size = bk * sa, bk * sb        # vec4s per tile
        ca, cb = bm * bk // 4, bn * bk // 4      # 4-element chunks per tile
        kq = bk // 4
        z4 = f"{V4}()"

        def vl(buf, idx):
            """4 consecutive elements as a vec4 of the accumulator type."""
            if t.name != "float16":
                return f"{buf}[{idx}]"
            helpers.add("f16_to_f32")
            w = f"{buf}[{idx}]"
            return (f"f16x4({w})")
        if t.name == "float16" and self.vload:
            helpers.add("f16_to_f32")
        lines_ld, lines_st, regs = [], [], []
        for i in range(-(-ca // nthr)):
            regs.append(f"    var ra{i} = {z4};")
            guard = f"tid + {i * nthr}u < {ca}u" if (i + 1) * nthr > ca else "true"
            if self.vload:
                fetch = (f"if (gm < M && gk < K) {{ ra{i} = "
                         f"{vl('A', f'(o.x + gm * {a_rs} + gk) >> 2u')}; }}")
            else:
                fetch = "".join(
                    f"if (gm < M && gk + {q}u < K) {{ let ia = o.x + gm * {a_rs} + (gk + {q}u)"
                    f" * {a_cs}; ra{i}[{q}] = {la}; }} " for q in range(4))
            lines_ld.append(f"""        if ({guard}) {{
          let e = tid + {i * nthr}u;
          let gm = row0 + e / {kq}u; let gk = k1 + (e % {kq}u) * 4u;
          ra{i} = {z4};
          {fetch}
        }}""")
            puts = " ".join(f"As[ab + ({q}u + kk) * {sa}u + am4][ami] = ra{i}[{q}];"
                            for q in range(4))
            lines_st.append(f"""        if ({guard}) {{
          let e = tid + {i * nthr}u;
          let am = e / {kq}u; let kk = (e % {kq}u) * 4u;
          let am4 = am / 4u; let ami = am % 4u;
          {puts}
        }}""")
        for i in range(-(-cb // nthr)):
            regs.append(f"    var rb{i} = {z4};")
            guard = f"tid + {i * nthr}u < {cb}u" if (i + 1) * nthr > cb else "true"
            if self.vload:
                fetch = (f"if (gk < K && gn < N) {{ rb{i} = "
                         f"{vl('B', f'(o.y + gk * {b_rs} + gn) >> 2u')}; }}")
            else:
                fetch = "".join(
                    f"if (gk < K && gn + {q}u < N) {{ let ib = o.y + gk * {b_rs} + (gn + {q}u)"
                    f" * {b_cs}; rb{i}[{q}] = {lb}; }} " for q in range(4))
            lines_ld.append(f"""        if ({guard}) {{
          let e = tid + {i * nthr}u;
          let gk = k1 + e / {sb}u; let gn = col0 + (e % {sb}u) * 4u;
          rb{i} = {z4};
          {fetch}
        }}""")
            lines_st.append(f"""        if ({guard}) {{
          let e = tid + {i * nthr}u;
          Bs[bb + (e / {sb}u) * {sb}u + e % {sb}u] = rb{i};
        }}""")
        decl, inner, stores = [], [], []
        for h in range(tm // 4):
            inner.append(f"        let a{h} = As[ab + kk * {sa}u + {h * WG_Y}u + ly];")
        for h in range(tn // 4):
            inner.append(f"        let b{h} = Bs[bb + kk * {sb}u + {h * WG_X}u + lx];")
        c_rs = lay.word("c_rs")
        acc = " + C[ci]" if self.accumulate else ""
        for i in range(tm):
            r = f"row0 + {(i // 4) * 4 * WG_Y + i % 4}u + ly * 4u"
            stores.append(f"    {{ let r = {r};")
            stores.append("    if (r < M) {")
            for j in range(tn // 4):
                decl.append(f"    var c{i}_{j} = {z4};")
                if "f" in self.style:
                    inner.append(f"        c{i}_{j} = fma({V4}(a{i // 4}[{i % 4}]), b{j}, "
                                 f"c{i}_{j});")
                else:
                    inner.append(f"        c{i}_{j} += a{i // 4}[{i % 4}] * b{j};")
                if self.vstore:   # c % 4 == 0 and N % 4 == 0: c < N covers c + 3
                    col = f"col0 + {j * 4 * WG_X}u + lx * 4u"
                    v = f"c{i}_{j}" + (" + C[ci]" if self.accumulate else "")
                    if self.epilogue is not None:
                        v = f"{V4}(" + ", ".join(
                            f"epilogue(v[{q}], r, c + {q}u, bi)" for q in range(4)) + ")"
                        pre = f"let v = c{i}_{j}" + (" + C[ci]" if self.accumulate else "") + "; "
                    else:
                        pre = ""
                    stores.append(f"      {{ let c = {col}; if (c < N) {{ let ci = (cb + r * "
                                  f"{c_rs} + c) >> 2u; {pre}C[ci] = {v}; }} }}")
                    continue
                for q in range(4):
                    col = f"col0 + {j * 4 * WG_X + q}u + lx * 4u"
                    stores.append(f"      {{ let c = {col}; if (c < N) {{ let ci = cb + r * "
                                  f"{c_rs} + c; C[ci] = {fin(f'c{i}_{j}[{q}]' + acc, 'r', 'c')};"
                                  f" }} }}")
            stores.append("    } }")
        if self.epi_loop and self.epilogue is not None:
            row = f"row0 + (i / 4u) * {4 * WG_Y}u + (i % 4u) + ly * 4u"
            if self.vstore:
                q4 = tn // 4
                stores = rolled_stores(V, tm * q4, [f"c{i}_{j}" for i in range(tm)
                                                    for j in range(q4)], [
                    f"let i = e / {q4}u; let r = {row};",
                    f"let c = col0 + (e % {q4}u) * {4 * WG_X}u + lx * 4u;"],
                    c_rs, acc, V4)
            else:
                stores = rolled_stores(V, tm * tn, [f"c{i}_{jj // 4}[{jj % 4}]"
                                                    for i in range(tm) for jj in range(tn)], [
                    f"let i = e / {tn}u; let jj = e % {tn}u; let r = {row};",
                    f"let c = col0 + (jj / 4u) * {4 * WG_X}u + (jj % 4u) + lx * 4u;"],
                    c_rs, acc)
        nl = "\n"
        tiles = f"  let row0 = wg.y * {bm}u; let col0 = wg.x * {bn}u;"
        loop_ld, loop_st = nl.join(lines_ld), nl.join(lines_st)
        # unrolled: kk a constant in each copy
        k_loop = nl.join(f"        {{ let kk = {kk}u;\n" + nl.join(inner) + "\n        }"
                         for kk in range(bk))
        src = f"""{render_helpers(helpers, caps.int64)}
{lay.decl()}
{F16X4 if t.name == "float16" and self.vload else ""}
var<workgroup> As: array<{V4}, {2 * a_size}>;
var<workgroup> Bs: array<{V4}, {2 * b_size}>;
{batch_fn(lay, self.brank)}
{epi}
@compute @workgroup_size({WG_X}, {WG_Y})
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let M = {lay.word('M')}; let N = {lay.word('N')}; let K = {lay.word('K')};
  let nb = {lay.word('nb')};
  let lx = l.x; let ly = l.y;
  let tid = ly * {WG_X}u + lx;
{tiles}
  let nt = (K + {bk - 1}u) / {bk}u;
  for (var bi = wg.z; bi < nb; bi += nw.z) {{
    let o = batch_off(bi);
{nl.join(decl)}
{nl.join(regs)}
    {{
      let k1 = 0u;
{nl.join(lines_ld)}
      let ab = 0u; let bb = 0u;
{nl.join(lines_st)}
    }}
    workgroupBarrier();
    for (var kt = 0u; kt < nt; kt++) {{
      let cur = kt & 1u;
      let more = kt + 1u < nt;
      if (more) {{
        let k1 = (kt + 1u) * {bk}u;
{loop_ld}
      }}
      {{
        let ab = cur * {a_size}u; let bb = cur * {b_size}u;
{k_loop}
      }}
      if (more) {{
        let ab = (1u - cur) * {a_size}u; let bb = (1u - cur) * {b_size}u;
{loop_st}
      }}
      workgroupBarrier();
    }}
    let cb = {lay.word('C_off')} + bi * {lay.word('c_bs')};
{nl.join(stores)}
  }}
}}
"""
        return src

    @property
    def label(self):
        epi = "" if self.epilogue is None else "_" + self.epilogue.label
        return (f"gemm_{self.t.name}_b{self.brank}_{self.cfg.name}"
                f"{'_v' if self.vload else ''}{'_w' if self.vstore else ''}"
                f"{'_T' if self.trusted else ''}"
                f"{'_' + self.style if self.style else ''}"
                f"{'_acc' if self.accumulate else ''}{epi}")


@dataclasses.dataclass(frozen=True)
class PieceSumSpec(KernelSpec):
    """C[i] = sum over p of Parts[p * n + i], in order p = 0, 1, ...: the partial products of a
    split-K GEMM summed (one thread per output element; deterministic)."""
    out_t: WType

    def needs(self):
        return ("f64",) if self.out_t.val == "f64" else ()

    def layout(self, caps):
        return Layout([Buf("Parts", self.out_t.arr), Buf("C", self.out_t.arr, "rw")],
                      ["n", "pieces"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        return f"""{lay.decl()}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {{
  let n = {lay.word('n')}; let pieces = {lay.word('pieces')};
  let i = g.x + g.y * nw.x * 256u;
  if (i >= n) {{ return; }}
  let p0 = {lay.word('Parts_off')} + i;
  var s = Parts[p0];
  for (var p = 1u; p < pieces; p++) {{ s += Parts[p0 + p * n]; }}
  C[{lay.word('C_off')} + i] = s;
}}
"""

    @property
    def label(self):
        return f"gemm_piecesum_{self.out_t.name}"


_DOT = Template("""${helpers}
${layout}
${shared}
${batch_fn}
@compute @workgroup_size(${wgsize})
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let R = ${nb}; let K = ${K};
${body}
}
""", "rowdot")


@dataclasses.dataclass(frozen=True)
class DotSpec(KernelSpec):
    t: WType
    out_t: WType
    brank: int
    wide: bool       # one workgroup per row (long rows)

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr), Buf("B", self.t.arr),
                       Buf("C", self.out_t.arr, "rw")],
                      ["nb", "K", "a_cs", "b_cs", Words("batch", max(1, 3 * self.brank))],
                      caps)

    def render(self, caps):
        lay = self.layout(caps)
        t = self.t
        helpers = set()
        V = t.val
        la = load(t, "A", "ia", helpers)
        lb = load(t, "B", "ib", helpers)
        if V.startswith("vec2"):
            mac = "s += vec2(x.x * y.x + x.y * y.y, x.x * y.y - x.y * y.x);"  # conj(x) * y
        else:
            mac = "s += x * y;"
        step = "64u" if self.wide else "1u"
        first = "l.x" if self.wide else "0u"
        loop = f"""    var s = {zero(V)};
    for (var k = {first}; k < K; k += {step}) {{
      let ia = o.x + k * {lay.word('a_cs')}; let ib = o.y + k * {lay.word('b_cs')};
      let x = {la}; let y = {lb};
      {mac}
    }}"""
        out = f"C[{lay.word('C_off')} + r]"
        if self.wide:
            body = f"""  for (var r = wg.x + wg.y * nw.x; r < R; r += nw.x * nw.y) {{
    let o = batch_off(r);
{loop}
    sh[l.x] = s;
    workgroupBarrier();
    for (var d = 32u; d > 0u; d >>= 1u) {{
      if (l.x < d) {{ sh[l.x] += sh[l.x + d]; }}
      workgroupBarrier();
    }}
    if (l.x == 0u) {{ {out} = sh[0]; }}
    workgroupBarrier();
  }}"""
            wgsize, shared = 64, f"var<workgroup> sh: array<{V}, 64>;"
        else:
            body = f"""  let stride = nw.x * nw.y * 256u;
  for (var r = (wg.x + wg.y * nw.x) * 256u + l.x; r < R; r += stride) {{
    let o = batch_off(r);
{loop}
    {out} = s;
  }}"""
            wgsize, shared = 256, ""
        return _DOT.render(lay.tokens(), helpers=render_helpers(helpers, caps.int64),
                           shared=shared, batch_fn=batch_fn(lay, self.brank),
                           wgsize=wgsize, body=body)

    @property
    def label(self):
        return f"dot_{self.t.name}_b{self.brank}_{'wg' if self.wide else 'th'}"


def _operand_types():
    for d in dt.ALL_DTYPES:
        if d is dt.bool_:
            continue
        yield WTYPES[d], WTYPES[WIDE.get(d, d)]


def variants():
    out = []
    for t, out_t in _operand_types():
        vec_ok = t.val == "f32" and t.name == "float32"
        for cfg in CONFIGS.values():
            if cfg.db:
                if t.name in DB_NAMES and db_fits(cfg, t.val, 32768):
                    # gemm.py's styles (GEMM_STYLE: "uf" for float32, "u" for the others)
                    for style in ("u", "uf"):
                        for vload in (False, True):
                            out.append(GemmSpec(t, out_t, 1, cfg, None, False, vload, vload,
                                                style, True))
                    out.append(GemmSpec(t, out_t, 2, cfg, None, True, False, True,
                                        "uf" if t.name == "float32" else "u", True))
                continue
            if cfg.vec and not vec_ok:
                continue
            if not cfg.vec and t.val == "vec2<f64>" and cfg.bk > 8:
                continue  # two 16-byte tiles of bk 16 exceed 32 KiB of workgroup memory
            out.append(GemmSpec(t, out_t, 1, cfg))
        cfg = CONFIGS["8x8k8v"] if vec_ok else CONFIGS["4x4k8" if t.val == "vec2<f64>"
                                                         else "4x4k16"]
        for brank, acc in ((0, False), (2, True)):
            out.append(GemmSpec(t, out_t, brank, cfg, None, acc))
        for wide in (False, True):
            out.append(DotSpec(t, out_t, 1, wide))
        if out_t.val in ("f32", "f64"):
            out.append(PieceSumSpec(out_t))
    return out
