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


def _first_points(v, m):
    """uint32 [2**m, d]: unshifted points 0 .. 2**m - 1, by doubling.

    gray(2**j + i) = gray(2**j) ^ gray(i) for i < 2**j, so the second half of the first
    2**(j+1) points is the first half XOR the point of index 2**j (v_j ^ v_{j-1}).
    """
    d = v.shape[1]
    t = np.empty((1 << m, d), dtype=np.uint32)
    t[0] = 0
    for j in range(m):
        h = 1 << j
        step = v[j] ^ v[j - 1] if j else v[0]  # point(2**j): gray(2**j) = 2**j ^ 2**(j-1)
        np.bitwise_xor(t[:h], step, out=t[h:2 * h])
    return t


def sobol_numpy(n, skip, v, shift, *, bits, dtype):
    """[n, d] array of NumPy ``dtype``, vectorised over blocks of 2**m aligned indices.

    For an aligned block (base a multiple of 2**m, i < 2**m) the bits of base and i do not
    overlap, so gray(base + i) = gray(base) ^ gray(i) and point(base + i) =
    point(base) ^ point(i): every block is the table of the first 2**m points XOR one row.
    One SIMD XOR and one scaling multiply per element, with the table (about 1 MiB) in
    cache; no sequential scan.
    """
    d = v.shape[1]
    out = np.empty((n, d), dtype=dtype)
    if n == 0:
        return out
    rshift, mult = scale_of(bits, np.dtype(dtype) == np.float32)
    m = max(1, min((_CHUNK_BYTES // (4 * d)).bit_length() - 1, max(n - 1, 1).bit_length(), bits))
    size = 1 << m
    table = _first_points(v, m)
    tmp = np.empty_like(table)
    # NumPy broadcasting over a short inner axis (small d) is slow: XOR in rows of
    # reps * d elements against the block's point repeated reps times instead
    reps = min(size, 1 << max(0, (256 // d).bit_length() - 1))
    k, end = skip, skip + n
    while k < end:
        base = k - (k % size)
        lo, hi = k - base, min(end - base, size)
        row = _point(v, base)
        if shift is not None:
            row = row ^ shift
        t = tmp[:hi - lo]
        if not row.any():
            # first block, unshifted: the table itself (never modified in place)
            if rshift:
                np.right_shift(table[lo:hi], rshift, out=t)
            else:
                t = table[lo:hi]
        else:
            if (hi - lo) % reps == 0:
                wide = (-1, reps * d)
                np.bitwise_xor(table[lo:hi].reshape(wide), np.tile(row, reps), out=t.reshape(wide))
            else:
                np.bitwise_xor(table[lo:hi], row, out=t)
            if rshift:
                t >>= rshift
        np.multiply(t, mult, out=out[k - skip:k - skip + hi - lo], casting="unsafe")
        k = base + hi
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
