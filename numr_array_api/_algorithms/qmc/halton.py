"""Halton points: radical inverses in the first d primes, optionally digit-scrambled.

Arithmetic (float64, fixed order, so every IEEE backend agrees bit for bit and the
unscrambled values equal SciPy's): for point index i and base b, with digits
i = sum_k r_k b^k, ``x = 0; for k = 0, 1, ...: x += r_k * w_k`` where ``w_0 = 1/b`` and
``w_k = w_{k-1} / b`` (each a correctly rounded float64 division done on the host).

Scrambled: digit position k of dimension j maps r -> perm[j][k][r] for every k below
``n_digits(b)`` (the count of w_k with ``1 - w_k < 1``), including the leading zero digits,
so the whole float64 mantissa is randomised; the sum is clamped below 1.
"""

import numpy as np

__all__ = ["first_primes", "n_digits", "weights", "halton_numpy", "halton_portable",
           "ONE_BELOW_F64", "ONE_BELOW_F32"]

ONE_BELOW_F64 = 1.0 - 2.0**-53
ONE_BELOW_F32 = 1.0 - 2.0**-24


def first_primes(d):
    if d == 0:
        return np.zeros(0, dtype=np.int64)
    limit = max(16, int(d * (np.log(d) + np.log(np.log(d + 2)) + 3)))
    sieve = np.ones(limit + 1, dtype=bool)
    sieve[:2] = False
    for p in range(2, int(limit**0.5) + 1):
        if sieve[p]:
            sieve[p * p::p] = False
    return np.flatnonzero(sieve)[:d].astype(np.int64)


def n_digits(base):
    w, k = 1.0 / base, 0
    while 1.0 - w < 1.0:
        k += 1
        w /= base
    return k


def weights(bases, count):
    """float64 [count, d]: w_k for each base, by repeated host division."""
    w = np.empty((count, len(bases)), dtype=np.float64)
    cur = [1.0 / float(b) for b in bases]
    for k in range(count):
        w[k] = cur
        cur = [c / float(b) for c, b in zip(cur, bases)]
    return w


def _digit_count(bases, last_index, perms):
    if perms is not None:
        return max(p.shape[0] for p in perms)
    # unscrambled: digits beyond the largest index's base-2 length are all zero
    return max(1, int(last_index).bit_length())


def _flat_perms(bases, perms, count):
    # ragged per-(dimension, digit) permutations laid out flat; identity where a base needs
    # fewer digits than the largest count, so the shared digit loop adds exact zeros there
    offsets = np.zeros((count, len(bases)), dtype=np.int64)
    parts, pos = [], 0
    for j, (b, p) in enumerate(zip(bases, perms)):
        for k in range(count):
            offsets[k, j] = pos
            parts.append(p[k] if k < p.shape[0] else np.zeros(b, dtype=np.int64))
            pos += int(b)
    return np.concatenate(parts), offsets


def halton_numpy(n, skip, bases, perms, *, dtype):
    d = len(bases)
    if n == 0:
        return np.empty((0, d), dtype=dtype)
    count = _digit_count(bases, skip + n - 1, perms)
    w = weights(bases, count)
    q = np.broadcast_to(np.arange(skip, skip + n, dtype=np.int64)[:, None], (n, d)).copy()
    x = np.zeros((n, d), dtype=np.float64)
    b = np.asarray(bases, dtype=np.int64)
    if perms is not None:
        flat, offsets = _flat_perms(bases, perms, count)
    for k in range(count):
        r = q % b
        if perms is not None:
            r = flat[offsets[k] + r]
        x += r * w[k]
        q //= b
    return _finish_numpy(x, perms is not None, dtype)


def _finish_numpy(x, clamp, dtype):
    if np.dtype(dtype) == np.float32:
        return np.minimum(x, ONE_BELOW_F32).astype(np.float32)
    if clamp:
        np.minimum(x, ONE_BELOW_F64, out=x)
    return x


def halton_portable(xp, n, skip, bases, perms, *, dtype, device):
    """Same digit loop on the target namespace (needs int64 and float64 there)."""
    d = len(bases)
    if n == 0:
        return xp.zeros((0, d), dtype=dtype, device=device)
    count = _digit_count(bases, skip + n - 1, perms)
    w = xp.asarray(weights(bases, count), device=device)
    b = xp.reshape(xp.asarray(np.asarray(bases, dtype=np.int64), device=device), (1, d))
    idx = xp.reshape(xp.arange(skip, skip + n, dtype=xp.int64, device=device), (n, 1))
    q = idx + xp.zeros((1, d), dtype=xp.int64, device=device)
    x = xp.zeros((n, d), dtype=xp.float64, device=device)
    if perms is not None:
        flat, offsets = _flat_perms(bases, perms, count)
        flat = xp.asarray(flat, device=device)
        offsets = xp.asarray(offsets, device=device)
    for k in range(count):
        r = xp.remainder(q, b)
        if perms is not None:
            r = xp.reshape(xp.take(flat, xp.reshape(r + offsets[k:k + 1, :], (n * d,))), (n, d))
        x = x + xp.astype(r, xp.float64) * w[k:k + 1, :]
        q = xp.floor_divide(q, b)
    if dtype == getattr(xp, "float32", None):
        return xp.astype(xp.clip(x, 0.0, ONE_BELOW_F32), dtype)
    if perms is not None:
        x = xp.clip(x, 0.0, ONE_BELOW_F64)
    return x


def draw_permutations(bases, rng):
    """For j in dimensions, k in range(n_digits(b_j)): a permutation of range(b_j); drawn as
    ``rng.permuted(np.tile(np.arange(b), (n_digits(b), 1)), axis=1)`` per dimension, in
    dimension order."""
    return [rng.permuted(np.tile(np.arange(int(b), dtype=np.int64), (n_digits(int(b)), 1)), axis=1)
            for b in bases]
