"""The FFT kernel specs (one frozen spec per variant; see wgsl.py for the row model).

StockhamSpec  one radix-r Stockham autosort stage over global memory: each thread computes
              one butterfly of one row (twiddle, length-r DFT, scatter to autosorted place)
SharedSpec    whole transforms of length <= ``cap`` in workgroup memory (one or several rows
              per workgroup): rows are loaded, every stage (radices as words) runs there,
              one dispatch; optionally the four-step twiddle on load and three-way row splits
ChirpSpec     Bluestein's chirp multiplications: x * w (zero-padded to m) before, and
              w * z after the convolution, scaled
PointMulSpec  z *= B, the precomputed FFT of Bluestein's chirp filter
HalfSpec      the half-length complex trick of real transforms: ``post`` turns the FFT of
              x[2j] + i x[2j+1] into the half spectrum; ``pre`` builds that packed spectrum
              from a half spectrum before an inverse transform
FreqSpec      fftfreq / rfftfreq
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from . import wgsl as W

__all__ = ["StockhamSpec", "SharedSpec", "FastSpec", "fast_pitch", "ChirpSpec", "PointMulSpec", "HalfSpec",
           "FreqSpec", "variants", "WG", "shared_cap"]

WG = 256
UNROLL = 8   # loads in flight per thread in SharedSpec (ub); <= 8 rows' elements a thread


def _need(cdtype):
    return ("f64",) if cdtype == "complex128" else ()


def _io_layout(spec, caps, extra_words, extra_bufs=()):
    C, R, _ = W.types(spec.cdtype)
    bufs = [Buf("x", W.elem(C, R, spec.ld, "ld")), Buf("y", W.elem(C, R, spec.st, "st"), "rw")]
    bufs += list(extra_bufs)
    return Layout(bufs, list(extra_words) + W.IO_WORDS, caps)


_STOCKHAM = Template("""${layout}
${helpers}
${io}
${bfly}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let nb = ${nb};
  let p = ${p};
  let total = nb * ${rows};
  for (var t = g.x; t < total; t += nw.x * ${wg}u) {
    var i: u32;
    var row: u32;
    if (${order} == 0u) {
      i = t % nb;
      row = t / nb;
    } else {
      // inner rows fastest: neighbouring threads touch neighbouring addresses
      let b = t % ${inner};
      let q = t / ${inner};
      i = q % nb;
      row = (q / nb) * ${inner} + b;
    }
    let ib = rowbase_in(row);
    let ob = rowbase_out(row);
    let k = i % p;
    let e = k * ${tws};
    var u: array<${C}, 8>;
${loads}
    bfly${r}(&u);
    let j = (i - k) * ${r}u + k;
${stores}
  }
}
""", "fft_stockham")


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


def shared_cap(cdtype, caps):
    """Largest power-of-two length SharedSpec takes on ``caps`` (two row buffers in
    workgroup memory)."""
    item = 8 if cdtype == "complex64" else 16
    cap = 1
    while 2 * (2 * cap) * item <= caps.workgroup_storage and cap < 4096:
        cap *= 2
    return cap


_SHARED = Template("""${layout}
${helpers}
${io}
${bflys}
var<workgroup> s: array<${C}, ${cap2}>;

fn radix_of(st: u32) -> u32 {
  var w = ${codes0};
  if (st >= 8u) { w = ${codes1}; }
  return (w >> ((st & 7u) * 4u)) & 15u;
}

@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let n = ${n};
  let nst = ${nst};
  // ${rpw} rows per workgroup (short rows), ${tpr} threads each; barriers stay in uniform
  // control flow, only the global loads / stores of rows past the end are skipped
  let tpr = ${tpr};
  let sub = l.x / tpr;
  let lx = l.x % tpr;
  let sb = sub * n;
  for (var row0 = wid.x * ${rpw}; row0 < ${rows}; row0 += nw.x * ${rpw}) {
    let row = row0 + sub;
    let live = row < ${rows} && sub < ${rpw};
    let ib = rowbase_in(row);
    let ob = rowbase_out(row);
${loads}
    workgroupBarrier();
    var p = 1u;
    for (var stg = 0u; stg < nst; stg++) {
      let r = radix_of(stg);
      let src = (stg & 1u) * ${cap}u + sb;
      let dst = ((stg + 1u) & 1u) * ${cap}u + sb;
      let nb = n / r;
      let tws = nb / p;
      // one fully unrolled stage function per radix: the butterfly stays in registers
      if (sub < ${rpw}) {
        switch r {
${cases}
          default: {}
        }
      }
      p *= r;
      workgroupBarrier();
    }
    let res = (nst & 1u) * ${cap}u + sb;
${stores}
    workgroupBarrier();
  }
}
""", "fft_shared")


def _stage_fn(r, C):
    """One radix-r butterfly of a workgroup-memory stage (Stockham: read i + t nb, write
    j + t p)."""
    body = [f"fn stage{r}(src: u32, dst: u32, i: u32, p: u32, nb: u32, tws: u32) {{",
            "  let k = i % p;", "  let e = k * tws;", f"  var u: array<{C}, 8>;",
            "  u[0] = s[src + i];"]
    body += [f"  u[{t}] = cmul(s[src + i + {t}u * nb], twid({t}u * e));" for t in range(1, r)]
    body += [f"  bfly{r}(&u);", f"  let j = (i - k) * {r}u + k;"]
    body += [f"  s[dst + j + {t}u * p] = u[{t}];" for t in range(r)]
    return "\n".join(body) + "\n}\n"


@dataclasses.dataclass(frozen=True)
class SharedSpec(KernelSpec):
    cdtype: str
    inverse: bool
    ld: str
    st: str
    cap: int
    wg: int
    tw4: bool = False   # the four-step twiddle W_N^(k1 j2) on load (table t4, see plan.py)
    three: bool = False  # rows split in three (wgsl.io): the four-step's sub-rows
    # tiled global loads / stores: the workgroup's rpw rows move together, element i of
    # every row before element i + 1 (row fastest), so a warp touches rpw neighbouring
    # addresses when the rows are neighbouring columns (the four-step's strided sides)
    # instead of 32 elements one stride apart (one 32-byte sector per 8-byte element)
    tld: bool = False
    tst: bool = False
    # batched loads: each thread issues UNROLL global loads (indices clamped into the row,
    # results past its end discarded) before it writes any to workgroup memory, instead of
    # a load -> wait -> store loop: memory-level parallelism for a latency-bound kernel
    ub: bool = False

    def needs(self):
        return _need(self.cdtype)

    def layout(self, caps):
        C, _, _ = W.types(self.cdtype)
        bufs = [Buf("tw", C)] + ([Buf("t4", C)] if self.tw4 else [])
        words = ["n", "nst", "codes0", "codes1", "rpw", "tpr"] + (["t4b"] if self.tw4 else [])
        if self.three:
            words += ["mid", "in_sm", "out_sm"]
        return _io_layout(self, caps, words, bufs)

    def render(self, caps):
        C, R, suf = W.types(self.cdtype)
        lay = self.layout(caps)
        tok = lay.tokens()
        bflys = "".join(W.bfly(r, C, R, suf, self.inverse) for r in W.RADICES)
        load = "ld(${ib}, ${i})"
        if self.tw4:
            # W_N^e = W_N^(e mod B) * W_N^(B (e / B)): two short tables, both from float64
            conj = "vec2(w.x, -w.y)" if self.inverse else "w"
            bflys += (f"fn tw4f(e: u32) -> {C} {{\n"
                      f"  let b = {lay.word('t4b')};\n"
                      f"  let w = cmul(t4[{lay.word('t4_off')} + e % b], "
                      f"t4[{lay.word('t4_off')} + b + e / b]);\n"
                      f"  return {conj};\n}}\n")
            k1 = (f"((${{row}} / {lay.word('inner')}) % {lay.word('mid')})" if self.three
                  else f"(${{row}} % {lay.word('inner')})")
            load = f"cmul(ld(${{ib}}, ${{i}}), tw4f({k1} * ${{i}}))"
        bflys += "".join(_stage_fn(r, C) for r in W.RADICES)
        cases = "\n".join(
            f"          case {r}u: {{ for (var i = lx; i < nb; i += tpr) "
            f"{{ stage{r}(src, dst, i, p, nb, tws); }} }}" for r in W.RADICES)
        def at(ib, i, row):
            return Template(load, "fft_shared_load").render({"ib": ib, "i": i, "row": row})
        rpw, rows = lay.word("rpw"), lay.word("rows")
        tiled = (f"    for (var f = l.x; f < {rpw} * n; f += {self.wg}u) {{\n"
                 f"      let tsub = f % {rpw};\n      let ti = f / {rpw};\n"
                 f"      let trow = row0 + tsub;\n      if (trow < {rows}) {{ ")
        U = UNROLL
        if self.tld and self.ub:
            body = [f"    for (var fb = l.x; fb < {rpw} * n; fb += {U * self.wg}u) {{"]
            for q in range(U):
                body += [f"      let f{q} = fb + {q * self.wg}u;",
                         f"      let ts{q} = f{q} % {rpw};",
                         f"      let ti{q} = min(f{q} / {rpw}, n - 1u);",
                         f"      let tr{q} = min(row0 + ts{q}, {rows} - 1u);",
                         f"      let v{q} = {at(f'rowbase_in(tr{q})', f'ti{q}', f'tr{q}')};"]
            body += [f"      if (f{q} < {rpw} * n && row0 + ts{q} < {rows}) "
                     f"{{ s[ts{q} * n + ti{q}] = v{q}; }}" for q in range(U)]
            loads = "\n".join(body + ["    }"])
        elif self.tld:
            loads = tiled + (f"s[tsub * n + ti] = {at('rowbase_in(trow)', 'ti', 'trow')}; "
                             "}\n    }")
        elif self.ub:
            body = ["    if (live) {", f"      for (var i0 = lx; i0 < n; i0 += {U}u * tpr) {{"]
            for q in range(U):
                body += [f"        let j{q} = i0 + {q}u * tpr;",
                         f"        let v{q} = {at('ib', f'min(j{q}, n - 1u)', 'row')};"]
            body += [f"        if (j{q} < n) {{ s[sb + j{q}] = v{q}; }}" for q in range(U)]
            loads = "\n".join(body + ["      }", "    }"])
        else:
            loads = ("    if (live) {\n      for (var i = lx; i < n; i += tpr) { "
                     f"s[sb + i] = {at('ib', 'i', 'row')}; }}\n    }}")
        if self.tst:
            stores = tiled + (f"st(rowbase_out(trow), ti, s[(nst & 1u) * {self.cap}u + "
                              "tsub * n + ti]); }\n    }")
        else:
            stores = ("    if (live) {\n      for (var i = lx; i < n; i += tpr) { "
                      "st(ob, i, s[res + i]); }\n    }")
        return _SHARED.render(
            tok, helpers=Template(W.complex_helpers(C, R, suf, self.inverse)).render(tok),
            io=Template(W.io(C, R, self.ld, self.st, self.three)).render(tok), bflys=bflys,
            cases=cases, C=C, cap=self.cap, cap2=2 * self.cap, wg=self.wg, loads=loads,
            stores=stores)


_CHIRP = Template("""${layout}
${helpers}
${io}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let count = ${count};
  let total = count * ${rows};
  for (var t = g.x; t < total; t += nw.x * ${wg}u) {
    let j = t % count;
    let row = t / count;
    var v = ${C}(0.0, 0.0);
    if (j < ${n}) { v = cmul(ld(rowbase_in(row), j), chirp(j)); }
    st(rowbase_out(row), j, v);
  }
}
""", "fft_chirp")


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


_HALF = Template("""${layout}
${helpers}
${io}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let h = ${h};
  let count = ${count};
  let total = count * ${rows};
  for (var t = g.x; t < total; t += nw.x * ${wg}u) {
    let k = t % count;
    let row = t / count;
    let ib = rowbase_in(row);
${body}
  }
}
""", "fft_half")

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
            for r in W.RADICES:
                out.append(StockhamSpec(cd, r, inv))
            for ld in W.LOADS:
                out.append(StockhamSpec(cd, 8, inv, ld, "c"))
                out.append(SharedSpec(cd, inv, ld, "c", 1024, 256))
                out.append(ChirpSpec(cd, inv, ld, "c"))
            for st in W.STORES:
                out.append(StockhamSpec(cd, 4, inv, "c", st))
                out.append(SharedSpec(cd, inv, "c", st, 1024, 64))
                out.append(ChirpSpec(cd, inv, "c", st))
            out.append(SharedSpec(cd, inv, "c", "c", 2048, 256, True))
            out.append(SharedSpec(cd, inv, "c", "c", 2048, 256, True, True))
            out.append(SharedSpec(cd, inv, "r", "c", 2048, 256, False, True))
            out.append(SharedSpec(cd, inv, "c", "c", 2048, 128, False, True, True, True))
            out.append(SharedSpec(cd, inv, "r", "c", 1024, 64, False, True, True, False))
            out.append(SharedSpec(cd, inv, "c", "c", 1024, 256, True, True, False, True))
            out.append(SharedSpec(cd, inv, "c", "rp", 1024, 32, True, False, True, True))
            for ld in W.LOADS:
                out.append(SharedSpec(cd, inv, ld, "c", 1024, 128, False, False, False,
                                      False, True))
            out.append(SharedSpec(cd, inv, "c", "c", 2048, 256, True, True, True, True, True))
            out.append(SharedSpec(cd, inv, "r", "c", 1024, 64, False, True, True, False, True))
            # FastSpec: lone stage, every radix, tiled sides, four-step twiddles, the
            # fused real post-processing, the 4096-point (512-thread) rows of NVIDIA
            out.append(FastSpec(cd, inv, "c", "c", 8, (8,), 1, 32))
            out.append(FastSpec(cd, inv, "r", "c", 4, (4,), 1, 16, 3, False, False, True))
            out.append(FastSpec(cd, inv, "c", "c", 1680, (8, 2, 3, 5, 7), 256, 1))
            out.append(FastSpec(cd, inv, "c", "c", 64, (8, 8), 8, 8, 3, True, True, True,
                                True))
            out.append(FastSpec(cd, inv, "rp", "c", 512, (8, 8, 8), 64, 4, 0, False, False,
                                False, True, True))
            out.append(FastSpec(cd, inv, "h", "re", 96, (8, 4, 3), 16, 4, 2))
            out.append(FastSpec(cd, inv, "c", "rp", 256, (8, 8, 4), 32, 8, 3, False, False,
                                False, False, False, True, True))
            out.append(FastSpec(cd, inv, "c", "c", 512, (8, 8, 8), 64, 4, flat=True,
                                twp=True, tld=True))
            out.append(FastSpec(cd, inv, "c", "c", 64, (8, 8), 8, 8, io_only=True))
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
    touches neighbouring addresses). Same launch words as SharedSpec."""

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
    # twiddles of radix 4 / 8 stages: w, w^2 (w^4) from the table, the others as their
    # products (3 loads for radix 8 instead of 7; about one rounding more)
    twp: bool = False
    # the inverse real transform's pre-processing (HalfSpec pre) fused into the first
    # stage's loads: Z[k] from X[k] and X[n - k] of the half spectrum (table tw2, 2n)
    pre: bool = False
    # straight-line code on named values (wgsl.flat_bfly) instead of function arrays
    # passed by pointer to butterfly functions
    flat: bool = False
    # diagnostics only (NUMR_WEBGPU_FFT_DIAG=io): the first stage's loads stored back
    # in place, no butterflies (a copy through the same loads / stores: the I/O ceiling)
    io_only: bool = False

    def needs(self):
        return _need(self.cdtype)

    def layout(self, caps):
        C, _, _ = W.types(self.cdtype)
        bufs = [Buf("tw", C)] + ([Buf("t4", C)] if self.tw4 else [])
        bufs += [Buf("tw2", C)] if (self.post or self.pre) else []
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
        fns = "" if self.flat else "".join(W.fast_bfly(r, C, suf, self.inverse)
                                           for r in sorted(set(rad)))
        flat = self.flat or self.io_only

        def U(g, t):   # the value of butterfly g's element t (input, then output)
            return f"y{g}_{t}" if flat else f"u{g}[{t}]"
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

        if self.io_only:
            rad = rad[:1]
            S = 1
            direct_last = True
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
                if not flat:
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
                        B(f"    let a{g}_{t} = {v};" if flat else f"    u{g}[{t}] = {v};")
                else:
                    B(f"    let e{g} = (i{g} % {p}u) * {tws}u;")
                    base = f"sub{g} * {pitch}u"
                    if self.twp and r in (4, 8):
                        B(f"    let w1{g} = twid(e{g});")
                        B(f"    let w2{g} = twid(2u * e{g});")
                        B(f"    let w3{g} = cmul(w1{g}, w2{g});")
                        if r == 8:
                            B(f"    let w4{g} = twid(4u * e{g});")
                            B(f"    let w5{g} = cmul(w1{g}, w4{g});")
                            B(f"    let w6{g} = cmul(w2{g}, w4{g});")
                            B(f"    let w7{g} = cmul(w3{g}, w4{g});")
                    for t in range(r):
                        v = f"s[{base} + ph(i{g} + {t * nb}u)]"
                        if t:
                            w = (f"w{t}{g}" if self.twp and r in (4, 8)
                                 else f"twid({t}u * e{g})")
                            v = f"cmul({v}, {w})"
                        B(f"    let a{g}_{t} = {v};" if flat else f"    u{g}[{t}] = {v};")
                if self.io_only:
                    B("    " + " ".join(f"let y{g}_{t} = a{g}_{t};" for t in range(r)))
                elif flat:
                    for line in W.flat_bfly(r, [f"a{g}_{t}" for t in range(r)], f"y{g}_",
                                            C, suf, self.inverse):
                        B("    " + line)
                else:
                    B(f"    bfly{r}(&u{g});")
            if self.io_only:
                for q in range(Q):
                    g = f"s{s_}q{q}"
                    B(f"    if (ok{g} && row{g} < {rows}) {{")
                    B(f"      let ob = rowbase_out(row{g});")
                    for t in range(r):
                        B(f"      st(ob, i{g} + {t * nb}u, y{g}_{t});")
                    B("    }")
            elif last and direct_last:
                for q in range(Q):
                    g = f"s{s_}q{q}"
                    B(f"    if (ok{g} && row{g} < {rows}) {{")
                    B(f"      let ob = rowbase_out(row{g});")
                    for t in range(r):
                        B(f"      st(ob, i{g} + {t * p}u, {U(g, t)});")
                    B("    }")
            else:
                B("    workgroupBarrier();")
                for q in range(Q):
                    g = f"s{s_}q{q}"
                    B(f"    if (ok{g}) {{")
                    B(f"      let j = (i{g} - i{g} % {p}u) * {r}u + i{g} % {p}u;")
                    for t in range(r):
                        B(f"      s[{sidx(f'sub{g}', f'j + {t * p}u')}] = {U(g, t)};")
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
