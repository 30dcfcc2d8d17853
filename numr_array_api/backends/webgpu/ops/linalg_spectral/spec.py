"""The Jacobi kernels as specs: EighSpec (two-sided, symmetric) and SvdSpec (one-sided).

Both run one workgroup per matrix over a grid-strided batch. ``cap`` > 0: the working
matrices live in workgroup memory, sized for n <= cap (the fast path for stacks of small
matrices); ``cap`` == 0: they live in a scratch buffer, one slot per workgroup, for any n.
Sizes are parameter words, so one compiled variant serves every n up to its cap.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType

_PKG = __package__
CAPS_WG = (4, 8, 16, 32, 64)   # workgroup-memory buckets (n <= cap)


def _lit(t: str, x: float) -> str:
    return f"{x!r}{'f' if t == 'f32' else 'lf'}"


def _consts(t: str) -> dict:
    f32 = t == "f32"
    eps = 2.0 ** -23 if f32 else 2.0 ** -52
    return {"T": t, "eps": _lit(t, eps), "zero": _lit(t, 0.0), "one": _lit(t, 1.0),
            "two": _lit(t, 2.0), "halfv": _lit(t, 0.5), "big": _lit(t, 2.0 ** 32),
            "small": _lit(t, 2.0 ** -32), "maxsw": 30 if f32 else 40}

UNROLL = 8   # lavapipe stops a loop after 65535 iterations per invocation, counted over
             # every entry: unrolled bodies keep the hot loops of a whole solve below that


def unrolled(var: str, start: str, bound: str, step: str, body: str, indent: str) -> str:
    """``for (var = start; var < bound; var += step) { body }`` with UNROLL copies of the body
    per iteration (each guarded), so the loop's backedge count drops UNROLL-fold."""
    lines = [f"{indent}for (var {var}0 = {start}; {var}0 < {bound}; {var}0 += {UNROLL}u * {step}) {{"]
    for u in range(UNROLL):
        lines.append(f"{indent}  {{ let {var} = {var}0 + {u}u * {step};")
        lines.append(f"{indent}    if ({var} < {bound}) {{")
        lines += [f"{indent}      {ln}" for ln in body.strip().splitlines()]
        lines.append(f"{indent}    }}")
        lines.append(f"{indent}  }}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def _rot_pass(n: str, idx_p: str, idx_q: str, get: str, set_: str, zero: str, extra="",
              wg: int = 256, fix: bool = False) -> str:
    """One rotation pass: for each (pair k, line i): rotate elements idx_p(i), idx_q(i)."""
    if fix:  # the column pass of the two-sided method stores the annihilated a_pq as 0
        xp = f"select(cs.x * x - cs.y * y, {zero}, i == pq.y)"
        xq = f"select(cs.y * x + cs.x * y, {zero}, i == pq.x)"
    else:
        xp, xq = "cs.x * x - cs.y * y", "cs.y * x + cs.x * y"
    body = f"""let k = e / {n};
let i = e - k * {n};
let pq = pair(r, k, m);
let cs = cs_get(k);
if (pq.y < {n} && cs.y != {zero}) {{
  let x = {get}({idx_p});
  let y = {get}({idx_q});
  {set_}({idx_p}, {xp});
  {set_}({idx_q}, {xq});
{extra}
}}"""
    return unrolled("e", "lid", f"half * {n}", f"{wg}u", body, "        ")


def wg_size(cap: int) -> int:
    """Threads per workgroup: about one per element of a half-matrix round."""
    return {4: 8, 8: 32, 16: 128}.get(cap, 256)


def _sync(cap: int) -> str:
    if cap:
        return "fn sync() { workgroupBarrier(); }"
    return "fn sync() { storageBarrier(); workgroupBarrier(); }"


def _accessors(cap: int, T: str, arrays, slot_args: str, slot_body: str) -> str:
    """get / set functions per (name, size expression in cap) over workgroup arrays (cap) or
    scratch regions of S (offsets set by ``slot``)."""
    out = [_sync(cap)]
    for name, size, vec in arrays:
        et = f"vec2<{T}>" if vec else T
        if cap:
            out.append(f"var<workgroup> W_{name}: array<{et}, {max(1, size)}>;")
            out.append(f"fn {name}_get(i: u32) -> {et} {{ return W_{name}[i]; }}")
            out.append(f"fn {name}_set(i: u32, v: {et}) {{ W_{name}[i] = v; }}")
        else:
            out.append(f"var<private> o_{name}: u32;")
            if vec:
                out.append(f"fn {name}_get(i: u32) -> {et} {{ return {et}(S[o_{name} + 2u * i], "
                           f"S[o_{name} + 2u * i + 1u]); }}")
                out.append(f"fn {name}_set(i: u32, v: {et}) {{ S[o_{name} + 2u * i] = v.x; "
                           f"S[o_{name} + 2u * i + 1u] = v.y; }}")
            else:
                out.append(f"fn {name}_get(i: u32) -> {et} {{ return S[o_{name} + i]; }}")
                out.append(f"fn {name}_set(i: u32, v: {et}) {{ S[o_{name} + i] = v; }}")
    out.append(f"fn slot({slot_args}) {{\n{slot_body if not cap else ''}\n}}")
    return "\n".join(out)


@dataclasses.dataclass(frozen=True)
class EighSpec(KernelSpec):
    t: WType          # float32 or float64
    cap: int          # workgroup-memory bucket, 0: scratch buffer
    vectors: bool

    def needs(self):
        return ("f64",) if self.t.val == "f64" else ()

    def layout(self, caps):
        T = self.t.val
        bufs = [Buf("A", T), Buf("W", T, "rw")]
        if self.vectors:
            bufs.append(Buf("V", T, "rw"))
        if not self.cap:
            bufs.append(Buf("S", T, "rw"))
        return Layout(bufs, ["n", "nb", "sstride"], caps)

    def wg_bytes(self) -> int:
        c = self.cap
        return (c * c * (2 if self.vectors else 1) + c + wg_size(c)) * self.t.itemsize + 8

    @staticmethod
    def scratch(n: int, vectors: bool) -> int:
        """Scratch elements per workgroup slot (cap 0)."""
        return n * n * (2 if vectors else 1) + n + 1

    def render(self, caps):
        lay = self.layout(caps)
        T = self.t.val
        c = self.cap
        k = _consts(T)
        arrays = [("a", c * c, False), ("cs", c // 2, True)]
        if self.vectors:
            arrays.append(("v", c * c, False))
        body = "" if c else (f"  o_a = {lay.word('S_off')} + g * {lay.word('sstride')};\n"
                f"  o_cs = o_a + n * n;\n" + ("  o_v = o_cs + n + 1u;" if self.vectors else ""))
        store = _accessors(c, T, arrays, "g: u32, n: u32", body)
        if self.vectors:
            v_init = f"      v_set(e, select({k['zero']}, {k['one']}, e / n == e % n));"
            v_rot = """  let vx = v_get(i * n + pq.x);
  let vy = v_get(i * n + pq.y);
  v_set(i * n + pq.x, cs.x * vx - cs.y * vy);
  v_set(i * n + pq.y, cs.y * vx + cs.x * vy);"""
            v_out = (f"      for (var k = 0u; k < n; k++) {{ V[{lay.word('V_off')} + b * nn + "
                     f"k * n + rk] = v_get(k * n + i); }}")
        else:
            v_init = v_rot = v_out = ""
        floor = _lit(T, (2.0 ** -23) ** 2 if T == "f32" else (2.0 ** -52) ** 2)
        wg = wg_size(c)
        rows = _rot_pass("n", "pq.x * n + i", "pq.y * n + i", "a_get", "a_set", k["zero"],
                         wg=wg)
        cols = _rot_pass("n", "i * n + pq.x", "i * n + pq.y", "a_get", "a_set", k["zero"],
                         v_rot, wg=wg, fix=True)
        return Template.file(_PKG, "eigh.wgsl").render(
            lay.tokens(), k, store=store, wg=wg, floor=floor, v_init=v_init,
            v_out=v_out, rows=rows, cols=cols)

    @property
    def label(self):
        return f"eigh_{self.t.name}_c{self.cap}{'_v' if self.vectors else ''}"


@dataclasses.dataclass(frozen=True)
class SvdSpec(KernelSpec):
    t: WType
    cap: int
    vectors: bool     # write P and Q (and complete P's basis)

    def needs(self):
        return ("f64",) if self.t.val == "f64" else ()

    def layout(self, caps):
        T = self.t.val
        bufs = [Buf("X", T), Buf("SV", T, "rw")]
        words = ["R", "C", "nb", "xrs", "xcs", "xbs", "sstride"]
        if self.vectors:
            bufs += [Buf("UO", T, "rw"), Buf("VO", T, "rw")]
            words += ["pcols", "urs", "ucs", "ubs", "vrs", "vcs", "vbs"]
        if not self.cap:
            bufs.append(Buf("S", T, "rw"))
        return Layout(bufs, words, caps)

    def wg_bytes(self) -> int:
        c = self.cap
        n = c * c + c // 2 * 2 + c + (c * c + 2 * c if self.vectors else 0)
        return (n + wg_size(c)) * self.t.itemsize + wg_size(c) * 4 + 8

    @staticmethod
    def scratch(r: int, c: int, vectors: bool) -> int:
        return r * c + c + 1 + c + ((c * c + 2 * r) if vectors else 0)

    def render(self, caps):
        lay = self.layout(caps)
        T = self.t.val
        c = self.cap
        k = _consts(T)
        arrays = [("u", c * c, False), ("cs", c // 2, True), ("n", c, False)]
        if self.vectors:
            arrays += [("v", c * c, False), ("w", c, False), ("h", c, False)]
        body = "" if c else (f"  o_u = {lay.word('S_off')} + g * {lay.word('sstride')};\n"
                f"  o_cs = o_u + r * c;\n  o_n = o_cs + c + 1u;\n")
        if self.vectors and not c:
            body += "  o_v = o_n + c;\n  o_w = o_v + c * c;\n  o_h = o_w + r;\n"
        store = _accessors(c, T, arrays, "g: u32, r: u32, c: u32", body)
        z, one = k["zero"], k["one"]
        if self.vectors:
            w = lay.word
            v_init = (f"    for (var e = lid; e < C * C; e += {wg_size(c)}u) {{ "
                      f"v_set(e, select({z}, {one}, e / C == e % C)); }}")
            v_rot = _rot_pass("C", "pq.x * C + i", "pq.y * C + i", "v_get", "v_set", z,
                              wg=wg_size(c))
            uo = f"{w('UO_off')} + b * {w('ubs')}"
            vo = f"{w('VO_off')} + b * {w('vbs')}"
            urs, ucs, vrs, vcs = w("urs"), w("ucs"), w("vrs"), w("vcs")
            vec_out = f"""      let uo = {uo};
      for (var k = 0u; k < C; k++) {{ VO[{vo} + k * {vrs} + rk * {vcs}] = v_get(j * C + k); }}
      if (sj > TINYN) {{
        let rs = {one} / sj;
        for (var i = 0u; i < R; i++) {{ UO[uo + i * {urs} + rk * {ucs}] = u_get(j * R + i) * rs; }}
        atomicAdd(&cnt, 1u);
      }}"""
            wgs = wg_size(c)
            P = f"UO[uo + {{i}} * {urs} + {{j}} * {ucs}]"
            complete = f"""    sync();
    if (lid == 0u) {{ flag = atomicLoad(&cnt); }}
    let k0 = workgroupUniformLoad(&flag);
    let uo = {uo};
    for (var c = k0; c < {w('pcols')}; c++) {{
      // the unit vector e_is with the least weight inside span(P[:, :c])
      var bv: {T} = {_lit(T, 4.0)};
      var bi = 0u;
      for (var i = lid; i < R; i += {wgs}u) {{
        var s2: {T} = {z};
        for (var j = 0u; j < c; j++) {{ let x = {P.format(i='i', j='j')}; s2 += x * x; }}
        if (s2 < bv) {{ bv = s2; bi = i; }}
      }}
      RED[lid] = bv;
      REDI[lid] = bi;
      sync();
      for (var st = {wgs}u / 2u; st > 0u; st >>= 1u) {{
        if (lid < st && (RED[lid + st] < RED[lid] ||
                         (RED[lid + st] == RED[lid] && REDI[lid + st] < REDI[lid]))) {{
          RED[lid] = RED[lid + st];
          REDI[lid] = REDI[lid + st];
        }}
        sync();
      }}
      let ist = REDI[0];
      for (var i = lid; i < R; i += {wgs}u) {{
        var x = select({z}, {one}, i == ist);
        for (var j = 0u; j < c; j++) {{ x -= {P.format(i='i', j='j')} * {P.format(i='ist', j='j')}; }}
        w_set(i, x);
      }}
      sync();
      for (var j = lid; j < c; j += {wgs}u) {{
        var h: {T} = {z};
        for (var i = 0u; i < R; i++) {{ h += {P.format(i='i', j='j')} * w_get(i); }}
        h_set(j, h);
      }}
      sync();
      var s2: {T} = {z};
      for (var i = lid; i < R; i += {wgs}u) {{
        var x = w_get(i);
        for (var j = 0u; j < c; j++) {{ x -= {P.format(i='i', j='j')} * h_get(j); }}
        w_set(i, x);
        s2 += x * x;
      }}
      RED[lid] = s2;
      let rn = {one} / sqrt(wsum());
      for (var i = lid; i < R; i += {wgs}u) {{ {P.format(i='i', j='c')} = w_get(i) * rn; }}
      sync();
    }}"""
        else:
            v_init = v_rot = vec_out = complete = ""
        if T == "f32":
            floor, tiny = 2.0 ** -124, 2.0 ** -60
        else:
            floor, tiny = 2.0 ** -1020, 2.0 ** -500
        dot = unrolled("i", "0u", "R", "1u", """let x = u_get(op + i);
let y = u_get(oq + i);
al += x * x;
be += y * y;
ga += x * y;""", "            ")
        u_rot = _rot_pass("R", "pq.x * R + i", "pq.y * R + i", "u_get", "u_set", z,
                          wg=wg_size(c))
        return Template.file(_PKG, "svd.wgsl").render(
            lay.tokens(), k, store=store, wg=wg_size(c), floor=_lit(T, floor),
            tiny=_lit(T, tiny), v_init=v_init, v_rot=v_rot, vec_out=vec_out,
            complete=complete, dot=dot, u_rot=u_rot)

    @property
    def label(self):
        return f"svd_{self.t.name}_c{self.cap}{'_v' if self.vectors else ''}"


def pick_cap(make, n: int, caps) -> int:
    """The smallest workgroup bucket holding n whose arrays fit the adapter, else 0."""
    for c in CAPS_WG:
        if n <= c and make(c).wg_bytes() <= caps.workgroup_storage \
                and wg_size(c) <= caps.invocations:
            return c
    return 0


def variants():
    out = []
    for d in (dt.float32, dt.float64):
        t = WTYPES[d]
        for cap in (0,) + CAPS_WG:
            for vec in (False, True):
                out.append(EighSpec(t, cap, vec))
                out.append(SvdSpec(t, cap, vec))
    return out
