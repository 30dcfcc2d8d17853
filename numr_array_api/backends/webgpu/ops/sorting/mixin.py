"""sort / argsort / searchsorted / nonzero / diff / unique / isin on the GPU.

Everything orders elements through the keys of primitives/keys.py and sorts with the radix
sorts (stable, NaNs last ascending, the exact reverse descending): primitives/radix_keys.py
for real keys inside one binding (sort, argsort, unique), primitives/radix.py (positions)
for the rest. nonzero and unique read one 4-byte count to size their outputs (warned once
like ``x[mask]``); everything else stays on the device.
"""

from __future__ import annotations

import math

from ....._core import dtypes as dt
from ....._core.errors import BackendLimitation
from ....._core.promotion import TABLE
from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...codegen.render import collapse
from ...codegen.types import RAW
from ...kernels.fill import full
from ...primitives.compact import positions, ranks
from ...primitives.keys import key_type
from ...primitives.radix import TILE, check_size, sort_positions, spans
from ...primitives.radix_keys import sort_keys, takes
from ...primitives.scan import scan
from ...storage import new_output
from ..indexing import warn_host_read
from .kernels import (WG, CachedSearchSpec, CountSpec, FlagSpec, IndexSpec, InverseSpec,
                      SearchSpec, SortedFlagSpec, TakeSpec, WindowTakeSpec)


def _groups(units, client):
    g = max(1, -(-units // WG))
    gx = min(g, client.max_groups)
    return (gx, -(-g // gx), 1)


def _rows(data, axis):
    """(view (rows, m) with ``axis`` last, the leading shape, m)."""
    nd = data.ndim
    rest = [d for d in range(nd) if d != axis]
    view = data.permute(tuple(rest) + (axis,))
    lshape = tuple(view.shape[:-1])
    m = data.shape[axis]
    rows = math.prod(lshape)
    oshape, ostr = collapse(view.shape[:-1], view.strides[:-1])
    if len(oshape) > 1:
        view = view.contiguous()
        oshape, ostr = (rows,), (m,)
    rs = ostr[0] if ostr else 0
    return view._view((rows, m), (rs, view.strides[-1] if m else 1)), lshape, m


def _back(out, lshape, m, axis, nd):
    """The (rows * m,) result laid out as the input (axis moved back), contiguous."""
    res = out.reshape(lshape + (m,))
    inv = list(range(nd - 1))
    inv.insert(axis, nd - 1)
    res = res.permute(tuple(inv))
    return res if res.is_contiguous else res.contiguous()


def _flat(x):
    return x.reshape((x.size,))


def _line(x):
    """``x`` as a 1-D view (any stride, 0 for broadcasts) when its dims collapse into one,
    else a contiguous copy: kernels reading through one stride need no copy of views."""
    shape, strides = collapse(x.shape, x.strides)
    if len(shape) > 1:
        return _flat(x.contiguous())
    return x._view((x.size,), (strides[0] if shape else 1,))


def _windows(n, views):
    """[p0, p1) runs (multiples of 1024 long but the last) over which every 1-D view in
    ``views`` fits one storage binding: outputs and position arrays beyond one binding
    are written window by window (the kernels read positions, never their own index)."""
    p0 = 0
    while p0 < n:
        step = n - p0
        while step > 1024 and not all(v[p0:p0 + step].fits_binding() for v in views):
            step = max(1024, (step // 2) // 1024 * 1024)
        yield p0, p0 + step
        p0 += step


def _search_cache(kt, ns, client):
    """Samples of the sorted array a searchsorted workgroup keeps (0: plain binary search):
    SEARCH_CACHE, halved until they fit workgroup memory, and only where each bracket
    still holds a few elements."""
    K = tuned("SEARCH_CACHE", client)
    ws = Caps.of(client).workgroup_storage
    while K > 1 and K * kt.words * 4 > ws // 2:
        K //= 2
    return K if K > 1 and ns >= 4 * K else 0


class SortingMixin:
    def _index_wide(self):
        return self.default_index.itemsize == 8

    def _take(self, src2, pos, n):
        """Values of the (rows, m) view ``src2`` at positions ``pos`` (first ``n``)."""
        client = src2.client
        rows, m = src2.shape
        t = RAW[src2.itemsize]
        out = new_output((n,), src2.dtype, client)
        if n == 0:
            return out
        if not src2.fits_binding():
            return self._take_windows(src2, pos, out)
        k = client.kernel(TakeSpec(t))
        for p0, p1 in _windows(n, (pos, out)):
            c = p1 - p0
            units = -(-c // (32 // t.bits)) if t.packed else c
            k.launch(_groups(units, client), S=src2, I=pos[p0:p1], D=out[p0:p1], n=c,
                     units=units, m=max(m, 1), s_rs=src2.strides[0] if rows > 1 else 0,
                     s_cs=src2.strides[1] if m > 1 else 0)
        return out

    def _take_windows(self, src2, pos, out):
        """``_take`` of a source beyond one binding: every source window (a run of the
        flat contiguous source that fits a binding) fills, over every output window, the
        elements whose position falls inside it."""
        client = src2.client
        n = out.size
        t = RAW[src2.itemsize]
        flat = src2.contiguous().reshape((src2.size,))
        srcw = spans(flat.size, [flat], TILE)
        if srcw is None:
            flat = flat.copy()
            srcw = spans(flat.size, [flat], TILE)
        outw = spans(n, [pos, out], TILE)
        if srcw is None or outw is None:
            raise BackendLimitation("webgpu", f"sort of {src2.size} elements",
                                    "its windows do not fit one storage binding")
        k = client.kernel(WindowTakeSpec(t))
        for q0, q1 in srcw:
            for p0, p1 in outw:
                c = p1 - p0
                units = -(-c // (32 // t.bits)) if t.packed else c
                k.launch(_groups(units, client), S=flat[q0:q1], I=pos[p0:p1], D=out[p0:p1],
                         n=c, units=units, lo=q0, len=q1 - q0)
        return out

    def _index(self, pos, div, mod):
        client = pos.client
        n = pos.size
        out = new_output((n,), self.default_index, client)
        k = client.kernel(IndexSpec(self._index_wide()))
        for p0, p1 in _windows(n, (pos, out)):
            k.launch(_groups(p1 - p0, client), I=pos[p0:p1], D=out[p0:p1], n=p1 - p0,
                     div=div, mod=mod)
        return out

    # ---- sorting ----------------------------------------------------------------------
    # sort / argsort / unique: the job derives every buffer it binds from ``data`` itself
    # (a copy made before the recipe call would be bound by every replay as it was)
    def sort(self, data, axis, descending, stable):
        if data.size == 0 or data.shape[axis] == 1:
            return data.copy()

        def job():
            v2, lshape, m = _rows(data, axis)
            if not v2.fits_binding():   # a sparse view: its values, packed, may fit
                v2 = v2.contiguous()
            if takes(v2):   # the keys' own bits sorted: no gather of the values afterwards
                return _back(sort_keys(v2, descending, "values"), lshape, m, axis, data.ndim)
            pos = sort_positions(v2, descending)
            return _back(self._take(v2, pos, v2.size), lshape, m, axis, data.ndim)
        return data.client.recipes.call(("sort", axis, descending), (data,), job)

    def argsort(self, data, axis, descending, stable):
        if data.size == 0 or data.shape[axis] == 1:
            return full(data.shape, 0, self.default_index, data.client)
        wide = self._index_wide()

        def job():
            v2, lshape, m = _rows(data, axis)
            if not v2.fits_binding():
                v2 = v2.contiguous()
            if takes(v2, 8 if wide else 4):   # the columns written by the sort's last kernel
                idx = sort_keys(v2, descending, "index64" if wide else "index")
                return _back(idx, lshape, m, axis, data.ndim)
            pos = sort_positions(v2, descending)
            return _back(self._index(pos, 1, m), lshape, m, axis, data.ndim)
        return data.client.recipes.call(("argsort", axis, descending, wide), (data,), job)

    # ---- searching --------------------------------------------------------------------
    def searchsorted(self, sorted_, values, side, sorter):
        client = sorted_.client
        ns, nv = sorted_.size, values.size
        check_size(max(ns, nv), "searchsorted")
        if nv == 0 or ns == 0:
            return full(values.shape, 0, self.default_index, client)
        kt = key_type(sorted_.dtype)
        v = _line(values)
        if not v.fits_binding():
            v = _flat(v.contiguous())
        s = sorted_ if sorted_.fits_binding() else sorted_.contiguous()
        q, qt = None, None
        if sorter is not None:
            sd = sorter.dtype
            if sd.itemsize < 4:
                sorter = sorter.astype(dt.int32 if sd.kind == "i" else dt.uint32)
            q = _flat(sorter)
            qt = RAW[q.itemsize]
        wide = self._index_wide()
        out = new_output((nv,), self.default_index, client)
        args = dict(S=s, ns=ns, s_st=s.strides[0] if ns > 1 else 0, q_st=1,
                    right=1 if side == "right" else 0)
        if q is not None:
            args["Q"] = q
        K = _search_cache(kt, ns, client)
        if K:   # the top levels of every search from workgroup memory
            k = client.kernel(CachedSearchSpec(kt, wide, K, qt))
            most = min(tuned("SEARCH_GROUPS", client), client.max_groups)
        else:
            k = client.kernel(SearchSpec(kt, False, wide, qt))
            args["invert"] = 0
        for p0, p1 in _windows(nv, (v, out)):
            vw = v[p0:p1]
            c = p1 - p0
            if K:
                ng = min(-(-c // WG), max(most, -(-c // (WG * 4096))))
                extra = dict(ng=ng)
                groups = _groups(ng * WG, client)
            else:
                extra = dict(units=c)
                groups = _groups(c, client)
            k.launch(groups, V=vw, D=out[p0:p1], nv=c,
                     v_st=vw.strides[0] if c > 1 else 0, **extra, **args)
        return out.reshape(values.shape)

    def isin(self, a, b, invert):
        client = a.client
        t = a.dtype if a.dtype is b.dtype else TABLE[(a.dtype, b.dtype)]
        a = a if a.dtype is t else a.astype(t)
        b = b if b.dtype is t else b.astype(t)
        na, nb = a.size, b.size
        check_size(max(na, nb), "isin")
        if na == 0 or nb == 0:
            return full(a.shape, bool(invert), dt.bool_, client)

        def job():
            b2 = _flat(b).reshape((1, nb))
            bs = self._take(b2, sort_positions(b2), nb)   # b sorted: searched directly
            out = new_output((na,), dt.bool_, client)
            k = client.kernel(SearchSpec(key_type(t), True, False))
            fa = _line(a)
            if not fa.fits_binding():
                fa = _flat(fa.contiguous())
            for p0, p1 in _windows(na, (fa, out)):
                units = -(-(p1 - p0) // 4)
                vw = fa[p0:p1]
                k.launch(_groups(units, client), S=bs, V=vw, D=out[p0:p1], ns=nb,
                         nv=p1 - p0, units=units, s_st=1, q_st=1, right=0,
                         v_st=vw.strides[0] if p1 - p0 > 1 else 0, invert=1 if invert else 0)
            return out.reshape(a.shape)
        return client.recipes.call(("isin", invert), (a, b), job)

    def nonzero(self, data):
        client = data.client
        n = data.size
        check_size(n, "nonzero")
        mask = _flat(data if data.dtype is dt.bool_ else data.astype(dt.bool_))
        if n == 0:
            return tuple(new_output((0,), self.default_index, client) for _ in data.shape)
        rk = ranks(mask)
        warn_host_read("nonzero", "the number of nonzero elements")
        count = int(rk[n:n + 1].to_numpy()[0])
        pos = positions(mask, rk, count)
        out, inner = [], n
        for d in data.shape:
            inner //= d
            out.append(self._index(pos, inner, d))
        return tuple(out)

    # ---- sets -----------------------------------------------------------------------------
    def unique(self, data, counts, inverse, index):
        client = data.client
        n = data.size
        check_size(n + 1, "unique")
        flat = _flat(data)
        if n == 0:
            e = new_output((0,), self.default_index, client)
            return (new_output((0,), data.dtype, client), e if index else None,
                    new_output(data.shape, self.default_index, client) if inverse else None,
                    e if counts else None)
        f2 = flat.reshape((1, n))
        kt = key_type(data.dtype)
        want = "both" if index or inverse else "values"
        keys = takes(f2)

        def sorted_runs():
            flags = new_output((n,), dt.uint32, client)
            if keys:   # the sorted values themselves: flags and values read in order
                if want == "both":   # positions too
                    sv, pos = sort_keys(f2, False, "both")
                else:
                    sv, pos = sort_keys(f2, False, "values"), None
                client.kernel(SortedFlagSpec(kt)).launch(_groups(n, client), S=sv, F=flags,
                                                         n=n)
            else:
                sv, pos = None, sort_positions(f2)
                client.kernel(FlagSpec(kt)).launch(
                    _groups(n, client), S=flat, I=pos, F=flags, n=n, s_st=1)
            rk = scan(flags.reshape((1, n)), "add", dt.uint32, "total").reshape((n + 1,))
            return tuple(x for x in (sv, pos) if x is not None) + (flags, rk)

        # everything before the count's read is device work of a fixed shape: a repeated
        # call replays it (runtime/recipes.py) instead of planning ~30 dispatches again
        *got, flags, rk = client.recipes.call(("unique", want, keys), (f2,), sorted_runs)
        sv = got[0] if keys else None
        pos = got[-1] if not keys or want == "both" else None
        warn_host_read("unique", "the number of unique values")
        K = int(rk[n:n + 1].to_numpy()[0])
        starts = positions(flags, rk, K)
        # stable: each run's first element (and its index)
        first = self._take(pos.reshape((1, n)), starts, K) if pos is not None else None
        if sv is not None:
            values = self._take(sv.reshape((1, n)), starts, K)
        else:
            values = self._take(f2, first, K)
        idx = self._index(first, 1, 0xFFFFFFFF) if index else None
        cnt = None
        if counts:
            c32 = new_output((K,), dt.uint32, client)
            client.kernel(CountSpec()).launch(_groups(K, client), B=starts, C=c32, n=n, K=K)
            cnt = self._index(c32, 1, 0xFFFFFFFF)
        inv = None
        if inverse:
            i32 = new_output((n,), dt.uint32, client)
            client.kernel(InverseSpec()).launch(_groups(n, client), I=pos, R=rk[:n], F=flags,
                                                D=i32, n=n)
            inv = self._index(i32, 1, 0xFFFFFFFF).reshape(data.shape)
        return values, idx, inv, cnt

    # ---- differences ----------------------------------------------------------------------
    def diff(self, data, axis, n, prepend, append):
        if n == 0:  # NumPy returns the input itself, prepend / append ignored
            return data.copy()
        parts = []
        for p in (prepend, data, append):
            if p is None:
                continue
            if p.ndim == 0:
                shape = list(data.shape)
                shape[axis] = 1
                p = p.broadcast_to(tuple(shape))
            parts.append(p)
        x = self.concat(parts, axis) if len(parts) > 1 else data
        pre = (slice(None),) * axis
        for _ in range(n):
            op = "not_equal" if x.dtype is dt.bool_ else "subtract"
            x = self.binary_kernel(op)(x[pre + (slice(1, None),)], x[pre + (slice(None, -1),)])
        return x
