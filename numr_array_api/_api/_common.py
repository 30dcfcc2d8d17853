"""Validation helpers shared by the front-end modules."""

import numpy as np

from .._core import dtypes as dt
from .._core.errors import DTypeMismatch, InvalidArgument, InvalidType, OutOfRange
from .._core.semantics import strict

PY_SCALARS = (bool, int, float, complex)


def py_scalar(value):
    """A NumPy scalar (np.float64, np.int32, np.bool_, ...) as the Python scalar of its kind.

    Consumers (scikit-learn, SciPy) pass NumPy scalars where the standard says Python
    scalar; array-api-strict and PyTorch accept them, so numr treats them as the Python
    scalar of the same kind (weakly typed, as the standard's scalar rules say). Anything
    else is returned unchanged for the caller's own validation.
    """
    if isinstance(value, np.generic) and value.dtype.kind in "biufc":
        v = value.item()
        if type(v) in PY_SCALARS:
            return v
    return value

KIND_WORDS = {
    "b": "boolean", "iu": "integer", "biu": "integer or boolean", "iuf": "real-valued",
    "f": "real floating-point", "fc": "floating-point", "c": "complex floating-point",
    "iufc": "numeric", "biufc": "any",
}


def kind_word(kinds):
    return KIND_WORDS.get(kinds, kinds)


def require_array(ctx, x, fname, argname="x"):
    """``x`` if it is an array of this namespace; else NamespaceMismatch (an array of another
    numr namespace) or InvalidType (both TypeErrors)."""
    if x.__class__ is ctx.ArrayT:
        return x
    from .._core.array import Array
    if isinstance(x, Array):
        from .._core.boundary import namespace_mismatch
        raise namespace_mismatch(ctx, fname, argname, x)
    raise InvalidType(f"{fname}: '{argname}' must be an array of {ctx.module.__name__}, got "
                      f"{type(x).__name__}")


def require_kind(x, kinds, fname, argname="x"):
    if x._dtype.kind not in kinds:
        raise DTypeMismatch(f"{fname}: '{argname}' has dtype {x._dtype.name}, but {fname} "
                            f"accepts only {kind_word(kinds)} dtypes", x._dtype, None)
    return x


def require_same_device(ctx, fname, *arrays, names=("x1", "x2", "x3")):
    """The device of ``arrays`` (of this namespace); DeviceMismatch naming both devices when
    they differ."""
    be = ctx.be
    dev = be.device_of(arrays[0]._data)
    for i, a in enumerate(arrays[1:], 1):
        d = be.device_of(a._data)
        if d != dev:
            from .._core.boundary import device_mismatch
            n = lambda j: names[j] if j < len(names) else f"arrays[{j}]"  # noqa: E731
            raise device_mismatch(fname, n(0), dev, n(i), d)
    return dev


def require_key_devices(ctx, fname, x, key, value=None):
    """DeviceMismatch unless the array indices in the normalised ``key`` (and an array
    ``value``) are on the device of ``x``; nothing is read or written before."""
    if ctx.single_device:
        return
    A = ctx.ArrayT
    dev = ctx.be.device_of
    d = dev(x._data)
    for i, k in enumerate(key):
        if k.__class__ is A and dev(k._data) is not d:
            from .._core.boundary import device_mismatch
            raise device_mismatch(fname, "x", d, f"key[{i}]", dev(k._data))
    if value.__class__ is A and dev(value._data) is not d:
        from .._core.boundary import device_mismatch
        raise device_mismatch(fname, "x", d, "value", dev(value._data))


def cast_scalar(value, t, fname, argname="value"):
    """A Python scalar stored into an array of dtype ``t`` (setitem, full): NumPy truncates a
    float into an integer array and stores a number's truth value into a bool array
    (compatible semantics; strict leaves ``value`` for check_py_scalar to refuse)."""
    tv = type(value)
    if strict() or tv is complex or (tv is bool) or (tv is int and t.kind != "b"):
        return value
    if t.kind == "b":
        return bool(value)
    if tv is float and t.kind in "iu":
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidArgument(argname, f"{fname}: cannot store {value} in an array of "
                                           f"dtype {t.name}")
        return int(value)
    return value


def check_py_scalar(value, dtype, fname, argname):
    """The standard's rules for a Python scalar operand next to an array of ``dtype``."""
    t = type(value)
    k = dtype.kind
    if t is bool:
        ok = True
    elif t is int:
        ok = k in "iufc"
        if ok and k in "iu":
            ii = np.iinfo(dtype.np)
            if value < ii.min or value > ii.max:
                raise OutOfRange(f"{fname}: Python int {value} is out of bounds for "
                                 f"{dtype.name} ('{argname}')")
    elif t is float:
        ok = k in "fc"
    elif t is complex:
        ok = k == "c"
    else:
        ok = False
    if not ok:
        raise DTypeMismatch(f"{fname}: a Python {t.__name__} ('{argname}') cannot be combined "
                            f"with an array of dtype {dtype.name}", dtype, None)


def scalar_dtype(ctx, value, device=None):
    """The default dtype a lone Python scalar takes in this namespace (on ``device``)."""
    f, i, c, _ = ctx.defaults_for(device)
    t = type(value)
    if t is bool:
        return dt.bool_
    if t is int:
        return i
    if t is float:
        return f
    if t is complex:
        return c
    raise InvalidType(f"expected a Python scalar, got {t.__name__}")


def no_promotion(fname, t1, t2, names=("x1", "x2")):
    """The error for two dtypes without a promotion in the current (strict) semantics."""
    return DTypeMismatch(f"{fname}: dtypes {t1.name} ('{names[0]}') and {t2.name} "
                         f"('{names[1]}') have no promotion in the array API; cast one with "
                         f"astype first (the compatible semantics promote them as NumPy does)",
                         t1, t2)


def promote_arrays(ctx, fname, x1, x2, names=("x1", "x2")):
    """The promoted dtype of two arrays of this namespace (same device checked by the
    caller), or DTypeMismatch."""
    t = ctx.promote(x1._dtype, x2._dtype, ctx.be.device_of(x1._data))
    if t is None:
        raise no_promotion(fname, x1._dtype, x2._dtype, names)
    return t


def scalar_promote(ctx, value, t, fname, argname, device=None):
    """The dtype an array of dtype ``t`` and the Python scalar ``value`` compute in.

    Strict semantics: ``t`` when the standard allows the pair (else DTypeMismatch). The
    compatible semantics follow NumPy 2 (NEP 50): a scalar of a higher kind promotes the
    array as the scalar's default dtype would (an int array and a float give the default
    float; a bool array and an int the default int). Integers are range-checked against
    the result either way.
    """
    if not strict():
        k = t.kind
        tv = type(value)
        if (tv is int and k == "b") or (tv is float and k in "biu") or \
                (tv is complex and k in "biu"):
            t = ctx.promote(t, scalar_dtype(ctx, value, device), device)
        elif tv is complex and k == "f":
            t = dt.COMPLEX_OF_REAL_FLOAT[t]
    check_py_scalar(value, t, fname, argname)
    return t


def promote_pair(ctx, fname, x1, x2, kinds="iufc"):
    """Validate two arrays of this namespace; return their payloads in the promoted dtype."""
    require_array(ctx, x1, fname, "x1")
    require_array(ctx, x2, fname, "x2")
    require_same_device(ctx, fname, x1, x2)
    t = promote_arrays(ctx, fname, x1, x2)
    if t.kind not in kinds and kinds == "fc" and t.kind in "biu" and not strict():
        t = ctx.defaults_for(ctx.be.device_of(x1._data))[0]  # NumPy's linalg.solve(int, int)
    if t.kind not in kinds:
        raise DTypeMismatch(f"{fname}: accepts only numeric dtypes, got {t.name}", t, None)
    be = ctx.be
    d1 = x1._data if x1._dtype is t else be.astype(x1._data, t)
    d2 = x2._data if x2._dtype is t else be.astype(x2._data, t)
    return d1, d2, t


def readonly_error(fname, argname="x"):
    """The error for a write into a read-only array (docs/reliability.md, "Read-only
    arrays")."""
    return InvalidArgument(argname, f"{fname}: '{argname}' is read-only (a broadcast view, a "
                                    f"view of one, or read-only memory); copy it first "
                                    f"(asarray(x, copy=True))")
