"""Backends that let the front-end stamp result dtypes (trusted_result_dtypes) must return
payloads of exactly that dtype for every elementwise function and accepted dtype."""

import importlib

import numpy as np
import pytest

from numr_array_api._api.elementwise import BINARY, UNARY
from numr_array_api._core import dtypes as dt

SAMPLE = {"b": [True, False, True], "i": [1, -2, 3], "u": [1, 2, 3], "f": [0.5, -1.5, 2.0],
          "c": [0.5 + 1j, -1.5, 2.0 - 0.5j]}


def _namespaces():
    out = []
    for name in ("cpu", "cuda"):
        try:
            xp = importlib.import_module(f"numr_array_api.{name}")
        except ImportError:
            continue
        be = getattr(xp, "_backend", None)
        if be is not None and be.trusted_result_dtypes and xp.__array_namespace_info__().devices():
            out.append(xp)
    return out


@pytest.mark.parametrize("xp", _namespaces(), ids=lambda m: m.__name__)
@pytest.mark.parametrize("name", sorted(UNARY) + sorted(BINARY))
def test_stamped_dtype_matches_payload(xp, name):
    kinds = (UNARY.get(name) or BINARY[name])[0]
    checked = 0
    for d in dt.STANDARD_DTYPES:
        if d.kind not in kinds:
            continue
        vals = SAMPLE[d.kind]
        if d.kind in "fc" and name in ("acos", "asin", "atanh"):
            vals = [abs(v) / 4 for v in vals]
        if d.kind in "iu" and name == "pow":
            vals = [abs(v) for v in vals]  # integers to negative powers raise, by design
        x = xp.asarray(np.asarray(vals).astype(d.np))
        with np.errstate(all="ignore"):
            r = getattr(xp, name)(x) if name in UNARY else getattr(xp, name)(x, x)
        assert r._data.dtype == r.dtype.np, f"{name}({d.name}): payload {r._data.dtype} but stamped {r.dtype}"
        checked += 1
    assert checked
