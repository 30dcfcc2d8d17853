"""Sobol points from direction numbers: a NumPy kernel and a portable one.

Point k (0-based, k = skip + i) is ``x_k = shift XOR (XOR of v_j over the set bits j of
gray(k) = k ^ (k >> 1))``, a ``bits``-bit integer per dimension, then scaled:

* float64: ``x_k * 2**-bits``, exact (SciPy's values bit for bit when unscrambled);
* float32: ``(x_k >> max(bits - 24, 0)) * 2**-min(bits, 24)``, i.e. the float64 value
  truncated to float32's 24-bit significand: rounding toward zero, so never 1.0.
"""

import numpy as np

__all__ = ["sobol_numpy", "sobol_portable", "scale_of"]

_CHUNK_BYTES = 1 << 20


def scale_of(bits, float32):
    """(right shift, multiplier) turning a ``bits``-bit integer into the float."""
    if float32 and bits > 24:
        return bits - 24, 2.0**-24
    return 0, 2.0**-bits


def _point(v, k):
    """The unshifted integer point of index ``k`` (Python int), uint32 [d]."""
    g = k ^ (k >> 1)
    sel = [j for j in range(v.shape[0]) if (g >> j) & 1]
    if not sel:
        return np.zeros(v.shape[1], dtype=np.uint32)
    return np.bitwise_xor.reduce(v[sel], axis=0)


def sobol_numpy(n, skip, v, shift, *, bits, dtype):
    """[n, d] array of NumPy ``dtype``: Gray-code recurrence vectorised per chunk.

    Consecutive Gray codes differ in bit ctz(k), so rows k0+1.. are the cumulative XOR of
    v[ctz(k)] seeded with the chunk's first point: one gather and one ``accumulate`` per
    chunk of about 1 MiB. Few dimensions use a [d, rows] layout so the accumulate runs
    along contiguous memory; many use [rows, d], which also writes the output in order.
    """
    d = v.shape[1]
    out = np.empty((n, d), dtype=dtype)
    if n == 0:
        return out
    rshift, mult = scale_of(bits, np.dtype(dtype) == np.float32)
    by_dim = d < 8
    table = np.ascontiguousarray(v.T) if by_dim else v  # [d, bits] or [bits, d]
    rows = max(1, _CHUNK_BYTES // (4 * d))
    buf = np.empty((d, min(rows, n)) if by_dim else (min(rows, n), d), dtype=np.uint32)
    for i0 in range(0, n, rows):
        i1 = min(n, i0 + rows)
        k = np.arange(skip + i0 + 1, skip + i1, dtype=np.int64)
        ctz = np.bitwise_count((k & -k) - 1).astype(np.intp)
        first = _point(v, skip + i0)
        if shift is not None:
            first = first ^ shift
        if by_dim:
            b = buf[:, :i1 - i0]
            b[:, 0] = first
            np.take(table, ctz, axis=1, out=b[:, 1:])
            np.bitwise_xor.accumulate(b, axis=1, out=b)
            b = b.T
        else:
            b = buf[:i1 - i0]
            b[0] = first
            np.take(table, ctz, axis=0, out=b[1:])
            np.bitwise_xor.accumulate(b, axis=0, out=b)
        if rshift:
            b >>= rshift
        np.multiply(b, mult, out=out[i0:i1], casting="unsafe")
    return out


def sobol_portable(xp, n, skip, v, shift, *, bits, dtype, device):
    """Any array-API namespace: int64 bit arithmetic on the target device, one XOR pass per
    significant bit of the largest index (direct Gray-code formula, no sequential scan)."""
    d = v.shape[1]
    float32 = dtype == getattr(xp, "float32", None)
    rshift, mult = scale_of(bits, float32)
    if n == 0:
        return xp.zeros((0, d), dtype=dtype, device=device)
    i64 = xp.int64
    k = xp.arange(skip, skip + n, dtype=i64, device=device)
    g = xp.reshape(xp.bitwise_xor(k, xp.bitwise_right_shift(k, 1)), (n, 1))
    vd = xp.asarray(v.astype(np.int64), device=device)  # [bits, d]
    x = xp.zeros((n, d), dtype=i64, device=device)
    if shift is not None:
        x = x + xp.reshape(xp.asarray(shift.astype(np.int64), device=device), (1, d))
    for j in range(min(bits, (skip + n - 1).bit_length())):
        bit = xp.bitwise_and(xp.bitwise_right_shift(g, j), 1)
        x = xp.bitwise_xor(x, bit * xp.reshape(vd[j, :], (1, d)))
    if rshift:
        x = xp.bitwise_right_shift(x, rshift)
    return xp.astype(x, dtype) * mult
