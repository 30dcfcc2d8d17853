"""Data type functions: astype, can_cast, finfo, iinfo, isdtype, result_type."""

from dataclasses import dataclass

import numpy as np

from .._core import dtypes as dt
from .._core.errors import DTypeMismatch, InvalidArgument
from .._core.promotion import TABLE, promote
from .._core.semantics import strict
from ._common import PY_SCALARS, check_py_scalar, require_array, scalar_promote


@dataclass(frozen=True)
class finfo_object:
    bits: int
    eps: float
    max: float
    min: float
    smallest_normal: float
    dtype: dt.DType


@dataclass(frozen=True)
class iinfo_object:
    bits: int
    max: int
    min: int
    dtype: dt.DType


def build(ctx):
    be = ctx.be

    def astype(x, dtype, /, *, copy=True, device=None):
        require_array(ctx, x, "astype")
        if dt.coerce(dtype) is None:
            raise TypeError(f"astype: 'dtype' must be a numr dtype, got {dtype!r}"
                            f"{dt.spelling_note(dtype)}")
        dtype = ctx.check_dtype(dtype)
        if x._dtype.kind == "c" and dtype.kind not in "c":
            raise DTypeMismatch(f"astype: casting complex {x._dtype.name} to {dtype.name} would "
                                f"discard the imaginary part; take real() or abs() first",
                                x._dtype, dtype)
        if device is not None:
            x = ctx.to_device(x, device, None)
        if dtype is x._dtype and not copy:
            return x
        return ctx.wrap(be.astype(x._data, dtype, copy=True))

    def _dtype_of(value, fname, argname):
        d = dt.coerce(value)
        if d is not None:
            return d
        if value.__class__ is ctx.ArrayT:
            return value._dtype
        raise TypeError(f"{fname}: '{argname}' must be a numr dtype or array, got {value!r}"
                        f"{dt.spelling_note(value)}")

    def can_cast(from_, to, /):
        f = _dtype_of(from_, "can_cast", "from_")
        t = dt.coerce(to)
        if t is None:
            raise TypeError(f"can_cast: 'to' must be a numr dtype, got {to!r}"
                            f"{dt.spelling_note(to)}")
        if TABLE.get((f, t)) is t:
            return True
        # NumPy's safe casts beyond the standard's table (int16 -> float32, bool -> int8)
        return not strict() and bool(np.can_cast(f.np, t.np, "safe"))

    def finfo(type, /):
        d = _dtype_of(type, "finfo", "type")
        if d.kind not in "fc":
            raise DTypeMismatch(f"finfo: {d.name} is not a floating-point dtype", d, None)
        real = dt.REAL_FLOAT_OF_COMPLEX.get(d, d)
        fi = np.finfo(real.np)
        return finfo_object(int(fi.bits), float(fi.eps), float(fi.max), float(fi.min),
                            float(fi.smallest_normal), real)

    def iinfo(type, /):
        d = _dtype_of(type, "iinfo", "type")
        if d.kind not in "iu":
            raise DTypeMismatch(f"iinfo: {d.name} is not an integer dtype", d, None)
        ii = np.iinfo(d.np)
        return iinfo_object(int(ii.bits), int(ii.max), int(ii.min), d)

    def isdtype(dtype, kind):
        d = dt.coerce(dtype)
        if d is None:
            raise TypeError(f"isdtype: 'dtype' must be a numr dtype, got {dtype!r}"
                            f"{dt.spelling_note(dtype)}")
        dtype = d
        if isinstance(kind, tuple):
            return any(isdtype(dtype, k) for k in kind)
        if isinstance(kind, (dt.DType, np.dtype, type)):
            return dtype is dt.coerce(kind)
        if isinstance(kind, str):
            codes = dt.KIND_NAMES.get(kind)
            if codes is None:
                raise InvalidArgument("kind", f"unknown dtype kind {kind!r}; expected one of "
                                              f"{sorted(dt.KIND_NAMES)}")
            return dtype.kind in codes
        raise TypeError(f"isdtype: 'kind' must be a dtype, a kind name or a tuple, got {kind!r}")

    def result_type(*arrays_and_dtypes):
        if not arrays_and_dtypes:
            raise InvalidArgument("arrays_and_dtypes", "at least one array or dtype is required")
        dtypes_, scalars = [], []
        for i, v in enumerate(arrays_and_dtypes):
            if type(v) in PY_SCALARS:
                scalars.append(v)
            else:
                dtypes_.append(_dtype_of(v, "result_type", f"arrays_and_dtypes[{i}]"))
        if dtypes_:
            r = dtypes_[0]
            for d in dtypes_[1:]:
                t = ctx.promote(r, d)
                if t is None:
                    promote(r, d)  # strict semantics: the standard's error
                r = t
        else:
            # scalars alone take the default dtype of the widest kind among them
            order = {bool: 0, int: 1, float: 2, complex: 3}
            top = max((type(s) for s in scalars), key=order.__getitem__)
            r = {bool: dt.bool_, int: ctx.default_int, float: ctx.default_float,
                 complex: ctx.default_complex}[top]
            scalars = []
        for s in scalars:
            if type(s) is complex and r.kind == "f":
                r = dt.COMPLEX_OF_REAL_FLOAT[r]  # 2024.12: complex scalars promote real floats
            if type(s) is int and r.kind in "iu":
                continue  # bounds are checked where the value is used, not by its dtype
            if not strict():
                r = scalar_promote(ctx, s if type(s) is not int else 0, r, "result_type",
                                   "arrays_and_dtypes")
                continue
            check_py_scalar(s, r, "result_type", "arrays_and_dtypes")
        return r

    return {"astype": astype, "can_cast": can_cast, "finfo": finfo, "iinfo": iinfo,
            "isdtype": isdtype, "result_type": result_type}
