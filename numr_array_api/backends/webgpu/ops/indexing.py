"""Array indexing on the GPU: getitem / setitem with array keys, take, take_along_axis.

A key is split into a *basic* view (ints, slices, None applied by WgpuStorage, array
positions kept whole) and *advanced* entries (integer arrays; boolean masks become the
flat positions of their true elements). The advanced entries broadcast to ``bshape`` and
are folded, one small N-ary dispatch per entry, into one i32 table ``off[bshape]`` of
element offsets into the view. One gather (or scatter) kernel then walks the result
``pre + bshape + post`` (NumPy's placement: the broadcast dims replace adjacent advanced
indices, ints counting as advanced, or go first when they are separated) and reads
``view[pre] + off[b] + view[post]`` with raw bit moves, so every dtype is exact.

Out-of-range integer-array indices (unspecified by the standard) raise InvalidIndex, as in
every numr backend: negative indices wrap once, anything still outside the axis marks its
table entry invalid, a device pass flags marked entries and the host reads that one word
(a synchronisation per integer-array index call; docs/webgpu.md). Internal keys skip the
check: there a marked entry reads zero bits (gather) or is skipped (scatter). Boolean masks: a prefix sum (primitives/scan.py) ranks the true elements on the
device; getitem must read the count (one 4-byte host read, warned once, listed: the output
shape depends on data), setitem never does (``where`` with a rank-gathered value).
"""

import dataclasses
import warnings

from ...._core import dtypes as dt
from ...._core.errors import InvalidIndex
from ...._core.shapes import broadcast_shapes
from ..codegen.layout import Buf, Layout, Words
from ..codegen.render import WG, collapse, workgroups
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..codegen.types import RAW, WTYPES, WType, convert, load, pack, render_helpers, wtype
from ..kernels.fill import full as _fill
from ..kernels.nary import launch
from ..primitives.compact import positions, ranks as mask_ranks, select_rows
from ..storage import WgpuStorage, new_output
from .host_fallback import HostReadWarning, _warned

_MARK = "bitcast<i32>(0x80000000u)"  # invalid table entry (no valid offset is -2^31)
_I32 = WTYPES[dt.int32]
_U32 = WTYPES[dt.uint32]


def _u(k):
    return k & 0xFFFFFFFF


# ---- the offset table -------------------------------------------------------------------
def _int_op(t):
    """acc + wrap(i) * stride, or the mark when i is outside [0, n) after one wrap."""
    T = t.val
    n = convert(_U32, t, "X0()", set(), True)
    neg = f"j < {convert(_I32, t, '0i', set(), True)}"
    wrap = f"select(i, i + {n}, i < {convert(_I32, t, '0i', set(), True)})" if t.signed or \
        T in ("i32", "i64") else "i"
    j32 = convert(t, _I32, "j", set(), True)
    bad = f"{neg} || j >= {n}" if (t.signed or T in ("i32", "i64")) else f"j >= {n}"
    return (f"fn op(acc: i32, i: {T}, e: u32) -> i32 {{\n  let j = {wrap};\n"
            f"  if (acc == {_MARK} || {bad}) {{ return {_MARK}; }}\n"
            f"  return acc + {j32} * bitcast<i32>(X1());\n}}")


_POS_OP = ("fn op(acc: i32, p: u32, e: u32) -> i32 {\n"
           "  return acc + i32((p / X0()) % X1()) * bitcast<i32>(X2());\n}")
_COORD_OP = ("fn op(acc: i32, e: u32) -> i32 {\n"
             f"  if (acc == {_MARK}) {{ return {_MARK}; }}\n"
             "  return acc + i32((e / X0()) % X1()) * bitcast<i32>(X2());\n}")


def _offsets(client, bshape, contribs, check=True):
    """i32 table (contiguous bshape): the sum of every contribution's element offset.

    contribs: ("int", idx storage, axis extent, stride) | ("pos", flat positions,
    [(inner, extent, stride) per mask dim]) | ("coord", inner, extent, stride).
    """
    acc = _fill((), 0, dt.int32, client)
    def out():
        return new_output(bshape, dt.int32, client)

    for c in contribs:
        if c[0] == "int":
            _, idx, n, s = c
            t = wtype(idx.dtype, client, "indexing")
            acc = launch(client, ("ix_int",), (acc, idx), [_I32, t], _I32, _I32, _int_op(t),
                         "", bshape, out(), extra=(n, _u(s)))
        elif c[0] == "pos":
            _, pos, dims = c
            for inner, n, s in dims:
                acc = launch(client, ("ix_pos",), (acc, pos), [_I32, _U32], _I32, _I32,
                             _POS_OP, "", bshape, out(), extra=(inner, n, _u(s)))
        else:
            _, inner, n, s = c
            acc = launch(client, ("ix_coord",), (acc,), [_I32], _I32, _I32, _COORD_OP, "",
                         bshape, out(), extra=(inner, n, _u(s)))
    if acc.shape != bshape:  # no contribution (cannot happen for array keys)
        acc = acc.broadcast_to(bshape).copy()
    if check and any(c[0] == "int" for c in contribs):
        _check(acc, contribs)
    return acc


_CHECK = Template("""${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  var bad = 0u;
  for (var i = g.x; i < ${n}; i += nw.x * ${wg}u) {
    if (O[${O_off} + i] == ${mark}) { bad = 1u; }
  }
  if (bad != 0u) { atomicMax(&F[${F_off}], 1u); }
}
""", "index_check")


@dataclasses.dataclass(frozen=True)
class IndexCheckSpec(KernelSpec):
    """F[0] = 1 if any offset-table entry is marked invalid."""

    def layout(self, caps):
        return Layout([Buf("O", "i32"), Buf("F", "atomic<u32>", "rw")], ["n"], caps)

    def render(self, caps):
        return _CHECK.render(self.layout(caps).tokens(), wg=WG, mark=_MARK)


def _check(offs, contribs):
    """Raise InvalidIndex for out-of-range integer-array indices, as every numr backend does.

    The device flags marked table entries; the host reads one u32 (a synchronisation, the
    price of the project's error contract). Only on failure are the indices read to name the
    offending one.
    """
    n = offs.size
    if n == 0:
        return
    client = offs.client
    flag = _fill((1,), 0, dt.uint32, client)
    client.kernel(IndexCheckSpec()).launch(workgroups(n, client), O=offs, F=flag, n=n)
    from ..transfer import to_numpy
    if not int(to_numpy(flag)[0]):
        return
    import numpy as np
    for c in contribs:
        if c[0] == "int":
            v = np.asarray(to_numpy(c[1].contiguous())).astype(np.int64).reshape(-1)
            bad = v[(v < -c[2]) | (v >= c[2])]
            if bad.size:
                raise InvalidIndex(f"index {int(bad[0])} is out of bounds for an axis of "
                                   f"size {c[2]}")
    raise InvalidIndex("an integer-array index is out of bounds")


# ---- gather / scatter kernel ------------------------------------------------------------
def _zero(raw):
    return {"u32": "0u", "vec2<u32>": "vec2<u32>(0u)", "vec4<u32>": "vec4<u32>(0u)"}[raw.val]


_GATHER = Template("""${helpers}
${layout}
${fns}
// element index in the indexed view of result element e; all ones when masked out
fn dst_of(e: u32) -> u32 {
  let PN = ${pn}; let B = ${nb};
  let t = e / PN; let post = e - t * PN;
  let pre = t / B; let b = t - pre * B;
  let o = O[${O_off} + b];
  if (o == ${mark}) { return 0xffffffffu; }
  return ${base} + pre_index(pre) + bitcast<u32>(o) + post_index(post);
}
${value_fn}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let units = ${units};
  let n = ${n};
  for (var u = g.x; u < units; u += nw.x * ${wg}u) {
${body}
  }
}
""", "gather")


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


@dataclasses.dataclass(frozen=True)
class GatherSpec(KernelSpec):
    """Gather (``scatter`` False: a new array from view[pre] + table + view[post]) or
    scatter (values into those places), raw bits of ``raw`` (every dtype exact)."""

    raw: WType
    rp: int        # collapsed ranks of the pre / post dims and of the value (scatter)
    rq: int
    rv: int
    scatter: bool

    def layout(self, caps):
        raw = self.raw
        d_arr = "atomic<u32>" if self.scatter and raw.packed else raw.arr
        bufs = [Buf("S", raw.arr, offset=False), Buf("O", "i32"),
                Buf("D", d_arr, "rw", offset=False)]
        words = ["units", "n", "base", "nb", "pn", Words("pre", 1 + 2 * self.rp),
                 Words("post", 1 + 2 * self.rq)]
        if self.scatter:
            words.append(Words("val", 1 + 2 * self.rv))
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        raw = self.raw
        h = set()
        fns = [_strided(lay, self.rp, "pre", "pre_index"),
               _strided(lay, self.rq, "post", "post_index")]
        if self.scatter:
            fns.append(_strided(lay, self.rv, "val", "val_index"))
        if not self.scatter:
            body = []
            if raw.packed:
                per = 32 // raw.bits
                body.append("    var w = 0u;")
                for j in range(per):
                    sh = f" << {j * raw.bits}u" if j else ""
                    body.append(f"    {{ let e = u * {per}u + {j}u; if (e < n) {{ "
                                f"w |= {pack(raw, 'value(e)', h)}{sh}; }} }}")
                body.append("    D[u] = w;")
            else:
                body.append("    D[u] = value(u);")
            value_fn = f"""fn value(e: u32) -> {raw.val} {{
  let i = dst_of(e);
  if (i == 0xffffffffu) {{ return {_zero(raw)}; }}
  return {load(raw, "S", "i", h)};
}}"""
        else:
            value_fn = ""
            body = ["    let i = dst_of(u);", "    if (i != 0xffffffffu) {",
                    "      let vi = val_index(u);", f"      let v = {load(raw, 'S', 'vi', h)};"]
            if raw.packed:
                mask = "0xffu" if raw.bits == 8 else "0xffffu"
                sh = "((i & 3u) << 3u)" if raw.bits == 8 else "((i & 1u) << 4u)"
                wd = "i >> 2u" if raw.bits == 8 else "i >> 1u"
                # each thread owns its element's bits: clear then set, two atomics, no lock
                body += [f"      let sh = {sh};", f"      atomicAnd(&D[{wd}], ~({mask} << sh));",
                         f"      atomicOr(&D[{wd}], (v & {mask}) << sh);"]
            else:
                body.append("      D[i] = v;")
            body.append("    }")
        return _GATHER.render(lay.tokens(), helpers=render_helpers(h), fns="\n".join(fns),
                              mark=_MARK, value_fn=value_fn, wg=WG, body="\n".join(body))

    @property
    def label(self):
        return (f"{'scatter' if self.scatter else 'gather'}_{self.raw.name}_"
                f"{self.rp}_{self.rq}_{self.rv}")


def variants():
    out = [IndexCheckSpec()]
    for raw in RAW.values():
        for rp, rq, rv, sc in ((0, 0, 0, False), (1, 2, 0, False), (2, 1, 3, True),
                               (0, 0, 1, True)):
            out.append(GatherSpec(raw, rp, rq, rv, sc))
    return out


def _dims_words(shape, strides):
    cs, cst = collapse(shape, strides)
    w = [0]
    for n, s in zip(cs, cst):
        w += [n, _u(s)]
    return len(cs), w


def _run(view, pre, post, bshape, offs, out_shape, value=None):
    """Gather (value None: a new array of out_shape) or scatter value into ``view``."""
    client = view.client
    raw = RAW[view.itemsize]
    B = 1
    for n in bshape:
        B *= n
    PN = 1
    for n in post[0]:
        PN *= n
    rp, wp = _dims_words(*pre)
    rq, wq = _dims_words(*post)
    scatter = value is not None
    n = B * PN
    for m in pre[0]:
        n *= m
    if scatter:
        rv, wv = _dims_words(value.shape, value.strides)
        vb, vo, vs, veo = value.binding()
        wv[0] = veo
        value = (vb, vo, vs)
    else:
        rv, wv = 0, []
    k = client.kernel(GatherSpec(raw, rp, rq, rv, scatter))
    blk, bo, bs, base = view.binding()
    if scatter:
        out = None
        units = n
        src, dst = value, (blk, bo, bs)
    else:
        out = WgpuStorage._new(tuple(out_shape), view.dtype, client)
        if n == 0:
            return out
        units = -(-n // (32 // raw.bits)) if raw.packed else n
        src, dst = (blk, bo, bs), out
    if n == 0:
        return out
    words = dict(units=units, n=n, base=base, nb=B, pn=PN, pre=wp, post=wq)
    if scatter:
        words["val"] = wv
    k.launch(workgroups(units, client), S=src, O=offs, D=dst, **words)
    return out


# ---- key analysis -----------------------------------------------------------------------
class _Key:
    """The basic view and the advanced entries of a normalized key."""

    def __init__(self, data, key):
        basic, adv_pos, entries, plain = [], [], [], []  # plain: (v dim, key position)
        vd = 0
        for kp, k in enumerate(key):
            if k is None:
                basic.append(None)
                plain.append((vd, kp))
                vd += 1
            elif type(k) is slice:
                basic.append(k)
                plain.append((vd, kp))
                vd += 1
            elif isinstance(k, WgpuStorage):
                adv_pos.append(kp)
                if k.dtype is dt.bool_:
                    if k.ndim == 0:  # a 0-d mask: a new length-1 axis, masked
                        basic.append(None)
                        entries.append(("mask", k.reshape((1,)), [vd]))
                        vd += 1
                    else:
                        basic += [slice(None)] * k.ndim
                        entries.append(("mask", k, list(range(vd, vd + k.ndim))))
                        vd += k.ndim
                else:
                    basic.append(slice(None))
                    entries.append(("int", k, vd))
                    vd += 1
            else:  # an int: applied by the basic view, but an advanced index for placement
                basic.append(k)
                adv_pos.append(kp)
        self.view = data[tuple(basic)]
        self.entries = entries
        adjacent = max(adv_pos) - min(adv_pos) + 1 == len(adv_pos)
        first = min(adv_pos)
        pre = [d for d, kp in plain if adjacent and kp < first]
        post = [d for d, kp in plain if d not in pre]
        self.pre_dims, self.post_dims = pre, post
        v = self.view
        self.pre = (tuple(v.shape[d] for d in pre), tuple(v.strides[d] for d in pre))
        self.post = (tuple(v.shape[d] for d in post), tuple(v.strides[d] for d in post))

    def mask_positions(self, mask):
        """(ranks, count, flat positions) of a mask entry: the count is a host read."""
        mc = mask.contiguous().reshape((mask.size,))
        rk = mask_ranks(mc)
        warn_host_read("boolean-mask indexing", "the number of true elements")
        count = int(rk[mc.size:mc.size + 1].to_numpy()[0])
        return positions(mc, rk, count)

    def table(self, client, check=True):
        """(bshape, i32 offset table) of the advanced entries (masks read their count)."""
        v = self.view
        parts = []
        for kind, k, where in self.entries:
            if kind == "int":
                parts.append((k.shape, ("int", k, v.shape[where], v.strides[where])))
            else:
                pos = self.mask_positions(k)
                dims, inner = [], 1
                for j in reversed(range(len(where))):
                    dims.append((inner, k.shape[j], v.strides[where[j]]))
                    inner *= k.shape[j]
                parts.append((pos.shape, ("pos", pos, dims)))
        bshape = broadcast_shapes(*[s for s, _ in parts]) if len(parts) > 1 else parts[0][0]
        contribs = []
        for _, c in parts:
            if c[1].shape != bshape:
                c = (c[0], c[1].broadcast_to(bshape)) + c[2:]
            contribs.append(c)
        return bshape, _offsets(client, bshape, contribs, check)

    def out_shape(self, bshape):
        return self.pre[0] + tuple(bshape) + self.post[0]


def warn_host_read(name, what):
    """Once per name: a GPU function read ``what`` to the host to size its output."""
    if name in _warned:
        return
    _warned.add(name)
    warnings.warn(f"numr webgpu: {name} reads {what} to the host (its output shape depends "
                  f"on data; the computation stays on the GPU). See docs/webgpu.md, 'Host "
                  f"round trips'.", HostReadWarning, stacklevel=5)


def _storage_key(key):
    return tuple(k._data if hasattr(k, "_data") else k for k in key)


class IndexingMixin:
    def getitem(self, data, key):
        skey = _storage_key(key)
        first = skey[0] if skey else None
        if (isinstance(first, WgpuStorage) and first.dtype is dt.bool_ and first.ndim
                and all(k is Ellipsis or k == slice(None) for k in skey[1:])):
            # x[mask] over leading dims: rows compacted by value, at any size
            warn_host_read("boolean-mask indexing", "the number of true elements")
            return select_rows(data, first)
        return self._gather(data, key, True)

    def _gather(self, data, key, check):
        """``check`` False: internal keys whose out-of-range entries are meant to read 0."""
        k = _Key(data, _storage_key(key))
        bshape, offs = k.table(data.client, check)
        return _run(k.view, k.pre, k.post, bshape, offs, k.out_shape(bshape))

    def take(self, data, indices, axis, check=True):
        return self._gather(data, (slice(None),) * axis + (indices,) +
                            (slice(None),) * (data.ndim - axis - 1), check)

    def take_along_axis(self, data, indices, axis):
        client = data.client
        others = broadcast_shapes(tuple(n for d, n in enumerate(data.shape) if d != axis),
                                  tuple(n for d, n in enumerate(indices.shape) if d != axis))
        bshape = others[:axis] + (indices.shape[axis],) + others[axis:]
        x = data.broadcast_to(others[:axis] + (data.shape[axis],) + others[axis:])
        idx = indices.broadcast_to(bshape) if indices.shape != bshape else indices
        contribs, inner = [], 1
        for d in reversed(range(len(bshape))):
            if d == axis:
                contribs.append(("int", idx, x.shape[d], x.strides[d]))
            elif bshape[d] > 1:
                contribs.append(("coord", inner, bshape[d], x.strides[d]))
            inner *= bshape[d]
        offs = _offsets(client, bshape, contribs)
        return _run(x, ((), ()), ((), ()), bshape, offs, bshape)

    def setitem(self, data, key, value):
        if not data.writable:
            raise ValueError("assignment destination is read-only (a broadcast view)")
        if all(k is None or type(k) in (int, slice) for k in key):
            return super().setitem(data, key, value)
        skey = _storage_key(key)
        k = _Key(data, skey)
        v = k.view
        if not isinstance(value, WgpuStorage):
            # on x's adapter: a kernel binds the value and x together
            value = self.scalar_operand(value, data.dtype, data.client)
        elif value.dtype is not data.dtype:
            value = self.astype(value, data.dtype)
        if v.size and any(s == 0 and n > 1 for n, s in zip(v.shape, v.strides)):
            raise ValueError("assignment destination is read-only (a broadcast view)")
        masks = [e for e in k.entries if e[0] == "mask"]
        if len(k.entries) == 1 and masks:
            return self._setitem_mask(k, masks[0], value)
        bshape, offs = k.table(data.client)
        shape = k.out_shape(bshape)
        try:
            val = value.broadcast_to(shape) if value.shape != shape else value
        except Exception as e:
            raise ValueError(str(e)) from None
        if val.block is data.block:
            val = val.copy()  # one buffer cannot be bound read-only and writable at once
        _run(v, k.pre, k.post, bshape, offs, shape, value=val)

    def _setitem_mask(self, k, entry, value):
        """x[mask] = value without a host read: where(mask, value spread by rank, x)."""
        _, mask, mdims = entry
        v = k.view
        if mask.size == 0 or v.size == 0:
            return
        npre, npost = len(k.pre_dims), len(k.post_dims)
        labels = k.pre_dims + ["m"] + k.post_dims     # the value's dims, in v-dim labels
        vs = value.shape
        if len(vs) > len(labels):
            raise ValueError(f"cannot broadcast a value of shape {vs} to the indexed shape")
        c = vs[len(vs) - npost - 1] if len(vs) > npost else 1
        try:
            val = value.broadcast_to(k.pre[0] + (c,) + k.post[0])
        except Exception as e:
            raise ValueError(str(e)) from None
        if c == 1:  # the value does not vary along the masked elements: strides 0 there
            strides = []
            for d in range(v.ndim):
                strides.append(0 if d in mdims else val.strides[labels.index(d)])
            spread = val._view(v.shape, strides)
        else:  # value[..., rank of the element, ...]; false elements read zeros (masked)
            mc = mask.contiguous()
            ranks = mask_ranks(mc.reshape((mc.size,)))[:mc.size].reshape(mask.shape)
            g = self._gather(val, (slice(None),) * npre + (ranks,) +
                             (slice(None),) * npost, False)
            glabels = k.pre_dims + list(mdims) + k.post_dims
            spread = g.permute([glabels.index(d) for d in range(v.ndim)])
        mstr = [0] * v.ndim
        for j, d in enumerate(mdims):
            mstr[d] = mask.strides[j]
        mview = mask._view(v.shape, mstr)
        self.store(v, self.where(mview, spread, v))
