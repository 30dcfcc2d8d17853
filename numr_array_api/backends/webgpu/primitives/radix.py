"""The device-wide sort: a stable LSD radix sort of the rows of a (rows, m) view.

This is the general sort (complex keys, data beyond one binding, every dtype with
SORT_KEYS off); real keys inside one binding take primitives/radix_keys.py, which moves
the keys themselves instead of re-reading them through positions.

The sort moves u32 *positions* (``r * m + c``: row r, column c of the view), never the
data: each pass computes the digit of an element from the source through its key
(primitives/keys.py), so any dtype (64-bit and complex included, with no optional
feature) and any strided view sorts without a copy. Rows sort together: after the key's
passes, passes over the row number (``position // m``, the most significant key) gather
every row's elements, stably, in that row's sorted order.

Every pass is reduce-then-scan, because WebGPU promises no forward progress between
workgroups (no decoupled look-back, no spinning):

1. ``hist``: every tile of TILE positions counts its RADIX-bit digits in workgroup memory
   and writes them digit-major to the (digits, tiles) table;
2. the shared scan (primitives/scan.py) turns the table into exclusive offsets: the slot
   of the first element of every (digit, tile);
3. ``scatter``: every tile walks its positions in chunks of WG, in order; within a chunk
   each thread's rank among equal digits is a popcount over per-digit thread bitmasks in
   workgroup memory, so the scatter is stable with no atomics on global memory.

Beyond one storage binding (positions, key planes or the source larger than 128 MiB on
lavapipe, 2 GiB on NVIDIA) the passes run per slab and per destination window
(``RadixPlan.record_slabs``), up to what device memory holds.

Limits (BackendLimitation, never a wrong answer): rows * m < 2^32 (u32 positions); beyond
one binding, keys of at most two words (complex128 is refused) and a histogram table
(rows * m / 2 bytes) that fits one binding.
"""

from __future__ import annotations

import dataclasses
import functools

from ...._core import dtypes as dt
from ...._core.errors import BackendLimitation
from ..codegen.caps import Caps
from ..codegen.layout import Buf, Layout
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..storage import new_output
from .keys import KeyType, key_fn, key_type
from .radix_keys import sort_keys, takes
from .rowsort import row_capacity, sort_rows
from .scan import scan
from ..runtime import caches as _caches

__all__ = ["RadixPlan", "sort_positions", "passes", "variants", "check_size", "spans"]

WG = 256
RADIX = 8
DIGITS = 1 << RADIX
CHUNKS = 8               # chunks of WG positions per tile
TILE = WG * CHUNKS
MASKW = WG // 32         # u32 words of one digit's thread bitmask
CARRY = True             # carry keys between passes where they fit (tests turn it off)

_COMMON = """
fn elem(i: u32) -> u32 {
  let r = i / ${m};
  let c = i - r * ${m};
  return u32(i32(${S_off}) + i32(r) * bitcast<i32>(${s_rs}) + i32(c) * bitcast<i32>(${s_cs}));
}
struct Item { p: u32, k: array<u32, ${kw}> }
fn item(t: u32) -> Item {
  var it: Item;
${load}
  return it;
}
fn digit(it: Item) -> u32 {
  if (${word} == ${kw}u) { return ((it.p / ${m}) >> ${shift}) & ${dmask}u; }
  var k = it.k;
  return (k[min(${word}, ${kwm1}u)] >> ${shift}) & ${dmask}u;
}
"""

_HIST = Template("""${layout}
${keyfn}
${common}
var<workgroup> hist: array<atomic<u32>, ${digits}>;
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let blk = wid.x + wid.y * nw.x;
  if (blk >= ${nb}) { return; }
  for (var d = lid.x; d < ${digits}u; d += ${wg}u) { atomicStore(&hist[d], 0u); }
  workgroupBarrier();
  let tb = blk * ${tile}u;
${hist_body}
  workgroupBarrier();
  for (var d = lid.x; d < ${digits}u; d += ${wg}u) {
    H[${H_off} + ${hcol}] = atomicLoad(&hist[d]);
  }
}
""", "radix_hist")

_SCATTER = Template("""${layout}
${keyfn}
${common}
var<workgroup> masks: array<atomic<u32>, ${maskwords}>;
var<workgroup> run: array<u32, ${digits}>;
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let blk = wid.x + wid.y * nw.x;
  if (blk >= ${nb}) { return; }
  for (var d = lid.x; d < ${digits}u; d += ${wg}u) { run[d] = H[${H_off} + ${hcol}]; }
  let tb = blk * ${tile}u;
  let me = lid.x >> 5u;
  let below = (1u << (lid.x & 31u)) - 1u;
  for (var w = lid.x; w < ${maskwords}u; w += ${wg}u) { atomicStore(&masks[w], 0u); }
${loads}
  workgroupBarrier();
${chunks_body}
}
""", "radix_scatter")


# One chunk of the scatter; every chunk's item is loaded before the first barrier (the
# loads of all CHUNKS are in flight at once instead of one chunk's per barrier round).
# Mask words are group-major, as in radix_keys.py: a digit's counting thread reads its
# words without bank conflicts.
_CHUNK = """  if (ok{k}) {{ atomicOr(&masks[me * {digits}u + d{k}], 1u << (lid.x & 31u)); }}
  workgroupBarrier();
  if (ok{k}) {{
    var r = countOneBits(atomicLoad(&masks[me * {digits}u + d{k}]) & below);
    for (var w = 0u; w < me; w++) {{ r += countOneBits(atomicLoad(&masks[w * {digits}u + d{k}])); }}
    let dst = run[d{k}] + r;
{store}
  }}
  workgroupBarrier();
  // every rank is read: count each digit's chunk total and clear its masks for the next
  for (var e = lid.x; e < {digits}u; e += {wg}u) {{
    var c = 0u;
    for (var w = 0u; w < {maskw}u; w++) {{
      c += countOneBits(atomicExchange(&masks[w * {digits}u + e], 0u));
    }}
    run[e] += c;
  }}
  workgroupBarrier();"""


def _loads(chunks, n):
    """Unrolled item loads of every chunk (``it<k>``, digit ``d<k>``, valid ``ok<k>``)."""
    out = []
    for k in range(chunks):
        out.append(f"  let t{k} = tb + {k * WG}u + lid.x;\n  let ok{k} = t{k} < {n};\n"
                   f"  var it{k}: Item;\n  var d{k} = 0u;\n"
                   f"  if (ok{k}) {{ it{k} = item(t{k}); d{k} = digit(it{k}); }}")
    return "\n".join(out)


_SLAB_COMMON = """
${elem}
struct Item { p: u32, k: array<u32, ${kw}> }
fn item(t: u32) -> Item {
  var it: Item;
${load}
  return it;
}
fn digit(it: Item) -> u32 {
  if (${word} == ${kw}u) { return ((it.p / ${m}) >> ${shift}) & ${dmask}u; }
  var k = it.k;
  return (k[min(${word}, ${kwm1}u)] >> ${shift}) & ${dmask}u;
}
"""


@dataclasses.dataclass(frozen=True)
class RadixSpec(KernelSpec):
    """One pass entry: ``stage`` "hist" or "scatter". ``first``: slot t holds position t
    and its key comes from the source (no input buffers). ``carry``: keys travel with the
    positions as ``kw`` word planes (KI in, KO out; coalesced reads instead of a gather
    from the source per pass); otherwise every pass gathers keys through the positions.

    ``slab``: the pass over data beyond one storage binding. One launch covers one slab
    (slots ``base + t``, a run of whole tiles whose source, positions and key planes each
    fit a binding; the source is contiguous and flat) and writes only the destinations
    falling in the window ``[lo, hi)`` bound as O / KO<w>; the host runs every (slab,
    window) pair. Keys are always carried, one buffer per word (the planes of one buffer
    would not fit a binding), and the histogram column of a tile is ``tb0 + blk`` of the
    whole table, so the one scan over it gives global slots."""

    kt: KeyType
    descending: bool
    stage: str
    first: bool
    carry: bool = False
    slab: bool = False

    def _kw(self):
        return range(self.kt.words)

    def layout(self, caps):
        if not self.slab:
            bufs = [Buf("S", self.kt.raw.arr)]
            if not self.first:
                bufs.append(Buf("I", "u32"))
                if self.carry:
                    bufs.append(Buf("KI", "u32"))
            if self.stage == "hist":
                bufs.append(Buf("H", "u32", "rw"))
            else:
                bufs += [Buf("H", "u32"), Buf("O", "u32", "rw")]
                if self.carry:
                    bufs.append(Buf("KO", "u32", "rw"))
            return Layout(bufs, ["n", "m", "nb", "s_rs", "s_cs", "word", "shift", "wkeys"],
                          caps)
        bufs = [Buf("S", self.kt.raw.arr)] if self.first else (
            [Buf("I", "u32")] + [Buf(f"KI{w}", "u32") for w in self._kw()])
        if self.stage == "hist":
            bufs.append(Buf("H", "u32", "rw"))
        else:
            bufs += [Buf("H", "u32"), Buf("O", "u32", "rw")]
            bufs += [Buf(f"KO{w}", "u32", "rw") for w in self._kw()]
        return Layout(bufs, ["n", "m", "nb", "nbt", "tb0", "base", "lo", "hi", "word",
                             "shift", "wkeys"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        tok = lay.tokens()
        kw = self.kt.words
        W = lay.word
        if self.slab:
            if self.first:
                load = f"  it.p = {W('base')} + t;\n  it.k = key(elem(t));"
            else:
                load = f"  it.p = I[{W('I_off')} + t];\n" + "\n".join(
                    f"  it.k[{w}] = KI{w}[{W(f'KI{w}_off')} + t];" for w in range(kw))
            elem = f"fn elem(i: u32) -> u32 {{ return {W('S_off')} + i; }}" if self.first \
                else ""
            common = Template(_SLAB_COMMON, "radix_slab_common").render(
                tok, kw=kw, kwm1=kw - 1, dmask=DIGITS - 1, load=load, elem=elem)
            keyfn = key_fn(self.kt, "S", "key", self.descending) if self.first else ""
            hcol = f"d * {W('nbt')} + {W('tb0')} + blk"
        else:
            if self.first:
                load = "  it.p = t;\n  it.k = key(elem(t));"
            elif self.carry:
                ki = W("KI_off")
                load = f"  it.p = I[{W('I_off')} + t];\n" + "\n".join(
                    f"  it.k[{w}] = KI[{ki} + {w}u * {W('n')} + t];" for w in range(kw))
            else:
                load = f"  it.p = I[{W('I_off')} + t];\n  it.k = key(elem(it.p));"
            common = Template(_COMMON, "radix_common").render(
                tok, kw=kw, kwm1=kw - 1, dmask=DIGITS - 1, load=load)
            keyfn = key_fn(self.kt, "S", "key", self.descending) if (
                self.first or not self.carry) else ""
            hcol = f"d * {W('nb')} + blk"
        loads = _loads(CHUNKS, W("n"))
        if self.stage == "hist":
            body = loads + "\n" + "\n".join(
                f"  if (ok{k}) {{ atomicAdd(&hist[d{k}], 1u); }}" for k in range(CHUNKS))
            return _HIST.render(tok, keyfn=keyfn, common=common, digits=DIGITS, wg=WG,
                                tile=TILE, hist_body=body, hcol=hcol)
        chunks = []
        for k in range(CHUNKS):
            if self.slab:
                # u32 wrap: dst - lo < hi - lo holds exactly for lo <= dst < hi
                keys = "\n".join(f"        KO{w}[{W(f'KO{w}_off')} + o] = kk[{w}];"
                                  for w in range(kw))
                store = (f"    let o = dst - {W('lo')};\n"
                         f"    if (o < {W('hi')} - {W('lo')}) {{\n"
                         f"      O[{W('O_off')} + o] = it{k}.p;\n"
                         f"      if ({W('wkeys')} != 0u) {{\n        var kk = it{k}.k;\n"
                         f"{keys}\n      }}\n    }}")
            else:
                store = f"    O[{W('O_off')} + dst] = it{k}.p;"
                if self.carry:
                    ko = W("KO_off")
                    store += (f"\n    if ({W('wkeys')} != 0u) {{\n      var kk = it{k}.k;\n" +
                              "\n".join(f"      KO[{ko} + {w}u * {W('n')} + dst] = kk[{w}];"
                                        for w in range(kw)) + "\n    }")
            chunks.append(_CHUNK.format(k=k, maskw=MASKW, store=store, digits=DIGITS, wg=WG))
        return _SCATTER.render(tok, keyfn=keyfn, common=common, digits=DIGITS, wg=WG,
                               tile=TILE, maskwords=DIGITS * MASKW, loads=loads,
                               chunks_body="\n".join(chunks), hcol=hcol)

    @property
    def label(self):
        return (f"radix_{self.stage}_{self.kt.name}" + ("_desc" if self.descending else "") +
                ("_first" if self.first else "") + ("_carry" if self.carry else "") +
                ("_slab" if self.slab else ""))


def passes(kt, rows):
    """(word, shift) of every pass, least significant first; word ``kt.words`` is the row."""
    out = []
    for b in range(0, kt.bits, RADIX):
        out.append((b // 32, b % 32))
    s = 0
    while rows > 1 and (1 << s) < rows:
        out.append((kt.words, s))
        s += RADIX
    return out


def check_size(n, what):
    if n >= 1 << 32:
        raise BackendLimitation("webgpu", f"{what} of {n} elements",
                                "positions are u32: at most 2^32 - 1 elements")


SLAB_WORDS = 2   # key words the slab path carries: a scatter binds 3 + 2 * words buffers


def spans(n, views, align):
    """[s0, s1) runs covering [0, n), starting at multiples of ``align``, over which every
    1-D view in ``views`` (each n long) fits one storage binding inside one segment; None
    when some run cannot (a view whose segments do not fall on ``align`` multiples)."""
    out, s0 = [], 0
    while s0 < n:
        step = n - s0
        for v in views:
            step = min(step, (v.client.max_binding - 512) // v.itemsize)
            seg = getattr(v.block, "seg_bytes", None)
            if seg is not None:
                e = seg // v.itemsize
                step = min(step, e - (v.offset // v.itemsize + s0) % e)
        if step < n - s0:
            step = step // align * align
        while step > align and not all(v[s0:s0 + step].fits_binding() for v in views):
            step = max(align, (step // 2) // align * align)
        if step <= 0 or not all(v[s0:s0 + step].fits_binding() for v in views):
            return None
        out.append((s0, s0 + step))
        s0 += step
    return out


def sort_positions(src, descending=False):
    """u32 (rows * m,): the positions ``r * m + c`` of the (rows, m) view ``src`` in
    (row, key) order, stable (equal keys keep their column order). Rows that fit
    workgroup memory sort there (primitives/rowsort.py); longer ones of real keys by the
    carried-key passes (primitives/radix_keys.py), others by position radix passes;
    data or positions beyond one storage binding by the slab passes (``record_slabs``)."""
    client = src.client
    rows, m = src.shape
    n = rows * m
    check_size(n, "sort")
    kt = key_type(src.dtype)
    a = new_output((n,), dt.uint32, client)
    if n == 0:
        return a
    fits = a.fits_binding()
    if fits and not src.fits_binding():
        src = src.contiguous()
        fits = src.fits_binding()
    if not fits:
        return _plan(client, src.dtype, descending).record_slabs(src, a)
    caps = Caps.of(client)
    if m <= row_capacity(kt, caps):   # short rows: sorted inside workgroup memory
        sort_rows(src, a, descending, caps)
        return a
    if takes(src):   # real keys: moved themselves, no gather per pass
        return sort_keys(src, descending, "positions")
    return _plan(client, src.dtype, descending).record(src, a)


class RadixPlan:
    """The radix passes of one (dtype, direction) on one client: kernels resolved once,
    scratch (the other position buffer, key planes, the histogram table) per call."""

    def __init__(self, client, dtype, descending):
        self.client = client
        self.kt = kt = key_type(dtype)
        self.descending = descending
        self._spec = functools.partial(RadixSpec, kt, descending)
        self._kernels = {}

    def kernel(self, stage, first, carry, slab=False):
        key = (stage, first, carry, slab)
        k = self._kernels.get(key)
        if k is None:   # compiled on first use: a plan uses 4 of its variants
            k = self._kernels[key] = self.client.kernel(self._spec(stage, first, carry, slab))
        return k

    def record(self, src, a):
        """Sort the rows of the (rows, m) view ``src`` (fitting one binding) by radix
        passes; ``a`` a u32 (rows * m,) output that fits one binding. Returns the buffer
        holding the sorted positions (``a`` or a scratch buffer)."""
        client, kt = self.client, self.kt
        rows, m = src.shape
        n = rows * m
        b = new_output((n,), dt.uint32, client)
        nb = -(-n // TILE)
        H = new_output((DIGITS * nb,), dt.uint32, client)
        groups = _groups(nb, client)
        words = dict(n=n, m=m, nb=nb, s_rs=src.strides[0] if rows > 1 else 0,
                     s_cs=src.strides[1] if m > 1 else 0)
        plan = passes(kt, rows)
        keys = None
        if CARRY and sum(1 for w, _ in plan if w < kt.words) > 1:
            # carried keys: coalesced reads instead of a gather per pass, where the word
            # planes fit one binding
            ka = new_output((kt.words * n,), dt.uint32, client)
            if ka.fits_binding():
                keys = [ka, new_output((kt.words * n,), dt.uint32, client)]
        carry = keys is not None
        first = True
        cur, nxt = None, a
        for i, (word, shift) in enumerate(plan):
            kh = self.kernel("hist", first, carry and not first)
            ks = self.kernel("scatter", first, carry)
            ins = {} if first else {"I": cur}
            if carry and not first:
                ins["KI"] = keys[0]
            kh.launch(groups, S=src, H=H, word=word, shift=shift, wkeys=0, **ins, **words)
            offs = scan(H.reshape((1, DIGITS * nb)), "add", dt.uint32, "exclusive")
            outs = {"KO": keys[1]} if carry else {}
            later = any(w < kt.words for w, _ in plan[i + 1:])   # keys still needed
            ks.launch(groups, S=src, H=offs.reshape((DIGITS * nb,)), O=nxt, word=word,
                      shift=shift, wkeys=1 if later else 0, **ins, **outs, **words)
            first = False
            cur, nxt = nxt, (b if nxt is a else a)
            if carry:
                keys.reverse()
        return cur

    def record_slabs(self, src, a):
        """``record`` for data beyond one binding: every pass runs its histogram per slab
        (whole tiles whose source, positions and key planes fit a binding) into one column
        range of the whole (digits, tiles) table, one scan over the table, then the
        scatter of every slab once per destination window (each launch writes only the
        elements whose slot falls in its window). Keys travel as one buffer per word."""
        client, kt = self.client, self.kt
        rows, m = src.shape
        n = rows * m
        kw = kt.words
        if kw > SLAB_WORDS:
            raise BackendLimitation("webgpu", f"sort of {n} {src.dtype.name} elements beyond "
                                    f"one storage binding ({client.max_binding} bytes)",
                                    f"keys of more than {SLAB_WORDS} words")
        flat = src.contiguous().reshape((n,))
        b = new_output((n,), dt.uint32, client)
        kin = [new_output((n,), dt.uint32, client) for _ in range(kw)]
        kout = [new_output((n,), dt.uint32, client) for _ in range(kw)]
        pos = [a, b] + kin + kout
        slabs = spans(n, pos + [flat], TILE)
        if slabs is None:   # a view whose segment boundaries fall mid-tile: a fresh copy
            flat = flat.copy()
            slabs = spans(n, pos + [flat], TILE)
        wins = spans(n, pos, TILE)
        nbt = -(-n // TILE)
        H = new_output((DIGITS * nbt,), dt.uint32, client)
        if slabs is None or wins is None or not H.fits_binding():
            raise BackendLimitation("webgpu", f"sort of {n} elements",
                                    "its histogram table or windows do not fit one storage "
                                    f"binding ({client.max_binding} bytes)")
        plan = passes(kt, rows)
        first = True
        cur, nxt = None, a
        for i, (word, shift) in enumerate(plan):
            kh = self.kernel("hist", first, True, True)
            ks = self.kernel("scatter", first, True, True)
            later = any(w < kw for w, _ in plan[i + 1:])   # keys still needed

            def ins(s0, s1):
                if first:
                    return {"S": flat[s0:s1]}
                d = {"I": cur[s0:s1]}
                d.update({f"KI{w}": kin[w][s0:s1] for w in range(kw)})
                return d

            def words(s0, s1):
                nb = -(-(s1 - s0) // TILE)
                return dict(n=s1 - s0, m=m, nb=nb, nbt=nbt, tb0=s0 // TILE, base=s0,
                            word=word, shift=shift), _groups(nb, client)

            for s0, s1 in slabs:
                w, g = words(s0, s1)
                kh.launch(g, H=H, lo=0, hi=0, wkeys=0, **ins(s0, s1), **w)
            offs = scan(H.reshape((1, DIGITS * nbt)), "add", dt.uint32, "exclusive")
            offs = offs.reshape((DIGITS * nbt,))
            for s0, s1 in slabs:
                w, g = words(s0, s1)
                for lo, hi in wins:
                    outs = {f"KO{k}": kout[k][lo:hi] for k in range(kw)}
                    ks.launch(g, H=offs, O=nxt[lo:hi], lo=lo, hi=hi,
                              wkeys=1 if later else 0, **ins(s0, s1), **outs, **w)
            first = False
            cur, nxt = nxt, (b if nxt is a else a)
            kin, kout = kout, kin
        return cur


def _groups(nb, client):
    gx = min(nb, client.max_groups)
    return (gx, -(-nb // gx), 1)


_PLANS = {}


def _plan(client, dtype, descending):
    key = (id(client), dtype, descending)
    p = _PLANS.get(key)
    if p is None or p.client is not client:
        p = _PLANS[key] = RadixPlan(client, dtype, descending)
    return p


def variants():
    out = []
    for d in (dt.bool_, dt.int8, dt.uint16, dt.float16, dt.int32, dt.float32, dt.int64,
              dt.uint64, dt.float64, dt.complex64, dt.complex128):
        for stage in ("hist", "scatter"):
            for first in (True, False):
                for carry in (False, True):
                    out.append(RadixSpec(key_type(d), d is dt.float32, stage, first, carry))
            if key_type(d).words <= SLAB_WORDS:
                for first in (True, False):
                    out.append(RadixSpec(key_type(d), d is dt.int32, stage, first, True, True))
    return out


_caches.register("primitives.radix _PLANS", _PLANS.clear)
