"""The type promotion tables, including Python scalars.

``TABLE`` holds the promotions the standard defines. ``COMPAT_TABLE`` adds NumPy 2's answer
for every other pair (mixed kinds: int + float -> float, bool + int -> int, uint64 + int64
-> float64), which the compatible semantics use (numr_array_api._core.semantics); in strict
mode a pair outside ``TABLE`` raises DTypeMismatch. Both are written once here, for every
backend; ``Context.promote`` caps a result the device cannot hold (float64 on an adapter
without shader-f64).
"""

import numpy as np

from . import dtypes as dt
from .errors import DTypeMismatch
from .semantics import strict

__all__ = ["TABLE", "COMPAT_TABLE", "lookup", "promote", "promote_many", "scalar_fits",
           "result_type_of_scalar"]

_SIGNED = (dt.int8, dt.int16, dt.int32, dt.int64)
_UNSIGNED = (dt.uint8, dt.uint16, dt.uint32, dt.uint64)


def _build_table():
    table = {}
    for d in dt.ALL_DTYPES:
        table[(d, d)] = d
    for group in (_SIGNED, _UNSIGNED, (dt.float16, dt.float32, dt.float64), (dt.complex64, dt.complex128)):
        for a in group:
            for b in group:
                table[(a, b)] = a if a._rank >= b._rank else b
    for u in _UNSIGNED:
        for s in _SIGNED:
            if u is dt.uint64:
                continue
            # the smallest signed type holding both ranges
            need = max(u.itemsize * 2, s.itemsize)
            r = {1: dt.int8, 2: dt.int16, 4: dt.int32, 8: dt.int64}[need]
            table[(u, s)] = table[(s, u)] = r
    for f in (dt.float16, dt.float32, dt.float64):
        for c in (dt.complex64, dt.complex128):
            r = dt.complex128 if (f is dt.float64 or c is dt.complex128) else dt.complex64
            table[(f, c)] = table[(c, f)] = r
    return table


TABLE = _build_table()


def _build_compat_table():
    table = dict(TABLE)
    for a in dt.ALL_DTYPES:
        for b in dt.ALL_DTYPES:
            if (a, b) not in table:
                table[(a, b)] = dt.from_numpy(np.promote_types(a.np, b.np))
    return table


COMPAT_TABLE = _build_compat_table()


def lookup(a, b):
    """The promoted dtype of ``a`` and ``b`` in the current semantics, or None (strict mode,
    a pair the standard leaves undefined)."""
    r = TABLE.get((a, b))
    if r is None and not strict():
        return COMPAT_TABLE[(a, b)]
    return r


def promote(a, b):
    """Result dtype of two array dtypes; raises DTypeMismatch if the standard leaves it
    undefined and the semantics are strict."""
    r = lookup(a, b)
    if r is None:
        raise DTypeMismatch(
            f"{a.name} and {b.name} cannot be promoted together: the array API defines no "
            f"promotion between them and numr's semantics are strict (cast one with astype "
            f"first, or use the compatible semantics)", a, b)
    return r


def promote_many(dtypes):
    it = iter(dtypes)
    r = next(it)
    for d in it:
        r = promote(r, d)
    return r


def scalar_fits(value, dtype):
    """Whether a Python scalar may be combined with an array of ``dtype`` (the standard's rules)."""
    t = type(value)
    k = dtype.kind
    if t is bool:
        return True  # bool scalars combine with every dtype (they are also ints)
    if t is int:
        return k in "iufc"
    if t is float:
        return k in "fc"
    if t is complex:
        return k == "c"
    return False


def check_scalar(value, dtype, argname):
    """Validate a Python scalar operand against an array dtype, raising a clear error."""
    if not scalar_fits(value, dtype):
        t = type(value)
        raise DTypeMismatch(
            f"'{argname}': a Python {t.__name__} cannot be combined with an array of dtype "
            f"{dtype.name}", dtype, None)


def result_type_of_scalar(value):
    """Default dtype family of a Python scalar (used when two scalars meet in result_type)."""
    t = type(value)
    if t is bool:
        return "b"
    if t is int:
        return "i"
    if t is float:
        return "f"
    if t is complex:
        return "c"
    return None
