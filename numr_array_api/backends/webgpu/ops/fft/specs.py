"""The FFT kernel specs (one frozen spec per variant; see wgsl.py for the row model).

StockhamSpec  one radix-r Stockham autosort stage over global memory: each thread computes
              one butterfly of one row (twiddle, length-r DFT, scatter to autosorted place);
              radix 1 is the scaled copy of length-1 rows (stockham.wgsl)
FastSpec      whole transforms of one length in workgroup memory, one dispatch, the stages
              unrolled (one or several rows per workgroup); optionally the four-step
              twiddle on load, three-way row splits, tiled (row-fastest) sides and the real
              transforms' twiddle pass fused in
ChirpSpec     Bluestein's chirp multiplications: x * w (zero-padded to m) before, and
              w * z after the convolution, scaled (chirp.wgsl)
PointMulSpec  z *= B, the precomputed FFT of Bluestein's chirp filter
HalfSpec      the half-length complex trick of real transforms: ``post`` turns the FFT of
              x[2j] + i x[2j+1] into the half spectrum; ``pre`` builds that packed spectrum
              from a half spectrum before an inverse transform (half.wgsl)
FreqSpec      fftfreq / rfftfreq
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from . import wgsl as W

__all__ = ["StockhamSpec", "FastSpec", "fast_pitch", "ChirpSpec", "PointMulSpec", "HalfSpec",
           "FreqSpec", "variants", "WG"]

WG = 256


def _need(cdtype):
    return ("f64",) if cdtype == "complex128" else ()


def _io_layout(spec, caps, extra_words, extra_bufs=()):
    C, R, _ = W.types(spec.cdtype)
    bufs = [Buf("x", W.elem(C, R, spec.ld, "ld")), Buf("y", W.elem(C, R, spec.st, "st"), "rw")]
    bufs += list(extra_bufs)
    return Layout(bufs, list(extra_words) + W.IO_WORDS, caps)


_STOCKHAM = Template.file(__package__, "stockham.wgsl")


@dataclasses.dataclass(frozen=True)
class StockhamSpec(KernelSpec):
    cdtype: str       # "complex64" | "complex128"
    radix: int
    inverse: bool
    ld: str = "c"
    st: str = "c"

    def needs(self):
        return _need(self.cdtype)

    def layout(self, caps):
        C, _, _ = W.types(self.cdtype)
        return _io_layout(self, caps, ["n", "p", "nb", "tws", "order"], [Buf("tw", C)])

    def render(self, caps):
        C, R, suf = W.types(self.cdtype)
        r = self.radix
        lay = self.layout(caps)
        loads = "\n".join(
            f"    u[{t}] = ld(ib, i + {t}u * nb);" if t == 0 else
            f"    u[{t}] = cmul(ld(ib, i + {t}u * nb), twid({t}u * e));" for t in range(r))
        stores = "\n".join(f"    st(ob, j + {t}u * p, u[{t}]);" for t in range(r))
        io = Template(W.io(C, R, self.ld, self.st), "fft_io").render(lay.tokens())
        helpers = Template(W.complex_helpers(C, R, suf, self.inverse),
                           "fft_helpers").render(lay.tokens())
        return _STOCKHAM.render(lay.tokens(), helpers=helpers, io=io,
                                bfly=W.bfly(r, C, R, suf, self.inverse), wg=WG, C=C, r=r,
                                loads=loads, stores=stores)


_CHIRP = Template.file(__package__, "chirp.wgsl")


@dataclasses.dataclass(frozen=True)
class ChirpSpec(KernelSpec):
    """v[j] = ld(j) * w[j] (j < n; 0 for n <= j < count), stored scaled; w[j] =
    exp(-i pi j^2 / n) forward (conjugated for the inverse)."""

    cdtype: str
    inverse: bool
    ld: str
    st: str

    def needs(self):
        return _need(self.cdtype)

    def layout(self, caps):
        C, _, _ = W.types(self.cdtype)
        return _io_layout(self, caps, ["n", "count"], [Buf("w", C)])

    def render(self, caps):
        C, R, suf = W.types(self.cdtype)
        lay = self.layout(caps)
        tok = lay.tokens()
        conj = "vec2(c.x, -c.y)" if self.inverse else "c"
        helpers = (f"fn cmul(a: {C}, b: {C}) -> {C} {{ return {C}(a.x * b.x - a.y * b.y, "
                   f"a.x * b.y + a.y * b.x); }}\n"
                   f"fn chirp(j: u32) -> {C} {{ let c = w[{lay.word('w_off')} + j]; "
                   f"return {conj}; }}\n")
        return _CHIRP.render(tok, helpers=helpers,
                             io=Template(W.io(C, R, self.ld, self.st)).render(tok), C=C,
                             wg=WG)


_POINTMUL = Template("""${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let m = ${m};
  for (var t = g.x; t < ${total}; t += nw.x * ${wg}u) {
    let a = z[${z_off} + t];
    let c = b[${b_off} + t % m];
    let bb = ${bval};
    z[${z_off} + t] = ${C}(a.x * bb.x - a.y * bb.y, a.x * bb.y + a.y * bb.x);
  }
}
""", "fft_pointmul")


@dataclasses.dataclass(frozen=True)
class PointMulSpec(KernelSpec):
    cdtype: str
    inverse: bool

    def needs(self):
        return _need(self.cdtype)

    def layout(self, caps):
        C, _, _ = W.types(self.cdtype)
        return Layout([Buf("z", C, "rw"), Buf("b", C)], ["total", "m"], caps)

    def render(self, caps):
        C, _, _ = W.types(self.cdtype)
        bval = "vec2(c.x, -c.y)" if self.inverse else "c"
        return _POINTMUL.render(self.layout(caps).tokens(), C=C, bval=bval, wg=WG)


_HALF = Template.file(__package__, "half.wgsl")

# post: X[k] = E + W O, E = (Z[k] + conj Z[h-k]) / 2, O = (Z[k] - conj Z[h-k]) / (2i)
_POST = """    let zk = ld(ib, k % h);
    let zr = ld(ib, (h - k) % h);
    let zc = vec2(zr.x, -zr.y);
    let ev = (zk + zc) * 0.5;
    let d = (zk - zc) * 0.5;
    let od = vec2(d.y, -d.x);
    st(rowbase_out(row), k, ev + cmul(twid(k), od));"""
# pre: Z[k] = (X[k] + conj X[h-k]) + i W (X[k] - conj X[h-k]); Im X[0], Im X[h] ignored
_PRE = """    var a = ld(ib, k);
    var b = ld(ib, h - k);
    if (k == 0u) { a.y = 0.0; b.y = 0.0; }
    let bc = vec2(b.x, -b.y);
    let wd = cmul(twid(k), a - bc);
    st(rowbase_out(row), k, (a + bc) + vec2(-wd.y, wd.x));"""


@dataclasses.dataclass(frozen=True)
class HalfSpec(KernelSpec):
    """The real-transform twiddle pass of a length-2h real transform; ``inverse`` is the
    sign of the exponent (+1 for irfft / ihfft), the twiddles come from the length-2h
    table."""

    cdtype: str
    inverse: bool
    post: bool
    ld: str = "c"
    st: str = "c"

    def needs(self):
        return _need(self.cdtype)

    def layout(self, caps):
        C, _, _ = W.types(self.cdtype)
        return _io_layout(self, caps, ["h", "count"], [Buf("tw", C)])

    def render(self, caps):
        C, R, suf = W.types(self.cdtype)
        tok = self.layout(caps).tokens()
        return _HALF.render(
            tok, helpers=Template(W.complex_helpers(C, R, suf, self.inverse)).render(tok),
            io=Template(W.io(C, R, self.ld, self.st)).render(tok),
            body=_POST if self.post else _PRE, wg=WG)


_FREQ = Template("""${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  let val = ${val};
  for (var i = g.x; i < ${count}; i += nw.x * ${wg}u) {
    var k = ${K}(i);
    if (${full} != 0u && i >= (n + 1u) / 2u) { k = ${K}(i) - ${K}(n); }
    y[${y_off} + i] = ${store};
  }
}
""", "fft_freq")


@dataclasses.dataclass(frozen=True)
class FreqSpec(KernelSpec):
    """y[i] = k * val with val = 1 / (n d) (as NumPy: computed in float64 where the adapter
    has it, rounded once to the output dtype); k = i, or i - n past the middle."""

    dtype: str        # "float32" | "float64"
    wide: bool        # compute in f64

    def needs(self):
        return ("f64",) if (self.wide or self.dtype == "float64") else ()

    def layout(self, caps):
        return Layout([Buf("y", "f32" if self.dtype == "float32" else "f64", "rw")],
                      ["n", "count", "full", "v0", "v1", "v2"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        K = "f64" if self.wide else "f32"
        if self.wide:
            val = ("(f64(bitcast<f32>(${v0})) + f64(bitcast<f32>(${v1})) + "
                   "f64(bitcast<f32>(${v2})))")
        else:
            val = "bitcast<f32>(${v0})"
        val = Template(val).render(lay.tokens())
        store = "f32(k * val)" if self.dtype == "float32" else "k * val"
        return _FREQ.render(lay.tokens(), val=val, K=K, store=store, wg=WG)


def variants():
    out = []
    for cd in ("complex64", "complex128"):
        for inv in (False, True):
            for r in (1,) + W.RADICES:
                out.append(StockhamSpec(cd, r, inv))
            for ld in W.LOADS:
                out.append(StockhamSpec(cd, 8, inv, ld, "c"))
                out.append(ChirpSpec(cd, inv, ld, "c"))
            for st in W.STORES:
                out.append(StockhamSpec(cd, 4, inv, "c", st))
                out.append(ChirpSpec(cd, inv, "c", st))
            # the length-1 rows of the real transforms (n = 1, 2)
            out.append(StockhamSpec(cd, 1, inv, "h", "re"))
            out.append(StockhamSpec(cd, 1, inv, "rp", "rp"))
            # FastSpec: lone stage, every radix, tiled sides, four-step twiddles, the
            # fused real post- / pre-processing, the 4096-point (512-thread) rows of NVIDIA
            out.append(FastSpec(cd, inv, "c", "c", 8, (8,), 1, 32))
            out.append(FastSpec(cd, inv, "r", "c", 4, (4,), 1, 16, 3, tld=True))
            out.append(FastSpec(cd, inv, "c", "c", 1680, (8, 2, 3, 5, 7), 256, 1))
            out.append(FastSpec(cd, inv, "c", "c", 64, (8, 8), 8, 8, 3, tw4=True, three=True,
                                tld=True, tst=True))
            out.append(FastSpec(cd, inv, "rp", "c", 512, (8, 8, 8), 64, 4, 0, tst=True,
                                post=True))
            out.append(FastSpec(cd, inv, "h", "re", 96, (8, 4, 3), 16, 4, 2))
            out.append(FastSpec(cd, inv, "c", "rp", 256, (8, 8, 4), 32, 8, 3, pre=True))
            out.append(FastSpec(cd, inv, "c", "c", 512, (8, 8, 8), 64, 4, tld=True))
            if cd == "complex64":
                out.append(FastSpec(cd, inv, "c", "c", 4096, (8, 8, 8, 8), 512, 1))
            out.append(PointMulSpec(cd, inv))
            out.append(HalfSpec(cd, inv, True))
            out.append(HalfSpec(cd, inv, False))
    out += [FreqSpec("float32", True), FreqSpec("float32", False), FreqSpec("float64", True)]
    return out


def fast_pitch(n, pad, rpw):
    """Workgroup-memory words (complex elements) one row of FastSpec takes: ph(n - 1) + 1,
    odd when several rows share the workgroup (their columns then fall in other banks)."""
    p = (n - 1) + (((n - 1) >> pad) if pad else 0) + 1
    if rpw > 1 and p % 2 == 0:
        p += 1
    return p


@dataclasses.dataclass(frozen=True)
class FastSpec(KernelSpec):
    """Whole transforms of one length ``n`` in workgroup memory, every size a constant:
    the stages (``radices``) are unrolled, radix 2 / 4 / 8 butterflies decomposed
    (wgsl.fast_bfly), one buffer (ph(i) = i + i >> pad spreads the stride-r accesses over
    the banks), the first stage reads its inputs straight from global memory and the last
    one writes its outputs straight to it (coalesced: element i + t nb of the row by item
    i). ``tpr`` threads per row, ``rpw`` rows per workgroup; ``tld`` / ``tst``: the first /
    last stage's items run row-fastest (the rows are neighbouring columns: a warp then
    touches neighbouring addresses)."""

    cdtype: str
    inverse: bool
    ld: str
    st: str
    n: int
    radices: tuple
    tpr: int
    rpw: int
    pad: int = 4
    tw4: bool = False
    three: bool = False
    tld: bool = False
    tst: bool = False
    # the real-transform post-processing (HalfSpec post) fused in: the length-n complex
    # transform Z of the packed real row of 2n stays in workgroup memory and the n + 1
    # outputs X[k] = E + W_2n^k O are stored (twiddles: table tw2 of length 2n)
    post: bool = False
    # the inverse real transform's pre-processing (HalfSpec pre) fused into the first
    # stage's loads: Z[k] from X[k] and X[n - k] of the half spectrum (table tw2, 2n)
    pre: bool = False

    def needs(self):
        return _need(self.cdtype)

    def layout(self, caps):
        C, _, _ = W.types(self.cdtype)
        bufs = [Buf("tw", C)] + ([Buf("t4", C)] if self.tw4 else [])
        bufs += [Buf("tw2", C)] if (self.post or self.pre) else []
        # nst, codes0 / 1, rpw, tpr: never set (0), the parameter block of the radix-word
        # kernel this one replaced, so the shaders and their pipelines stay as they were
        words = ["n", "nst", "codes0", "codes1", "rpw", "tpr"] + (["t4b"] if self.tw4 else [])
        if self.three:
            words += ["mid", "in_sm", "out_sm"]
        return _io_layout(self, caps, words, bufs)

    def render(self, caps):
        C, R, suf = W.types(self.cdtype)
        lay = self.layout(caps)
        tok = lay.tokens()
        n, RP, T = self.n, self.rpw, self.tpr
        WGS = T * RP
        rad = tuple(self.radices)
        S = len(rad)
        pitch = fast_pitch(n, self.pad, RP)
        rows = lay.word("rows")
        fns = "".join(W.fast_bfly(r, C, suf, self.inverse) for r in sorted(set(rad)))
        ph = (f"fn ph(x: u32) -> u32 {{ return x + (x >> {self.pad}u); }}\n" if self.pad
              else "fn ph(x: u32) -> u32 { return x; }\n")
        fns += ph
        if self.tw4:
            conj = "vec2(w.x, -w.y)" if self.inverse else "w"
            fns += (f"fn tw4f(e: u32) -> {C} {{\n"
                    f"  let b = {lay.word('t4b')};\n"
                    f"  let w = cmul(t4[{lay.word('t4_off')} + e % b], "
                    f"t4[{lay.word('t4_off')} + b + e / b]);\n"
                    f"  return {conj};\n}}\n")
        if self.pre:
            fns += (f"fn ldpre(base: u32, k: u32) -> {C} {{\n"
                    f"  var a = ld(base, k);\n  var b = ld(base, {n}u - k);\n"
                    "  if (k == 0u) { a.y = 0.0; b.y = 0.0; }\n"
                    "  let bc = vec2(b.x, -b.y);\n  let wd = cmul(twid2(k), a - bc);\n"
                    "  return (a + bc) + vec2(-wd.y, wd.x);\n}\n")
        # the last stage stores straight to global memory unless a lone stage must load
        # and store with different item orders
        direct_last = not (S == 1 and self.tld != self.tst) and not self.post
        if self.post or self.pre:
            conj = "vec2(w.x, -w.y)" if self.inverse else "w"
            fns += (f"fn twid2(e: u32) -> {C} {{ let w = tw2[{lay.word('tw2_off')} + e]; "
                    f"return {conj}; }}\n")
        body = []
        B = body.append

        def sidx(sub, x):
            return f"{sub} * {pitch}u + ph({x})"

        p = 1
        for s_, r in enumerate(rad):
            nb = n // r
            tws = n // (p * r)
            last = s_ == S - 1
            tiled = self.tld if s_ == 0 else (self.tst if last and direct_last else False)
            items = RP * nb
            Q = -(-items // WGS)
            B(f"    // stage {s_}: radix {r}, p = {p}, {Q} item(s) per thread")
            for q in range(Q):
                g = f"s{s_}q{q}"
                B(f"    let f{g} = l.x + {q * WGS}u;")
                if tiled:
                    B(f"    let sub{g} = f{g} % {RP}u;")
                    B(f"    let i{g} = min(f{g} / {RP}u, {nb - 1}u);")
                else:
                    B(f"    let sub{g} = min(f{g} / {nb}u, {RP - 1}u);")
                    B(f"    let i{g} = f{g} % {nb}u;")
                B(f"    let ok{g} = f{g} < {items}u;")
                B(f"    let row{g} = row0 + sub{g};")
                B(f"    var u{g}: array<{C}, 8>;")
                if s_ == 0:
                    B(f"    let rc{g} = min(row{g}, {rows} - 1u);")
                    B(f"    let ib{g} = rowbase_in(rc{g});")
                    if self.tw4:
                        k1 = (f"((rc{g} / {lay.word('inner')}) % {lay.word('mid')})"
                              if self.three else f"(rc{g} % {lay.word('inner')})")
                        B(f"    let k1{g} = {k1};")
                    for t in range(r):
                        idx = f"i{g} + {t * nb}u"
                        v = f"ld{'pre' if self.pre else ''}(ib{g}, {idx})"
                        if self.tw4:
                            v = f"cmul({v}, tw4f(k1{g} * ({idx})))"
                        B(f"    u{g}[{t}] = {v};")
                else:
                    B(f"    let e{g} = (i{g} % {p}u) * {tws}u;")
                    base = f"sub{g} * {pitch}u"
                    for t in range(r):
                        v = f"s[{base} + ph(i{g} + {t * nb}u)]"
                        if t:
                            v = f"cmul({v}, twid({t}u * e{g}))"
                        B(f"    u{g}[{t}] = {v};")
                B(f"    bfly{r}(&u{g});")
            if last and direct_last:
                for q in range(Q):
                    g = f"s{s_}q{q}"
                    B(f"    if (ok{g} && row{g} < {rows}) {{")
                    B(f"      let ob = rowbase_out(row{g});")
                    for t in range(r):
                        B(f"      st(ob, i{g} + {t * p}u, u{g}[{t}]);")
                    B("    }")
            else:
                B("    workgroupBarrier();")
                for q in range(Q):
                    g = f"s{s_}q{q}"
                    B(f"    if (ok{g}) {{")
                    B(f"      let j = (i{g} - i{g} % {p}u) * {r}u + i{g} % {p}u;")
                    for t in range(r):
                        B(f"      s[{sidx(f'sub{g}', f'j + {t * p}u')}] = u{g}[{t}];")
                    B("    }")
                B("    workgroupBarrier();")
            p *= r
        if self.post:
            m = n + 1
            if self.tst:
                sub, idx = f"f % {RP}u", f"f / {RP}u"
            else:
                sub, idx = f"f / {m}u", f"f % {m}u"
            B(f"    for (var f = l.x; f < {RP * m}u; f += {WGS}u) {{")
            B(f"      let sub = {sub};")
            B(f"      let k = {idx};")
            B("      let row = row0 + sub;")
            B(f"      if (row < {rows}) {{")
            B(f"        let zk = s[{sidx('sub', f'k % {n}u')}];")
            B(f"        let zr = s[{sidx('sub', f'({n}u - k) % {n}u')}];")
            B("        let zc = vec2(zr.x, -zr.y);")
            B("        let ev = (zk + zc) * 0.5;")
            B("        let d = (zk - zc) * 0.5;")
            B("        let od = vec2(d.y, -d.x);")
            B("        st(rowbase_out(row), k, ev + cmul(twid2(k), od));")
            B("      }")
            B("    }")
            B("    workgroupBarrier();")
        elif not direct_last:
            if self.tst:
                sub, idx = f"f % {RP}u", f"f / {RP}u"
            else:
                sub, idx = f"f / {n}u", f"f % {n}u"
            B(f"    for (var f = l.x; f < {RP * n}u; f += {WGS}u) {{")
            B(f"      let sub = {sub};")
            B(f"      let idx = {idx};")
            B("      let row = row0 + sub;")
            B(f"      if (row < {rows}) {{ st(rowbase_out(row), idx, s[{sidx('sub', 'idx')}]); }}")
            B("    }")
            B("    workgroupBarrier();")
        src = f"""{tok['layout']}
{Template(W.complex_helpers(C, R, suf, self.inverse)).render(tok)}
{Template(W.io(C, R, self.ld, self.st, self.three)).render(tok)}
{fns}
var<workgroup> s: array<{C}, {RP * pitch}>;

@compute @workgroup_size({WGS})
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  for (var row0 = wid.x * {RP}u; row0 < {rows}; row0 += nw.x * {RP}u) {{
""" + "\n".join(body) + "\n  }\n}\n"
        return src
