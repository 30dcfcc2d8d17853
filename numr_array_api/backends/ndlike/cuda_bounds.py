"""Out-of-range integer-array indices raise on CUDA, as on every numr backend.

CuPy wraps out-of-range indices silently (``take``, advanced ``__getitem__`` /
``__setitem__``): a wrong answer, not an error. Each integer index array is checked by one
fused reduction and the host reads its one-byte result (a synchronisation, the price of the
error contract, as on WebGPU; docs/cuda.md). The values are read only on failure, to name
the offending index.
"""

from ..._core.errors import InvalidIndex

_KERNEL = None


def _any_out_of_range(idx, n):
    global _KERNEL
    if _KERNEL is None:
        import cupy
        # the cast to long long makes uint64 indices past 2**63 negative: out of range too
        _KERNEL = cupy.ReductionKernel(
            "T x, int64 n", "bool y",
            "((long long)x < -n || (long long)x >= n)", "a || b", "y = a", "false",
            "numr_index_out_of_range")
    return bool(_KERNEL(idx, n))


def check(idx, n):
    """Raise InvalidIndex if an index of the integer array ``idx`` is outside ``[-n, n)``."""
    if idx.size == 0 or not _any_out_of_range(idx, n):
        return
    v = idx.get().reshape(-1)  # compared in its own dtype: no uint64 -> int64 wrap
    bad = v[v >= n] if v.dtype.kind == "u" else v[(v < -n) | (v >= n)]
    first = int(bad[0]) if bad.size else "?"
    raise InvalidIndex(f"index {first} is out of bounds for an axis of size {n}")


def _is_int_array(k):
    return hasattr(k, "dtype") and hasattr(k, "ndim") and k.dtype.kind in "iu"


def check_key(shape, key):
    """Check every integer array of a normalised ``__getitem__`` / ``__setitem__`` key."""
    if not any(_is_int_array(k) for k in key):
        return
    consumed = sum(k.ndim if hasattr(k, "dtype") and k.dtype.kind == "b" else 1
                   for k in key if k is not None and k is not Ellipsis)
    axis = 0
    for k in key:
        if k is None:
            continue
        if k is Ellipsis:
            axis += len(shape) - consumed
        elif hasattr(k, "dtype") and k.dtype.kind == "b":
            axis += k.ndim
        else:
            if _is_int_array(k):
                check(k, shape[axis])
            axis += 1


class CudaIndexBoundsMixin:
    def getitem(self, data, key):
        check_key(data.shape, tuple(getattr(k, "_data", k) for k in key))
        return super().getitem(data, key)

    def setitem(self, data, key, value):
        check_key(data.shape, tuple(getattr(k, "_data", k) for k in key))
        return super().setitem(data, key, value)

    def take(self, data, indices, axis):
        check(indices, data.shape[axis])
        return super().take(data, indices, axis)

    def take_along_axis(self, data, indices, axis):
        check(indices, data.shape[axis])
        return super().take_along_axis(data, indices, axis)
