"""Shared by the subprocess check scripts: a tiny recorder and comparison helpers."""

import importlib
import json
import os
import sys
import traceback

import numpy as np

assert os.environ.get("SCIPY_ARRAY_API") == "1"
assert "scipy" not in sys.modules, "scipy was imported before SCIPY_ARRAY_API was set"

BACKEND = sys.argv[1] if len(sys.argv) > 1 else "cpu"
xp = importlib.import_module(f"numr_array_api.{BACKEND}")
REPORT = {}


def host(a):
    return np.asarray(a.to_device("cpu")) if hasattr(a, "to_device") else np.asarray(a)


def is_numr(a):
    import array_api_compat
    try:
        ns = array_api_compat.array_namespace(a)
    except TypeError:
        return False
    return ns.__name__ == xp.__name__ and type(a).__module__ == xp.__name__


def check(name):
    def deco(fn):
        try:
            fn()
            REPORT[name] = {"ok": True, "detail": ""}
        except Exception:
            REPORT[name] = {"ok": False, "detail": traceback.format_exc()[-3000:]}
        return fn
    return deco


def same(numr_out, np_out, what, rtol=1e-7, atol=1e-9):
    assert is_numr(numr_out), f"{what}: result is {type(numr_out)!r}, not a {xp.__name__} array"
    got = host(numr_out)
    ref = np.asarray(np_out)
    assert got.shape == ref.shape, f"{what}: shape {got.shape} != {ref.shape}"
    np.testing.assert_allclose(got, ref, rtol=rtol, atol=atol, err_msg=what)


def finish():
    print("NUMR-REPORT " + json.dumps(REPORT))
