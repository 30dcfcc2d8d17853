"""Stream compaction: the flat positions of a mask's true elements, in order.

``positions(mask)``: the ranks (an exclusive scan with the total, primitives/scan.py) give
every true element its output slot; one pass writes ``D[rank[i]] = i``. The count is
the ranks' last entry; the caller reads it (4 bytes) to size the output, the one host read
of data-dependent shapes. Masks beyond one binding are walked in windows whose mask and
rank views fit one binding; positions are global u32, so masks hold < 2^32 elements.
"""

from __future__ import annotations

import dataclasses

from ...._core import dtypes as dt
from ...._core.errors import BackendLimitation
from ..codegen.layout import Buf, Layout
from ..codegen.render import WG, workgroups
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..codegen.types import WTYPES, WType, load, render_helpers
from ..storage import new_output
from ....tuning.registry import get as tuned
from .scan import scan

__all__ = ["ranks", "positions", "select_rows", "variants"]

_FRAME = Template("""${helpers}
${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  for (var i = g.x; i < ${n}; i += nw.x * ${wg}u) {
    let j = ${S_off} + i;
    if (${flag}) { D[${D_off} + R[${R_off} + i]] = ${base} + i; }
  }
}
""", "compact")


@dataclasses.dataclass(frozen=True)
class CompactSpec(KernelSpec):
    t: WType   # the mask's type (bool; any dtype counts nonzero)

    def layout(self, caps):
        return Layout([Buf("S", self.t.arr), Buf("R", "u32"), Buf("D", "u32", "rw")],
                      ["n", "base"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        h = set()
        from ..codegen.types import convert
        flag = convert(self.t, WTYPES[dt.bool_], load(self.t, "S", "j", h), h, caps.int64)
        return _FRAME.render(lay.tokens(), helpers=render_helpers(h, caps.int64), wg=WG,
                             flag=flag)


def variants():
    from ..codegen.types import RAW
    return [CompactSpec(WTYPES[d]) for d in (dt.bool_, dt.int32, dt.float32)] + \
        [CompactValuesSpec(t, WTYPES[dt.bool_]) for t in RAW.values()] + \
        [CompactBlocksSpec(RAW[i], WTYPES[m]) for i in (4, 8, 16)
         for m in (dt.bool_, dt.int32)]


def ranks(mask):
    """u32 (n + 1,): the exclusive running count of nonzero elements of the contiguous
    1-D ``mask``; the last entry is the count."""
    n = mask.size
    if n >= 1 << 32:
        raise BackendLimitation("webgpu", f"compaction of {n} elements",
                                "positions are u32: masks hold fewer than 2^32 elements")
    return scan(mask.reshape((1, n)), "add", dt.uint32, "total").reshape((n + 1,))


def positions(mask, rk, count):
    """u32 (count,): the flat positions of the true elements of the contiguous 1-D
    ``mask``, given its ``ranks`` ``rk`` and their ``count`` (read by the caller)."""
    client = mask.client
    out = new_output((count,), dt.uint32, client)
    n = mask.size
    if count == 0 or n == 0:
        return out
    k = client.kernel(CompactSpec(WTYPES[mask.dtype]))
    i0 = 0
    while i0 < n:
        step = n - i0
        while step > 1024 and not (mask[i0:i0 + step].fits_binding()
                                   and rk[i0:i0 + step].fits_binding()
                                   and step <= 1 << 30):
            step = (step + 1) // 2
        sv, rv = mask[i0:i0 + step], rk[i0:i0 + step]
        if not sv.fits_binding():
            sv = sv.copy()
        if not rv.fits_binding():
            rv = rv.copy()
        k.launch(workgroups(step, client), S=sv, R=rv, D=out, n=step, base=i0)
        i0 += step
    return out


_VALUES = Template("""${helpers}
${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let row = ${row};
  for (var e = g.x; e < ${n}; e += nw.x * ${wg}u) {
    let i = e / row;
    let j = ${M_off} + i;
    if (${flag}) {
      let o = (R[${R_off} + i] - ${out_base}) * row + (e - i * row);
${store}
    }
  }
}
""", "compact_values")


@dataclasses.dataclass(frozen=True)
class CompactValuesSpec(KernelSpec):
    """D[(rank[i] - out_base) * row + c] = S[i * row + c] where mask[i]: rows of a
    contiguous array selected by a mask over its leading dims, raw bits (any dtype)."""

    t: WType   # raw type of the values
    m: WType   # the mask's type

    def layout(self, caps):
        d = "atomic<u32>" if self.t.packed else self.t.arr
        return Layout([Buf("S", self.t.arr), Buf("M", self.m.arr), Buf("R", "u32"),
                       Buf("D", d, "rw")], ["n", "row", "out_base"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        h = set()
        from ..codegen.types import convert
        flag = convert(self.m, WTYPES[dt.bool_], load(self.m, "M", "j", h), h, caps.int64)
        v = load(self.t, "S", f"({lay.word('S_off')} + e)", h)
        if self.t.packed:  # outputs of several threads share a word: set bits atomically
            bits = self.t.bits
            mask = "0xffu" if bits == 8 else "0xffffu"
            q = "q & 3u" if bits == 8 else "q & 1u"
            sh = f"(({q}) << {3 if bits == 8 else 4}u)"
            store = (f"      let q = {lay.word('D_off')} + o;\n"
                     f"      atomicOr(&D[q >> {2 if bits == 8 else 1}u], (({v}) & {mask}) << "
                     f"{sh});")
        else:
            store = f"      D[{lay.word('D_off')} + o] = {v};"
        return _VALUES.render(lay.tokens(), helpers=render_helpers(h, caps.int64), wg=WG,
                              flag=flag, store=store)


_BLOCKS = Template("""${helpers}
${layout}
var<workgroup> sh: array<u32, ${wg}>;
@compute @workgroup_size(${wg})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let blk = wid.x + wid.y * nw.x;   // uniform in the workgroup: the early exit is too
  if (blk >= ${nb}) { return; }
  let c0 = blk * ${block}u + lid.x * ${per}u;
${loads}
  sh[lid.x] = ${count};
  workgroupBarrier();
  for (var d = 1u; d < ${wg}u; d <<= 1u) {
    var x = 0u;
    if (lid.x >= d) { x = sh[lid.x - d]; }
    workgroupBarrier();
    if (lid.x >= d) { sh[lid.x] = x + sh[lid.x]; }
    workgroupBarrier();
  }
  var r = ${D_off} + OFF[${OFF_off} + blk];
  if (lid.x > 0u) { r += sh[lid.x - 1u]; }
${stores}
}
""", "compact_blocks")


@dataclasses.dataclass(frozen=True)
class CompactBlocksSpec(KernelSpec):
    """D[OFF[block] + rank in block] = S[i] where mask[i]: the flat compaction of a 1-D
    unpacked ``t`` array in one pass over mask and data, given the exclusive scan of the
    blocks' counts (blocks of the scan's BLOCK elements); no per-element ranks."""

    t: WType   # raw type of the values (unpacked)
    m: WType   # the mask's type

    def layout(self, caps):
        return Layout([Buf("S", self.t.arr), Buf("M", self.m.arr), Buf("OFF", "u32"),
                       Buf("D", self.t.arr, "rw")], ["n", "nb"], caps)

    def render(self, caps):
        from .scan import BLOCK, PER, WG as SWG
        from ..codegen.types import convert
        lay = self.layout(caps)
        h = set()
        n, s_off, m_off = lay.word("n"), lay.word("S_off"), lay.word("M_off")
        loads = []
        for k in range(PER):
            j = f"j{k}"
            flag = convert(self.m, WTYPES[dt.bool_], load(self.m, "M", j, h), h, caps.int64)
            loads += [f"  let {j} = {m_off} + c0 + {k}u;",
                      f"  var f{k} = false;",
                      f"  if (c0 + {k}u < {n}) {{ f{k} = {flag}; }}"]
        count = " + ".join(f"select(0u, 1u, f{k})" for k in range(PER))
        stores = "\n".join(f"  if (f{k}) {{ D[r] = S[{s_off} + c0 + {k}u]; r += 1u; }}"
                           for k in range(PER))
        return _BLOCKS.render(lay.tokens(), helpers=render_helpers(h, caps.int64), wg=SWG,
                              block=BLOCK, per=PER, loads="\n".join(loads), count=count,
                              stores=stores)


def _select_blocks(src, mc):
    """``src[mc]`` for 1-D contiguous ``src`` (unpacked dtype) and mask, both fitting one
    binding: block counts (the scan's reduce pass), their exclusive scan with the total
    (the count: one 4-byte read), then one pass moving the selected elements."""
    from ..codegen.types import RAW
    from .scan import BLOCK, ScanSpec, _plan
    client = src.client
    nm = mc.size
    nbr = -(-nm // BLOCK)
    totals = new_output((1, nbr), dt.uint32, client)
    red = client.kernel(ScanSpec("add", WTYPES[mc.dtype], WTYPES[dt.uint32], "reduce", False))
    gx = min(nbr, client.max_groups)
    red.launch((gx, -(-nbr // gx), 1), S=mc, D=totals, L=1, mc=nm, nbr=nbr, g_base=0,
               s_rs=0, s_es=mc.strides[0], d_rs=0, total_col=0xFFFFFFFF)
    offs = _plan(client, "add", dt.uint32, dt.uint32, "total").record(totals)
    offs = offs.reshape((nbr + 1,))
    count = int(offs[nbr:nbr + 1].to_numpy()[0])
    out = new_output((count,), src.dtype, client)
    if count == 0:
        return out
    k = client.kernel(CompactBlocksSpec(RAW[src.itemsize], WTYPES[mc.dtype]))
    k.launch((gx, -(-nbr // gx), 1), S=src, M=mc, OFF=offs, D=out, n=nm, nb=nbr)
    return out


def select_rows(data, mask):
    """``data[mask]`` for a boolean ``mask`` over the leading ``mask.ndim`` dims of
    ``data`` (any size: windows over both sides). Reads the count and the ranks at window
    boundaries (a few u32) to size and place the output."""
    from ..codegen.types import RAW
    from ..kernels.fill import full
    client = data.client
    nm = mask.size
    rest = data.shape[mask.ndim:]
    row = 1
    for e in rest:
        row *= e
    src = data.contiguous().reshape((nm * row,))
    mc = mask.contiguous().reshape((nm,))
    # long masks take the block compaction (no per-element ranks), shorter ones the ranks
    # (fewer launches)
    if row == 1 and nm >= tuned("MASK_BLOCK_MIN", client) and data.itemsize >= 4 and src.fits_binding() and \
            mc.fits_binding() and nm * data.itemsize <= client.max_binding and nm < 1 << 30:
        return _select_blocks(src, mc).reshape((-1,) + rest)
    rk = ranks(mc)
    count = int(rk[nm:nm + 1].to_numpy()[0])
    t = RAW[data.itemsize]
    packed = t.packed
    out = (full if packed else lambda s, v, d, c: new_output(s, d, c))(
        (count,) + rest, 0, data.dtype, client)
    if count == 0 or row == 0:
        return out
    flat = out.reshape((count * row,))
    k = client.kernel(CompactValuesSpec(t, WTYPES[mask.dtype]))
    # windows of whole mask entries whose source rows, mask, ranks fit; the output range
    # of a window is [rank[i0], rank[i1]) rows
    bounds = [0]
    while bounds[-1] < nm:
        i0 = bounds[-1]
        step = nm - i0
        while step > 1 and not (src[i0 * row:(i0 + step) * row].fits_binding()
                                and rk[i0:i0 + step].fits_binding() and step * row <= 1 << 30):
            step = (step + 1) // 2
        bounds.append(i0 + step)
    # the first window starts at rank 0: only later windows read their first rank
    marks = [0] + [int(rk[b:b + 1].to_numpy()[0]) for b in bounds[1:-1]] + [count]
    for (i0, i1), (o0, o1) in zip(zip(bounds, bounds[1:]), zip(marks, marks[1:])):
        if o1 == o0:
            continue
        sv = src[i0 * row:i1 * row]
        dv = flat[o0 * row:o1 * row]
        staged = None
        if not sv.fits_binding():
            sv = sv.copy()
        mv, rv = mc[i0:i1], rk[i0:i1]
        mv = mv if mv.fits_binding() else mv.copy()
        rv = rv if rv.fits_binding() else rv.copy()
        if not dv.fits_binding():
            staged, dv = dv, full(dv.shape, 0, dv.dtype, client) if packed else \
                new_output(dv.shape, dv.dtype, client)
        k.launch(workgroups((i1 - i0) * row, client), S=sv, M=mv, R=rv, D=dv,
                 n=(i1 - i0) * row, row=row, out_base=o0)
        if staged is not None:
            from .scan import _store
            _store(dv, staged)
    return out
