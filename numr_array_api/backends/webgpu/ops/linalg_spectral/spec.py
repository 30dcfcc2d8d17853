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
CAPS_WG = (4, 8, 16, 32, 48, 64)   # workgroup-memory buckets (n <= cap); 48: the largest
                                   # float64 bucket with vectors in 48 KiB (NVIDIA)


def _lit(t: str, x: float) -> str:
    return f"{x!r}{'f' if t == 'f32' else 'lf'}"


def _types(t: WType):
    """(E, T): the element type (real, or vec2 for complex) and its real type."""
    E = t.val
    return E, ("f32" if "f32" in E else "f64")


def _consts(t: WType) -> dict:
    E, T = _types(t)
    f32 = T == "f32"
    eps = 2.0 ** -23 if f32 else 2.0 ** -52
    return {"T": T, "E": E, "eps": _lit(T, eps), "zero": _lit(T, 0.0), "one": _lit(T, 1.0),
            "two": _lit(T, 2.0), "halfv": _lit(T, 0.5), "big": _lit(T, 2.0 ** 32),
            "small": _lit(T, 2.0 ** -32), "maxsw": 30 if f32 else 40,
            "ezero": f"{E}({_lit(T, 0.0)})"}


def _jrot(t: WType) -> str:
    """The Jacobi rotation of tangent t (t = tan theta, signed) and off-diagonal z (|z| > 0),
    as (h, g): c = cos theta = 1 - h, g = sin theta * z / |z|. Rotations are applied in the
    update form p' = x - (conj(g) y + h x), q' = y + (g x - h y), which keeps
    c^2 + |g|^2 = 1 where c itself cannot: for |t| < 2^-12 (float32) c = 1 / sqrt(1 + t^2)
    rounds to 1 while |g| = |t|, so every late small rotation grew both columns by
    1 + t^2 / 2, a systematic drift that shifted every eigenvalue of the shifted round path
    by about 1e-4 ||B|| (at n = 200; ~1000 ulp, within tolerance on lavapipe's exact
    rounding only). Also: the phase z / |z| is taken after scaling z (|z|^2 underflows, and
    a GPU flushing subnormals dropped one component's square: |g| came out 0.7% large), and
    one Newton step on c^2 + |g|^2 absorbs the few-ulp error of approximate sqrt / division
    (NVIDIA's), before h = |g|^2 / (1 + c) is formed."""
    E, T = _types(t)
    one, half, onehalf = _lit(T, 1.0), _lit(T, 0.5), _lit(T, 1.5)
    if E == T:
        ph = f"select(-{one}, {one}, z >= {_lit(T, 0.0)})"
    else:
        ph = ("junit(z)")
    out = f"""struct JRot {{ h: {T}, g: {E} }}
fn jrot(t: {T}, z: {E}) -> JRot {{
  var c = {one} / sqrt(t * t + {one});
  var g = {ph} * (t * c);
  let f = {onehalf} - {half} * (c * c + ab2(g));
  c = c * f;
  g = g * f;
  return JRot(ab2(g) / ({one} + c), g);
}}"""
    if E != T:
        out = f"""fn junit(z: {E}) -> {E} {{
  let w = z / max(abs(z.x), abs(z.y));
  return w / sqrt(ab2(w));
}}
""" + out
    return out


def _cfns(t: WType) -> str:
    """Element arithmetic shared by the real and complex variants of one template."""
    return _cfns0(t) + "\n" + _jrot(t)


def _cfns0(t: WType) -> str:
    E, T = _types(t)
    z = _lit(T, 0.0)
    if E == T:
        return f"""fn re(x: {T}) -> {T} {{ return x; }}
fn ab2(x: {T}) -> {T} {{ return x * x; }}
fn cabs(x: {T}) -> {T} {{ return abs(x); }}
fn amax(x: {T}) -> {T} {{ return abs(x); }}
fn cj(x: {T}) -> {T} {{ return x; }}
fn mul(a: {T}, b: {T}) -> {T} {{ return a * b; }}
fn nz(x: {T}) -> bool {{ return x != {z}; }}
fn tov(x: {T}) -> {T} {{ return x; }}"""
    # |x| as sqrt(x.x^2 + x.y^2) is safe: inputs are scaled so max |component| <= 1
    return f"""fn re(x: {E}) -> {T} {{ return x.x; }}
fn ab2(x: {E}) -> {T} {{ return x.x * x.x + x.y * x.y; }}
fn cabs(x: {E}) -> {T} {{ return sqrt(ab2(x)); }}
fn amax(x: {E}) -> {T} {{ return max(abs(x.x), abs(x.y)); }}
fn cj(x: {E}) -> {E} {{ return {E}(x.x, -x.y); }}
fn mul(a: {E}, b: {E}) -> {E} {{ return {E}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}
fn nz(x: {E}) -> bool {{ return x.x != {z} || x.y != {z}; }}
fn tov(x: {T}) -> {E} {{ return {E}(x, {z}); }}"""


UNROLL = 8   # lavapipe stops a loop after 65535 iterations per invocation, counted over
             # every entry: unrolled bodies keep the hot loops of a whole solve below that


def unrolled(var: str, start: str, bound: str, step: str, body: str, indent: str) -> str:
    """``for (var = start; var < bound; var += step) { body }`` with UNROLL copies of the body
    per iteration (each guarded), so the loop's backedge count drops UNROLL-fold."""
    lines = [f"{indent}for (var {var}0 = {start}; {var}0 < {bound}; "
             f"{var}0 += {UNROLL}u * {step}) {{"]
    for u in range(UNROLL):
        lines.append(f"{indent}  {{ let {var} = {var}0 + {u}u * {step};")
        lines.append(f"{indent}    if ({var} < {bound}) {{")
        lines += [f"{indent}      {ln}" for ln in body.strip().splitlines()]
        lines.append(f"{indent}    }}")
        lines.append(f"{indent}  }}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def _rot_pass(n: str, idx_p: str, idx_q: str, get: str, set_: str, ezero: str, extra="",
              wg: int = 256, rows: bool = False, fix: bool = False) -> str:
    """One rotation pass: for each (pair k, line i) rotate elements idx_p(i), idx_q(i).
    J = [[c, g], [-conj(g), c]] (g = s e^{i phi}): columns (A J, V J, U J) take
    p' = c x - conj(g) y, q' = g x + c y; rows (J^H A) take p' = c x - g y, q' = conj(g) x + c y,
    each in the update form with h = 1 - c (the pair's stored "c" is h; see _jrot)."""
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
    E, T = _types(t)
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


def _needs(t: WType):
    return ("f64",) if "f64" in t.val else ()


@dataclasses.dataclass(frozen=True)
class EighSpec(KernelSpec):
    t: WType          # float32 / float64 / complex64 / complex128 (Hermitian)
    cap: int          # workgroup-memory bucket, 0: scratch buffer
    vectors: bool

    def needs(self):
        return _needs(self.t)

    def layout(self, caps):
        E, T = _types(self.t)
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
        k = _consts(self.t)
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
        floor = _lit(T, (2.0 ** -23) ** 2 if T == "f32" else (2.0 ** -52) ** 2)
        wg = wg_size(c)
        ez = k["ezero"]
        rows = _rot_pass("n", "pq.x * n + i", "pq.y * n + i", "a_get", "a_set", ez, wg=wg,
                         rows=True)
        cols = _rot_pass("n", "i * n + pq.x", "i * n + pq.y", "a_get", "a_set", ez,
                         v_rot, wg=wg, fix=True)
        return Template.file(_PKG, "eigh.wgsl").render(
            lay.tokens(), k, store=store, cfns=_cfns(self.t), wg=wg, floor=floor,
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
        return _needs(self.t)

    def layout(self, caps):
        E, T = _types(self.t)
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
        k = _consts(self.t)
        E, T = k["E"], k["T"]
        arrays = [("u", c * c, "e"), ("cs", c // 2, "cs"), ("n", c, "t")]
        if self.vectors:
            arrays += [("v", c * c, "e"), ("w", c, "e"), ("h", c, "e")]
        body = "" if c else (f"  o_u = {lay.word('S_off')} + g * {lay.word('sstride')};\n"
                             f"  o_cs = o_u + r * c;\n  o_n = o_cs + c + 1u;\n")
        if self.vectors and not c:
            body += "  o_v = o_n + c;\n  o_w = o_v + c * c;\n  o_h = o_w + r;\n"
        store = _accessors(c, self.t, arrays, "g: u32, r: u32, c: u32", body)
        cfns = _cfns(self.t)
        # conjugations of the complex layouts: wide inputs are solved as X = A^H, so X is
        # loaded conjugated and P (-> Vh) stored conjugated; tall inputs store Q^H as Vh
        cj = (lambda w: f"select(x, cj(x), {lay.word(w)} != 0u)") if E != T else \
            (lambda w: "x")
        cfns += f"\nfn xf(x: {E}) -> {E} {{ return {cj('xcj')}; }}"
        if self.vectors:
            cfns += (f"\nfn pf(x: {E}) -> {E} {{ return {cj('pcj')}; }}"
                     f"\nfn qf(x: {E}) -> {E} {{ return {cj('qcj')}; }}")
        z, one, ez = k["zero"], k["one"], k["ezero"]
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
            gs = f"""        for (var j = lid; j < c; j += {wgs}u) {{
          var h: {E} = {ez};
{hsum}
          h_set(j, h);
        }}
        ssync();
        s2 = {z};
        for (var i = lid; i < R; i += {wgs}u) {{
          var x = w_get(i);
          for (var j = 0u; j < c; j++) {{ x -= mul({P.format(i='i', j='j')}, h_get(j)); }}
          w_set(i, x);
          s2 += ab2(x);
        }}
        ssync();"""
            complete = f"""    ssync();
    if (lid == 0u) {{ flag = atomicLoad(&cnt); flag2 = atomicLoad(&cnt2); }}
    let k0 = workgroupUniformLoad(&flag);
    let k1 = workgroupUniformLoad(&flag2);
    let uo = {uo};
    for (var c = k0; c < {w('pcols')}; c++) {{
      var att = select(1u, 0u, c < k1);
      loop {{
        if (att == 0u) {{
          for (var i = lid; i < R; i += {wgs}u) {{ w_set(i, {P.format(i='i', j='c')}); }}
        }} else {{
          // the unit vector e_ist with the least weight inside span(P[:, :c])
          var bv: {T} = {_lit(T, 4.0)};
          var bi = 0u;
          for (var i = lid; i < R; i += {wgs}u) {{
            var s2: {T} = {z};
            for (var j = 0u; j < c; j++) {{ s2 += ab2({P.format(i='i', j='j')}); }}
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
          for (var i = lid; i < R; i += {wgs}u) {{ w_set(i, select({ez}, tov({one}), i == ist)); }}
        }}
        ssync();
        var s2: {T} = {z};
        // Gram-Schmidt twice against P[:, :c]
{gs}
{gs}
        RED[lid] = s2;
        let q = wsum();
        if (lid == 0u) {{ fq = q; }}
        let nq = workgroupUniformLoad(&fq);
        // a start that kept under half its length was (nearly) inside the span
        if (att != 0u || nq >= {_lit(T, 0.25)}) {{
          let rn = {one} / sqrt(nq);
          for (var i = lid; i < R; i += {wgs}u) {{ {P.format(i='i', j='c')} = w_get(i) * rn; }}
          break;
        }}
        att = 1u;
      }}
      ssync();
    }}"""
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
            lay.tokens(), k, store=store, cfns=cfns, wg=wgs, floor=_lit(T, floor),
            tiny=_lit(T, tiny), v_init=v_init, v_rot=v_rot, vec_out=vec_out,
            complete=complete, dot=dot, u_rot=u_rot,
            sweeps="0u" if self.resume else f"{k['maxsw']}u")

    @property
    def label(self):
        return (f"svd_{self.t.name}_c{self.cap}{'_v' if self.vectors else ''}"
                f"{'_resume' if self.resume else ''}")


_ROUND = Template("""${layout}
${cfns}
var<workgroup> R1: array<${T}, ${wg}>;
var<workgroup> R2: array<${T}, ${wg}>;
var<workgroup> RG: array<${E}, ${wg}>;

const EPS: ${T} = ${eps};
const FLOOR: ${T} = ${floor};

fn pair(r: u32, k: u32, m: u32) -> vec2<u32> {
  let mm = m - 1u;
  var p = mm;
  var q = r;
  if (k != 0u) { p = (r + k) % mm; q = (r + mm - k) % mm; }
  return vec2<u32>(min(p, q), max(p, q));
}

// One round of one-sided Jacobi over many workgroups: workgroup (k, b) owns pair k of
// matrix b, reduces its column dots, and rotates its two columns of U and V. The pairs of
// a round are disjoint, so a round is one dispatch; CNT[b * maxsw + sw] counts rotations.
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let m = C + (C & 1u);
  let pq = pair(${rnd}, wid.x, m);
  if (pq.y >= C) { return; }
  let b = wid.y;
  let op = ${U_off} + b * R * C + pq.x * R;
  let oq = ${U_off} + b * R * C + pq.y * R;
  var al: ${T} = ${zero};
  var be: ${T} = ${zero};
  var gz: ${E} = ${ezero};
  for (var i = lid; i < R; i += ${wg}u) {
    let x = U[op + i];
    let y = U[oq + i];
    al += ab2(x);
    be += ab2(y);
    gz += mul(cj(x), y);
  }
  R1[lid] = al;
  R2[lid] = be;
  RG[lid] = gz;
  workgroupBarrier();
  for (var st = ${wg}u / 2u; st > 0u; st >>= 1u) {
    if (lid < st) {
      R1[lid] += R1[lid + st];
      R2[lid] += R2[lid + st];
      RG[lid] += RG[lid + st];
    }
    workgroupBarrier();
  }
  let a2 = R1[0];
  let b2 = R2[0];
  let g2 = RG[0];
  let ga = cabs(g2);
  if (ga > max(FLOOR, EPS * sqrt(${T}(R)) * sqrt(a2) * sqrt(b2))) {
    let d = b2 - a2;
    var t: ${T};
    if (ga < abs(d) * EPS) {
      t = ga / d;
    } else {
      let th = d / (${two} * ga);
      t = select(-${one}, ${one}, th >= ${zero}) / (abs(th) + sqrt(th * th + ${one}));
    }
    let jr = jrot(t, g2);
    let h = jr.h;
    let g = jr.g;
    for (var i = lid; i < R; i += ${wg}u) {
      let x = U[op + i];
      let y = U[oq + i];
      U[op + i] = x - (mul(cj(g), y) + h * x);
      U[oq + i] = y + (mul(g, x) - h * y);
    }
${v_rot}
    if (lid == 0u) { atomicAdd(&CNT[${CNT_off} + b * ${maxsw} + ${sw}], 1u); }
  }
}
""", "jacobi_round")


@dataclasses.dataclass(frozen=True)
class RoundSpec(KernelSpec):
    """One round-robin round of one-sided Jacobi, a workgroup per (pair, matrix)."""

    t: WType
    vectors: bool

    def needs(self):
        return _needs(self.t)

    def layout(self, caps):
        E, T = _types(self.t)
        bufs = [Buf("U", E, "rw")]
        if self.vectors:
            bufs.append(Buf("V", E, "rw"))
        bufs.append(Buf("CNT", "atomic<u32>", "rw"))
        return Layout(bufs, ["R", "C", "rnd", "sw", "maxsw"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        k = _consts(self.t)
        T = k["T"]
        v_rot = ""
        if self.vectors:
            v_rot = f"""    let vp = {lay.word('V_off')} + b * C * C + pq.x * C;
    let vq = {lay.word('V_off')} + b * C * C + pq.y * C;
    for (var i = lid; i < C; i += 256u) {{
      let x = V[vp + i];
      let y = V[vq + i];
      V[vp + i] = x - (mul(cj(g), y) + h * x);
      V[vq + i] = y + (mul(g, x) - h * y);
    }}"""
        floor = 2.0 ** -124 if T == "f32" else 2.0 ** -1020
        return _ROUND.render(lay.tokens(), k, cfns=_cfns(self.t), wg=256,
                             floor=_lit(T, floor), v_rot=v_rot)

    @property
    def label(self):
        return f"jround_{self.t.name}{'_v' if self.vectors else ''}"


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
        for cap in (0,) + CAPS_WG:
            for vec in (False, True):
                out.append(EighSpec(t, cap, vec))
                out.append(SvdSpec(t, cap, vec))
            out.append(SvdSpec(t, 0, vec, True))
            if cap == 0:
                out.append(RoundSpec(t, vec))
                out.append(FinishSpec(t, vec))
    return out + eig_variants()


_EIG_VEC = """    sync();
    // y: T y = lambda_k y with y_k = 1, y_j = 0 beyond k (column k of Y at oy + k n)
    for (var k = lid; k < n; k += ${wg}u) {
      let lam = h(k, k, n);
      S[oy + k * n + k] = tov(${one});
      for (var jj = 0u; jj < k; jj++) {
        let j = k - 1u - jj;
        var s: ${E} = ${ezero};
        for (var l = j + 1u; l <= k; l++) { s += mul(h(j, l, n), S[oy + k * n + l]); }
        var d = h(j, j, n) - lam;
        if (cabs1(d) < EPS) { d = tov(EPS); }   // repeated eigenvalues: perturbed pivot
        S[oy + k * n + j] = -cdiv(s, d);
      }
    }
    sync();
    let vo = ${V_off} + b * nn;
    for (var e = lid; e < nn; e += ${wg}u) {
      let i = e / n;
      let k = e - i * n;
      var v: ${E} = ${ezero};
      for (var l = 0u; l <= k; l++) { v += mul(S[oq + i * n + l], S[oy + k * n + l]); }
      V[vo + e] = v;
    }
    sync();
    // unit 2-norm, the largest component real and positive (scaled first: no overflow)
    for (var k = lid; k < n; k += ${wg}u) {
      var big: ${T} = ${zero};
      var bi = 0u;
      for (var i = 0u; i < n; i++) {
        let a1 = cabs1(V[vo + i * n + k]);
        if (a1 > big) { big = a1; bi = i; }
      }
      if (big > ${zero}) {
        let p = V[vo + bi * n + k] / big;
        var s2: ${T} = ${zero};
        for (var i = 0u; i < n; i++) {
          let x = cdiv(V[vo + i * n + k] / big, p);
          V[vo + i * n + k] = x;
          s2 += ab2(x);
        }
        let r = ${one} / sqrt(s2);
        for (var i = 0u; i < n; i++) { V[vo + i * n + k] = V[vo + i * n + k] * r; }
      }
    }"""


@dataclasses.dataclass(frozen=True)
class EigSpec(KernelSpec):
    """eig / eigvals: complex Schur form of a real or complex matrix (scratch memory)."""

    t: WType          # input element type (float32 / float64 / complex64 / complex128)
    vectors: bool

    def needs(self):
        return _needs(self.t)

    @property
    def ct(self) -> WType:
        return WTYPES[dt.complex128 if "f64" in self.t.val else dt.complex64]

    def wg(self) -> int:
        return 256

    def layout(self, caps):
        E = self.ct.val
        bufs = [Buf("A", self.t.val), Buf("W", E, "rw"), Buf("ST", "u32", "rw")]
        if self.vectors:
            bufs.append(Buf("V", E, "rw"))
        bufs.append(Buf("S", E, "rw"))
        return Layout(bufs, ["n", "nb", "sstride"], caps)

    @staticmethod
    def scratch(n: int, vectors: bool) -> int:
        return n * n * (3 if vectors else 1)

    def render(self, caps):
        lay = self.layout(caps)
        k = _consts(self.ct)
        E, T = k["E"], k["T"]
        cfns = _cfns(self.ct)
        if self.t.val == E:
            cfns += (f"\nfn toe(x: {E}) -> {E} {{ return x; }}"
                     f"\nfn amaxi(x: {E}) -> {T} {{ return amax(x); }}")
        else:
            cfns += (f"\nfn toe(x: {T}) -> {E} {{ return tov(x); }}"
                     f"\nfn amaxi(x: {T}) -> {T} {{ return abs(x); }}")
        if self.vectors:
            q_init = f"      S[oq + e] = select({k['ezero']}, tov({k['one']}), e / n == e % n);"
            q_rot = """    let qx = S[oq + i * n + k];
    let qy = S[oq + i * n + k + 1u];
    S[oq + i * n + k] = c * qx + mul(qy, cj(s));
    S[oq + i * n + k + 1u] = c * qy - mul(qx, s);"""
            vec_out = Template(_EIG_VEC, "eig_vectors").render(lay.tokens(), k, wg=self.wg())
        else:
            q_init = q_rot = vec_out = ""
        tiny = _lit(T, 2.0 ** -120 if T == "f32" else 2.0 ** -1000)
        wg = self.wg()
        row_loop = _par("j", wg, """let x = h(k, j, n);
let y = h(k + 1u, j, n);
hset(k, j, n, c * x + mul(s, y));
hset(k + 1u, j, n, c * y - mul(cj(s), x));""")
        col_loop = _par("i", wg, """let x = h(i, k, n);
let y = h(i, k + 1u, n);
hset(i, k, n, c * x + mul(y, cj(s)));
hset(i, k + 1u, n, c * y - mul(x, s));
""" + q_rot)
        defl_loop = _par("l", wg, """if (l >= 1u && l <= hi0) {
  let sub = cabs1(h(l, l - 1u, n));
  let dsum = cabs1(h(l - 1u, l - 1u, n)) + cabs1(h(l, l, n));
  if (sub <= max(EPS * dsum, TINY)) {
    hset(l, l - 1u, n, """ + k["ezero"] + """);
    atomicMax(&DL, l);
  }
}""", "      ")
        return Template.file(_PKG, "eig.wgsl").render(
            lay.tokens(), k, cfns=cfns, wg=wg, tiny=tiny, q_init=q_init,
            vec_out=vec_out, row_loop=row_loop, col_loop=col_loop, defl_loop=defl_loop)

    @property
    def label(self):
        return f"eig_{self.t.name}{'_v' if self.vectors else ''}"


_FINISH = Template("""${layout}
${cfns}
var<workgroup> RS: array<${T}, 256>;
var<workgroup> RK: atomic<u32>;

const TINYN: ${T} = ${tiny};
const EPS: ${T} = ${eps};

// descending order on (value, index): NaN first, ties by index (as svd.wgsl)
fn before(a: ${T}, b: ${T}, ia: u32, ib: u32) -> bool {
  let na = !(a == a);
  let nb = !(b == b);
  if (na || nb) { return (na && !nb) || (na && nb && ia < ib); }
  return a > b || (a == b && ia < ib);
}

// workgroup (j, b): the norm of column j of matrix b
@compute @workgroup_size(256)
fn norms(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let j = wid.x;
  let b = wid.y;
  let o = ${U_off} + b * R * C + j * R;
  var s: ${T} = ${zero};
  for (var i = lid; i < R; i += 256u) { s += ab2(U[o + i]); }
  RS[lid] = s;
  workgroupBarrier();
  for (var st = 128u; st > 0u; st >>= 1u) {
    if (lid < st) { RS[lid] += RS[lid + st]; }
    workgroupBarrier();
  }
  if (lid == 0u) {
    let nj = sqrt(RS[0]);
    NRM[${NRM_off} + b * C + j] = nj;
  }
}

// workgroup (0, b): ZC[b] counts the columns whose singular value is negligible (as
// svd.wgsl: s_j <= max(TINYN, R eps s_max)), the ones whose U column needs completing
@compute @workgroup_size(256)
fn small(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let b = wid.y;
  let o = ${NRM_off} + b * C;
  var mx: ${T} = ${zero};
  for (var k = lid; k < C; k += 256u) { mx = max(mx, NRM[o + k]); }
  RS[lid] = mx;
  workgroupBarrier();
  for (var st = 128u; st > 0u; st >>= 1u) {
    if (lid < st) { RS[lid] = max(RS[lid], RS[lid + st]); }
    workgroupBarrier();
  }
  let thr = max(TINYN, EPS * ${T}(R) * RS[0]);
  var c = 0u;
  for (var k = lid; k < C; k += 256u) { if (!(NRM[o + k] > thr)) { c++; } }
  if (c > 0u) { atomicAdd(&ZC[${ZC_off} + b], c); }
}

// workgroup (j, b): the rank of column j, then its singular value and vectors
@compute @workgroup_size(256)
fn write(@builtin(local_invocation_index) lid: u32, @builtin(workgroup_id) wid: vec3<u32>) {
  let R = ${R};
  let C = ${C};
  let j = wid.x;
  let b = wid.y;
  let nb_ = ${NRM_off} + b * C;
  let sj = NRM[nb_ + j];
  if (lid == 0u) { atomicStore(&RK, 0u); }
  workgroupBarrier();
  var c = 0u;
  for (var k = lid; k < C; k += 256u) { if (before(NRM[nb_ + k], sj, k, j)) { c++; } }
  atomicAdd(&RK, c);
  let rk = workgroupUniformLoad(&RK);
  if (lid == 0u) { SV[${SV_off} + b * C + rk] = sj; }
${vec_write}
}
""", "svd_finish")


@dataclasses.dataclass(frozen=True)
class FinishSpec(KernelSpec):
    """After RoundSpec's sweeps: column norms, then order and outputs, a workgroup per
    (column, matrix). Completing U's basis stays with SvdSpec(resume=True)."""

    t: WType
    vectors: bool
    entries = ("norms", "small", "write")

    def needs(self):
        return _needs(self.t)

    def layout(self, caps):
        E, T = _types(self.t)
        bufs = [Buf("U", E), Buf("NRM", T, "rw"), Buf("ZC", "atomic<u32>", "rw"),
                Buf("SV", T, "rw")]
        words = ["R", "C"]
        if self.vectors:
            bufs += [Buf("UO", E, "rw"), Buf("VO", E, "rw"), Buf("VIN", E)]
            words += ["urs", "ucs", "ubs", "vrs", "vcs", "vbs", "pcj", "qcj"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        k = _consts(self.t)
        E, T = k["E"], k["T"]
        cfns = _cfns(self.t)
        vec_write = ""
        if self.vectors:
            cj = (lambda w: f"select(x, cj(x), {lay.word(w)} != 0u)") if E != T else \
                (lambda w: "x")
            cfns += (f"\nfn pf(x: {E}) -> {E} {{ return {cj('pcj')}; }}"
                     f"\nfn qf(x: {E}) -> {E} {{ return {cj('qcj')}; }}")
            w = lay.word
            vec_write = f"""  let vo = {w('VO_off')} + b * {w('vbs')} + rk * {w('vcs')};
  let vi = {w('VIN_off')} + b * C * C + j * C;
  for (var i = lid; i < C; i += 256u) {{ VO[vo + i * {w('vrs')}] = qf(VIN[vi + i]); }}
  let uo = {w('UO_off')} + b * {w('ubs')} + rk * {w('ucs')};
  let ui = {w('U_off')} + b * R * C + j * R;
  let rs = select({k['zero']}, {k['one']} / sj, sj > TINYN);
  for (var i = lid; i < R; i += 256u) {{ UO[uo + i * {w('urs')}] = pf(U[ui + i] * rs); }}"""
        tiny = 2.0 ** -60 if T == "f32" else 2.0 ** -500
        return _FINISH.render(lay.tokens(), k, cfns=cfns, tiny=_lit(T, tiny),
                              vec_write=vec_write)

    @property
    def label(self):
        return f"svd_finish_{self.t.name}{'_v' if self.vectors else ''}"


def _par(var: str, wg: int, body: str, indent: str = "  ") -> str:
    """``body`` for every ``var`` in [0, n) over the workgroup: loop-free when n <= wg, since
    lavapipe counts a loop's iterations over every entry (and this runs per rotation)."""
    inner = "\n".join(f"{indent}    {ln}" for ln in body.strip().splitlines())
    return "\n".join([
        f"{indent}if (n <= {wg}u) {{", f"{indent}  let {var} = lid;",
        f"{indent}  if ({var} < n) {{", inner, f"{indent}  }}", f"{indent}}} else {{",
        f"{indent}  for (var {var} = lid; {var} < n; {var} += {wg}u) {{", inner,
        f"{indent}  }}", f"{indent}}}"])


def eig_variants():
    return [EigSpec(WTYPES[d], v) for d in (dt.float32, dt.float64, dt.complex64,
                                            dt.complex128) for v in (False, True)]
