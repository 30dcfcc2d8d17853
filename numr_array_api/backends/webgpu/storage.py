"""``WgpuStorage``: the webgpu payload of an Array.

A pooled Block + byte offset + shape + strides (in elements; 0 for broadcast dims, negative
for flips) + numr DType + client. View operations (basic indexing, permutes, broadcasts,
reshapes of contiguous data, expand/squeeze, flips) return new storages sharing the Block
and copy nothing. The bytes of a contiguous storage are exactly NumPy's for that dtype.
"""

import math
import operator

import numpy as np

from ..._core.errors import BackendLimitation, InvalidArgument, InvalidIndex, ShapeMismatch
from .kernels.cast import cast as _cast
from .kernels.copy import copy as _copy

_BIND_ALIGN = 256


_ROW_MAJOR = {}


def _row_major(shape):
    shape = tuple(shape)
    r = _ROW_MAJOR.get(shape)
    if r is None:
        strides, acc = [], 1
        for n in reversed(shape):
            strides.append(acc)
            acc *= n
        r = tuple(reversed(strides))
        if len(_ROW_MAJOR) < 4096:
            _ROW_MAJOR[shape] = r
    return r


def _norm_axis(axis, ndim):
    try:
        a = operator.index(axis)
    except TypeError:
        raise InvalidArgument("axis", f"{axis!r} is not an integer") from None
    if not -ndim <= a < ndim:
        raise InvalidArgument("axis", f"{axis} is out of range for {ndim} dimensions")
    return a % ndim


class WgpuStorage:
    __slots__ = ("block", "offset", "shape", "strides", "dtype", "client", "__weakref__")

    def __init__(self, block, offset, shape, strides, dtype, client):
        self.block = block
        self.offset = offset
        self.shape = shape
        self.strides = strides
        self.dtype = dtype
        self.client = client

    @classmethod
    def _new(cls, shape, dtype, client):
        """Contiguous output for an already-valid ``shape`` (kernel hot path)."""
        n = 1
        for e in shape:
            n *= e
        return WgpuStorage(client.allocate(n * dtype.itemsize), 0, shape, _row_major(shape), dtype,
                   client)

    @classmethod
    def empty(cls, shape, dtype, client, host_write=False):
        shape = tuple(operator.index(n) for n in shape)
        if any(n < 0 for n in shape):
            raise InvalidArgument("shape", f"{shape} has a negative extent")
        nbytes = math.prod(shape) * dtype.itemsize
        return WgpuStorage(client.allocate(nbytes, host_write), 0, shape, _row_major(shape), dtype,
                   client)

    # ---- attributes -------------------------------------------------------------------
    @property
    def ndim(self):
        return len(self.shape)

    @property
    def size(self):
        return math.prod(self.shape)

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.dtype.itemsize

    @property
    def is_contiguous(self):
        """C-contiguous (size-1 dims may have any stride)."""
        acc = 1
        for n, s in zip(reversed(self.shape), reversed(self.strides)):
            if n == 0:
                return True
            if n != 1 and s != acc:
                return False
            acc *= n
        return True

    def __repr__(self):
        return (f"WgpuStorage(shape={self.shape}, dtype={self.dtype.name}, strides="
                f"{self.strides}, offset={self.offset}, adapter={self.client.index})")

    def extent(self):
        """(lo, hi): the byte range [lo, hi) holding every element of this view."""
        if self.size == 0:
            return self.offset, self.offset
        lo = hi = self.offset // self.itemsize
        for n, s in zip(self.shape, self.strides):
            if s > 0:
                hi += (n - 1) * s
            else:
                lo += (n - 1) * s
        return lo * self.itemsize, (hi + 1) * self.itemsize

    def _place(self):
        """(block, byte base, block size) of the one buffer holding this view's bytes, or
        None when they span two segments of a multi-buffer block."""
        block = self.block
        segs = getattr(block, "segments", None)
        if segs is None:
            return block, 0, block.size
        lo, hi = self.extent()
        found = block.segment_of(lo, hi)
        if found is None:
            return None
        seg, base = found
        return seg, base, seg.size

    def fits_binding(self):
        """True if ``binding()`` succeeds: the view lies in one buffer and its aligned window
        fits the adapter's storage-binding limit (primitives/slabs.py splits work until
        every operand's view does)."""
        place = self._place()
        if place is None:
            return False
        _, base, size = place
        if size <= self.client.max_binding:
            return True
        lo, hi = self.extent()
        start = lo - base - (lo - base) % _BIND_ALIGN
        end = min(-(-(hi - base) // 16) * 16, size)
        return max(end - start, 16) <= self.client.max_binding

    def binding(self):
        """(block, bind offset, bind size, element offset) for a binding of this view.

        The whole buffer is bound when it fits the storage-binding limit, so bind groups are
        shared between all views of a buffer; otherwise an aligned window around the view
        (inside the one segment holding it, for multi-buffer arrays).
        """
        place = self._place()
        if place is None:
            raise BackendLimitation("webgpu", f"binding a {self.shape} view spanning two "
                                    "buffers of a multi-buffer array", "this kernel does "
                                    "not split its work at buffer boundaries")
        block, base, size = place
        limit = self.client.max_binding
        if size <= limit:
            return block, 0, size, (self.offset - base) // self.itemsize
        lo, hi = self.extent()
        lo -= base
        hi -= base
        start = lo - lo % _BIND_ALIGN
        end = min(-(-hi // 16) * 16, size)
        if end - start > limit:
            raise BackendLimitation("webgpu", "binding a view spanning "
                                    f"{end - start} bytes", f"the adapter's storage binding "
                                    f"limit is {limit} bytes")
        return block, start, max(end - start, 16), (self.offset - base - start) // self.itemsize

    def out_binding(self):
        """Binding triple of a fresh contiguous output (offset 0) covering all of its words."""
        return self.binding()[:3]

    # ---- views ------------------------------------------------------------------------
    @property
    def writable(self):
        """False for broadcast views and views of them (see ReadOnlyStorage)."""
        return self.__class__ is not ReadOnlyStorage

    def _view(self, shape, strides, offset=None):
        # a view of a read-only view stays read-only (as NumPy's writeable flag)
        return self.__class__(self.block, self.offset if offset is None else offset,
                           tuple(shape), tuple(strides), self.dtype, self.client)

    def reshape(self, shape):
        """A view when the data is contiguous, otherwise a contiguous copy reshaped."""
        shape = list(operator.index(n) for n in (shape if isinstance(shape, (tuple, list))
                                                 else (shape,)))
        if shape.count(-1) > 1:
            raise InvalidArgument("shape", "only one dimension can be -1")
        if -1 in shape:
            rest = math.prod(n for n in shape if n != -1)
            if rest == 0 or self.size % rest:
                raise ShapeMismatch(f"cannot reshape size {self.size} into {tuple(shape)}")
            shape[shape.index(-1)] = self.size // rest
        if math.prod(shape) != self.size or any(n < 0 for n in shape):
            raise ShapeMismatch(f"cannot reshape {self.shape} into {tuple(shape)}",
                                expected=self.size, got=tuple(shape))
        src = self if self.is_contiguous else self.contiguous()
        return src._view(shape, _row_major(shape))

    def permute(self, axes):
        axes = tuple(_norm_axis(a, self.ndim) for a in axes)
        if sorted(axes) != list(range(self.ndim)):
            raise InvalidArgument("axes", f"{axes} is not a permutation of {self.ndim} axes")
        return self._view([self.shape[a] for a in axes], [self.strides[a] for a in axes])

    def transpose(self, axes=None):
        return self.permute(tuple(reversed(range(self.ndim))) if axes is None else axes)

    def broadcast_to(self, shape):
        shape = tuple(operator.index(n) for n in shape)
        if len(shape) < self.ndim:
            raise ShapeMismatch(f"cannot broadcast {self.shape} to {shape}", shape, self.shape)
        lead = len(shape) - self.ndim
        strides = [0] * lead
        for n, m, s in zip(shape[lead:], self.shape, self.strides):
            if m == n:
                strides.append(s)
            elif m == 1:
                strides.append(0)
            else:
                raise ShapeMismatch(f"cannot broadcast {self.shape} to {shape}", shape,
                                    self.shape)
        v = self._view(shape, strides)
        if v.__class__ is WgpuStorage and any(s == 0 and n > 1 and self.size
                                              for n, s in zip(shape, strides)):
            # several elements alias one: writes through it would hit the source
            v = ReadOnlyStorage(v.block, v.offset, v.shape, v.strides, v.dtype, v.client)
        return v

    def expand_dims(self, axis):
        a = _norm_axis(axis, self.ndim + 1)
        return self._view(self.shape[:a] + (1,) + self.shape[a:],
                          self.strides[:a] + (0,) + self.strides[a:])

    def squeeze(self, axis=None):
        if axis is None:
            axes = {i for i, n in enumerate(self.shape) if n == 1}
        else:
            axes = {_norm_axis(a, self.ndim)
                    for a in (axis if isinstance(axis, (tuple, list)) else (axis,))}
            if any(self.shape[a] != 1 for a in axes):
                raise ShapeMismatch(f"cannot squeeze axes {sorted(axes)} of {self.shape}")
        keep = [i for i in range(self.ndim) if i not in axes]
        return self._view([self.shape[i] for i in keep], [self.strides[i] for i in keep])

    def flip(self, axis=None):
        axes = (range(self.ndim) if axis is None else
                {_norm_axis(a, self.ndim)
                 for a in (axis if isinstance(axis, (tuple, list)) else (axis,))})
        off, strides = self.offset, list(self.strides)
        for a in axes:
            if self.shape[a] > 1:
                off += (self.shape[a] - 1) * strides[a] * self.itemsize
                strides[a] = -strides[a]
        return self._view(self.shape, strides, off)

    def __getitem__(self, key):
        """Basic indexing (ints, slices with steps, None, Ellipsis) as a view."""
        if not isinstance(key, tuple):
            key = (key,)
        n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
        if sum(1 for k in key if k is Ellipsis) > 1:
            raise InvalidIndex("an index can only have a single ellipsis")
        if n_real > self.ndim:
            raise InvalidIndex(f"too many indices for {self.ndim} dimensions")
        if Ellipsis in key:
            i = key.index(Ellipsis)
            key = key[:i] + (slice(None),) * (self.ndim - n_real) + key[i + 1:]
        else:
            key = key + (slice(None),) * (self.ndim - n_real)
        shape, strides, off, d = [], [], self.offset // self.itemsize, 0
        for k in key:
            if k is None:
                shape.append(1)
                strides.append(0)
                continue
            n, s = self.shape[d], self.strides[d]
            d += 1
            if isinstance(k, slice):
                start, stop, step = k.indices(n)
                m = len(range(start, stop, step))
                if m:
                    off += start * s
                shape.append(m)
                strides.append(s * step)
                continue
            if isinstance(k, bool):
                raise InvalidIndex("boolean scalar indices are masks, not basic indices")
            try:
                i = operator.index(k)
            except TypeError:
                raise InvalidIndex(f"{k!r} is not a basic index") from None
            if not -n <= i < n:
                raise InvalidIndex(f"index {i} is out of bounds for an axis of size {n}")
            off += (i % n) * s
        return self._view(shape, strides, off * self.itemsize)

    # ---- copies (kernels) -------------------------------------------------------------
    def contiguous(self):
        """``self`` if already C-contiguous, else a contiguous copy made on the GPU."""
        return self if self.is_contiguous else _copy(self)

    def copy(self):
        return _copy(self)

    def astype(self, dtype):
        return _cast(self, dtype)

    def to_numpy(self):
        """A NumPy array with this view's values (one device -> host copy)."""
        if self.size == 0:
            return np.empty(self.shape, self.dtype.np)
        s = self.contiguous()
        out = s.client.read(s.block, s.offset, s.nbytes).view(s.dtype.np).reshape(s.shape)
        return out if out.flags.writeable else out.copy()



class ReadOnlyStorage(WgpuStorage):
    """A broadcast view, or any view of one: numr refuses to write through it (NumPy marks
    such arrays read-only too), since a write would change the broadcast source."""
    __slots__ = ()


def new_output(shape, dtype, client):
    """A fresh contiguous storage for a kernel's result."""
    return WgpuStorage._new(tuple(shape), dtype, client)
