"""Data generated chunk by chunk on the chunks' device, reproducible exactly in NumPy.

``hashed_uniform`` is a Cubed array whose element with flat (C-order) index ``i`` is
``splitmix64(i + seed * golden)`` scaled to [0, 1). Each chunk computes its own indices with
``arange`` and hashes them with wrapping ``uint64`` arithmetic in the chunk namespace (numr
cpu / cuda / webgpu or array_api_compat.cupy), so an array larger than any one device's
memory, or than the disk, never exists anywhere as a whole, and ``reference(indices)``
gives the same bits in NumPy for any subsample.
"""

import functools
import math

import numpy as np

__all__ = ["hashed_uniform", "reference", "GOLDEN"]

GOLDEN = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB
# top bits kept per float type: every kept integer is exact in the float, so the scaled
# values are exactly the same on every backend
_BITS = {"float64": 53, "float32": 24}


def _splitmix(xp, i, seed, dtype_name, device=None):
    """[0, 1) floats of dtype ``dtype_name`` from uint64 indices ``i`` in namespace ``xp``.
    Constants are 0-d uint64 arrays: a Python int above 2**63 is refused next to a uint64
    array by some namespaces (NEP 50 value checks)."""
    kw = {} if device is None else {"device": device}

    def u64(c):
        return xp.asarray(c, dtype=xp.uint64, **kw)

    z = i + u64((GOLDEN * (seed + 1)) % 2**64)
    z = (z ^ (z >> u64(30))) * u64(_M1)
    z = (z ^ (z >> u64(27))) * u64(_M2)
    z = z ^ (z >> u64(31))
    bits = _BITS[dtype_name]
    f = getattr(xp, dtype_name)
    return xp.astype(z >> u64(64 - bits), f) * (1.0 / 2**bits)


def reference(flat_indices, *, seed=0, dtype="float64"):
    """The values of ``hashed_uniform(..., seed=seed, dtype=dtype)`` at ``flat_indices``
    (C-order flat indices), computed with NumPy."""
    i = np.asarray(flat_indices, dtype=np.uint64)
    with np.errstate(over="ignore"):
        return _splitmix(np, i, seed, dtype)


def _block(_template=None, *, shape, chunks, seed, dtype_name, block_id=None):
    # runs on a worker (Cubed passes its empty template block first); the chunk namespace
    # is Cubed's backend there
    from cubed.backend_array_api import namespace as nxp

    starts = [sum(c[:b]) for c, b in zip(chunks, block_id)]
    sizes = [c[b] for c, b in zip(chunks, block_id)]
    strides = [math.prod(shape[k + 1:]) for k in range(len(shape))]
    idx = None
    for k, (s0, n, st) in enumerate(zip(starts, sizes, strides)):
        # this axis's flat-index contribution, shaped to broadcast against the others
        ax = nxp.arange(s0 * st, (s0 + n) * st, st, dtype=nxp.int64) if n else \
            nxp.zeros((0,), dtype=nxp.int64)
        ax = nxp.reshape(ax, tuple(n if j == k else 1 for j in range(len(shape))))
        idx = ax if idx is None else idx + ax
    if idx is None:  # 0-d
        idx = nxp.zeros((), dtype=nxp.int64)
    idx = nxp.astype(nxp.broadcast_to(idx, tuple(sizes)), nxp.uint64)
    return _splitmix(nxp, idx, seed, dtype_name)


def hashed_uniform(shape, *, chunks, seed=0, dtype="float64", spec=None):
    """A Cubed array of ``shape`` with values in [0, 1) generated on the chunks' device
    (``dtype`` "float64" or "float32"; ``chunks`` as in Cubed: a shape or per-axis tuples).
    Element ``i`` (C-order) equals ``reference([i], seed=seed, dtype=dtype)[0]``."""
    import cubed
    from cubed.utils import normalize_chunks

    if dtype not in _BITS:
        raise ValueError(f"hashed_uniform: dtype must be one of {sorted(_BITS)}, got {dtype!r}")
    shape = tuple(int(s) for s in shape)
    chunks = normalize_chunks(chunks, shape=shape, dtype=np.dtype(dtype))
    fn = functools.partial(_block, shape=shape, chunks=chunks, seed=int(seed),
                           dtype_name=dtype)
    return cubed.map_blocks(fn, dtype=np.dtype(dtype), chunks=chunks, spec=spec)
