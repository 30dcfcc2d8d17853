"""The Jacobi kernels as specs: EighSpec (two-sided, symmetric) and SvdSpec (one-sided).

Both run one workgroup per matrix over a grid-strided batch. ``cap`` > 0: the working
matrices live in workgroup memory, sized for n <= cap (the fast path for stacks of small
matrices); ``cap`` == 0: they live in a scratch buffer, one slot per workgroup, for any n.
Sizes are parameter words, so one compiled variant serves every n up to its cap.
WGSL: eigh.wgsl, svd.wgsl (svd_gs.wgsl, svd_complete.wgsl: the completion of U's basis);
the rotation passes, accessors and outputs are generated here.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType
from .jacobi_common import consts, elem_fns, elem_types, lit, needs, unrolled

_PKG = __package__
CAPS_WG = (4, 8, 16, 32, 48, 64)   # workgroup-memory buckets (n <= cap); 48: the largest
                                   # float64 bucket with vectors in 48 KiB (NVIDIA)


def _fragment(name, *provided, **values):
    """A WGSL fragment file rendered, without the file's final newline."""
    return Template.file(_PKG, name).render(*provided, **values).rstrip("\n")


def _rot_pass(n: str, idx_p: str, idx_q: str, get: str, set_: str, ezero: str, extra="",
              wg: int = 256, rows: bool = False, fix: bool = False) -> str:
    """One rotation pass: for each (pair k, line i) rotate elements idx_p(i), idx_q(i).
    J = [[c, g], [-conj(g), c]] (g = s e^{i phi}): columns (A J, V J, U J) take
    p' = c x - conj(g) y, q' = g x + c y; rows (J^H A) take p' = c x - g y, q' = conj(g) x + c y,
    each in the update form with h = 1 - c (the pair's stored "c" is h; see
    jacobi_common._jrot)."""
    if rows:
        xp, xq = "x - (mul(g, y) + h * x)", "y + (mul(cj(g), x) - h * y)"
    else:
        xp, xq = "x - (mul(cj(g), y) + h * x)", "y + (mul(g, x) - h * y)"
    if fix:  # the column pass of the two-sided method stores the annihilated a_pq as 0
        xp = f"select({xp}, {ezero}, i == pq.y)"
        xq = f"select({xq}, {ezero}, i == pq.x)"
    body = f"""let k = e / {n};
let i = e - k * {n};
let pq = pair(r, k, m);
let h = cs_c(k);
let g = cs_g(k);
if (pq.y < {n} && nz(g)) {{
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


def _accessors(cap: int, t: WType, arrays, slot_args: str, slot_body: str) -> str:
    """get / set functions per (name, size, kind) over workgroup arrays (cap > 0) or regions
    of the scratch binding S (array of the element type; offsets set by ``slot``). kind
    "e": elements, "t": reals (stored in .x of complex scratch), "cs": per pair the cosine
    c (real) and g = s e^{i phi} (an element), two elements per pair."""
    E, T = elem_types(t)
    out = [_sync(cap)]
    for name, size, kind in arrays:
        if cap:
            arr = f"W_{name}"
            et = T if kind == "t" else E
            count = max(1, size * (2 if kind == "cs" else 1))
            out.append(f"var<workgroup> {arr}: array<{et}, {count}>;")
            ref = f"{arr}[{{i}}]"
        else:
            out.append(f"var<private> o_{name}: u32;")
            ref = f"S[o_{name} + {{i}}]"
            et = E
        if kind == "cs":
            out.append(f"fn cs_c(k: u32) -> {T} {{ return re({ref.format(i='2u * k')}); }}")
            out.append(f"fn cs_g(k: u32) -> {E} {{ return {ref.format(i='2u * k + 1u')}; }}")
            out.append(f"fn cs_set(k: u32, c: {T}, g: {E}) {{ {ref.format(i='2u * k')} = tov(c); "
                       f"{ref.format(i='2u * k + 1u')} = g; }}")
        elif kind == "t" and not cap:
            out.append(f"fn {name}_get(i: u32) -> {T} {{ return re({ref.format(i='i')}); }}")
            out.append(f"fn {name}_set(i: u32, v: {T}) {{ {ref.format(i='i')} = tov(v); }}")
        else:
            vt = T if kind == "t" else E
            out.append(f"fn {name}_get(i: u32) -> {vt} {{ return {ref.format(i='i')}; }}")
            out.append(f"fn {name}_set(i: u32, v: {vt}) {{ {ref.format(i='i')} = v; }}")
    out.append(f"fn slot({slot_args}) {{\n{slot_body if not cap else ''}\n}}")
    return "\n".join(out)

@dataclasses.dataclass(frozen=True)
class EighSpec(KernelSpec):
    t: WType          # float32 / float64 / complex64 / complex128 (Hermitian)
    cap: int          # workgroup-memory bucket, 0: scratch buffer
    vectors: bool

    def needs(self):
        return needs(self.t)

    def layout(self, caps):
        E, T = elem_types(self.t)
        bufs = [Buf("A", E), Buf("W", T, "rw")]
        if self.vectors:
            bufs.append(Buf("V", E, "rw"))
        if not self.cap:
            bufs.append(Buf("S", E, "rw"))
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
        c = self.cap
        k = consts(self.t)
        arrays = [("a", c * c, "e"), ("cs", c // 2, "cs")]
        if self.vectors:
            arrays.append(("v", c * c, "e"))
        body = "" if c else (f"  o_a = {lay.word('S_off')} + g * {lay.word('sstride')};\n"
                             f"  o_cs = o_a + n * n;\n" +
                             ("  o_v = o_cs + n + 1u;" if self.vectors else ""))
        store = _accessors(c, self.t, arrays, "g: u32, n: u32", body)
        if self.vectors:
            v_init = (f"      v_set(e, select({k['ezero']}, tov({k['one']}), "
                      f"e / n == e % n));")
            v_rot = """  let vx = v_get(i * n + pq.x);
  let vy = v_get(i * n + pq.y);
  v_set(i * n + pq.x, vx - (mul(cj(g), vy) + h * vx));
  v_set(i * n + pq.y, vy + (mul(g, vx) - h * vy));"""
            v_out = (f"      for (var k = 0u; k < n; k++) {{ V[{lay.word('V_off')} + b * nn + "
                     f"k * n + rk] = v_get(k * n + i); }}")
        else:
            v_init = v_rot = v_out = ""
        T = k["T"]
        floor = lit(T, (2.0 ** -23) ** 2 if T == "f32" else (2.0 ** -52) ** 2)
        wg = wg_size(c)
        ez = k["ezero"]
        rows = _rot_pass("n", "pq.x * n + i", "pq.y * n + i", "a_get", "a_set", ez, wg=wg,
                         rows=True)
        cols = _rot_pass("n", "i * n + pq.x", "i * n + pq.y", "a_get", "a_set", ez,
                         v_rot, wg=wg, fix=True)
        return Template.file(_PKG, "eigh.wgsl").render(
            lay.tokens(), k, store=store, cfns=elem_fns(self.t), wg=wg, floor=floor,
            v_init=v_init, v_out=v_out, rows=rows, cols=cols)

    @property
    def label(self):
        return f"eigh_{self.t.name}_c{self.cap}{'_v' if self.vectors else ''}"


@dataclasses.dataclass(frozen=True)
class SvdSpec(KernelSpec):
    t: WType
    cap: int
    vectors: bool     # write P and Q (and complete P's basis)
    resume: bool = False   # X holds already-rotated columns and VIN their V (RoundSpec
                           # did the sweeps): only norms, order, outputs and completion

    def needs(self):
        return needs(self.t)

    def layout(self, caps):
        E, T = elem_types(self.t)
        bufs = [Buf("X", E), Buf("SV", T, "rw")]
        words = ["R", "C", "nb", "xrs", "xcs", "xbs", "sstride", "xcj"]
        if self.vectors:
            bufs += [Buf("UO", E, "rw"), Buf("VO", E, "rw")]
            if self.resume:
                bufs.append(Buf("VIN", E))
            words += ["pcols", "urs", "ucs", "ubs", "vrs", "vcs", "vbs", "pcj", "qcj"]
        if not self.cap:
            bufs.append(Buf("S", E, "rw"))
        return Layout(bufs, words, caps)

    def wg_bytes(self) -> int:
        c = self.cap
        n = c * c + c + c + (c * c + 2 * c if self.vectors else 0)
        return (n + wg_size(c)) * self.t.itemsize + wg_size(c) * 4 + 16 + self.t.itemsize

    @staticmethod
    def scratch(r: int, c: int, vectors: bool) -> int:
        return r * c + c + 1 + c + ((c * c + 2 * r) if vectors else 0)

    def render(self, caps):
        lay = self.layout(caps)
        c = self.cap
        k = consts(self.t)
        E, T = k["E"], k["T"]
        arrays = [("u", c * c, "e"), ("cs", c // 2, "cs"), ("n", c, "t")]
        if self.vectors:
            arrays += [("v", c * c, "e"), ("w", c, "e"), ("h", c, "e")]
        body = "" if c else (f"  o_u = {lay.word('S_off')} + g * {lay.word('sstride')};\n"
                             f"  o_cs = o_u + r * c;\n  o_n = o_cs + c + 1u;\n")
        if self.vectors and not c:
            body += "  o_v = o_n + c;\n  o_w = o_v + c * c;\n  o_h = o_w + r;\n"
        store = _accessors(c, self.t, arrays, "g: u32, r: u32, c: u32", body)
        cfns = elem_fns(self.t)
        # conjugations of the complex layouts: wide inputs are solved as X = A^H, so X is
        # loaded conjugated and P (-> Vh) stored conjugated; tall inputs store Q^H as Vh
        cj = (lambda w: f"select(x, cj(x), {lay.word(w)} != 0u)") if E != T else \
            (lambda w: "x")
        cfns += f"\nfn xf(x: {E}) -> {E} {{ return {cj('xcj')}; }}"
        if self.vectors:
            cfns += (f"\nfn pf(x: {E}) -> {E} {{ return {cj('pcj')}; }}"
                     f"\nfn qf(x: {E}) -> {E} {{ return {cj('qcj')}; }}")
        one, ez = k["one"], k["ezero"]
        wgs = wg_size(c)
        if self.vectors:
            w = lay.word
            if self.resume:
                v_init = (f"    for (var e = lid; e < C * C; e += {wgs}u) {{ "
                          f"v_set(e, VIN[{w('VIN_off')} + b * C * C + e]); }}")
            else:
                v_init = (f"    for (var e = lid; e < C * C; e += {wgs}u) {{ "
                          f"v_set(e, select({ez}, tov({one}), e / C == e % C)); }}")
            v_rot = _rot_pass("C", "pq.x * C + i", "pq.y * C + i", "v_get", "v_set", ez,
                              wg=wgs)
            uo = f"{w('UO_off')} + b * {w('ubs')}"
            vo = f"{w('VO_off')} + b * {w('vbs')}"
            urs, ucs, vrs, vcs = w("urs"), w("ucs"), w("vrs"), w("vcs")
            vec_out = f"""      let uo = {uo};
      for (var k = 0u; k < C; k++) {{ VO[{vo} + k * {vrs} + rk * {vcs}] = qf(v_get(j * C + k)); }}
      if (sj > TINYN) {{
        let rs = {one} / sj;
        for (var i = 0u; i < R; i++) {{
          UO[uo + i * {urs} + rk * {ucs}] = pf(u_get(j * R + i) * rs);
        }}
        atomicAdd(&cnt2, 1u);
        if (sj > EPS * {T}(R) * smax) {{ atomicAdd(&cnt, 1u); }}
      }}"""
            # P's stored columns (conjugated or not) are orthonormal either way: completing
            # the stored set completes the basis the caller reads. Columns [k0, k1) hold
            # normalised columns of negligible singular values, [k1, pcols) nothing yet.
            P = f"UO[uo + {{i}} * {urs} + {{j}} * {ucs}]"
            # unrolled: lavapipe's loop budget (mixin._check_loops counts this loop / UNROLL)
            hsum = unrolled("i", "0u", "R", "1u",
                            f"h += mul(cj({P.format(i='i', j='j')}), w_get(i));", "          ")
            gs = _fragment("svd_gs.wgsl", lay.tokens(), k, wg=wgs, hsum=hsum)
            complete = _fragment("svd_complete.wgsl", lay.tokens(), k, wg=wgs, gs=gs,
                                 four=lit(T, 4.0), quarter=lit(T, 0.25))
        else:
            v_init = v_rot = vec_out = complete = ""
        if T == "f32":
            floor, tiny = 2.0 ** -124, 2.0 ** -60
        else:
            floor, tiny = 2.0 ** -1020, 2.0 ** -500
        dot = unrolled("i", "0u", "R", "1u", """let x = u_get(op + i);
let y = u_get(oq + i);
al += ab2(x);
be += ab2(y);
gz += mul(cj(x), y);""", "            ")
        u_rot = _rot_pass("R", "pq.x * R + i", "pq.y * R + i", "u_get", "u_set", ez, wg=wgs)
        return Template.file(_PKG, "svd.wgsl").render(
            lay.tokens(), k, store=store, cfns=cfns, wg=wgs, floor=lit(T, floor),
            tiny=lit(T, tiny), v_init=v_init, v_rot=v_rot, vec_out=vec_out,
            complete=complete, dot=dot, u_rot=u_rot,
            sweeps="0u" if self.resume else f"{k['maxsw']}u")

    @property
    def label(self):
        return (f"svd_{self.t.name}_c{self.cap}{'_v' if self.vectors else ''}"
                f"{'_resume' if self.resume else ''}")


def pick_cap(make, n: int, caps) -> int:
    """The smallest workgroup bucket holding n whose arrays fit the adapter, else 0."""
    for c in CAPS_WG:
        if n <= c and make(c).wg_bytes() <= caps.workgroup_storage \
                and wg_size(c) <= caps.invocations:
            return c
    return 0


def variants():
    out = []
    for d in (dt.float32, dt.float64, dt.complex64, dt.complex128):
        t = WTYPES[d]
        for vec in (False, True):
            out.append(SvdSpec(t, 0, vec, True))
            for cap in (0,) + CAPS_WG:
                out += [EighSpec(t, cap, vec), SvdSpec(t, cap, vec)]
    return out
