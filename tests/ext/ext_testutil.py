"""Array conversion helpers shared by the ext tests."""

import numpy as np


def to_numpy(x):
    if isinstance(x, np.ndarray):
        return x
    try:
        return np.asarray(x)
    except Exception:
        return np.from_dlpack(x)


def from_numpy(xp, a):
    return xp.asarray(np.ascontiguousarray(a))
