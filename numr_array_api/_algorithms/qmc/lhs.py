"""Latin hypercube sampling, generated on the host from the seed.

Algorithm (the documented contract): ``rng = Generator(PCG64(seed))``;
``perm = rng.permuted(np.tile(np.arange(n), (d, 1)), axis=1)`` (one permutation of the n
strata per dimension, [d, n]); ``u = rng.random((n, d))``; ``x = (perm.T + u) / n`` in
float64, clamped below 1 (``n - 1 + u`` may round up to ``n``). Everything in it is
randomness, so it is computed once on the host and transferred: the values are the same
bits on every backend.
"""

import numpy as np

from .halton import ONE_BELOW_F32, ONE_BELOW_F64

__all__ = ["latin_hypercube_host"]


def latin_hypercube_host(n, d, rng, *, float32):
    perm = rng.permuted(np.tile(np.arange(n, dtype=np.int64), (d, 1)), axis=1)
    u = rng.random((n, d))
    x = (perm.T + u) / n if n else np.zeros((0, d))
    np.minimum(x, ONE_BELOW_F64, out=x)
    if float32:
        return np.minimum(x, ONE_BELOW_F32).astype(np.float32)
    return x
