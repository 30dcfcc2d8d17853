"""Host-side randomness for scrambling: the one place seeds become random numbers.

Every random quantity (scramble matrices, digital shifts, digit permutations, LHS
permutations and jitter) is drawn here with NumPy's ``Generator(PCG64(seed))`` on the host,
in a fixed documented order, and only then handed to the target namespace. PCG64 and the
Generator methods used are stable across platforms, so a seed gives the same points on
every backend and machine.
"""

import numpy as np

from ..._core.errors import InvalidArgument
from .._namespace import check_int


def generator(seed):
    """``Generator(PCG64(seed))``; None draws fresh OS entropy (not reproducible)."""
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.Generator(np.random.PCG64())
    if isinstance(seed, np.random.SeedSequence):
        return np.random.Generator(np.random.PCG64(seed))
    try:
        seed = check_int(seed, "seed", low=0)
    except InvalidArgument:
        raise InvalidArgument("seed", f"must be None, a non-negative int, a numpy SeedSequence or "
                                      f"Generator, got {seed!r}") from None
    return np.random.Generator(np.random.PCG64(seed))
