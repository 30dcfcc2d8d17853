"""Gather / scatter through integer indices, fused with their bounds check, at any size.

One kernel (``TakeSpec``) reads an index per result element (any integer dtype; 8-byte
indices as ``vec2<u32>``, no shader-int64 needed), wraps a negative one once, checks it
against the axis extent, and moves the raw bits of one element (every dtype exact):

    result[e] = S[base + pre(e) + post(e) + coord(b) + wrap(I[ix(b)]) * axis_stride]

with ``e`` split into (pre, b, post) dims (NumPy's placement of the broadcast index dims
``b``). ``coord(b)`` adds the strides of the data's other dims for ``take_along_axis``.
The index kind ``off`` reads a precomputed i32 offset table instead (several index arrays
and masks, ops/indexing.py), whose marked entries are the invalid ones. Scatter (setitem)
is the same walk writing a value into those places.

Bounds check: an invalid index sets word 0 of a small per-client status buffer and reads
zero bits (gather) or is skipped (scatter); no separate pass. ``NUMR_WEBGPU_INDEX_CHECK``
(read at import into ``CHECK``) says when the host looks at that word: ``sync`` (default)
reads it at the end of the call
(one 4-byte read, so the call raises ``InvalidIndex`` itself, as every numr backend does),
``lazy`` at the next host read or ``synchronize`` of the adapter (the error then surfaces
there; no round trip per call).

Sizes: the indexed data is random access, so it is bound in windows: one window
when the view fits a binding, else binding-sized windows inside single segments of a
multi-buffer array, one launch per window, each writing only the elements whose source
(gather) or destination (scatter) lies in its window. Positions are u32 relative to the
window start (wrapping arithmetic; a view spanning fewer than 2^32 - window elements never
aliases). The result, the index array and the scatter value are walked in chunks of
consecutive result elements whose windows fit a binding (copied contiguous first when a
strided one does not fit).
"""

from __future__ import annotations

import dataclasses

from ...._core import dtypes as dt, environment
from ...._core.errors import BackendLimitation, DeviceLost, InvalidIndex
from ..codegen.layout import Buf, Layout, Words
from ..codegen.render import WG, collapse, workgroups
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..codegen.types import RAW, WTYPES, WType, load, pack, render_helpers
from ..runtime.allocator import Block, size_class
from ..runtime import caches as _caches
from ....tuning.registry import epoch as _tuning_epoch, get as tuned

__all__ = ["TakeSpec", "take", "index_kind", "check_mode", "variants", "MARK"]

MARK = "bitcast<i32>(0x80000000u)"  # invalid offset-table entry (no valid offset is -2^31)
_MAX_UNITS = 1 << 30
_U32 = 1 << 32

# index dtype -> (kind, WType loaded); 4-byte kinds are read as u32 words
_KINDS = {
    dt.int8: "s8", dt.int16: "s16", dt.int32: "s32", dt.int64: "s64",
    dt.uint8: "u8", dt.uint16: "u16", dt.uint32: "u32", dt.uint64: "u64",
}
_SUBWORD = {"s8": WTYPES[dt.int8], "s16": WTYPES[dt.int16], "u8": WTYPES[dt.uint8],
            "u16": WTYPES[dt.uint16]}


def index_kind(dtype):
    return _KINDS[dtype]


# when the host reads the status word (NUMR_WEBGPU_INDEX_CHECK, read at import; tests and
# benchmarks set this attribute to switch at run time)
CHECK = "lazy" if environment.get("NUMR_WEBGPU_INDEX_CHECK").lower() == "lazy" else "sync"


def check_mode():
    """``sync`` | ``lazy``."""
    return CHECK


_FRAME = Template("""${helpers}
${layout}
${fns}
// (position in S relative to the bound window, status): 0 ok, 1 invalid index, 2 elsewhere
fn locate(e: u32) -> vec2<u32> {
${split}
${index}
  if (!ok) { return vec2<u32>(0u, 1u); }
  let p = ${base} + pre_index(pre) + post_index(post) + xc_index(b) + j * ${axs};
${window}
  return vec2<u32>(p, 0u);
}
${body_fns}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(local_invocation_id) l: vec3<u32>,
        @builtin(workgroup_id) gid: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
${main}
}
""", "take")


def _strided(lay, rank, name, fn):
    """WGSL ``fn(e)``: offset word (words[0] of ``name``) + row-major e over (n, s) pairs."""
    w = [lay.word(name, i) for i in range(1 + 2 * rank)]
    if rank == 0:
        return f"fn {fn}(e: u32) -> u32 {{ return {w[0]}; }}"
    lines = [f"fn {fn}(e: u32) -> u32 {{", "  var r = e;", f"  var o = {w[0]};"]
    for d in reversed(range(rank)):
        n, st = w[1 + 2 * d], w[2 + 2 * d]
        lines.append(f"  o += r * {st};" if d == 0 else f"  o += (r % {n}) * {st}; r = r / {n};")
    return "\n".join(lines + ["  return o;", "}"])


def _index_code(kind, h):
    """WGSL defining ``j: u32`` (the wrapped index) and ``ok: bool`` for ``q`` in I."""
    n = "AXN"
    if kind == "off":
        return ("  let o = I[q];\n  let ok = o != " + MARK + ";\n  let j = bitcast<u32>(o);")
    if kind == "s64":
        return ("  let w = I[q];\n  let neg = w.y == 0xffffffffu;\n"
                f"  let j = select(w.x, w.x + {n}, neg);\n"
                f"  let ok = (w.y == 0u && w.x < {n}) || (neg && {n} != 0u && w.x >= 0u - {n});")
    if kind == "u64":
        return f"  let w = I[q];\n  let j = w.x;\n  let ok = w.y == 0u && w.x < {n};"
    if kind == "s32":
        return (f"  let v = I[q];\n  let j = select(v, v + {n}, bitcast<i32>(v) < 0i);\n"
                f"  let ok = j < {n};")
    if kind == "u32":
        return f"  let j = I[q];\n  let ok = j < {n};"
    t = _SUBWORD[kind]
    v = load(t, "I", "q", h)
    if t.signed:
        return (f"  let v = bitcast<u32>({v});\n"
                f"  let j = select(v, v + {n}, bitcast<i32>(v) < 0i);\n  let ok = j < {n};")
    return f"  let j = {v};\n  let ok = j < {n};"


def _i_elem(kind):
    return {"off": "i32", "s64": "vec2<u32>", "u64": "vec2<u32>"}.get(kind, "u32")


@dataclasses.dataclass(frozen=True)
class TakeSpec(KernelSpec):
    """Gather (``scatter`` False) or scatter of raw ``raw`` elements through index kind
    ``kind``; ``rp`` / ``rq`` / ``ri`` / ``rx`` / ``rv``: collapsed ranks of the pre dims, the
    post dims, the index over the broadcast dims, the coordinate strides over them, and
    the scatter value; ``window``: S (gather) / D (scatter) is one window of the data (skip
    positions outside); ``ept``: elements per thread (unpacked gather)."""

    raw: WType
    kind: str
    rp: int
    rq: int
    ri: int
    rx: int
    rv: int
    scatter: bool
    window: bool
    ept: int = 1
    dry: bool = False  # scatter: only flag invalid indices (checked before any write)

    def layout(self, caps):
        raw = self.raw
        d_arr = "atomic<u32>" if self.scatter and raw.packed else raw.arr
        bufs = [Buf("S", raw.arr, offset=False), Buf("I", _i_elem(self.kind), offset=False),
                Buf("D", d_arr, "rw"), Buf("F", "u32", "rw", offset=False)]
        words = ["units", "e0", "n", "base", "nb", "pn", "axn", "axs", "wlen", "tok", "fslot",
                 Words("pre", 1 + 2 * self.rp), Words("post", 1 + 2 * self.rq),
                 Words("ix", 1 + 2 * self.ri), Words("xc", 1 + 2 * self.rx)]
        if self.scatter:
            words.append(Words("val", 1 + 2 * self.rv))
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        raw = self.raw
        h = set()
        fns = [_strided(lay, self.rp, "pre", "pre_index"),
               _strided(lay, self.rq, "post", "post_index"),
               _strided(lay, self.ri, "ix", "ix_index"),
               _strided(lay, self.rx, "xc", "xc_index")]
        if self.scatter:
            fns.append(_strided(lay, self.rv, "val", "val_index"))
        pn, nb = lay.word("pn"), lay.word("nb")
        split = []
        if self.rq:
            split += [f"  let t = e / {pn};", f"  let post = e - t * {pn};"]
        else:
            split += ["  let t = e;", "  let post = 0u;"]
        if self.rp:
            split += [f"  let pre = t / {nb};", f"  let b = t - pre * {nb};"]
        else:
            split += ["  let pre = 0u;", "  let b = t;"]
        split.append("  let q = ix_index(b);")
        index = _index_code(self.kind, h).replace("AXN", lay.word("axn"))
        window = (f"  if (p >= {lay.word('wlen')}) {{ return vec2<u32>(0u, 2u); }}"
                  if self.window else "")
        flag = f"F[{lay.word('fslot')}] = {lay.word('tok')};"
        e0, units, stride = lay.word("e0"), lay.word("units"), f"nw.x * {WG}u"
        d_off = lay.word("D_off")
        if self.scatter:
            body_fns = ""
            lines = [f"  for (var u = g.x; u < {units}; u += {stride}) {{",
                     f"    let r = locate({e0} + u);",
                     f"    if (r.y == 1u) {{ {flag} }}",
                     f"    if (r.y == 0u{' && false' if self.dry else ''}) {{",
                     "      let i = r.x;",
                     f"      let vi = val_index({e0} + u);",
                     f"      let v = {load(raw, 'S', 'vi', h)};"]
            if raw.packed:
                mask = "0xffu" if raw.bits == 8 else "0xffffu"
                sh = "((i & 3u) << 3u)" if raw.bits == 8 else "((i & 1u) << 4u)"
                wd = "i >> 2u" if raw.bits == 8 else "i >> 1u"
                lines += [f"      let sh = {sh};",
                          f"      atomicAnd(&D[{wd}], ~({mask} << sh));",
                          f"      atomicOr(&D[{wd}], (v & {mask}) << sh);"]
            else:
                lines.append("      D[i] = v;")
            lines += ["    }", "  }"]
            main = "\n".join(lines)
        elif raw.packed:
            per = 32 // raw.bits
            mask = "0xffu" if raw.bits == 8 else "0xffffu"
            body_fns = ""
            lines = [f"  for (var u = g.x; u < {units}; u += {stride}) {{"]
            lines.append(f"    var w = {'D[' + d_off + ' + u]' if self.window else '0u'};")
            for k in range(per):
                shift = k * raw.bits
                lines += [f"    {{ let e = {e0} + u * {per}u + {k}u;",
                          f"      if (e < {lay.word('n')}) {{",
                          "        let r = locate(e);",
                          f"        if (r.y == 1u) {{ {flag} }}",
                          "        if (r.y == 1u || r.y == 0u) {",
                          f"          var x = 0u;",
                          f"          if (r.y == 0u) {{ let i = r.x; x = "
                          f"{pack(raw, load(raw, 'S', 'i', h), h)}; }}",
                          f"          w = (w & ~({mask} << {shift}u)) | (x << {shift}u);",
                          "        }", "      }", "    }"]
            lines += [f"    D[{d_off} + u] = w;", "  }"]
            main = "\n".join(lines)
        else:
            zero = {"u32": "0u", "vec2<u32>": "vec2<u32>(0u)", "vec4<u32>": "vec4<u32>(0u)"}
            body_fns = ""
            E = self.ept
            # a workgroup takes tiles of E * WG consecutive elements: every load of one
            # step is coalesced, and a thread has E independent gathers in flight
            lines = [f"  let tiles = ({units} + {E * WG - 1}u) / {E * WG}u;",
                     "  for (var tile = gid.x; tile < tiles; tile += nw.x) {",
                     f"    let ub = tile * {E * WG}u + l.x;"]
            for k in range(E):
                lines += [f"    let u{k} = ub + {k * WG}u;",
                          f"    var r{k} = vec2<u32>(0u, 2u);",
                          f"    if (u{k} < {units}) {{ r{k} = locate({e0} + u{k}); }}"]
            for k in range(E):
                lines += [f"    if (r{k}.y == 1u) {{ {flag} }}"]
            for k in range(E):
                if self.window:
                    lines += [f"    if (r{k}.y == 0u) {{ let i = r{k}.x; "
                              f"D[{d_off} + u{k}] = S[i]; }}"]
                else:
                    lines += [f"    if (u{k} < {units}) {{",
                              f"      var v{k} = {zero[raw.arr]};",
                              f"      if (r{k}.y == 0u) {{ v{k} = S[r{k}.x]; }}",
                              f"      D[{d_off} + u{k}] = v{k};", "    }"]
            lines.append("  }")
            main = "\n".join(lines)
        return _FRAME.render(lay.tokens(), helpers=render_helpers(h), fns="\n".join(fns),
                             split="\n".join(split), index=index, window=window,
                             body_fns=body_fns, main=main, wg=WG)

    @property
    def label(self):
        return (f"{'scatter' if self.scatter else 'take'}_{self.raw.name}_{self.kind}_"
                f"{self.rp}{self.rq}{self.ri}{self.rx}{self.rv}{'w' if self.window else ''}"
                f"_e{self.ept}{'_dry' if self.dry else ''}")


def variants():
    out = []
    for raw in RAW.values():
        for kind in ("s64", "s32", "u8", "off"):
            out.append(TakeSpec(raw, kind, 0, 0, 1, 0, 0, False, False,
                                1 if raw.packed else 4))
            out.append(TakeSpec(raw, kind, 1, 2, 1, 2, 0, False, True))
            out.append(TakeSpec(raw, kind, 2, 1, 2, 0, 3, True, False))
            out.append(TakeSpec(raw, kind, 0, 0, 1, 0, 1, True, True))
            out.append(TakeSpec(raw, kind, 0, 0, 1, 0, 1, True, False, 1, True))
    return out


# ---- host side ----------------------------------------------------------------------------
def _dims_words(shape, strides):
    if not shape:
        return 0, [0]
    cs, cst = collapse(shape, strides)
    w = [0]
    for n, s in zip(cs, cst):
        w += [n, s % _U32]
    return len(cs), w


class _Status:
    """Per client: word 0 holds the token of the last checked call that met an invalid
    index (tokens count calls, so a stale word never blames a later call and nothing is
    ever cleared); word 1 is the sink of unchecked internal calls."""

    __slots__ = ("block", "token", "since")

    def __init__(self, client):
        self.block = client.allocate(256)
        client.write(self.block, 0, bytes(256))
        self.token = 0
        self.since = None        # lazy mode: the first token not yet looked at

    def next(self):
        self.token = self.token + 1 if self.token < 0xFFFFFFF0 else 1
        return self.token


def _status(client):
    st = getattr(client, "_index_status", None)
    if st is None:
        st = client._index_status = _Status(client)
    return st


def _read_flag(client, st):
    return int.from_bytes(bytes(client.read(st.block, 0, 4)[:4]), "little")


def _name_error(bad_indices):
    """InvalidIndex naming the first out-of-range index (read back only on failure)."""
    import numpy as np
    from ..transfer import to_numpy
    for idx, n in bad_indices:
        v = np.asarray(to_numpy(idx.contiguous())).reshape(-1)
        bad = v[v >= n] if v.dtype.kind == "u" else v[(v < -n) | (v >= n)]
        if bad.size:
            return InvalidIndex(f"index {int(bad[0])} is out of bounds for an axis of size {n}")
    return InvalidIndex("an integer-array index is out of bounds")


def lazy_check(client):
    """Lazy mode: raise the pending InvalidIndex of earlier calls (called after host reads
    and synchronize)."""
    st = getattr(client, "_index_status", None)
    if st is None or st.since is None:
        return
    since, st.since = st.since, None
    if _read_flag(client, st) >= since:
        raise InvalidIndex("an integer-array index of an earlier indexing call on this "
                           "adapter was out of bounds (NUMR_WEBGPU_INDEX_CHECK=lazy reports "
                           "it at the next host read)")


def finish_check(client, st, tok, named):
    """After the launches of one checked call (token ``tok``): ``named`` is a list of
    (index storage, axis extent) used to name the offender."""
    if check_mode() == "lazy":
        if st.since is None:
            st.since = tok
        if lazy_check not in client.read_hooks:
            client.read_hooks.append(lazy_check)
        return
    if _read_flag(client, st) == tok:
        raise _name_error(named)


def _windows(view):
    """[(triple, base word, window elements)] covering every element of ``view``: the whole
    binding when it fits, else binding-sized windows inside single segments."""
    isz = view.itemsize
    if view.fits_binding():
        blk, bo, bs, eoff = view.binding()
        return [((blk, bo, bs), eoff % _U32, bs // isz)], False
    lo, hi = view.extent()
    block = view.block
    client = view.client
    limit = client.max_binding // 256 * 256  # a whole segment when it fits a binding
    segs = getattr(block, "segments", None)
    span = (hi - lo) // isz
    wins = []
    pos = lo - lo % 256
    while pos < hi:
        if segs is None:
            buf, sbase, ssize = block, 0, block.size
        else:
            buf, sbase = block.segment_of(pos, pos + 1)
            ssize = buf.size
        start = pos - sbase
        end = min(start + limit, ssize, hi - sbase)
        end = min(-(-end // 16) * 16, ssize)
        size = max(end - start, 16)
        wlen = size // isz
        if span + wlen >= _U32:
            raise BackendLimitation("webgpu", f"indexing a view of {view.shape} spanning "
                                    f"{span} elements", "positions are u32 relative to a "
                                    "window: views span fewer than 2^32 elements minus one "
                                    "binding")
        base = ((view.offset - sbase - start) // isz) % _U32
        wins.append(((buf, start, size), base, wlen))
        pos = sbase + start + size
    return wins, True


class _Plan:
    """A repeated gather's launch (cached: the host's per-call cost): what cannot change between
    calls with the same geometry (pipeline, parameter words but the data's and the index's
    element offsets and the check token, workgroups, the result's size class), for data and
    index in single buffers bound whole and a result that fits one binding."""

    __slots__ = ("pipe", "bgl", "bgl_id", "words", "ix_pos", "groups", "size", "shape",
                 "strides", "dtype", "pack", "limit")

    def __init__(self, k, words, ix_pos, groups, out):
        self.pipe = k.pipes["main"]
        self.bgl = self.pipe.bgl
        self.bgl_id = id(self.bgl)
        self.words = words
        self.ix_pos = ix_pos
        self.groups = groups
        self.size = size_class(out.nbytes)
        self.shape, self.strides, self.dtype = out.shape, out.strides, out.dtype
        self.pack = k.layout.pack_list
        self.limit = k.client.max_binding

    def run(self, view, index, client, check, named):
        from ..storage import WgpuStorage
        vb, ib = view.block, index.block
        if (client.lost or vb.__class__ is not Block or ib.__class__ is not Block
                or vb.size > self.limit or ib.size > self.limit):
            return None
        st = _status(client)
        w = list(self.words)
        w[3] = view.offset // view.itemsize
        w[self.ix_pos] = index.offset // index.itemsize
        if check:
            w[9] = tok = st.next()
            w[10] = 0
        else:
            tok, w[10] = 0, 1
        blk = client.pool.allocate_class(self.size)
        sb = st.block
        entries = ((vb.buffer, 0, vb.size), (ib.buffer, 0, ib.size), (blk.buffer, 0, blk.size),
                   (sb.buffer, 0, 256))
        bgc = client.bindgroups
        bg = bgc._cache.get((self.bgl_id, entries))
        if bg is None:
            bg = bgc.get(self.bgl, entries)
        else:
            bgc.hits += 1
        try:
            client.recorder.dispatch(self.pipe, bg, self.pack(w), self.groups,
                                     [vb, ib, blk, sb])
        except DeviceLost:
            client.lost = True
            raise
        out = WgpuStorage(blk, 0, self.shape, self.strides, self.dtype, client)
        if check:
            finish_check(client, st, tok, list(named))
        return out


_PLANS = {}
MAX_PLANS = 512


def take(view, pre, post, bshape, index, kind, ax_n, ax_s, out_shape, xc=None, value=None,
         check=True, named=()):
    """Gather or scatter (see ``_take``); repeated gathers of one geometry take a plan."""
    if value is not None:
        return _take(view, pre, post, bshape, index, kind, ax_n, ax_s, out_shape, xc, value,
                     check, named)
    key = (view.shape, view.strides, view.dtype, index.shape, index.strides, index.dtype,
           kind, ax_n, ax_s, pre, post, bshape, xc, _tuning_epoch(), id(view.client))
    plan = _PLANS.get(key)
    if plan is not None:
        out = plan.run(view, index, view.client, check, named)
        if out is not None:
            return out
    return _take(view, pre, post, bshape, index, kind, ax_n, ax_s, out_shape, xc, value,
                 check, named, key)


def _take(view, pre, post, bshape, index, kind, ax_n, ax_s, out_shape, xc=None, value=None,
          check=True, named=(), plan_key=None):
    """Gather (``value`` None: a new array of ``out_shape``) or scatter ``value`` (already
    broadcast to ``out_shape``) into ``view``. ``index``: a storage over ``bshape`` (any
    strides) of kind ``kind``; ``ax_n`` / ``ax_s``: extent and element stride of the indexed
    axis (``off``: 0 / 1); ``xc``: strides over ``bshape`` added to the position
    (take_along_axis); ``named``: (index, extent) pairs to name an offender."""
    from ..storage import WgpuStorage
    client = view.client
    raw = RAW[view.itemsize]
    scatter = value is not None
    B = 1
    for m in bshape:
        B *= m
    PN = 1
    for m in post[0]:
        PN *= m
    NP = 1
    for m in pre[0]:
        NP *= m
    n = NP * B * PN
    if ax_n >= _U32 or n >= _U32:
        raise BackendLimitation("webgpu", f"indexing with {n} results along an axis of "
                                f"{ax_n}", "element numbers and indices are u32")
    if kind == "off":
        lo, hi = view.extent()
        if (hi - lo) // view.itemsize >= 1 << 31:
            # an i32 offset of 2^31 would read as the table's invalid mark
            raise BackendLimitation("webgpu", f"indexing a view of {view.shape} with "
                                    "several index arrays or a mask and an index array",
                                    "the offset table is i32: views span fewer than 2^31 "
                                    "elements (one integer array has no such limit)")
    wins, windowed = _windows(view)
    out = None
    if not scatter:
        if windowed:
            from ..kernels.fill import full
            out = full(tuple(out_shape), 0, view.dtype, client)
        else:
            out = WgpuStorage._new(tuple(out_shape), view.dtype, client)
    if n == 0:
        return out
    if scatter and index.block is view.block:
        index = index.copy()
    rp, wp = _dims_words(*pre)
    rq, wq = _dims_words(*post)
    rx, wx = _dims_words(tuple(bshape), tuple(xc)) if xc is not None else (0, [0])
    val = value
    vfit = True
    if scatter:
        vfit = val.fits_binding()
        if not vfit:
            val = val.contiguous().reshape((n,))
        rv, wv = _dims_words(val.shape, val.strides) if vfit else (1, [0, n, 1])
    else:
        rv, wv = 0, []
    idx = index
    ifit = idx.fits_binding()
    if ifit:
        ri, wi = _dims_words(tuple(bshape), idx.strides)
    else:
        idx = idx.contiguous().reshape((B,))
        ri, wi = 1, [0, B, 1]
    ofit = scatter or out.fits_binding()
    packed_out = raw.packed and not scatter
    per = 32 // raw.bits if packed_out else 1
    ept = 1 if (scatter or raw.packed) else tuned("GATHER_EPT", client)
    k = client.kernel(TakeSpec(raw, kind, rp, rq, ri, rx, rv, scatter, windowed, ept))
    st = _status(client)
    tok = st.next() if check else 0
    flag = (st.block, 0, 256)
    words = dict(n=n, nb=B, pn=PN, axn=ax_n, axs=ax_s % _U32, pre=wp, post=wq, xc=wx,
                 tok=tok, fslot=0 if check else 1, ix=wi)
    if scatter:
        words["val"] = wv
    chunks = _chunks(n, B, PN, NP, per, None if ofit else out, None if ifit else idx,
                     None if vfit else val)
    passes = [(k, wins)]
    if scatter and check and check_mode() == "sync":
        # an assignment with a bad index writes nothing: check first (one window suffices:
        # validity does not depend on it), then scatter unchecked
        dry = client.kernel(TakeSpec(raw, kind, rp, rq, ri, rx, rv, True, windowed, 1, True))
        passes = [(dry, wins[:1]), None, (k, wins)]
    for step in passes:
        if step is None:
            finish_check(client, st, tok, list(named))
            check = False
            words["fslot"] = 1
            continue
        last = _launch_chunks(step[0], step[1], chunks, words, scatter, per, ept, ifit, idx,
                              vfit, val, ofit, out, n, B, PN, view, flag, client)
    if (plan_key is not None and not windowed and ifit and ofit and len(chunks) == 1
            and not scatter and last is not None and len(_PLANS) < MAX_PLANS
            and out.block.__class__ is Block and out.nbytes <= client.single_buffer_max
            and size_class(out.nbytes) <= client.max_binding
            and view.block.__class__ is Block and idx.block.__class__ is Block):
        words_list, groups = last
        _PLANS[plan_key] = _Plan(k, words_list, 11 + len(wp) + len(wq), groups, out)
    if check:
        finish_check(client, st, tok, list(named))
    return out


def _launch_chunks(k, wins, chunks, words, scatter, per, ept, ifit, idx, vfit, val, ofit,
                   out, n, B, PN, view, flag, client):
    wi = list(words["ix"])
    wv = list(words["val"]) if scatter else None
    pack = k.layout.pack_list
    pipe = k.pipes["main"]
    for e0, e1 in chunks:
        if e0 % per:
            raise BackendLimitation("webgpu", f"indexing {view.dtype.name} data with an "
                                    f"index array of {B} entries", "sub-word results in "
                                    "chunks that do not start on a word")
        if ifit:
            blk, bo, bs, eoff = idx.binding()
            wi[0] = eoff
        else:
            b0, b1 = _b_range(e0, e1, B, PN)
            blk, bo, bs, eoff = idx[b0:b1].binding()
            wi = [(eoff - b0) % _U32, B, 1]
        itrip = (blk, bo, bs)
        if scatter:
            if vfit:
                blk, bo, bs, eoff = val.binding()
                wv[0] = eoff
            else:
                blk, bo, bs, eoff = val[e0:e1].binding()
                wv = [(eoff - e0) % _U32, n, 1]
            strip = (blk, bo, bs)
        else:
            dv = out if ofit else out.reshape((n,))[e0:e1]
            blk, bo, bs, eoff = dv.binding()
            dtrip = (blk, bo, bs)
            # the kernel writes D[D_off + u], u counted from the chunk's first element
            d_off = (eoff + e0 if ofit else eoff) // per
        units = e1 - e0
        if per > 1:
            units = -(-units // per)
        groups = workgroups(units, client) if scatter else _groups(units, ept, client)
        # the layout's word order: the declared words, then D_off (spec.layout)
        head = [units, e0, n, 0, B, PN, words["axn"], words["axs"], 0, words["tok"],
                words["fslot"]]
        tail = words["pre"] + words["post"] + wi + words["xc"] + (wv if scatter else [])
        for trip, base, wlen in wins:
            head[3] = base
            head[8] = wlen
            if scatter:
                params = pack(head + tail + [0])
                client.launch(pipe, [strip, itrip, trip, flag], params, groups)
            else:
                params = pack(head + tail + [d_off])
                client.launch(pipe, [trip, itrip, dtrip, flag], params, groups)
    if not scatter:
        return head + tail + [d_off], groups
    return None


def _b_range(e0, e1, B, PN):
    """[b0, b1): the broadcast-index entries of result elements [e0, e1) (within one pre
    row when the range is shorter than a row, else all)."""
    if e1 - e0 >= B * PN:
        return 0, B
    b0 = e0 // PN % B
    b1 = (e1 - 1) // PN % B + 1
    return (b0, b1) if b1 > b0 else (0, B)


def _groups(units, ept, client):
    tiles = -(-units // (WG * ept))
    return (max(1, min(tiles, tuned("GATHER_GROUPS", client), client.max_groups)), 1, 1)


def _chunks(n, B, PN, NP, per, out, idx, val):
    """[e0, e1) ranges of result elements such that the result's window (``out``, when it
    does not fit one binding), the index's (``idx`` flat over B, when it does not) and the
    value's (``val``, scatter) each fit one binding and a launch walks < 2^30 elements."""
    if out is None and idx is None and val is None and n <= _MAX_UNITS:
        return [(0, n)]
    flat_out = out.reshape((n,)) if out is not None else None
    flat_val = val.reshape((n,)) if val is not None else None
    res = []
    e0 = 0
    row = B * PN
    while e0 < n:
        e1 = min(n, e0 + _MAX_UNITS)
        if idx is not None and NP > 1:
            # the index window must be a b range of one pre row
            e1 = min(e1, (e0 // row + 1) * row)
        while True:
            ok = True
            if flat_out is not None and not flat_out[e0:e1].fits_binding():
                ok = False
            if ok and flat_val is not None and not flat_val[e0:e1].fits_binding():
                ok = False
            if ok and idx is not None:
                b0, b1 = _b_range(e0, e1, B, PN)
                if not idx[b0:b1].fits_binding():
                    ok = False
            if ok or e1 - e0 <= per * 64:
                break
            e1 = e0 + max(per * 64, (e1 - e0) // 2 // (per * 64) * (per * 64))
        res.append((e0, e1))
        e0 = e1
    return res


_caches.register("primitives.gather _PLANS", _PLANS.clear)


def _drop_status(client):
    # its buffer goes back with the caches' unless a lazy check still has to read it
    st = getattr(client, "_index_status", None)
    if st is not None and st.since is None:
        client._index_status = None


_caches.register_per_client("primitives.gather index status", _drop_status,
                            mid_call=False)
