"""The array API type promotion table, including Python scalars.

Only promotions the standard defines are allowed; every other combination (mixed kinds,
uint64 with a signed integer) raises DTypeMismatch rather than guessing, so code written
against numr runs unchanged on every compliant library.
"""

from . import dtypes as dt
from .errors import DTypeMismatch

__all__ = ["promote", "promote_many", "scalar_fits", "result_type_of_scalar"]

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


def promote(a, b):
    """Result dtype of two array dtypes; raises DTypeMismatch if the standard leaves it undefined."""
    r = TABLE.get((a, b))
    if r is None:
        raise DTypeMismatch(
            f"{a.name} and {b.name} cannot be promoted together: the array API defines no "
            f"promotion between them (cast one with astype first)", a, b)
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
