"""The backend shared by cpu (NumPy) and cuda (CuPy).

Kernels map onto the wrapped module ``xp``; where NumPy or CuPy depart from the standard
the correction lives here or in ``kernels.py``, once for both.
"""

import contextlib

import numpy as np

from ..._core import dtypes as dt
from ..._core.errors import DTypeMismatch, InvalidArgument, InvalidIndex, ShapeMismatch
from ..interface import Backend
from .fft import NdFFTMixin
from .kernels import elementwise_tables
from .linalg import NdLinalgMixin

__all__ = ["NdBackend"]


@contextlib.contextmanager
def _index_errors():
    try:
        yield
    except InvalidIndex:
        raise
    except IndexError as e:
        raise InvalidIndex(f"index out of range: {e}") from None


class NdBackend(NdLinalgMixin, NdFFTMixin, Backend):
    """Kernels over ``xp``, a NumPy-compatible module. Subclasses bind devices."""

    name = "ndlike"
    device_kind = "cpu"
    host_native = False
    default_float = dt.float64
    default_int = dt.int64
    default_index = dt.int64
    scalars_native = True  # kernels take Python scalars directly (NEP 50 weak scalars)
    trusted_result_dtypes = False  # CuPy's ufunc loops are not all the standard's

    def __init__(self, xp):
        self.xp = xp
        self.payload_type = xp.ndarray
        self.dtype_table = {d.np: d for d in dt.ALL_DTYPES}
        self.native_dtypes = frozenset(dt.ALL_DTYPES)
        self._unary, self._binary = elementwise_tables(xp)
        self._reducers = self._make_reducers()
        self._sum = self._reducers["sum"]

    # -- payloads and devices (subclasses refine) -----------------------------------------
    def fix_result(self, r):
        """Kernel results that are not payloads: NumPy returns scalars for 0-d results."""
        return self.xp.asarray(r)

    def check_dtype_supported(self, dtype):
        return dtype

    def device_ctx(self, device):
        return contextlib.nullcontext()

    def item(self, data):
        return data.item()

    def check_stream(self, stream):
        raise InvalidArgument("stream", f"{self.name} arrays take no stream, got {stream!r}")

    # -- creation ----------------------------------------------------------------------
    def empty(self, shape, dtype, device):
        with self.device_ctx(device):
            return self.xp.empty(shape, dtype=dtype.np)

    def full(self, shape, value, dtype, device):
        with self.device_ctx(device):
            return self.xp.full(shape, value, dtype=dtype.np)

    def arange(self, start, stop, step, n, dtype, device):
        with self.device_ctx(device):
            if dtype.kind in "iu":
                return self.xp.arange(start, stop, step, dtype=dtype.np)
            # computed as start + i*step so the length is exactly n (NumPy's float arange
            # may yield one element more or less than ceil((stop - start) / step))
            r = self.xp.arange(n, dtype=np.float64) * step + start
            return r.astype(dtype.np, copy=False)

    def eye(self, n, m, k, dtype, device):
        with self.device_ctx(device):
            return self.xp.eye(n, m, k=k, dtype=dtype.np)

    def linspace(self, start, stop, num, endpoint, dtype, device):
        with self.device_ctx(device):
            return self.xp.linspace(start, stop, num, endpoint=endpoint, dtype=dtype.np)

    def tri(self, data, k, upper):
        return (self.xp.triu if upper else self.xp.tril)(data, k=k)

    def copy(self, data):
        return data.copy()

    def astype(self, data, dtype, copy=True):
        return data.astype(dtype.np, copy=copy)

    # -- elementwise -------------------------------------------------------------------
    def unary_kernel(self, name):
        return self._unary[name]

    def binary_kernel(self, name):
        return self._binary[name]

    def scalar_operand(self, value, dtype):
        return value  # NumPy / CuPy treat Python scalars as weak (NEP 50), as the standard does

    def inplace(self, kernel, d1, d2):
        kernel(d1, d2, out=d1)

    def where(self, cond, a, b):
        return self.xp.where(cond, a, b)

    # -- indexing ----------------------------------------------------------------------
    def getitem_basic(self, data, key):
        return data[key]

    # Out-of-range integer-array indices are found by the wrapped module (checking them in
    # the front-end would need a pass over the indices); its IndexError becomes numr's.
    def getitem(self, data, key):
        key = tuple(k._data if hasattr(k, "_data") else k for k in key)
        with _index_errors():
            return data[key]

    def is_readonly(self, data):
        return not data.flags.writeable

    def readonly(self, data):
        if not data.flags.writeable:
            return data
        v = data.view()
        v.flags.writeable = False
        return v

    def setitem(self, data, key, value):
        key = tuple(k._data if hasattr(k, "_data") else k for k in key)
        with _index_errors():
            data[key] = value

    def take(self, data, indices, axis):
        with _index_errors():
            return self.xp.take(data, indices, axis=axis)

    def take_along_axis(self, data, indices, axis):
        with _index_errors():
            return self.xp.take_along_axis(data, indices, axis=axis)

    # -- manipulation ------------------------------------------------------------------
    def reshape(self, data, shape, copy=None):
        xp = self.xp
        if copy:
            return xp.reshape(data, shape).copy()
        if copy is False:
            try:
                out = data.view()
                out.shape = shape  # raises when a view is impossible
                return out
            except AttributeError:
                raise ValueError("reshape: copy=False but the array cannot be reshaped "
                                 "without copying") from None
        return xp.reshape(data, shape)

    def broadcast_to(self, data, shape):
        return self.xp.broadcast_to(data, shape)

    def concat(self, datas, axis):
        return self.xp.concatenate(datas, axis=axis)

    def stack(self, datas, axis):
        return self.xp.stack(datas, axis=axis)

    def flip(self, data, axes):
        return self.xp.flip(data, axis=axes)

    def permute(self, data, axes):
        return self.xp.transpose(data, axes)

    def roll(self, data, shifts, axes):
        if axes is None:
            return self.xp.roll(data, shifts[0])
        return self.xp.roll(data, shifts, axis=axes)

    def repeat(self, data, repeats, axis):
        return self.xp.repeat(data, repeats, axis=axis)

    def tile(self, data, reps):
        return self.xp.tile(data, reps)

    def unstack(self, data, axis):
        return [self.xp.take(data, i, axis=axis) for i in range(data.shape[axis])]

    # -- searching, sets, sorting ------------------------------------------------------
    def argmax(self, data, axis, keepdims):
        return self.xp.argmax(data, axis=axis, keepdims=keepdims)

    def argmin(self, data, axis, keepdims):
        return self.xp.argmin(data, axis=axis, keepdims=keepdims)

    def nonzero(self, data):
        return self.xp.nonzero(data)

    def count_nonzero(self, data, axes, keepdims):
        xp = self.xp
        # CuPy's count_nonzero has no keepdims: restore the reduced axes as size 1 ourselves
        r = xp.asarray(xp.count_nonzero(data, axis=axes), dtype=self.default_index.np)
        if keepdims:
            r = r.reshape(tuple(1 if i in axes else n for i, n in enumerate(data.shape)))
        return r

    def searchsorted(self, sorted_, values, side, sorter):
        return self.xp.searchsorted(sorted_, values, side=side, sorter=sorter)

    def unique(self, data, counts, inverse, index):
        """(values, index or None, inverse or None, counts or None); NaNs stay distinct."""
        xp = self.xp
        flat = data.reshape(-1)
        r = np.unique(flat, return_index=index, return_inverse=inverse,
                      return_counts=counts, equal_nan=False) if xp is np else \
            xp.unique(flat, return_index=index, return_inverse=inverse, return_counts=counts)
        if not isinstance(r, tuple):
            r = (r,)
        r = list(r)
        values = r.pop(0)
        idx = r.pop(0) if index else None
        inv = r.pop(0).reshape(data.shape) if inverse else None
        cnt = r.pop(0) if counts else None
        values, idx, inv, cnt = self._separate_nans(flat, values, idx, inv, cnt)
        return values, idx, inv, cnt

    def _separate_nans(self, flat, values, idx, inv, cnt):
        # NaN != NaN, so each NaN is its own unique value (the standard's rule)
        xp = self.xp
        if values.dtype.kind not in "fc":
            return values, idx, inv, cnt
        nanmask = xp.isnan(values)
        if not bool(nanmask.any()):
            return values, idx, inv, cnt
        pos = xp.nonzero(xp.isnan(flat))[0]
        keep = ~nanmask
        n_keep = int(keep.sum())
        values = xp.concatenate([values[keep], flat[pos]])
        if idx is not None:
            idx = xp.concatenate([idx[keep], pos])
        if cnt is not None:
            cnt = xp.concatenate([cnt[keep], xp.ones(pos.shape[0], dtype=cnt.dtype)])
        if inv is not None:
            # remap: non-NaN codes shift down past the removed NaN entries; NaNs get new codes
            shape = inv.shape
            inv = inv.reshape(-1)
            remap = xp.cumsum(keep) - 1
            inv = remap[inv]
            inv[pos] = xp.arange(n_keep, n_keep + pos.shape[0], dtype=inv.dtype)
            inv = inv.reshape(shape)
        return values, idx, inv, cnt

    def isin(self, a, b, invert):
        return self.xp.isin(a, b, invert=invert)

    def sort(self, data, axis, descending, stable):
        xp = self.xp
        kind = "stable" if stable else None
        if not descending:
            return xp.sort(data, axis=axis, kind=kind)
        return xp.flip(xp.sort(xp.flip(data, axis=axis), axis=axis, kind="stable"), axis=axis)

    def argsort(self, data, axis, descending, stable):
        xp = self.xp
        if not descending:
            return xp.argsort(data, axis=axis, kind="stable" if stable else None)
        # stable descending: sort the reversed array ascending, map indices back, reverse
        n = data.shape[axis]
        idx = xp.argsort(xp.flip(data, axis=axis), axis=axis, kind="stable")
        return xp.flip(n - 1 - idx, axis=axis)

    # -- reductions --------------------------------------------------------------------
    def _make_reducers(self):
        xp = self.xp
        if xp is np:
            # ufunc.reduce is what np.sum & co. call after ~1 us of Python-level wrapping
            return {"sum": np.add.reduce, "prod": np.multiply.reduce,
                    "max": np.maximum.reduce, "min": np.minimum.reduce,
                    "all": np.logical_and.reduce, "any": np.logical_or.reduce,
                    "mean": np.mean}
        return {"sum": xp.sum, "prod": xp.prod, "max": xp.max, "min": xp.min,
                "mean": xp.mean, "all": xp.all, "any": xp.any}

    def reduce(self, name, data, axes, keepdims, dtype=None):
        fn = self._reducers[name]
        if dtype is None:
            return fn(data, axis=axes, keepdims=keepdims)
        return fn(data, axis=axes, keepdims=keepdims, dtype=dtype.np)

    def sum_all(self, data):
        """Sum of every element, in the input's (floating) dtype: the hot path of sum(x)."""
        return self._sum(data, axis=None)

    def var(self, data, axes, correction, keepdims, std):
        fn = self.xp.std if std else self.xp.var
        return fn(data, axis=axes, ddof=correction, keepdims=keepdims)

    def cumulative(self, name, data, axis, dtype, include_initial):
        xp = self.xp
        fn = xp.cumsum if name == "sum" else xp.cumprod
        r = fn(data, axis=axis, dtype=dtype.np)
        if include_initial:
            shape = list(r.shape)
            shape[axis] = 1
            init = xp.full(shape, 0 if name == "sum" else 1, dtype=r.dtype)
            r = xp.concatenate([init, r], axis=axis)
        return r

    def diff(self, data, axis, n, prepend, append):
        kw = {}
        if prepend is not None:
            kw["prepend"] = prepend
        if append is not None:
            kw["append"] = append
        return self.xp.diff(data, n=n, axis=axis, **kw)

    # -- linear algebra (front-end validates shapes) -----------------------------------
    def matmul(self, a, b):
        # the operator, not xp.matmul: CuPy's matmul function goes through a Python gufunc
        # layer its ndarray.__matmul__ skips (2-5 us a call; numr cuda's skinny 64x16384 @
        # 16384x64 was 0.81 of CuPy's `a @ b`, H100); the same product for NumPy
        return a @ b

    def tensordot(self, a, b, axes):
        return self.xp.tensordot(a, b, axes=axes)

    def vecdot(self, a, b, axis):
        xp = self.xp
        if a.dtype.kind == "c":
            a = xp.conj(a)
        a, b = xp.broadcast_arrays(a, b)
        return xp.sum(a * b, axis=axis, dtype=a.dtype)

    max_dimensions = 64

    def extra_capabilities(self):
        return {}
