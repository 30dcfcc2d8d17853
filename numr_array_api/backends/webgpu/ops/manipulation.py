"""Manipulation on the GPU: concat, stack, roll, repeat, tile, unstack.

None of these computes anything: each allocates its contiguous output and writes every input
into a *view* of it with ``store`` (the N-ary template's strided scatter, raw bit copies, so
every dtype including packed sub-word and 16-byte ones is exact). Broadcast views (stride 0)
of the source express repetition, so repeat and tile are one dispatch each; unstack returns
views and copies nothing. The only host read is ``repeat`` with an array of repeats (the
output length is data dependent): it reads the repeats (warned, listed in docs/webgpu.md).
"""

import numpy as np

from ...._core.promotion import promote
from ..storage import WgpuStorage
from .indexing import warn_host_read


def _out(shape, dtype, client):
    return WgpuStorage._new(tuple(shape), dtype, client)


class ManipulationMixin:
    def _result_dtype_of(self, datas):
        t = datas[0].dtype
        for d in datas[1:]:
            if d.dtype is not t:
                t = promote(t, d.dtype)
        return t

    def concat(self, datas, axis):
        t = self._result_dtype_of(datas)
        shape = list(datas[0].shape)
        shape[axis] = sum(d.shape[axis] for d in datas)
        out = _out(shape, t, datas[0].client)
        pre = (slice(None),) * axis
        start = 0
        for d in datas:
            n = d.shape[axis]
            if n and d.size:
                self.store(out[pre + (slice(start, start + n),)], d)
            start += n
        return out

    def stack(self, datas, axis):
        t = self._result_dtype_of(datas)
        ref = datas[0].shape
        out = _out(ref[:axis] + (len(datas),) + ref[axis:], t, datas[0].client)
        pre = (slice(None),) * axis
        for i, d in enumerate(datas):
            if d.size:
                self.store(out[pre + (i,)], d)
        return out

    def unstack(self, data, axis):
        pre = (slice(None),) * axis
        return [data[pre + (i,)] for i in range(data.shape[axis])]

    def roll(self, data, shifts, axes):
        if axes is None:  # roll the flattened array, then restore the shape
            flat = data.reshape((-1,))
            return self.roll(flat, shifts, (0,)).reshape(data.shape)
        total = {}
        for s, a in zip(shifts, axes):  # repeated axes add up, as in NumPy
            total[a] = total.get(a, 0) + s
        out = _out(data.shape, data.dtype, data.client)
        if data.size == 0:
            return out
        # per axis: out[s:] = x[:n-s] and out[:s] = x[n-s:]; one store per combination
        keys = [((), ())]
        for d in range(data.ndim):
            n = data.shape[d]
            s = total.get(d, 0) % n if n else 0
            if s == 0:
                opts = [(slice(None), slice(None))]
            else:
                opts = [(slice(s, None), slice(None, n - s)), (slice(None, s), slice(n - s, None))]
            keys = [(ko + (o,), ks + (i,)) for ko, ks in keys for o, i in opts]
        for ko, ks in keys:
            self.store(out[ko], data[ks])
        return out

    def repeat(self, data, repeats, axis):
        if isinstance(repeats, WgpuStorage):
            return self._repeat_array(data, repeats, axis)
        n = data.shape[axis]
        shape = data.shape[:axis] + (n * repeats,) + data.shape[axis + 1:]
        out = _out(shape, data.dtype, data.client)
        if out.size == 0:
            return out
        # out viewed as (..., n, repeats, ...) <- x with a broadcast (stride 0) repeats dim
        split = data.shape[:axis] + (n, repeats) + data.shape[axis + 1:]
        src = data.expand_dims(axis + 1).broadcast_to(split)
        self.store(out.reshape(split), src)
        return out

    def _repeat_array(self, data, repeats, axis):
        # data-dependent output length: read the (small) repeats array, upload the source
        # index of every output position, then one gather (take)
        warn_host_read("repeat (array repeats)", "the repeats")
        r = np.asarray(self.to_numpy(repeats)).astype(np.int64).reshape(-1)
        n = data.shape[axis]
        if r.size == 1:
            return self.repeat(data, int(r[0]), axis)
        if r.size != n:
            raise ValueError(f"repeat: {r.size} repeats for an axis of size {n}")
        if (r < 0).any():
            raise ValueError("repeat: repeats must be non-negative")
        idx = np.repeat(np.arange(n, dtype=np.int32), r)
        from ..transfer import from_numpy
        return self.take(data, from_numpy(idx, data.client), axis, check=False)

    def tile(self, data, reps):
        reps = tuple(reps)
        nd = max(len(reps), data.ndim)
        reps = (1,) * (nd - len(reps)) + reps
        x = data.reshape((1,) * (nd - data.ndim) + data.shape) if nd > data.ndim else data
        shape = tuple(r * n for r, n in zip(reps, x.shape))
        out = _out(shape, data.dtype, data.client)
        if out.size == 0:
            return out
        # out viewed as (r0, n0, r1, n1, ...) <- x with broadcast (stride 0) rep dims
        inter = tuple(v for r, n in zip(reps, x.shape) for v in (r, n))
        src = x._view(tuple(v for n in x.shape for v in (1, n)),
                      tuple(v for s in x.strides for v in (0, s)))
        self.store(out.reshape(inter), src.broadcast_to(inter))
        return out

