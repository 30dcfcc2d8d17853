"""Array conversion helpers shared by the ext tests."""

import importlib

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


def _numr_cpu():
    try:
        xp = importlib.import_module("numr_array_api.cpu")
        xp.asarray([1.0])
        return xp
    except Exception:
        return None


def _namespaces():
    out = []
    import array_api_compat.numpy as cnp

    out.append(("numpy", cnp))
    try:
        import array_api_strict as xs

        out.append(("array_api_strict", xs))
    except ImportError:  # pragma: no cover
        pass
    cpu = _numr_cpu()
    if cpu is not None:
        out.append(("numr_cpu", cpu))
    return out


NAMESPACES = _namespaces()
