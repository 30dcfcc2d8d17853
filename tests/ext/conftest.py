"""Namespaces the ext tests run on: NumPy (through array_api_compat), array-api-strict,
and numr's cpu namespace once it imports."""

import importlib

import numpy as np
import pytest


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


@pytest.fixture(params=[xp for _, xp in NAMESPACES], ids=[n for n, _ in NAMESPACES])
def xp(request):
    return request.param
