"""The one reduction kernel frame (``ReduceSpec``), rendered from a table row.

Two mappings of work items to threads (chosen by plan.py from the layout):

* ``row``: a workgroup per (output, chunk of its reduced range): threads stride through the
  chunk (vec4 loads over a contiguous row when ``vec``), then the workgroup combines its
  threads' states (subgroup shuffles and one shared step where the adapter grants
  ``subgroup`` and the state is 32-bit; a shared-memory tree otherwise).
* ``col``: a thread per output (4 adjacent outputs with ``vec``: one vec4 load per row)
  and chunk of the reduced range, accumulating over rows: consecutive threads read
  consecutive addresses, so reducing along a non-contiguous axis stays coalesced.

The input is elements of dtype ``src`` or (``src is None``) partial states of an earlier
pass. ``out``: ``final`` writes ``post(state)`` to ``dst`` at a strided view index;
``merge`` combines into the state arrays ``d_<field>`` at that index (big data: boxes
accumulate into one state per output); ``part`` writes the chunk's state to a partials
array ((output, chunk) for ``row``, (chunk, output) for ``col``), which the next pass
reduces. Every index is u32 (a launch covers at most 2^30 elements, primitives/slabs.py);
argmax / argmin add the box's 64-bit base (``base_lo``, ``base_hi``). Each thread loops at
most a few hundred times (plan.py), inside lavapipe's 65535-iteration budget.
"""

from __future__ import annotations

import dataclasses
import itertools

from ....._core import dtypes as dt
from ...codegen.caps import Caps
from ...codegen.layout import Buf, Layout, Words
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import widen, WTYPES, convert, load, pack, render_helpers
from . import table as T

__all__ = ["ReduceSpec", "variants", "types_of"]

_FRAME = Template("""${helpers}
${layout}
${prologue}
${isnan}
${pick}
${cmul}
struct St {
${fields}
}
fn ident() -> St { return St(${ident}); }
fn comb(a: St, b: St) -> St {
  ${comb}
}
fn fold(s: St, x: ${X}, i: ${I}) -> St {
  ${fold}
}
fn post(s: St, dv: ${DV}) -> ${R} {
  ${post}
}
${index_fns}
${access_fns}
${wg_reduce}
${main}
""", "reduction frame")


@dataclasses.dataclass(frozen=True)
class Types:
    A: str   # accumulator
    F: str   # var / std float
    I: str   # index / count
    X: str   # folded element type
    R: str   # result written by ``final``
    DV: str  # divisor type of post


def types_of(op, src, acc, caps) -> Types:
    """The WGSL types a kernel of ``op`` works in."""
    a = T.acc_wtype(acc).val
    if a == "bool":  # all / any / count_nonzero accumulate u32 / I
        a = "u32"
    f = T.acc_wtype(acc).val if op in ("var", "std") else "f32"
    i = "i64" if caps.int64 else "u32"
    row = T.row(op)
    x = {"A": a, "F": f, "bool": "bool"}[row.x]
    r = {"A": a, "F": f, "I": i, "u32": "u32"}[row.result]
    dv = f if op in ("var", "std") else ("f64" if a in ("f64", "vec2<f64>") else "f32")
    return Types(a, f, i, x, r, dv)


def vec_width(dtype) -> int:
    """Elements of ``dtype`` per 16-byte load of the row mapping's wide path (0: none)."""
    it = WTYPES[dtype]
    if it.packed:
        return 128 // it.bits
    if it.itemsize == 4:
        return 4
    if it.itemsize == 8 and it.arr in ("f64", "i64", "u64"):
        return 2
    return 0


def vec_arr(dtype) -> str:
    """WGSL element type of the wide source array (16 bytes)."""
    it = WTYPES[dtype]
    if it.packed:
        return "vec4<u32>"
    return f"vec{vec_width(dtype)}<{it.arr}>"


def _unpack(it, word, sh, helpers):
    """Value (of ``it.val``) of the packed element at bit ``sh`` of u32 ``word``."""
    if it.signed:
        return f"extractBits(bitcast<i32>({word}), {sh}, {it.bits}u)"
    raw = f"extractBits({word}, {sh}, {it.bits}u)"
    if it.val == "bool":
        return f"({raw} != 0u)"
    if it.name == "float16":
        helpers.add("f16_to_f32")
        return f"f16_to_f32({raw})"
    return raw


def _lit(ty, c):
    return f"{c}li" if ty == "i64" else f"{c}u"


@dataclasses.dataclass(frozen=True)
class ReduceSpec(KernelSpec):
    op: str          # a row of table.ROWS
    src: object      # element DType, or None: the input is partial states
    acc: object      # accumulation DType (var / std: the input's)
    mapping: str     # "row" | "col"
    vec: bool        # vec4 loads (4-byte elements, contiguous row / aligned columns)
    ro: int          # rank of the kept (output) index into the input
    rr: int          # rank of the reduced index
    rd: int          # rank of the destination index (final / merge)
    wg: int          # workgroup size
    out: str         # "final" | "merge" | "part" | "tail" (row: part, then the last
    #                  workgroup of each output writes it as final does)
    unroll: int = 1  # row mapping: loads per thread and trip, each into its own state
    res: object = None  # final: a sub-word dtype the one output is stored as (else R)
    # an elementwise prologue (fusion/codegen.py FusedSpec, ``scatter`` False): the source
    # is its expression, element e of the row-major array it would have materialised being
    # ``value(e)``; a pass from elements of ``src`` (its dtype) reads nothing else
    pro: object = None

    def needs(self):
        need = set(self.pro.needs()) if self.pro is not None else set()
        for d in (self.src, self.acc):
            n = WTYPES[d].need if d is not None else None
            if n == "shader-f64":
                need |= {"f64", "int64"}
            elif n == "shader-int64":
                need.add("int64")
        return tuple(sorted(need))

    # ---- helpers --------------------------------------------------------------------
    def types(self, caps):
        return types_of(self.op, self.src, self.acc, caps)

    def fields(self, caps):
        t = self.types(caps)
        return tuple((n, {"A": t.A, "F": t.F, "I": t.I, "u32": "u32"}[k])
                     for n, k in T.row(self.op).fields)

    def shuffles(self, caps):
        """Subgroup shuffles move the state (32-bit fields only: 64-bit subgroup
        operations need an extension not every adapter has)."""
        return caps.subgroup and all(ty in ("f32", "i32", "u32", "vec2<f32>")
                                     for _, ty in self.fields(caps))

    def layout(self, caps):
        t = self.types(caps)
        bufs = []
        words = ["items", "K", "C", "M", "tiles", "nout", "base_lo", "base_hi", "dv_hi",
                 "dv_lo"]
        if self.src is None:
            bufs += [Buf("s_" + n, ty) for n, ty in self.fields(caps)]
        elif self.pro is not None:
            pb, pw = self.pro.prologue_layout()
            bufs += pb
            words += pw
        else:
            bufs.append(Buf("src", vec_arr(self.src) if self.vec else WTYPES[self.src].arr))
        if self.out != "final":
            bufs += [Buf("d_" + n, ty, "rw") for n, ty in self.fields(caps)]
        if self.out in ("final", "tail"):
            bufs.append(Buf("dst", WTYPES[self.res].arr if self.res is not None else t.R,
                            "rw"))
        if self.out == "tail":
            bufs.append(Buf("ctr", "atomic<u32>", "rw", offset=False))
        for name, rank in (("od", self.ro), ("rd", self.rr), ("dd", self.rd)):
            if rank:
                words.append(Words(name, 2 * rank))
        return Layout(bufs, words, caps)

    # ---- rendering ------------------------------------------------------------------
    def render(self, caps):
        lay = self.layout(caps)
        t = self.types(caps)
        row = T.row(self.op)
        helpers = set()
        tok = {
            "zero_A": T.ZERO[t.A], "one_A": T.ONE[t.A], "low_A": T.LOW.get(t.A, ""),
            "high_A": T.HIGH.get(t.A, ""), "zero_F": T.ZERO[t.F], "one_F": T.ONE[t.F],
            "inf_F": T.INF[t.F], "nan_F": T.QNAN[t.F], "zero_I": T.ZERO[t.I],
            "one_I": T.ONE[t.I], "max_I": T.HIGH[t.I],
            "sqrt": "r = sqrt(r);" if self.op == "std" else "",
            "arg_comb": T.arg_comb(self.op, t.A) if row.uses_index else "",
        }

        def snip(text):
            return Template(text, f"{self.op} row").render(tok)

        fields = self.fields(caps)
        prologue = self._prologue(lay, caps, helpers) if self.pro is not None else ""
        access = self._access_fns(lay, t, fields, helpers, caps)
        main = (self._row_main if self.mapping == "row" else self._col_main)(lay, t, caps)
        real = t.A.replace("vec2<", "").rstrip(">")
        isnan = T.ISNAN.get(real if row.name in ("max", "min", "argmax", "argmin") else "",
                            "")
        return _FRAME.render(
            lay.tokens(),
            helpers=render_helpers(helpers, caps.int64),
            prologue=prologue,
            isnan=isnan,
            pick=T.pick_fn(self.op, t.A) if self.op in ("max", "min") else "",
            cmul=T.cmul_fn(t.A) if self.op == "prod" else "",
            fields="\n".join(f"  {n}: {ty}," for n, ty in fields),
            ident=snip(row.ident), comb=snip(row.comb), fold=snip(row.fold),
            post=snip(row.post), X=t.X, I=t.I, DV=t.DV, R=t.R,
            index_fns=self._index_fns(lay),
            access_fns=access,
            wg_reduce=self._wg_reduce(caps) if self.mapping == "row" else "",
            main=main,
        )

    def _prologue(self, lay, caps, helpers):
        """The prologue's ops, its leaves' index function and ``value(e)``; with 16-byte
        loads ``srcv(k)``, the k-th group of elements as the load would give them, so the
        fold order (and so every bit of the result) is the reduction's of the array the
        expression would have materialised."""
        from ...fusion.codegen import index_fn
        pro = self.pro
        body, ops = pro.value_parts(lay, caps, helpers, stored=True)
        it = WTYPES[self.src]
        out = [pro.lib, ops, index_fn(pro, lay),
               f"fn value(e: u32) -> {it.val} {{\n{body}\n}}"]
        if self.vec:
            e = vec_width(self.src)
            parts = ", ".join(f"value({e}u * k + {c}u)" for c in range(e))
            out.append(f"fn srcv(k: u32) -> {vec_arr(self.src)} {{ return "
                       f"{vec_arr(self.src)}({parts}); }}")
        return "\n".join(out)

    def _vload(self, k):
        return f"srcv({k})" if self.pro is not None else f"src[{k}]"

    def _index_fns(self, lay):
        out = []
        for fn, name, rank in (("out_index", "od", self.ro), ("red_index", "rd", self.rr),
                               ("dst_index", "dd", self.rd)):
            if not rank:
                out.append(f"fn {fn}(e: u32) -> u32 {{ return 0u; }}")
                continue
            body = [f"fn {fn}(e: u32) -> u32 {{", "  var r = e;", "  var o = 0u;"]
            for d in reversed(range(rank)):
                n, s = lay.word(name, 2 * d), lay.word(name, 2 * d + 1)
                if d == 0:
                    body.append(f"  o += r * {s};")
                else:
                    body.append(f"  o += (r % {n}) * {s};")
                    body.append(f"  r = r / {n};")
            body += ["  return o;", "}"]
            out.append("\n".join(body))
        return "\n".join(out)

    def _access_fns(self, lay, t, fields, helpers, caps):
        out = []
        if self.src is None:
            vals = ", ".join(f"s_{n}[{lay.word('s_' + n + '_off')} + j]" for n, _ in fields)
            out.append(f"fn state_in(j: u32) -> St {{ return St({vals}); }}")
        else:
            it = WTYPES[self.src]
            xt = WTYPES[dt.bool_] if t.X == "bool" else _wtype_of_val(t.X)
            if self.vec:
                out.append(self._vec_fns(it, xt, t, helpers, caps))
            else:
                raw = "value(j)" if self.pro is not None else load(it, "src", "j", helpers)
                out.append(f"fn elem(j: u32) -> {t.X} {{ return "
                           f"{convert(it, xt, raw, helpers, caps.int64)}; }}")
        # put(j, s): the write of one output's state (j: the destination element)
        if self.out in ("final", "tail"):
            dv = (f"{t.DV}(bitcast<f32>({lay.word('dv_hi')})) + "
                  f"{t.DV}(bitcast<f32>({lay.word('dv_lo')}))")
            if self.res is not None:
                # the one output's whole word (fresh storage: the other bytes are padding)
                rt = WTYPES[self.res]
                v = convert(_wtype_of_val(t.R), rt, f"post(s, {dv})", helpers, caps.int64)
                lg = (32 // rt.bits).bit_length() - 1
                e = f"({lay.word('dst_off')} + j)"
                out.append(f"fn put(j: u32, s: St) {{ dst[{e} >> {lg}u] = "
                           f"{pack(rt, v, helpers)} << (({e} & {(1 << lg) - 1}u) * "
                           f"{rt.bits}u); }}")
            else:
                out.append(f"fn put(j: u32, s: St) {{ dst[{lay.word('dst_off')} + j] = "
                           f"post(s, {dv}); }}")
        if self.out != "final":
            body = []
            if self.out == "merge":
                old = ", ".join(f"d_{n}[{lay.word('d_' + n + '_off')} + j]" for n, _ in fields)
                body.append(f"  let t = comb(St({old}), s);")
            else:
                body.append("  let t = s;")
            body += [f"  d_{n}[{lay.word('d_' + n + '_off')} + j] = t.{n};" for n, _ in fields]
            name = "put_part" if self.out == "tail" else "put"
            out.append(f"fn {name}(j: u32, s: St) {{\n" + "\n".join(body) + "\n}")
        if self.out == "tail":
            vals = ", ".join(f"d_{n}[{lay.word('d_' + n + '_off')} + j]" for n, _ in fields)
            out.append(f"fn part_in(j: u32) -> St {{ return St({vals}); }}")
        return "\n".join(out)

    def _vec_fns(self, it, xt, t, helpers, caps):
        """``elem(j)`` (element j of the wide array), ``cv`` (4- and 8-byte types) and
        ``fold_v(s, v, r)``: fold every element of one 16-byte load ``v`` whose first
        element has the global index ``r``."""
        e = vec_width(self.src)
        lg = e.bit_length() - 1
        i64 = caps.int64
        out = []
        if not it.packed:
            out.append(f"fn cv(v: {it.arr}) -> {t.X} {{ return "
                       f"{convert(it, xt, 'v', helpers, i64)}; }}")
            got = "value(j)" if self.pro is not None else f"src[j >> {lg}u][j & {e - 1}u]"
            out.append(f"fn elem(j: u32) -> {t.X} {{ return cv({got}); }}")
            elems = [f"cv(v.{c})" for c in "xyzw"[:e]]
        else:
            pw = 32 // it.bits
            lpw = pw.bit_length() - 1
            word = f"src[j >> {lg}u][(j >> {lpw}u) & 3u]"
            sh = f"((j & {pw - 1}u) * {it.bits}u)"
            out.append(f"fn elem(j: u32) -> {t.X} {{ return "
                       f"{convert(it, xt, _unpack(it, word, sh, helpers), helpers, i64)}; }}")
            elems = [convert(it, xt, _unpack(it, f"v.{c}", f"{i * it.bits}u", helpers),
                             helpers, i64)
                     for c in "xyzw" for i in range(pw)]
        body = [f"fn fold_v(s0: St, v: {vec_arr(self.src)}, r: {t.I}) -> St {{",
                "  var s = s0;"]
        for c, x in enumerate(elems):
            body.append(f"  s = fold(s, {x}, {'r' if c == 0 else f'r + {_lit(t.I, c)}'});")
        body += ["  return s;", "}"]
        out.append("\n".join(body))
        return "\n".join(out)

    def _wg_reduce(self, caps):
        flag = "var<workgroup> tail_last: u32;\n" if self.out == "tail" else ""
        return flag + self._wg_tree(caps)

    def _wg_tree(self, caps):
        wg = self.wg
        if self.shuffles(caps):
            fields = self.fields(caps)
            shf = ", ".join(f"subgroupShuffleXor(s.{n}, m)" for n, _ in fields)
            return f"""var<workgroup> sh: array<St, {wg}>;
fn wg_reduce(s0: St, sgs: u32, sgi: u32, sid: u32, nsg: u32) -> St {{
  var s = s0;
  // (a subgroup wider than the workgroup, e.g. wave64 under 32 invocations: stay inside)
  for (var m = 1u; m < min(sgs, {wg}u); m <<= 1u) {{ s = comb(s, St({shf})); }}
  if (sgi == 0u) {{ sh[sid] = s; }}
  workgroupBarrier();
  var t = sh[0];
  for (var j = 1u; j < nsg; j++) {{ t = comb(t, sh[j]); }}
  return t;
}}"""
        return f"""var<workgroup> sh: array<St, {wg}>;
fn wg_reduce(s0: St, l: u32) -> St {{
  sh[l] = s0;
  workgroupBarrier();
  for (var w = {wg // 2}u; w > 0u; w >>= 1u) {{
    if (l < w) {{ sh[l] = comb(sh[l], sh[l + w]); }}
    workgroupBarrier();
  }}
  return sh[0];
}}"""

    def _gbase(self, lay, t):
        if not T.row(self.op).uses_index:
            return f"  let gb = {T.ZERO[t.I]};"
        if t.I == "i64":
            return (f"  let gb = bitcast<i64>((u64({lay.word('base_hi')}) << 32u) | "
                    f"u64({lay.word('base_lo')}));")
        return f"  let gb = {lay.word('base_lo')};"

    def _fold_at(self, t, j, r, s="s"):
        """Statement folding the input at element / state index ``j`` (global reduced
        index ``gb + r``) into ``s``."""
        if self.src is None:
            return f"{s} = comb({s}, state_in({j}));"
        return f"{s} = fold({s}, elem({j}), gb + {widen(t.I, r)});"

    def _load_at(self, t, j, x):
        """Statement loading the input at element / state index ``j`` into ``x``."""
        if self.src is None:
            return f"let {x} = state_in({j});"
        return f"let {x} = elem({j});"

    def _fold_loaded(self, t, x, r, s):
        if self.src is None:
            return f"{s} = comb({s}, {x});"
        return f"{s} = fold({s}, {x}, gb + {widen(t.I, r)});"

    def _row_main(self, lay, t, caps):
        w = lay.word
        wg = self.wg
        sg = self.shuffles(caps)
        args = ("@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) wid: "
                "vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>")
        if sg:
            args += (", @builtin(subgroup_size) sgs: u32, @builtin(subgroup_invocation_id) "
                     "sgi: u32, @builtin(subgroup_id) sid: u32, @builtin(num_subgroups) "
                     "nsg: u32")
        off = w("src_off") if self.src is not None and self.pro is None else "0u"
        lines = [f"@compute @workgroup_size({wg})", f"fn main({args}) {{",
                 "  let item = wid.x + wid.y * nw.x;",
                 f"  if (item >= {w('items')}) {{ return; }}",
                 f"  let o = item / {w('K')};",
                 f"  let k = item - o * {w('K')};",
                 self._gbase(lay, t)]
        U = max(1, self.unroll)
        lines += [f"  var s{i} = ident();" for i in range(U)]
        if self.vec:
            # 16-byte loads over the aligned middle of the row; head / tail elements (before
            # the first and after the last aligned load) by single threads of chunk 0.
            # U independent loads per trip, each folded into its own state: bytes in flight
            e = vec_width(self.src)
            lg = e.bit_length() - 1
            gi = widen(t.I, f"h + (u << {lg}u)")
            lines += [
                f"  let a0 = {off} + out_index(o);",
                f"  let h = min(({e}u - (a0 & {e - 1}u)) & {e - 1}u, {w('M')});",
                f"  let q = ({w('M')} - h) >> {lg}u;",
                f"  let tl = {w('M')} - h - (q << {lg}u);",
                f"  let v0 = (a0 + h) >> {lg}u;",
            ]
            lines += [f"  let lo = k * {w('C')};", f"  let hi = min(lo + {w('C')}, q);",
                      "  var u = lo + l;"]
            step = f"{wg}u"
            lines += [
                f"  for (; u + {U - 1}u * {step} < hi; u += {U}u * {step}) {{",
                *[f"    let x{i} = {self._vload(f'v0 + u + {i}u * {step}')};" for i in range(U)],
                f"    let r = gb + {gi};",
                *[f"    s{i} = fold_v(s{i}, x{i}, r + {widen(t.I, f'{i * e}u * {step}')});"
                  if i else "    s0 = fold_v(s0, x0, r);" for i in range(U)],
                "  }",
                f"  for (; u < hi; u += {step}) {{",
                f"    s0 = fold_v(s0, {self._vload('v0 + u')}, gb + {gi});",
                "  }",
                "  if (k == 0u && l < h + tl) {",
                f"    let r = select(h + (q << {lg}u) + (l - h), l, l < h);",
                "    s0 = fold(s0, elem(a0 + r), gb + " + widen(t.I, "r") + ");",
                "  }",
            ]
        else:
            lines += [
                f"  let b = {off} + out_index(o);",
                f"  let lo = k * {w('C')};",
                f"  let hi = min(lo + {w('C')}, {w('M')});",
                "  var r = lo + l;",
            ]
            if U > 1:
                lines.append(f"  for (; r + {(U - 1) * wg}u < hi; r += {U * wg}u) {{")
                lines += ["    " + self._load_at(t, f"b + red_index(r + {i * wg}u)", f"x{i}")
                          for i in range(U)]
                lines += ["    " + self._fold_loaded(t, f"x{i}", f"r + {i * wg}u", f"s{i}")
                          for i in range(U)]
                lines.append("  }")
            lines += [
                f"  for (; r < hi; r += {wg}u) {{",
                "    " + self._fold_at(t, "b + red_index(r)", "r", "s0"),
                "  }",
            ]
        lines.append("  var s = s0;")
        lines += [f"  s = comb(s, s{i});" for i in range(1, U)]
        red = "wg_reduce({}, sgs, sgi, sid, nsg)" if sg else "wg_reduce({}, l)"
        lines.append(f"  let t = {red.format('s')};")
        if self.out == "tail":
            lines += self._tail(lay, red)
        else:
            lines.append(f"  if (l == 0u) {{ put({self._dest('o', 'k', lay)}, t); }}")
        lines.append("}")
        return "\n".join(lines)

    def _tail(self, lay, red):
        """The end of a ``tail`` launch: every workgroup writes its chunk's state; the last
        of an output's K workgroups to count itself in (``ctr``) combines the K states in a
        fixed order (so the result does not depend on which one is last), writes the
        output and resets the counter for the next launch. The storage barriers are
        device-scope fences around the count in the SPIR-V, HLSL and MSL naga writes; that
        every adapter makes the other workgroups' states visible through them is not a
        WebGPU promise, so the planner uses this only where the tuning table says the
        adapter was measured and tested with it (REDUCE_TAIL)."""
        w = lay.word
        U = 4
        return [
            f"  if (l == 0u) {{ put_part(o * {w('K')} + k, t); }}",
            "  storageBarrier();",
            f"  if (l == 0u) {{ tail_last = u32(atomicAdd(&ctr[o], 1u) == {w('K')} - 1u); }}",
            "  if (workgroupUniformLoad(&tail_last) == 0u) { return; }",
            "  storageBarrier();",
            f"  let pb = o * {w('K')};",
            *[f"  var p{i} = ident();" for i in range(U)],
            "  var j = l;",
            f"  for (; j + {(U - 1) * self.wg}u < {w('K')}; j += {U * self.wg}u) {{",
            *[f"    let y{i} = part_in(pb + j + {i * self.wg}u);" for i in range(U)],
            *[f"    p{i} = comb(p{i}, y{i});" for i in range(U)],
            "  }",
            f"  for (; j < {w('K')}; j += {self.wg}u) {{ p0 = comb(p0, part_in(pb + j)); }}",
            "  let p = comb(comb(p0, p1), comb(p2, p3));",
            f"  let f = {red.format('p')};",
            "  if (l == 0u) {",
            "    put(dst_index(o), f);",
            "    atomicStore(&ctr[o], 0u);",
            "  }",
        ]

    def _dest(self, o, k, lay):
        if self.out in ("part", "tail"):
            if self.mapping == "row":
                return f"{o} * {lay.word('K')} + {k}"
            return f"{k} * {lay.word('nout')} + {o}"
        return f"dst_index({o})"

    def _col_main(self, lay, t, caps):
        w = lay.word
        wg = self.wg
        off = w("src_off") if self.src is not None and self.pro is None else "0u"
        lines = [f"@compute @workgroup_size({wg})",
                 "fn main(@builtin(local_invocation_index) l: u32, @builtin(workgroup_id) "
                 "wid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {",
                 "  let item = wid.x + wid.y * nw.x;",
                 f"  if (item >= {w('items')}) {{ return; }}",
                 f"  let k = item / {w('tiles')};",
                 f"  let ov = (item - k * {w('tiles')}) * {wg}u + l;",
                 self._gbase(lay, t),
                 f"  let lo = k * {w('C')};",
                 f"  let hi = min(lo + {w('C')}, {w('M')});"]
        if self.vec:
            lines += [f"  if (ov * 4u >= {w('nout')}) {{ return; }}",
                      "  let o = ov * 4u;",
                      f"  let b = {off} + out_index(o);",
                      "  var s0 = ident(); var s1 = ident(); var s2 = ident(); "
                      "var s3 = ident();",
                      "  var r = lo;",
                      "  for (; r + 1u < hi; r += 2u) {",
                      "    let v = src[(b + red_index(r)) >> 2u];",
                      "    let w = src[(b + red_index(r + 1u)) >> 2u];",
                      f"    let g = gb + {widen(t.I, 'r')};"]
            lines += [f"    s{i} = fold(s{i}, cv(v.{c}), g);" for i, c in enumerate("xyzw")]
            lines += [f"    s{i} = fold(s{i}, cv(w.{c}), g + {T.ONE[t.I]});"
                      for i, c in enumerate("xyzw")]
            lines += ["  }", "  if (r < hi) {",
                      "    let v = src[(b + red_index(r)) >> 2u];",
                      f"    let g = gb + {widen(t.I, 'r')};"]
            lines += [f"    s{i} = fold(s{i}, cv(v.{c}), g);" for i, c in enumerate("xyzw")]
            lines.append("  }")
            lines += [f"  put({self._dest(f'o + {i}u', 'k', lay)}, s{i});" for i in range(4)]
        else:
            lines += [f"  if (ov >= {w('nout')}) {{ return; }}",
                      "  let o = ov;",
                      f"  let b = {off} + out_index(o);",
                      "  var s = ident();",
                      "  var r = lo;",
                      "  for (; r + 1u < hi; r += 2u) {",
                      "    " + self._fold_at(t, "b + red_index(r)", "r"),
                      "    " + self._fold_at(t, "b + red_index(r + 1u)", "r + 1u"),
                      "  }",
                      "  if (r < hi) {",
                      "    " + self._fold_at(t, "b + red_index(r)", "r"),
                      "  }",
                      f"  put({self._dest('o', 'k', lay)}, s);"]
        lines.append("}")
        return "\n".join(lines)


def _wtype_of_val(v):
    return WTYPES[T.VAL_DTYPE[v]]


# ---- every variant the planner can ask for (render-and-compile test) --------------------
_ELEM_OPS = {
    "sum": "biufc", "prod": "biufc", "mean": "fc", "max": "iuf", "min": "iuf", "all": "biufc",
    "any": "biufc", "count_nonzero": "biufc", "argmax": "iuf", "argmin": "iuf", "var": "f",
    "std": "f",
}


def acc_for(op, dtype):
    """The accumulation dtype the planner uses for ``op`` on ``dtype`` without a ``dtype=``
    argument (sum / prod of small integers widen as the front-end does on 64-bit adapters)."""
    if op in ("all", "any", "count_nonzero"):
        return dt.bool_
    if op in ("sum", "prod") and dtype.kind in "biu":
        return dt.uint64 if dtype.kind == "u" else dt.int64
    return dtype


def variants(caps: Caps | None = None):
    """Specs covering every (op, dtype) pair, both mappings, vec loads, every output mode,
    state inputs and ranks 0..2 (the planner collapses dims; deeper ranks render the same
    loops)."""
    from ...codegen.caps import LAVAPIPE
    caps = caps or LAVAPIPE
    seen = set()
    for op, kinds in _ELEM_OPS.items():
        for d in dt.ALL_DTYPES:
            if d.kind not in kinds or not T.supported(caps, d):
                continue
            acc = acc_for(op, d)
            if not T.supported(caps, acc):
                continue
            vec = d.itemsize == 4
            for mapping in ("row", "col"):
                for v in {False, vec}:
                    spec = ReduceSpec(op, d, acc, mapping, v, 1, 1, 1,
                                      64 if mapping == "row" else 256, "final")
                    if spec not in seen:
                        seen.add(spec)
                        yield spec
            # the tuned row paths: 16-byte loads of any width, several loads per trip
            for out in ("final", "tail"):
                spec = ReduceSpec(op, d, acc, "row", bool(vec_width(d)), 1, 1, 1, 64, out, 4)
                if spec not in seen:
                    seen.add(spec)
                    yield spec
            # the state passes of this (op, accumulator)
            for mapping, out in itertools.product(("row", "col"), ("final", "merge", "part",
                                                                   "tail")):
                if (mapping, out) == ("col", "tail"):
                    continue
                spec = ReduceSpec(op, None, acc, mapping, False, 1, 1, 1, 256, out,
                                  4 if (mapping, out) == ("row", "part") else 1)
                if spec not in seen:
                    seen.add(spec)
                    yield spec
    # one output stored as its sub-word result dtype (from elements and from states)
    if T.supported(caps, dt.float16):
        yield ReduceSpec("sum", dt.float16, dt.float16, "row", True, 0, 1, 0, 64, "final", 4,
                         dt.float16)
        yield ReduceSpec("var", None, dt.float16, "row", False, 0, 1, 0, 256, "final", 1,
                         dt.float16)
    yield ReduceSpec("any", dt.bool_, dt.bool_, "row", False, 0, 1, 0, 64, "final", 1, dt.bool_)
    yield ReduceSpec("max", None, dt.int8, "row", False, 0, 1, 0, 256, "final", 1, dt.int8)
    # a fused expression as the source (ops/reduction/prologue.py): its value() inlined
    from ...fusion.codegen import variants as fused_variants
    by_name = {w.name: d for d, w in WTYPES.items()}
    for f in fused_variants():
        d = by_name[f.out_t.name]
        if f.scatter or f.out_t.packed or not T.supported(caps, d) or \
                any(n in ("f64", "int64") for n in f.needs()) and not caps.int64:
            continue
        acc = acc_for("sum", d)
        if not T.supported(caps, acc):
            continue
        vec = bool(vec_width(d))
        for mapping, v, out in (("row", vec, "final"), ("row", vec, "tail"),
                                ("col", False, "final")):
            yield ReduceSpec("sum", d, acc, mapping, v, 1, 1, 1, 64, out, 4 if v else 1,
                             None, f)
    for ro, rr, rd in itertools.product((0, 1, 2), (0, 1, 2), (0, 2)):
        yield ReduceSpec("sum", dt.float32, dt.float32, "row", False, ro, rr, rd, 32,
                         "merge")
        yield ReduceSpec("argmax", dt.int8, dt.int8, "col", False, ro, rr, rd, 128, "part")
