"""Out-of-range integer-array indices raise on CUDA, as on every numr backend.

CuPy wraps out-of-range indices silently (``take``, advanced ``__getitem__`` /
``__setitem__``): a wrong answer, not an error. ``take`` and ``take_along_axis`` gather
through one kernel of ours that checks each index as it reads it and raises a device flag
(no extra pass over the indices); other integer keys are checked by one elementwise pass
that raises the same flag. The host reads the 4-byte flag once per call (a
synchronisation, the price of the error contract, as on WebGPU; docs/cuda.md); the index
values are read only on failure, to name the offending one.
"""

from ..._core.errors import InvalidIndex

# (long long) makes uint64 indices past 2**63 negative: out of range too
_IN_RANGE = "long long k = (long long)idx_value; bool bad = k < -n || k >= n;"

_kernels = {}


def _kernel(name):
    k = _kernels.get(name)
    if k is None:
        import cupy
        if name == "check":
            k = cupy.ElementwiseKernel(
                "I idx_value, int64 n", "raw int32 flag",
                _IN_RANGE + " if (bad) flag[0] = 1;", "numr_index_check")
        elif name == "take":
            # out[o, j, r] = data[o, idx[j], r]; i is the flat output number
            k = cupy.ElementwiseKernel(
                "raw T data, raw I idx, int64 n, int64 m, int64 inner", "T out, raw int32 flag",
                "long long r = i % inner; long long t = i / inner;"
                " long long j = t % m; long long o = t / m;"
                " I idx_value = idx[j]; " + _IN_RANGE +
                " if (bad) { flag[0] = 1; out = T(0); }"
                " else { if (k < 0) k += n; out = data[(o * n + k) * inner + r]; }",
                "numr_checked_take")
        else:  # take_along_axis: idx has the output's shape; out[o, j, r] = data[o, idx, r]
            k = cupy.ElementwiseKernel(
                "raw T data, raw I idx, int64 n, int64 m, int64 inner", "T out, raw int32 flag",
                "long long r = i % inner; long long o = (i / inner) / m;"
                " I idx_value = idx[i]; " + _IN_RANGE +
                " if (bad) { flag[0] = 1; out = T(0); }"
                " else { if (k < 0) k += n; out = data[(o * n + k) * inner + r]; }",
                "numr_checked_take_along_axis")
        _kernels[name] = k
    return k


def _raise_if_flagged(flag, idx, n):
    if not int(flag.get()[0]):
        return
    v = idx.get().reshape(-1)  # compared in its own dtype: no uint64 -> int64 wrap
    bad = v[v >= n] if v.dtype.kind == "u" else v[(v < -n) | (v >= n)]
    first = int(bad[0]) if bad.size else "?"
    raise InvalidIndex(f"index {first} is out of bounds for an axis of size {n}")


def check(idx, n):
    """Raise InvalidIndex if an index of the integer array ``idx`` is outside ``[-n, n)``."""
    if idx.size == 0:
        return
    import cupy
    flag = cupy.zeros(1, cupy.int32)
    _kernel("check")(idx, n, flag)
    _raise_if_flagged(flag, idx, n)


def checked_gather(xp, data, indices, axis, along):
    """``take`` (``along`` False) or ``take_along_axis`` with the bounds check fused in."""
    n = data.shape[axis]
    if along:
        shape = indices.shape
        m = shape[axis]
    else:
        shape = data.shape[:axis] + indices.shape + data.shape[axis + 1:]
        m = indices.size
    out = xp.empty(shape, dtype=data.dtype)
    if out.size == 0:
        if indices.size and n == 0:  # any index into an empty axis is out of range
            check(indices, n)
        return out
    inner = 1
    for e in data.shape[axis + 1:]:
        inner *= e
    flag = xp.zeros(1, xp.int32)
    src = xp.ascontiguousarray(data)
    idx = xp.ascontiguousarray(indices)
    _kernel("along" if along else "take")(src, idx, n, m, inner, out, flag)
    _raise_if_flagged(flag, idx, n)
    return out


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
        return checked_gather(self.xp, data, indices, axis, False)

    def take_along_axis(self, data, indices, axis):
        same = all(a == b for d, (a, b) in enumerate(zip(data.shape, indices.shape))
                   if d != axis)
        if same:
            return checked_gather(self.xp, data, indices, axis, True)
        # other dimensions broadcast: CuPy's gather after a separate check
        check(indices, data.shape[axis])
        return super().take_along_axis(data, indices, axis)
