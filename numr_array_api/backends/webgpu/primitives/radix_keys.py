"""The carried-key radix sort: real keys of 8 to 64 bits sorted by moving the keys.

primitives/radix.py moves u32 positions and re-reads every key from the source through its
position on every pass: general (complex, any view, data beyond one binding) but each pass
gathers. Here the raw bits of every element travel instead, as u32 planes (one plane for
types up to 32 bits, narrow ones zero-extended; two for 64 bits), with u32 indices beside
them where positions are wanted (argsort, set functions, rows). The order-preserving key
of primitives/keys.py is recomputed from the carried bits in registers on every pass, so
the sort result is the source's bits themselves (-0.0 and NaN payloads kept, bit-identical
to the position sort and to NumPy's stable sort).

1. ``prep`` (one read of the source, any (rows, m) view inside one binding): writes the
   planes of half 0 and adds, for every pass at once, each workgroup's digit histograms
   to the global ones (G, one 256-row per pass). A contiguous 32-bit source needs no
   planes (``direct``): the first pass that runs reads it as half 2;
2. ``plan`` (one workgroup): a pass whose digit is the same for every key is skipped (G
   then becomes each pass's exclusive digit offsets, what the one-sweep passes start
   from); the pass table T says for each pass whether it runs and which half (0 / 1) it
   reads, which half holds the result, and the first and last passes that run. The
   host never reads it: skipped passes launch and return, every later kernel reads T.
3. per pass, reduce-then-scan (WebGPU promises no forward progress between workgroups):
   ``hist`` counts each tile's digits (digit-major table, one column per tile), the shared
   scan (primitives/scan.py) makes them global slots, ``scatter`` ranks each tile's keys
   stably and writes them (sequential reads, runs of equal digits written together).
   In-tile ranking: ``workgroup`` (per-digit thread bitmasks in workgroup memory, in
   chunks of 256 keys, as radix.py) or ``subgroup`` (each subgroup ranks its own
   contiguous run of the tile by 9 ballots per key: lanes with the same digit, then a
   per-(digit, subgroup) count table of 16-bit halves scanned across subgroups: two
   barriers a tile; the histograms then count by the same matching, one atomic per group
   of equal digits). The subgroup variant needs whole subgroups of at least 4 lanes,
   which WebGPU promises (subgroupMinSize >= 4).
   Indices are never stored by the prep: the first pass that runs takes the identity.
   The last pass that runs writes the result itself (values of 32 / 64 bits, positions,
   argsort's int32 / int64 columns) instead of planes;
4. ``finish``: the result where no fused pass wrote it (narrow values packed back,
   unique's values-and-positions pair, or no pass ran at all).

The shaders know neither the dtype nor the direction nor the pass count: the key class,
the sign bit, the inversion of descending keys and the pass count are parameter words, so
one set of shaders per key width (8 / 16 / 32 / 64 bits for the prep and the finish, 1
or 2 planes for the passes) serves every dtype both ways.

Passes: 8-bit digits, ``ceil(bits / 8)`` for the key, then ``ceil(log256(rows))`` over the
row number (``index // m``: rows sort together, stably, as in radix.py). Bytes moved per
key, 32-bit keys, every pass run: sort 56 (prep 4 + 4, direct 4; a pass 4 (hist) + 4 +
4 (scatter), the last writing the result), argsort 84 with int64 indices (the indices
add 4 + 4 a pass but the first, the last writes 8), against about 96 and 96 for the
position sort plus its random gather of the values; every table of tile histograms adds
about 2.5 a pass (tile 2048: written, scanned, read).

Tuning (tuning/knobs/sorting.py): SORT_KEYS (this path at all), SORT_RANK, SORT_TILE,
SORT_PREP_GROUPS.
"""

from __future__ import annotations

import dataclasses

from ...._core import dtypes as dt
from ....tuning.registry import get as tuned
from ..codegen.caps import Caps
from ..codegen.layout import Buf, Layout
from ..codegen.spec import KernelSpec
from ..codegen.types import load
from ..kernels.fill import full
from ..storage import new_output
from .keys import KeyType, key_type
from .rowsort import row_capacity
from . import radix_sweep
from .radix_wgsl import (SG_ARGS as _SG_ARGS, SG_FNS as _SG_FNS, count as _count,
                         key_class, key_from_bits, rank_frame)
from .scan import scan

__all__ = ["KeySortSpec", "eligible", "takes", "sort_keys", "rank_variant", "variants"]

DIGITS = 256
WG = 256          # threads of prep / plan / hist / workgroup scatter / finish
SG_WG = 128       # threads of the subgroup scatter
SG_MIN = 4        # fewest subgroup lanes WebGPU allows: sizes the count table
MAX_PASSES = 12   # 8 key passes (64 bits) and 4 row passes (rows < 2^32)
MAX_TRIPS = 4096  # grid-stride trips of one prep thread (lavapipe stops loops at 65535)
PREP_UNROLL = 4   # elements a prep thread loads per trip before counting them (in flight
                  # together: one at a time, the H200 spent ~80 us on 2^24 keys, latency)


_UNSIGNED = {1: dt.uint8, 2: dt.uint16, 4: dt.uint32, 8: dt.uint64}
_PK = key_type(dt.uint32)


def eligible(dtype):
    """Real dtypes whose keys travel as their own bits (complex takes radix.py)."""
    return dtype.kind != "c"


def _passes(kt, rows):
    out = [(b // 32, b % 32) for b in range(0, kt.bits, 8)]
    s = 0
    while rows > 1 and (1 << s) < rows:
        out.append((kt.words, s))
        s += 8
    return tuple(out)


@dataclasses.dataclass(frozen=True)
class KeySortSpec(KernelSpec):
    """One kernel of the carried-key sort. ``stage``: prep / plan / hist / scatter /
    finish; ``idx``: u32 indices travel with the keys (the first pass that runs takes
    the identity instead of reading them; the pass count ``np`` is a word); ``rank``:
    "workgroup" / "subgroup" (scatter); ``tile``: keys per tile; ``fuse`` (scatter,
    finish): the last pass that runs writes the result ``out`` itself, the finish only
    where no pass ran; ``sg`` (prep, hist): count digits by subgroup matching (one
    atomic per group of equal digits); ``out``: "values", "positions" (u32 ``r * m + c``)
    or "index" / "index64" (the column ``c``: argsort's result in the namespace's index
    dtype, int64 as two words)."""

    kt: KeyType       # the unsigned type of the raw width (the dtype's class is a word)
    stage: str
    idx: bool
    rank: str = "workgroup"
    tile: int = 2048
    out: str = "values"
    sg: bool = False
    fuse: bool = False
    sweep: bool = False   # scatter: one launch a pass (radix_sweep.py), no hist / scan
    direct: bool = False  # the first pass that runs reads the source (``direct_ok``)

    def needs(self):
        sub = (self.stage == "scatter" and self.rank == "subgroup") or self.sg
        return ("subgroup",) if sub else ()

    @property
    def label(self):
        return (f"keysort_{self.stage}_{self.kt.name}" +
                ("_idx" if self.idx else "") +
                (f"_{self.rank}{self.tile}" if self.stage == "scatter" else "") +
                ("_sweep" if self.sweep else "") + ("_direct" if self.direct else "") +
                (f"_t{self.tile}" if self.stage == "hist" else "") +
                ("_sg" if self.sg else "") +
                (f"_{self.out}" if self.stage == "finish" or self.fuse else ""))

    def _halves(self, access, idx=None):
        bufs = [Buf("K0", "u32", access), Buf("K1", "u32", access)]
        if self.idx if idx is None else idx:
            bufs += [Buf("I0", "u32", access), Buf("I1", "u32", access)]
        return bufs

    def layout(self, caps):
        s = self.stage
        src = [Buf("S", "u32")] if self.direct else []   # read as half 2 (``_access``)
        if s == "prep":
            bufs = [Buf("S", self.kt.raw.arr)] + ([] if self.direct else [
                Buf("K0", "u32", "rw")]) + [Buf("G", "atomic<u32>", "rw")]
            if self.sweep:   # the prep zeroes the one-sweep status tables (``stw`` words)
                bufs.append(Buf("ST", "u32", "rw"))
            return Layout(bufs, ["n", "m", "s_rs", "s_cs", "ng", "np", "rp", "kc", "sbit",
                                 "inv"] + (["stw"] if self.sweep else []), caps)
        if s == "plan":
            return Layout([Buf("G", "u32", "rw"), Buf("T", "u32", "rw")], ["n", "np", "dir"],
                          caps)
        passw = ["n", "m", "nb", "np", "pno", "word", "shift", "kc", "sbit", "inv"]
        if s == "hist":
            return Layout(self._halves("read") + [Buf("T", "u32"), Buf("H", "u32", "rw")] + src,
                          passw, caps)
        if s == "scatter":
            bufs = self._halves("rw") + [Buf("T", "u32")]
            bufs += [Buf("G", "u32"), Buf("ST", "atomic<u32>", "rw")] if self.sweep else \
                [Buf("H", "u32")]
            if self.fuse:
                bufs.append(Buf("D", self._out_arr(), "rw"))
            return Layout(bufs + src, passw, caps)
        pos = self.out != "values"
        bufs = (self._halves("read", pos) if pos else [Buf("K0", "u32"), Buf("K1", "u32")])
        return Layout(bufs + [Buf("T", "u32"), Buf("D", self._out_arr(), "rw")] + src,
                      ["n", "m", "np", "units"], caps)

    def _out_arr(self):
        return {"values": self.kt.raw.arr, "index64": "vec2<u32>"}.get(self.out, "u32")

    # ---- WGSL pieces ------------------------------------------------------------------
    def _access(self, lay, access):
        """Half-selecting loads / stores of planes (and indices): ``kl(h, i)``, ``ks``."""
        W = lay.word
        out = []
        names = [("K", "k")] + ([("I", "i")] if any(b.name == "I0" for b in lay.bufs) else [])
        for B, f in names:
            # half 2: the source itself (direct; only keys, never indices, are read there)
            src = (f"if (h == 2u) {{ return S[{W('S_off')} + i]; }} "
                   if self.direct and B == "K" else "")
            out.append(f"fn {f}l(h: u32, i: u32) -> u32 {{ {src}if (h == 0u) {{ return "
                       f"{B}0[{W(B + '0_off')} + i]; }} return {B}1[{W(B + '1_off')} + i]; }}")
            if access == "rw":
                out.append(f"fn {f}s(h: u32, i: u32, v: u32) {{ if (h == 0u) {{ "
                           f"{B}0[{W(B + '0_off')} + i] = v; }} else {{ "
                           f"{B}1[{W(B + '1_off')} + i] = v; }} }}")
        return "\n".join(out) + "\n"

    def _bits(self, n, h, t):
        """WGSL expression of the carried bits of slot ``t`` in half ``h``."""
        if self.kt.words == 2:
            return f"vec2<u32>(kl({h}, {t}), kl({h}, {n} + {t}))"
        return f"kl({h}, {t})"

    def _digit(self, lay, v, i):
        """WGSL: the pass's digit of bits ``v`` (index ``i`` for the row passes)."""
        W = lay.word
        kw = self.kt.words
        row = f"((({i}) / {W('m')}) >> {W('shift')}) & 255u" if self.idx else "0u"
        return (f"select((kw_at({v}, min({W('word')}, {kw - 1}u)) >> {W('shift')}) & 255u, "
                f"{row}, {W('word')} == {kw}u)")

    def render(self, caps):
        lay = self.layout(caps)
        return getattr(self, "_r_" + self.stage)(lay)

    def _r_prep(self, lay):
        W = lay.word
        kt = self.kt
        # histogram rows: the key's passes and at most 4 row passes (rows < 2^32)
        cap = len(_passes(kt, 1)) + (4 if self.idx else 0)
        np_ = W("np")
        n = W("n")

        def ld(j):
            if kt.raw.packed:   # the element's raw bits, zero-extended
                sh = 2 if kt.raw.bits == 8 else 1
                per = 32 // kt.raw.bits
                return (f"extractBits(S[{j} >> {sh}u], ({j} & {per - 1}u) * {kt.raw.bits}u, "
                        f"{kt.raw.bits}u)")
            return load(kt.raw, "S", j, set())

        def store(t, v):
            if self.direct:
                return ""
            if kt.words == 1:
                return f"      K0[{W('K0_off')} + {t}] = {v};"
            return (f"      K0[{W('K0_off')} + {t}] = {v}.x;\n"
                    f"      K0[{W('K0_off')} + {n} + {t}] = {v}.y;")
        digits = []
        for p, (word, shift) in enumerate(_passes(kt, 1)):
            digits.append(_count("lh", f"{p * DIGITS}u", f"((k[{word}] >> {shift}u) & 255u)",
                                 "ok", self.sg))
        if self.idx:   # row passes (``rp`` of them): shifts 0, 8, ... of the row number
            base = len(digits)
            digits.append(f"    for (var q = 0u; q < {W('rp')}; q++) {{\n" + _count(
                "lh", f"({base}u + q) * {DIGITS}u", f"(((t / {W('m')}) >> (8u * q)) & 255u)",
                "ok", self.sg) + "\n    }")
        vt = "vec2<u32>" if kt.words == 2 else "u32"
        zero = "vec2<u32>(0u)" if kt.words == 2 else "0u"
        U = PREP_UNROLL
        zero_st = (f"  for (var i = blk * {WG}u + lid.x; i < {W('stw')}; i += {W('ng')} * {WG}u) "
                   f"{{ ST[{W('ST_off')} + i] = 0u; }}" if self.sweep else "")
        loads = "\n".join(f"""    let t{u} = tb + {u * WG}u + lid.x;
    let ok{u} = t{u} < {n};
    var v{u}: {vt} = {zero};
    if (ok{u}) {{
      let j{u} = elem(t{u});
      v{u} = {ld(f"j{u}")};
{store(f"t{u}", f"v{u}")}
    }}""" for u in range(U))
        counts = "\n".join(f"    {{\n    let t = t{u};\n    let ok = ok{u};\n    let k = kb(v{u});\n"
                           + "\n".join(digits) + "\n    }" for u in range(U))
        return f"""{lay.decl()}
{key_from_bits(kt.words, W)}
{_SG_FNS if self.sg else ""}
fn elem(i: u32) -> u32 {{
  let r = i / {W('m')};
  let c = i - r * {W('m')};
  return u32(i32({W('S_off')}) + i32(r) * bitcast<i32>({W('s_rs')})
             + i32(c) * bitcast<i32>({W('s_cs')}));
}}
var<workgroup> lh: array<atomic<u32>, {cap * DIGITS}>;
@compute @workgroup_size({WG})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>{", " + _SG_ARGS if self.sg else ""}) {{
  let blk = wid.x + wid.y * nw.x;
  if (blk >= {W('ng')}) {{ return; }}
  {"let lt = below(sl);" if self.sg else ""}
  for (var d = lid.x; d < {np_} * {DIGITS}u; d += {WG}u) {{ atomicStore(&lh[d], 0u); }}
{zero_st}
  workgroupBarrier();
  // a uniform trip count (subgroup operations inside), the tail masked by ok; each trip
  // issues its U loads before counting any, so they are in flight together
  for (var tb = blk * {WG * U}u; tb < {n}; tb += {W('ng')} * {WG * U}u) {{
{loads}
{counts}
  }}
  workgroupBarrier();
  for (var d = lid.x; d < {np_} * {DIGITS}u; d += {WG}u) {{
    let c = atomicLoad(&lh[d]);
    if (c != 0u) {{ atomicAdd(&G[{W('G_off')} + d], c); }}
  }}
}}
"""

    def _r_plan(self, lay):
        W = lay.word
        np_ = W("np")
        return f"""{lay.decl()}
var<workgroup> cf: array<atomic<u32>, {MAX_PASSES}>;
var<workgroup> sc: array<u32, {DIGITS}>;
@compute @workgroup_size({WG})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {{
  if (lid.x < {np_}) {{ atomicStore(&cf[lid.x], 0u); }}
  workgroupBarrier();
  for (var p = 0u; p < {MAX_PASSES}u; p++) {{
    if (p >= {np_}) {{ break; }}
    let gi = {W('G_off')} + p * {DIGITS}u + lid.x;
    let g = G[gi];
    if (g == {W('n')}) {{ atomicStore(&cf[p], 1u); }}
    // G becomes each pass's exclusive digit offsets, scanned once here for every tile of
    // the one-sweep passes
    sc[lid.x] = g;
    workgroupBarrier();
    for (var o = 1u; o < {DIGITS}u; o <<= 1u) {{
      let v = select(0u, sc[max(lid.x, o) - o], lid.x >= o);
      workgroupBarrier();
      sc[lid.x] += v;
      workgroupBarrier();
    }}
    G[gi] = sc[lid.x] - g;
    workgroupBarrier();
  }}
  if (lid.x == 0u) {{
    // half 2: the source itself, until the first pass that runs (direct)
    var h = select(0u, 2u, {W('dir')} != 0u);
    for (var p = 0u; p < {np_}; p++) {{
      let run = 1u - atomicLoad(&cf[p]);
      T[{W('T_off')} + 2u * p] = run;
      T[{W('T_off')} + 2u * p + 1u] = h;
      if (run == 1u) {{ h = 1u - (h & 1u); }}
    }}
    T[{W('T_off')} + 2u * {np_}] = h;
    // the last pass that runs (fused scatters write the result there); none: np
    var last = {np_};
    for (var p = 0u; p < {np_}; p++) {{
      if (T[{W('T_off')} + 2u * p] != 0u) {{ last = p; }}
    }}
    T[{W('T_off')} + 2u * {np_} + 1u] = last;
    // the first pass that runs reads the identity as indices (never stored): none: np
    var first = {np_};
    for (var p = {np_}; p > 0u; p--) {{
      if (T[{W('T_off')} + 2u * (p - 1u)] != 0u) {{ first = p - 1u; }}
    }}
    T[{W('T_off')} + 2u * {np_} + 2u] = first;
  }}
}}
"""

    def _head(self, lay):
        W = lay.word
        return (f"  let blk = wid.x + wid.y * nw.x;\n"
                f"  let live = T[{W('T_off')} + 2u * {W('pno')}];\n"
                f"  if (blk >= {W('nb')} || live == 0u) {{ return; }}\n"
                f"  let hs = T[{W('T_off')} + 2u * {W('pno')} + 1u];\n"
                f"  let tb = blk * {self.tile}u;\n" + self._flags(lay))

    def _flags(self, lay):
        """WGSL ``fin`` (this pass is the last that runs: fused, it writes the result) and
        ``one`` (the first that runs: its indices are the identity)."""
        W = lay.word
        return ((f"  let fin = T[{W('T_off')} + 2u * {W('np')} + 1u] == {W('pno')};\n"
                 if self.fuse else "") +
                (f"  let one = T[{W('T_off')} + 2u * {W('np')} + 2u] == {W('pno')};\n"
                 if self.idx else ""))

    def _r_hist(self, lay):
        W = lay.word
        ch = self.tile // WG
        body = [self._loads(lay, ch, lambda k: f"tb + {k * WG}u + lid.x", carry=False)]
        for k in range(ch):
            body.append(_count("hist", "0u", f"d{k}", f"ok{k}", self.sg))
        return f"""{lay.decl()}
{key_from_bits(self.kt.words, W)}
{self._access(lay, "read")}
{_SG_FNS if self.sg else ""}
var<workgroup> hist: array<atomic<u32>, {DIGITS}>;
@compute @workgroup_size({WG})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>{", " + _SG_ARGS if self.sg else ""}) {{
{self._head(lay)}
  {"let lt = below(sl);" if self.sg else ""}
  atomicStore(&hist[lid.x], 0u);
  workgroupBarrier();
{chr(10).join(body)}
  workgroupBarrier();
  H[{W('H_off')} + lid.x * {W('nb')} + blk] = atomicLoad(&hist[lid.x]);
}}
"""

    def _store(self, lay, k, dst):
        n = lay.word("n")
        kw = self.kt.words
        wh = "1u - (hs & 1u)" if self.direct else "1u - hs"   # the source (2): write half 1
        s = (f"    ks({wh}, {dst}, v{k}.x);\n    ks({wh}, {n} + {dst}, v{k}.y);"
             if kw == 2 else f"    ks({wh}, {dst}, v{k});")
        if self.idx:
            s += f"\n    is({wh}, {dst}, i{k});"
        if not self.fuse:
            return s
        D = f"D[{lay.word('D_off')} + {dst}]"
        res = {"values": f"{D} = v{k};", "positions": f"{D} = i{k};",
               "index": f"{D} = i{k} % {lay.word('m')};",
               "index64": f"{D} = vec2<u32>(i{k} % {lay.word('m')}, 0u);"}[self.out]
        s = "\n".join("  " + line for line in s.split("\n"))
        return f"    if (fin) {{ {res} }} else {{\n{s}\n    }}"

    def _loads(self, lay, ch, slot, carry=True):
        """Each thread's items: ``t<k>`` slot, ``ok<k>``, bits ``v<k>``, index ``i<k>``,
        digit ``d<k>``. Without ``carry`` (histograms) the index is read only where the
        pass's digit comes from it (the row passes)."""
        n = lay.word("n")
        cond = "" if carry else f"if ({lay.word('word')} == {self.kt.words}u) "
        zero = "vec2<u32>(0u)" if self.kt.words == 2 else "0u"
        vt = "vec2<u32>" if self.kt.words == 2 else "u32"
        out = []
        for k in range(ch):
            ii = f"i{k}" if self.idx else "0u"
            out.append(
                f"  let t{k} = {slot(k)};\n  let ok{k} = t{k} < {n};\n"
                f"  var v{k}: {vt} = {zero};\n  var i{k} = 0u;\n  var d{k} = 0u;\n"
                f"  if (ok{k}) {{\n    v{k} = {self._bits(n, 'hs', f't{k}')};\n" +
                (f"    {cond}{{ if (one) {{ i{k} = t{k}; }} else {{ i{k} = il(hs, t{k}); }} }}\n"
                 if self.idx else "") +
                f"    d{k} = {self._digit(lay, f'v{k}', ii)};\n  }}")
        return "\n".join(out)

    def _r_scatter(self, lay):
        return self._r_scatter_sg(lay) if self.rank == "subgroup" else self._r_scatter_wg(lay)

    def _r_scatter_wg(self, lay):
        W = lay.word
        ch = self.tile // WG
        maskw = WG // 32
        chunks = self._wg_chunks(lay, ch, maskw)
        loads = self._loads(lay, ch, lambda k: f"tb + {k * WG}u + lid.x")
        if self.sweep:
            return radix_sweep.scatter_wgsl(self, lay, self._access(lay, "rw"), loads, chunks,
                                            WG)
        arrays, frame = rank_frame(WG)
        return f"""{lay.decl()}
{key_from_bits(self.kt.words, W)}
{self._access(lay, "rw")}
{arrays}
@compute @workgroup_size({WG})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
{self._head(lay)}
  run[lid.x] = H[{W('H_off')} + lid.x * {W('nb')} + blk];
{frame}
{loads}
  workgroupBarrier();
{chunks}
}}
"""

    def _wg_chunks(self, lay, ch, maskw):
        """The bitmask ranking and stores of a tile's keys, 256 at a time (``run``: each
        digit's next slot). Mask words are group-major (``w * 256 + digit``): a digit's
        thread counts and clears its ``maskw`` words without bank conflicts (digit-major,
        every access of that loop was an 8-way conflict)."""
        chunks = []
        for k in range(ch):
            chunks.append(f"""  if (ok{k}) {{
    atomicOr(&masks[me * {DIGITS}u + d{k}], 1u << (lid.x & 31u));
  }}
  workgroupBarrier();
  if (ok{k}) {{
    var r = countOneBits(atomicLoad(&masks[me * {DIGITS}u + d{k}]) & below);
    for (var w = 0u; w < me; w++) {{ r += countOneBits(atomicLoad(&masks[w * {DIGITS}u + d{k}])); }}
    let dst = run[d{k}] + r;
{self._store(lay, k, 'dst')}
  }}
  workgroupBarrier();
  var c{k} = 0u;
  for (var w = 0u; w < {maskw}u; w++) {{
    c{k} += countOneBits(atomicExchange(&masks[w * {DIGITS}u + lid.x], 0u));
  }}
  run[lid.x] += c{k};
  workgroupBarrier();""")
        return chr(10).join(chunks)

    def _r_scatter_sg(self, lay):
        W = lay.word
        ch = self.tile // SG_WG
        nw16 = SG_WG // SG_MIN // 2     # u32 words of 16-bit subgroup counts per digit
        rank = []
        for k in range(ch):
            rank.append(f"""  let pe{k} = peers(d{k}, ok{k});
  let be{k} = pc(pe{k} & lt);
  var old{k} = 0u;
  if (ok{k} && be{k} == 0u) {{
    old{k} = (atomicAdd(&tbl[(sid >> 1u) * {DIGITS}u + d{k}], pc(pe{k}) << hsh) >> hsh) & 0xffffu;
  }}
  let lead{k} = select(0u, lowest(pe{k}), ok{k});
  let r{k} = subgroupShuffle(old{k}, lead{k}) + be{k};""")
        stores = []
        for k in range(ch):
            stores.append(f"""  if (ok{k}) {{
    let pre = (atomicLoad(&tbl[(sid >> 1u) * {DIGITS}u + d{k}]) >> hsh) & 0xffffu;
    let dst = run[d{k}] + pre + r{k};
{self._store(lay, k, 'dst')}
  }}""")
        return f"""{lay.decl()}
{key_from_bits(self.kt.words, W)}
{self._access(lay, "rw")}
var<workgroup> tbl: array<atomic<u32>, {DIGITS * nw16}>;
var<workgroup> run: array<u32, {DIGITS}>;
{_SG_FNS}
@compute @workgroup_size({SG_WG})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>, {_SG_ARGS}) {{
{self._head(lay)}
  for (var d = lid.x; d < {DIGITS}u; d += {SG_WG}u) {{
    run[d] = H[{W('H_off')} + d * {W('nb')} + blk];
  }}
  // words of 16-bit counts in use: two subgroups a word (the table holds SG_MIN lanes' worth)
  let nwr = ({SG_WG}u / sgs + 1u) / 2u;
  for (var w = lid.x; w < nwr * {DIGITS}u; w += {SG_WG}u) {{ atomicStore(&tbl[w], 0u); }}
  let lt = below(sl);
  let hsh = (sid & 1u) * 16u;
  // subgroup sid ranks the contiguous run [sid * {ch} * sgs, (sid + 1) * {ch} * sgs)
  let sb = tb + sid * {ch}u * sgs + sl;
{self._loads(lay, ch, lambda k: f"sb + {k}u * sgs")}
  workgroupBarrier();
{chr(10).join(rank)}
  workgroupBarrier();
  // per digit: exclusive scan of the subgroups' counts, in place
  for (var d = lid.x; d < {DIGITS}u; d += {SG_WG}u) {{
    var acc = 0u;
    for (var w = 0u; w < nwr; w++) {{
      let x = atomicLoad(&tbl[w * {DIGITS}u + d]);
      let lo = x & 0xffffu;
      atomicStore(&tbl[w * {DIGITS}u + d], acc | ((acc + lo) << 16u));
      acc += lo + (x >> 16u);
    }}
  }}
  workgroupBarrier();
{chr(10).join(stores)}
}}
"""

    def _r_finish(self, lay):
        W = lay.word
        np_ = W("np")
        n, fin = W("n"), f"T[{W('T_off')} + 2u * {np_}]"
        # fused: the result is written unless no pass ran
        skip = (f" || T[{W('T_off')} + 2u * {np_} + 1u] != {np_}" if self.fuse else "")
        if self.out == "positions":
            body = f"  D[{W('D_off')} + w] = ix(h, w);"
        elif self.out == "index":
            body = f"  D[{W('D_off')} + w] = ix(h, w) % {W('m')};"
        elif self.out == "index64":
            body = f"  D[{W('D_off')} + w] = vec2<u32>(ix(h, w) % {W('m')}, 0u);"
        elif self.kt.words == 2:
            body = f"  D[{W('D_off')} + w] = vec2<u32>(kl(h, w), kl(h, {n} + w));"
        elif self.kt.raw.packed:
            per, bits = 32 // self.kt.raw.bits, self.kt.raw.bits
            body = (f"  var acc = 0u;\n  for (var q = 0u; q < {per}u; q++) {{\n"
                    f"    let p = w * {per}u + q;\n"
                    f"    if (p < {n}) {{\n"
                    f"      acc |= (kl(h, p) & {(1 << bits) - 1}u) << (q * {bits}u);\n    }}\n"
                    f"  }}\n  D[{W('D_off')} / {per}u + w] = acc;")
        else:
            body = f"  D[{W('D_off')} + w] = kl(h, w);"
        # no pass ran: the indices are the identity (never stored)
        ix = (f"fn ix(h: u32, w: u32) -> u32 {{ if (T[{W('T_off')} + 2u * {np_} + 2u] "
              f"== {np_}) {{ return w; }} return il(h, w); }}\n"
              if self.out != "values" else "")
        return f"""{lay.decl()}
{self._access(lay, "read")}
{ix}
@compute @workgroup_size({WG})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {{
  if (false{skip}) {{ return; }}
  let h = {fin};
  // grid stride: a fused finish has nothing to do unless no pass ran, so it launches few
  // workgroups (a thread an element cost ~80 us on the H200 just to return)
  let stride = nw.x * nw.y * {WG}u;
  for (var w = g.x + g.y * nw.x * {WG}u; w < {W('units')}; w += stride) {{
{body}
  }}
}}
"""


# ---- host side -----------------------------------------------------------------------------
def rank_variant(client):
    """"subgroup" or "workgroup": the SORT_RANK knob against what the adapter offers."""
    want = tuned("SORT_RANK", client)
    caps = Caps.of(client)
    sg_ok = caps.subgroup and (DIGITS * (SG_WG // SG_MIN // 2) + DIGITS) * 4 <= \
        caps.workgroup_storage
    if want == "workgroup" or not sg_ok:
        return "workgroup"
    return "subgroup"


def takes(src, out_itemsize=0):
    """Whether the (rows, m) view ``src`` sorts here: SORT_KEYS on, a real dtype, rows too
    long for workgroup memory (primitives/rowsort.py sorts those in one dispatch), and the
    source, one half's planes and the output (elements of ``out_itemsize`` bytes beyond
    the values' own) inside one storage binding."""
    client = src.client
    rows, m = src.shape
    n = rows * m
    if not (tuned("SORT_KEYS", client) and eligible(src.dtype)) or n >= 1 << 32:
        return False
    kt = key_type(src.dtype)
    if m <= row_capacity(kt, Caps.of(client)):
        return False
    return src.fits_binding() and max(kt.words * 4, out_itemsize) * n <= \
        client.max_binding - 512


def _groups(units, client, wg=WG):
    g = max(1, -(-units // wg))
    gx = min(g, client.max_groups)
    return (gx, -(-g // gx), 1)


def _finish_groups(units, fuse, client):
    # fused: usually nothing to do; 1024 workgroups stride over every unit otherwise
    # (at most 16384 trips a thread below 2^32 units, inside lavapipe's loop budget)
    return _groups(min(units, 1024 * WG) if fuse else units, client)


def direct_ok(src):
    """Whether the passes can read the (rows, m) view ``src`` itself instead of a prepared
    copy (``direct``): 32-bit elements in row-major order, and a binding to spare for it
    beside a fused scatter's nine."""
    rows, m = src.shape
    return (src.dtype.itemsize == 4 and (rows == 1 or src.strides[0] == m)
            and (m == 1 or src.strides[1] == 1)
            and src.client.limits.get("max-storage-buffers-per-shader-stage", 8) >= 9)


def sort_keys(src, descending=False, want="values"):
    """Sort the rows of the (rows, m) view ``src`` (any strides, inside one binding; a
    real dtype whose planes fit a binding, see ``takes``) stably along m. ``want``:
    "values" (a contiguous (rows * m,) storage of src's dtype, rows in order),
    "positions" (u32 ``r * m + c`` of each sorted element, as radix.sort_positions),
    "both" (the pair), or "index" / "index64" (argsort: the column ``c`` as int32 /
    int64)."""
    client = src.client
    rows, m = src.shape
    n = rows * m
    kt = key_type(_UNSIGNED[src.dtype.itemsize])   # shaders by width; the class is a word
    kc, sbit = key_class(src.dtype)
    keyw = dict(kc=kc, sbit=sbit, inv=0xFFFFFFFF if descending else 0)
    idx = want != "values" or rows > 1
    plan = _passes(kt, rows)
    npass = len(plan)
    tile = max(WG, tuned("SORT_TILE", client) // WG * WG)   # whole chunks of both rankings
    rank = rank_variant(client)
    sg = rank == "subgroup"   # the histograms count by subgroup matching too
    vals = new_output((n,), src.dtype, client) if want in ("values", "both") else None
    pdt = {"index": dt.int32, "index64": dt.int64}.get(want, dt.uint32)
    pos = new_output((n,), pdt, client) if want != "values" else None
    if n == 0:
        return (vals, pos) if want == "both" else (vals if pos is None else pos)
    halves = [new_output((kt.words * n,), dt.uint32, client) for _ in range(2)]
    ind = [new_output((n,), dt.uint32, client) for _ in range(2)] if idx else []
    G = full((npass * DIGITS,), 0, dt.uint32, client)
    P = new_output((2 * npass + 3,), dt.uint32, client)
    ng = min(tuned("SORT_PREP_GROUPS", client), client.max_groups)
    ng = max(ng, -(-n // (WG * PREP_UNROLL * MAX_TRIPS)))
    ng = min(ng, -(-n // (WG * PREP_UNROLL)))
    # direct: the first pass that runs reads src itself, so the prep writes no planes
    direct = direct_ok(src)
    nb = -(-n // tile)
    sweep = radix_sweep.usable(client, rank, n, npass, nb)
    prep = dict(S=src, G=G, n=n, m=m, ng=ng,
                s_rs=src.strides[0] if rows > 1 else 0, s_cs=src.strides[1] if m > 1 else 0,
                **keyw, **({} if direct else dict(K0=halves[0])))
    if sweep:   # status tables zeroed by the prep (no fill launch of their own)
        stw = radix_sweep.table_words(npass, nb)
        ST = new_output((stw,), dt.uint32, client)
        prep.update(ST=ST, stw=stw)
    kpass = len(_passes(kt, 1))
    client.kernel(KeySortSpec(kt, "prep", idx, sg=sg, direct=direct, sweep=sweep)).launch(
        _groups(ng * WG, client), np=npass, rp=npass - kpass, **prep)
    client.kernel(KeySortSpec(_PK, "plan", False)).launch((1, 1, 1), G=G, T=P, n=n, np=npass,
                                                          dir=int(direct))
    H = None if sweep else new_output((DIGITS * nb,), dt.uint32, client)
    bufs = dict(K0=halves[0], K1=halves[1], T=P, **(dict(S=src) if direct else {}))
    if idx:
        bufs.update(I0=ind[0], I1=ind[1])
    # one result of 32 / 64-bit words (not packed narrow values, not unique's pair): the
    # last pass that runs writes it, the finish only copies where no pass ran
    fo = "positions" if want == "both" else want
    fuse = want != "both" and not (want == "values" and kt.raw.packed)
    # the passes' shaders know neither the pass count nor the dtype (words): one set a width
    kp = key_type(dt.uint64 if kt.words == 2 else dt.uint32)   # planes of 1 or 2 words
    kh = None if sweep else client.kernel(KeySortSpec(kp, "hist", idx, tile=tile, sg=sg,
                                                      direct=direct))
    ks = client.kernel(KeySortSpec(kp, "scatter", idx, rank=rank, tile=tile, fuse=fuse,
                                   out=fo if fuse else "values", sweep=sweep, direct=direct))
    sbufs = dict(bufs, D=vals if want == "values" else pos) if fuse else bufs
    tiles = _groups(nb, client, 1)
    for p, (word, shift) in enumerate(plan):
        words = dict(n=n, m=m, nb=nb, np=npass, word=word, shift=shift, **keyw)
        if sweep:
            ks.launch(tiles, G=G, ST=ST, pno=p, **sbufs, **words)
            continue
        kh.launch(tiles, H=H, pno=p, **bufs, **words)
        offs = scan(H.reshape((1, DIGITS * nb)), "add", dt.uint32, "exclusive")
        ks.launch(tiles, H=offs.reshape((DIGITS * nb,)), pno=p, **sbufs, **words)
    fin = dict(K0=halves[0], K1=halves[1], T=P, n=n)
    if vals is not None:   # where no pass ran, the values are src's (half 2 when direct)
        units = -(-n // (32 // kt.raw.bits)) if kt.raw.packed else n
        client.kernel(KeySortSpec(kt, "finish", False, out="values", fuse=fuse,
                                  direct=direct)).launch(
            _finish_groups(units, fuse, client), units=units, m=m, np=npass, D=vals, **fin,
            **(dict(S=src) if direct else {}))
    if pos is not None:
        # no key read: one shader for every dtype
        client.kernel(KeySortSpec(_PK, "finish", True, out=fo, fuse=fuse)).launch(
            _finish_groups(n, fuse, client), units=n, m=m, np=npass, D=pos, I0=ind[0],
            I1=ind[1], **fin)
    return (vals, pos) if want == "both" else (vals if pos is None else pos)


def variants():
    out = [KeySortSpec(_PK, "plan", False)]
    out += [KeySortSpec(_PK, "finish", True, out=o, fuse=f)
            for o in ("positions", "index", "index64") for f in (False, True)]
    for d in (dt.uint8, dt.uint16, dt.uint32, dt.uint64):
        kt = key_type(d)
        for idx in (False, True):
            out += [KeySortSpec(kt, "prep", idx), KeySortSpec(kt, "prep", idx, sg=True)]
            if d.itemsize == 4:
                out.append(KeySortSpec(kt, "prep", idx, direct=True, sweep=idx))
            out.append(KeySortSpec(kt, "prep", idx, sweep=True))
        out += [KeySortSpec(kt, "finish", False, out="values", fuse=f) for f in (False, True)]
        if d.itemsize < 4:
            continue
        for idx in (False, True):
            out += [KeySortSpec(kt, "hist", idx), KeySortSpec(kt, "hist", idx, sg=True)]
            for r in ("workgroup", "subgroup"):
                out.append(KeySortSpec(kt, "scatter", idx, r))
                for o in ("values", "positions", "index", "index64") if idx else ("values",):
                    out.append(KeySortSpec(kt, "scatter", idx, r, out=o, fuse=True))
            out.append(KeySortSpec(kt, "scatter", idx, sweep=True))
            if d.itemsize == 4:
                out += [KeySortSpec(kt, "hist", idx, direct=True),
                        KeySortSpec(kt, "scatter", idx, direct=True, fuse=True,
                                    out="index" if idx else "values"),
                        KeySortSpec(kt, "scatter", idx, sweep=True, direct=True, fuse=True,
                                    out="index" if idx else "values"),
                        KeySortSpec(kt, "finish", False, out="values", fuse=idx, direct=True)]
            out.append(KeySortSpec(kt, "scatter", idx, out="index" if idx else "values",
                                   fuse=True, sweep=True))
    return out
