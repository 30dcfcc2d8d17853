"""Array indexing on the GPU: getitem / setitem with array keys, take, take_along_axis.

A key is split into a *basic* view (ints, slices, None applied by WgpuStorage, array
positions kept whole) and *advanced* entries (integer arrays; boolean masks become the
flat positions of their true elements). The advanced entries broadcast to ``bshape`` and
are folded, one small N-ary dispatch per entry, into one i32 table ``off[bshape]`` of
element offsets into the view. One gather (or scatter) kernel then walks the result
``pre + bshape + post`` (NumPy's placement: the broadcast dims replace adjacent advanced
indices, ints counting as advanced, or go first when they are separated) and reads
``view[pre] + off[b] + view[post]`` with raw bit moves, so every dtype is exact.

Integer-array entries: a key with one integer array and no mask (``x[idx]``, ``take``,
``take_along_axis``, their setitem) skips the table: primitives/gather.py reads the index
in the gather / scatter kernel itself. Out-of-range integer-array indices (unspecified by
the standard) raise InvalidIndex, as in every numr backend: negative indices wrap once,
anything still outside the axis (or a marked table entry) sets the per-adapter status word
in that same kernel (NUMR_WEBGPU_INDEX_CHECK: read at the end of the call, or lazily).
Internal keys skip the check: there an invalid entry reads zero bits (gather) or is skipped
(scatter). Boolean masks: a prefix sum (primitives/scan.py) ranks the true elements on the
device; getitem must read the count (one 4-byte host read, warned once, listed: the output
shape depends on data), setitem never does (``where`` with a rank-gathered value).
"""

import warnings

from ...._core import dtypes as dt
from ...._core.shapes import broadcast_shapes
from ..codegen.types import WTYPES, convert, wtype
from ..kernels.fill import full as _fill
from ..kernels.nary import launch
from ..primitives.compact import positions, ranks as mask_ranks, select_rows
from ..storage import WgpuStorage, new_output
from ..primitives import gather as _gx
from .host_fallback import HostReadWarning, _warned

_ALL = slice(None)
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


def _offsets(client, bshape, contribs):
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
    return acc


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
        self.view = data if all(b == _ALL for b in basic) and len(basic) == data.ndim \
            else data[tuple(basic)]
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

    def table(self, client):
        """(bshape, i32 offset table, (index, extent) pairs) of the advanced entries (masks
        read their count); out-of-range entries are marked (the gather flags them)."""
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
        named = tuple((c[1], c[2]) for c in contribs if c[0] == "int")
        return bshape, _offsets(client, bshape, contribs), named

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
        v = k.view
        if len(k.entries) == 1 and k.entries[0][0] == "int":
            _, idx, where = k.entries[0]
            n = v.shape[where]
            return _gx.take(v, k.pre, k.post, idx.shape, idx, _gx.index_kind(idx.dtype), n,
                            v.strides[where], k.out_shape(idx.shape), check=check,
                            named=((idx, n),))
        bshape, offs, named = k.table(data.client)
        return _gx.take(v, k.pre, k.post, bshape, offs, "off", 0, 1, k.out_shape(bshape),
                        check=check, named=named)

    def take(self, data, indices, axis, check=True):
        # the key (:, ..., indices, :, ...) without its analysis: pre / post are the dims
        # before / after the axis
        n = data.shape[axis]
        sh, st = data.shape, data.strides
        return _gx.take(data, (sh[:axis], st[:axis]), (sh[axis + 1:], st[axis + 1:]),
                        indices.shape, indices, _gx.index_kind(indices.dtype), n, st[axis],
                        sh[:axis] + indices.shape + sh[axis + 1:], check=check,
                        named=((indices, n),))

    def take_along_axis(self, data, indices, axis):
        others = broadcast_shapes(tuple(n for d, n in enumerate(data.shape) if d != axis),
                                  tuple(n for d, n in enumerate(indices.shape) if d != axis))
        bshape = others[:axis] + (indices.shape[axis],) + others[axis:]
        x = data.broadcast_to(others[:axis] + (data.shape[axis],) + others[axis:])
        idx = indices.broadcast_to(bshape) if indices.shape != bshape else indices
        xc = tuple(0 if d == axis else s for d, s in enumerate(x.strides))
        n = x.shape[axis]
        return _gx.take(x, ((), ()), ((), ()), bshape, idx, _gx.index_kind(idx.dtype), n,
                        x.strides[axis], bshape, xc=xc, named=((idx, n),))

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
        if len(k.entries) == 1 and k.entries[0][0] == "int":
            _, idx, where = k.entries[0]
            bshape, offs, kind = idx.shape, idx, _gx.index_kind(idx.dtype)
            n, s = v.shape[where], v.strides[where]
            named = ((idx, n),)
        else:
            bshape, offs, named = k.table(data.client)
            kind, n, s = "off", 0, 1
        shape = k.out_shape(bshape)
        try:
            val = value.broadcast_to(shape) if value.shape != shape else value
        except Exception as e:
            raise ValueError(str(e)) from None
        if val.block is data.block:
            val = val.copy()  # one buffer cannot be bound read-only and writable at once
        _gx.take(v, k.pre, k.post, bshape, offs, kind, n, s, shape, value=val, named=named)

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
