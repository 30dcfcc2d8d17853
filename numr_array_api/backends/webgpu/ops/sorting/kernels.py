"""The small kernels around the radix sort: gathers by position, index outputs, the
set functions' boundary flags / counts / inverse, searchsorted and isin.

Indices are written in the namespace's index dtype (int64, or int32 on adapters without
shader-int64) as raw words, so no kernel here needs an optional feature.
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import RAW, WType, load
from ...primitives.keys import KeyType, key_fn, less_fn

WG = 256


def index_store(wide, buf, idx, v):
    """WGSL storing the u32 ``v`` as an index (two words, high zero, when ``wide``)."""
    return f"{buf}[{idx}] = vec2<u32>({v}, 0u);" if wide else f"{buf}[{idx}] = {v};"

# ---- values / positions by position --------------------------------------------------
_TAKE = Template("""${layout}
fn elem(i: u32) -> u32 {
  let r = i / ${m};
  let c = i - r * ${m};
  return u32(i32(${S_off}) + i32(r) * bitcast<i32>(${s_rs}) + i32(c) * bitcast<i32>(${s_cs}));
}
fn val(p: u32) -> ${V} { return ${load}; }
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let w = g.x + g.y * nw.x * ${wg}u;
  if (w >= ${units}) { return; }
${body}
}
""", "sort_take")


@dataclasses.dataclass(frozen=True)
class TakeSpec(KernelSpec):
    """D[p] = S[elem(I[p])]: values (raw bits) of a (rows, m) view at positions ``r*m+c``;
    packed types write one output word (4 or 2 values) per thread."""

    t: WType  # raw type

    def layout(self, caps):
        return Layout([Buf("S", self.t.arr), Buf("I", "u32"), Buf("D", self.t.arr, "rw")],
                      ["n", "units", "m", "s_rs", "s_cs"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        io, do = lay.word("I_off"), lay.word("D_off")
        ld = load(self.t, "S", "elem(I[" + io + " + p])", set())
        if self.t.packed:  # D_off (elements) starts a word: outputs are contiguous, windows
            # start at multiples of 1024
            per = 32 // self.t.bits
            body = [f"  var acc = 0u;",
                    f"  for (var q = 0u; q < {per}u; q++) {{",
                    f"    let p = w * {per}u + q;",
                    f"    if (p < {lay.word('n')}) {{ acc |= val(p) << (q * {self.t.bits}u); }}",
                    "  }",
                    f"  D[{do} / {per}u + w] = acc;"]
        else:
            body = [f"  D[{do} + w] = val(w);"]
        return _TAKE.render(lay.tokens(), V=self.t.val, load=ld, wg=WG, body="\n".join(body))


_WTAKE = Template("""${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let w = g.x + g.y * nw.x * ${wg}u;
  if (w >= ${units}) { return; }
${body}
}
""", "sort_take_window")


@dataclasses.dataclass(frozen=True)
class WindowTakeSpec(KernelSpec):
    """TakeSpec for a flat contiguous source beyond one binding: S is the source window of
    positions [lo, lo + len); D[p] = S[I[p] - lo] for the positions inside it, every other
    element of D kept (the host runs every source window over every output window).
    Packed types rewrite their output word lane by lane."""

    t: WType  # raw type

    def layout(self, caps):
        return Layout([Buf("S", self.t.arr), Buf("I", "u32"), Buf("D", self.t.arr, "rw")],
                      ["n", "units", "lo", "len"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        W = lay.word
        io, do, so = W("I_off"), W("D_off"), W("S_off")
        if self.t.packed:
            per, bits = 32 // self.t.bits, self.t.bits
            sh = 2 if bits == 8 else 1
            body = [f"  var acc = D[{do} / {per}u + w];",
                    f"  for (var q = 0u; q < {per}u; q++) {{",
                    f"    let p = w * {per}u + q;",
                    f"    if (p >= {W('n')}) {{ break; }}",
                    f"    let s = I[{io} + p] - {W('lo')};",
                    f"    if (s < {W('len')}) {{",
                    f"      let j = {so} + s;",
                    f"      let v = extractBits(S[j >> {sh}u], (j & {per - 1}u) * {bits}u, {bits}u);",
                    f"      acc = insertBits(acc, v, q * {bits}u, {bits}u);",
                    "    }",
                    "  }",
                    f"  D[{do} / {per}u + w] = acc;"]
        else:
            body = [f"  let s = I[{io} + w] - {W('lo')};",
                    f"  if (s < {W('len')}) {{ D[{do} + w] = S[{so} + s]; }}"]
        return _WTAKE.render(lay.tokens(), wg=WG, body="\n".join(body))


# ---- index outputs --------------------------------------------------------------------
_INDEX = Template("""${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let p = g.x + g.y * nw.x * ${wg}u;
  if (p >= ${n}) { return; }
  let v = (I[${I_off} + p] / ${div}) % ${mod};
  ${store}
}
""", "sort_index")


@dataclasses.dataclass(frozen=True)
class IndexSpec(KernelSpec):
    """D[p] = (I[p] / div) % mod in the index dtype (``wide``: 8-byte indices)."""

    wide: bool

    def layout(self, caps):
        return Layout([Buf("I", "u32"), Buf("D", "vec2<u32>" if self.wide else "u32", "rw")],
                      ["n", "div", "mod"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        return _INDEX.render(lay.tokens(), wg=WG,
                             store=index_store(self.wide, "D", lay.word("D_off") + " + p", "v"))


# ---- unique: boundaries, counts, inverse ------------------------------------------------
_FLAGS = Template("""${layout}
${keyfn}
${less}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = g.x + g.y * nw.x * ${wg}u;
  if (i >= ${n}) { return; }
  let k = key(${S_off} + I[${I_off} + i] * ${s_st});
  var f = i == 0u || key_nan(k);
  if (!f) { f = !key_eq(k, key(${S_off} + I[${I_off} + i - 1u] * ${s_st})); }
  F[${F_off} + i] = select(0u, 1u, f);
}
""", "unique_flags")


@dataclasses.dataclass(frozen=True)
class FlagSpec(KernelSpec):
    """F[i] = 1 where sorted element i starts a run of equal keys (every NaN does)."""

    kt: KeyType

    def layout(self, caps):
        return Layout([Buf("S", self.kt.raw.arr), Buf("I", "u32"), Buf("F", "u32", "rw")],
                      ["n", "s_st"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        return _FLAGS.render(lay.tokens(), keyfn=key_fn(self.kt, "S"), less=less_fn(self.kt),
                             wg=WG)


_SFLAGS = Template("""${layout}
${keyfn}
${less}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = g.x + g.y * nw.x * ${wg}u;
  if (i >= ${n}) { return; }
  let k = key(${S_off} + i);
  var f = i == 0u || key_nan(k);
  if (!f) { f = !key_eq(k, key(${S_off} + i - 1u)); }
  F[${F_off} + i] = select(0u, 1u, f);
}
""", "unique_sorted_flags")


@dataclasses.dataclass(frozen=True)
class SortedFlagSpec(KernelSpec):
    """FlagSpec on the sorted values themselves (contiguous): neighbours read in order
    instead of through positions."""

    kt: KeyType

    def layout(self, caps):
        return Layout([Buf("S", self.kt.raw.arr), Buf("F", "u32", "rw")], ["n"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        return _SFLAGS.render(lay.tokens(), keyfn=key_fn(self.kt, "S"), less=less_fn(self.kt),
                              wg=WG)


_COUNTS = Template("""${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let k = g.x + g.y * nw.x * ${wg}u;
  if (k >= ${K}) { return; }
  var hi = ${n};
  if (k + 1u < ${K}) { hi = B[${B_off} + k + 1u]; }
  C[${C_off} + k] = hi - B[${B_off} + k];
}
""", "unique_counts")


@dataclasses.dataclass(frozen=True)
class CountSpec(KernelSpec):
    """C[k] = B[k + 1] - B[k] (B[K] = n), u32: run lengths from run starts B."""

    def layout(self, caps):
        return Layout([Buf("B", "u32"), Buf("C", "u32", "rw")], ["n", "K"], caps)

    def render(self, caps):
        return _COUNTS.render(self.layout(caps).tokens(), wg=WG)


_INVERSE = Template("""${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let i = g.x + g.y * nw.x * ${wg}u;
  if (i >= ${n}) { return; }
  D[${D_off} + I[${I_off} + i]] = R[${R_off} + i] + F[${F_off} + i] - 1u;
}
""", "unique_inverse")


@dataclasses.dataclass(frozen=True)
class InverseSpec(KernelSpec):
    """D[I[i]] = (inclusive run count at sorted element i) - 1, u32: each element's value
    index (u32, so it fits wherever the positions do; widened by IndexSpec)."""

    def layout(self, caps):
        return Layout([Buf("I", "u32"), Buf("R", "u32"), Buf("F", "u32"),
                       Buf("D", "u32", "rw")], ["n"], caps)

    def render(self, caps):
        return _INVERSE.render(self.layout(caps).tokens(), wg=WG)


# ---- binary searches: searchsorted, isin ---------------------------------------------------
_SEARCH = Template("""${layout}
${keyfn}
${vkeyfn}
${less}
fn at(p: u32) -> u32 { ${at} }
fn lower(v: array<u32, ${W}>, right: bool) -> u32 {
  var lo = 0u;
  var hi = ${ns};
  while (lo < hi) {
    let mid = lo + (hi - lo) / 2u;
    let a = key(at(mid));
    if (select(key_less(a, v), !key_less(v, a), right)) { lo = mid + 1u; } else { hi = mid; }
  }
  return lo;
}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let w = g.x + g.y * nw.x * ${wg}u;
  if (w >= ${units}) { return; }
${body}
}
""", "sort_search")


def _sorter_at(lay, sorter):
    if sorter is None:
        return f"return u32(i32({lay.word('S_off')}) + i32(p) * bitcast<i32>({lay.word('s_st')}));"
    # a sorter entry outside [0, ns) reads element 0 (NumPy raises; see ops/sorting docs)
    q = f"Q[{lay.word('Q_off')} + p * {lay.word('q_st')}]"
    raw = f"{q}.x" if sorter.itemsize == 8 else q
    ok = f"{q}.y == 0u && {raw} < {lay.word('ns')}" if sorter.itemsize == 8 else \
        f"{raw} < {lay.word('ns')}"
    return (f"let r = select(0u, {raw}, {ok});\n"
            f"  return u32(i32({lay.word('S_off')}) + i32(r) * bitcast<i32>({lay.word('s_st')}));")


@dataclasses.dataclass(frozen=True)
class SearchSpec(KernelSpec):
    """searchsorted (``isin`` False): D[q] = first p with key(S[at(p)]) >= / > key(V[q]);
    isin: D[q] (packed bools) = key(V[q]) is among S's keys, a NaN never is."""

    kt: KeyType
    isin: bool
    wide: bool            # 8-byte output indices (searchsorted)
    sorter: object = None  # raw type of the sorter, or None

    def layout(self, caps):
        bufs = [Buf("S", self.kt.raw.arr), Buf("V", self.kt.raw.arr)]
        if self.sorter is not None:
            bufs.append(Buf("Q", self.sorter.arr))
        out = "u32" if (self.isin or not self.wide) else "vec2<u32>"
        bufs.append(Buf("D", out, "rw"))
        return Layout(bufs, ["ns", "nv", "units", "s_st", "q_st", "v_st", "right", "invert"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        vo, vs = lay.word("V_off"), lay.word("v_st")

        def vat(e):   # needles through their (signed) stride: strided / broadcast views
            return f"u32(i32({vo}) + i32({e}) * bitcast<i32>({vs}))"
        if self.isin:
            body = ["  var acc = 0u;",
                    "  for (var q = 0u; q < 4u; q++) {",
                    "    let e = w * 4u + q;",
                    f"    if (e < {lay.word('nv')}) {{",
                    f"      let v = vkey({vat('e')});",
                    "      let lo = lower(v, false);",
                    f"      var hit = !key_nan(v) && lo < {lay.word('ns')};",
                    "      if (hit) { hit = key_eq(key(at(lo)), v); }",
                    f"      if (hit != ({lay.word('invert')} != 0u)) {{ acc |= 1u << (q * 8u); }}",
                    "    }",
                    "  }",
                    f"  D[{lay.word('D_off')} / 4u + w] = acc;"]
        else:
            body = [f"  let v = lower(vkey({vat('w')}), {lay.word('right')} != 0u);",
                    "  " + index_store(self.wide, "D", lay.word("D_off") + " + w", "v")]
        return _SEARCH.render(lay.tokens(), keyfn=key_fn(self.kt, "S"),
                              vkeyfn=key_fn(self.kt, "V", "vkey", helpers=False),
                              less=less_fn(self.kt), W=self.kt.words,
                              at=_sorter_at(lay, self.sorter), wg=WG, body="\n".join(body))

    @property
    def label(self):
        return (f"{'isin' if self.isin else 'searchsorted'}_{self.kt.name}" +
                ("_wide" if self.wide else "") +
                (f"_sorter{self.sorter.itemsize}" if self.sorter is not None else ""))


_CSEARCH = Template("""${layout}
${keyfn}
${vkeyfn}
${less}
fn at(p: u32) -> u32 { ${at} }
fn go(a: array<u32, ${W}>, v: array<u32, ${W}>, right: bool) -> bool {
  return select(key_less(a, v), !key_less(v, a), right);
}
// floor(k * ns / K) without a 64-bit product (k < K, so k * (ns % K) < K^2)
fn bk(k: u32) -> u32 { return k * (${ns} / ${K}u) + (k * (${ns} % ${K}u)) / ${K}u; }
var<workgroup> smp: array<array<u32, ${W}>, ${K}>;
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let blk = wid.x + wid.y * nw.x;
  if (blk >= ${ng}) { return; }
  let ns = ${ns};
  // sample k (1 <= k < K) is the element at b(k) = k * ns / K; sample 0 unused
  for (var k = lid.x; k < ${K}u; k += ${wg}u) {
    smp[k] = key(at(bk(k)));
  }
  workgroupBarrier();
  let right = ${right} != 0u;
  for (var w = blk * ${wg}u + lid.x; w < ${nv}; w += ${ng} * ${wg}u) {
    let v = vkey(${vat});
    // c: samples 1..K-1 on the "go right" side (a prefix: they are sorted)
    var c = 0u;
    for (var step = ${K}u / 2u; step > 0u; step >>= 1u) {
      if (c + step < ${K}u && go(smp[c + step], v, right)) { c += step; }
    }
    var lo = select(0u, bk(c) + 1u, c > 0u);
    var hi = select(ns, bk(c + 1u), c + 1u < ${K}u);
    while (lo < hi) {
      let mid = lo + (hi - lo) / 2u;
      if (go(key(at(mid)), v, right)) { lo = mid + 1u; } else { hi = mid; }
    }
    ${store}
  }
}
""", "sort_search_cached")


@dataclasses.dataclass(frozen=True)
class CachedSearchSpec(KernelSpec):
    """searchsorted with the first log2(K) levels of every search in workgroup memory: a
    workgroup loads K evenly spaced keys of the sorted array once, each needle finds its
    bracket among them there, then searches only ns / K elements in global memory.
    Needles by grid stride (``ng`` workgroups), so each workgroup's samples serve many."""

    kt: KeyType
    wide: bool
    K: int
    sorter: object = None

    def layout(self, caps):
        bufs = [Buf("S", self.kt.raw.arr), Buf("V", self.kt.raw.arr)]
        if self.sorter is not None:
            bufs.append(Buf("Q", self.sorter.arr))
        bufs.append(Buf("D", "vec2<u32>" if self.wide else "u32", "rw"))
        return Layout(bufs, ["ns", "nv", "ng", "s_st", "q_st", "v_st", "right"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        vo, vs = lay.word("V_off"), lay.word("v_st")
        return _CSEARCH.render(
            lay.tokens(), keyfn=key_fn(self.kt, "S"),
            vkeyfn=key_fn(self.kt, "V", "vkey", helpers=False), less=less_fn(self.kt),
            W=self.kt.words, at=_sorter_at(lay, self.sorter), wg=WG, K=self.K,
            vat=f"u32(i32({vo}) + i32(w) * bitcast<i32>({vs}))",
            store=index_store(self.wide, "D", lay.word("D_off") + " + w", "lo"))

    @property
    def label(self):
        return (f"searchsorted_cached{self.K}_{self.kt.name}" + ("_wide" if self.wide else "") +
                (f"_sorter{self.sorter.itemsize}" if self.sorter is not None else ""))


def variants():
    from ....._core import dtypes as dt
    from ...primitives.keys import key_type
    out = [IndexSpec(w) for w in (False, True)] + [CountSpec(), InverseSpec()] + \
        [TakeSpec(t) for t in RAW.values()] + [WindowTakeSpec(t) for t in RAW.values()]
    for d in (dt.bool_, dt.int8, dt.float16, dt.int32, dt.float32, dt.int64, dt.float64,
              dt.complex64, dt.complex128):
        kt = key_type(d)
        out += [FlagSpec(kt), SearchSpec(kt, True, False), SearchSpec(kt, False, True),
                SearchSpec(kt, False, False, RAW[4]), SearchSpec(kt, False, True, RAW[8]),
                SortedFlagSpec(kt), CachedSearchSpec(kt, True, 1024),
                CachedSearchSpec(kt, False, 256, RAW[4]), CachedSearchSpec(kt, True, 512, RAW[8])]
    return out
