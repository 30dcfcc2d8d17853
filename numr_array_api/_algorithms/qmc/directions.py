"""Sobol direction numbers from the shipped Joe & Kuo table, and their LMS scrambling."""

import functools
import os

import numpy as np

__all__ = ["MAX_DIM", "MAX_BITS", "direction_numbers", "scramble"]

MAX_BITS = 32
_TABLE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "_data", "sobol_joe_kuo.npz")


@functools.lru_cache(maxsize=1)
def _table():
    with np.load(_TABLE) as z:
        poly = z["poly"].astype(np.int64)
        keys = sorted(k for k in z.files if k.startswith("m"))
        vinit = np.stack([z[k].astype(np.uint64) for k in keys], axis=1)
    return poly, vinit


MAX_DIM = 21201


@functools.lru_cache(maxsize=16)
def _direction_numbers(d, bits):
    poly, vinit = _table()
    poly, vinit = poly[:d], vinit[:d]
    # degree s of each primitive polynomial (dimension 0 has poly 1, degree 0: its m are 1)
    deg = np.zeros(d, dtype=np.int64)
    p = poly.copy()
    while np.any(p > 1):
        deg += p > 1
        p >>= 1
    maxdeg = int(deg.max()) if d else 0
    m = np.zeros((d, bits), dtype=np.uint64)
    rows = np.arange(d)
    for j in range(bits):
        # Bratley & Fox recurrence (Joe & Kuo notes, sec. 2):
        # m_j = 2^s m_{j-s} ^ m_{j-s} ^ XOR_{k=1}^{s-1} 2^k a_k m_{j-k}
        recur = j >= deg
        src = m[rows, np.maximum(j - deg, 0)]
        new = src ^ (src << deg.astype(np.uint64))
        for k in range(1, maxdeg):
            a_k = ((poly >> np.maximum(deg - k, 0)) & 1).astype(bool) & (k < deg)
            prev = m[rows, max(j - k, 0)] << np.uint64(k)
            new ^= np.where(a_k & (j - k >= 0), prev, np.uint64(0))
        init = vinit[:, j] if j < vinit.shape[1] else np.zeros(d, dtype=np.uint64)
        m[:, j] = np.where(recur, np.where(deg == 0, np.uint64(1), new), init)
    shifts = np.arange(bits - 1, -1, -1, dtype=np.uint64)
    v = (m << shifts[None, :]).T  # [bits, d]: row j is the direction vector of bit j
    out = np.ascontiguousarray(v.astype(np.uint32))
    out.flags.writeable = False
    return out


def direction_numbers(d, bits):
    """uint32 ``[bits, d]``: row j holds v_j = m_j * 2**(bits-1-j) for each dimension."""
    return _direction_numbers(d, bits)


def scramble(v, bits, rng):
    """Linear matrix scramble + digital shift, drawn from ``rng`` in this order:

    1. ``L = rng.integers(0, 2, size=(d, bits, bits), dtype=uint8)``; only entries strictly
       below the diagonal are used, the diagonal is 1. Row / column r of ``L[i]`` is the bit
       of weight ``2**(bits-1-r)`` (most significant first).
    2. ``shift = rng.integers(0, 2**bits, size=d, dtype=uint64)``.

    Returns (scrambled directions uint32 [bits, d], shift uint32 [d]): bit r of a scrambled
    direction number is the parity of (row r of L[i]) AND (the direction number).
    """
    nbits, d = v.shape
    L = rng.integers(0, 2, size=(d, bits, bits), dtype=np.uint8)
    shift = rng.integers(0, 2**bits, size=d, dtype=np.uint64).astype(np.uint32)
    L = np.tril(L, k=-1) | np.eye(bits, dtype=np.uint8)[None]
    weights = np.left_shift(np.uint64(1), np.arange(bits - 1, -1, -1, dtype=np.uint64))
    masks = (L.astype(np.uint64) * weights[None, None, :]).sum(axis=2)  # [d, bits(row r)]
    v64 = v.astype(np.uint64)
    out = np.zeros_like(v64)
    for r in range(bits):
        parity = np.bitwise_count(v64 & masks[None, :, r]) & np.uint8(1)
        out |= parity.astype(np.uint64) << weights.dtype.type(bits - 1 - r)
    return out.astype(np.uint32), shift
