"""One elementwise dispatch per scipy.special call on webgpu arrays.

The result dtype is SciPy's: the ufunc (or NumPy function) is asked once per combination
of operand dtypes, on zero-size NumPy arrays, so its loop selection (integers and float16
to float64 for most functions, float32 kept) is matched exactly. Operands are converted
on the device to that dtype, Python scalars become cached 0-d device scalars, and the
N-ary template (kernels/nary.py: broadcasting, strided views, arrays past one binding)
runs the function's snippet with the math library.
"""

from __future__ import annotations

import numbers

import numpy as np

from ....._core import dtypes as dt
from ....._core.array import Array
from ....._core.errors import (BackendLimitation, DTypeMismatch, InvalidArgument, InvalidType,
                              ShapeMismatch)
from ....._core.shapes import broadcast_shapes
from ...codegen.types import WTYPES, wtype
from ...kernels.nary import launch
from ...runtime.concurrency import LOCK
from ...storage import new_output
from ...wgsl import math_library
from ._snippets import HELPER_LIB, SNIPPETS, TOKENS, helper_source
from ._snippets_series import ADAPT, VARIANTS

_SPECS: dict = {}
_DTYPES: dict = {}
_NUMPY_ONLY = {"sinc": np.sinc}


def _reference(name):
    f = _NUMPY_ONLY.get(name)
    if f is None:
        import scipy.special
        f = getattr(scipy.special, name)
    return f


def result_dtype(name, kinds):
    """SciPy's result dtype (a NumPy dtype) for operands of ``kinds`` (NumPy dtypes for
    arrays, Python types for Python scalars)."""
    key = (name, kinds)
    r = _DTYPES.get(key)
    if r is None:
        dummies = [np.empty(0, k) if isinstance(k, np.dtype) else k(0) for k in kinds]
        with np.errstate(all="ignore"):
            r = np.asarray(_reference(name)(*dummies)).dtype
        _DTYPES[key] = r
    return r


def _spec(name, R):
    key = (name, R)
    s = _SPECS.get(key)
    if s is None:
        arity, body, lib, helpers = SNIPPETS.get(name) or VARIANTS[name]
        params = ", ".join(f"{v}: {R}" for v in "abc"[:arity])
        for k, v in TOKENS[R].items():
            body = body.replace(k, v)
        op = f"fn op({params}, e: u32) -> {R} {{\n{body.replace('$R', R)}\n}}"
        fns = set(lib) | {"abs", "is_nan", "is_inf", "is_finite", "copysign"}
        for h in helpers:
            fns |= set(HELPER_LIB[h])
        src = math_library(sorted(fns), R)
        for h in helpers:
            src += helper_source(h, R)
        s = _SPECS[key] = (op, src)
    return s


def _kind(v, name, i):
    if isinstance(v, Array):
        return np.dtype(v.dtype.name)
    if isinstance(v, np.generic):
        return v.dtype
    if isinstance(v, bool):
        return bool
    if isinstance(v, numbers.Integral):
        return int
    if isinstance(v, numbers.Real):
        return float
    if isinstance(v, numbers.Complex):
        raise BackendLimitation("webgpu", f"scipy.special.{name}",
                                f"complex argument {i} (real kernels only)")
    raise InvalidType(f"scipy.special.{name}: argument {i} must be a numr webgpu array or a "
                      f"Python / NumPy scalar, got {type(v).__name__} (a host array would "
                      f"need a host-to-device copy: convert it with xp.asarray first)")


def call(name, args, kwargs):
    """``scipy.special.<name>(*args[, out=])`` on webgpu arrays; BackendLimitation where no
    kernel covers the call (the function, another keyword argument, a complex or non-float
    result). ``out=``: a numr webgpu array written in place (cast into its dtype) and
    returned, as the ufunc does."""
    got = SNIPPETS.get(name)
    if got is None:
        raise BackendLimitation("webgpu", f"scipy.special.{name}",
                                "no WGSL kernel for this function")
    kernel = name
    adapt = ADAPT.get(name)
    if adapt is not None:   # (a signature other than a fixed-arity ufunc's)
        args, kwargs, variant = adapt(args, kwargs)
        if variant is not None:
            kernel, got = variant, VARIANTS[variant]
    out_arg = _out_argument(name, kwargs)
    arity = got[0]
    if len(args) != arity:
        raise InvalidArgument("args", f"scipy.special.{name} takes {arity} argument"
                                      f"{'s' if arity > 1 else ''}, got {len(args)}")
    kinds = tuple(_kind(v, name, i) for i, v in enumerate(args))
    np_out = result_dtype(name, kinds)
    if np_out not in (np.float32, np.float64):
        raise BackendLimitation("webgpu", f"scipy.special.{name}",
                                f"result dtype {np_out} (real float kernels only)")
    out_dtype = dt.float32 if np_out == np.float32 else dt.float64
    lead = next(v for v in args if isinstance(v, Array))
    ctx, be = lead._ctx, lead._ctx.be
    client = lead._data.client
    R = WTYPES[out_dtype].val
    t = wtype(out_dtype, client, f"scipy.special.{name}")
    with LOCK:
        ops = []
        for v in args:
            if isinstance(v, Array):
                s = v._data  # (one device: the public module refused mixed devices)
                if s.dtype is not out_dtype:
                    s = be.astype(s, out_dtype)
            else:
                s = be.scalar_operand(float(v), out_dtype, client)
            ops.append(s)
        shape = broadcast_shapes(*[s.shape for s in ops])
        op_src, lib_src = _spec(kernel, R)
        out = new_output(shape, out_dtype, client)
        out = launch(client, ("scipy.special", kernel, R), ops, [t] * arity, t, t, op_src,
                     lib_src, shape, out)
        if out_arg is None:
            return ctx.wrap(out)
        _check_out(name, out_arg, ctx, shape)
        be.store(out_arg._data, out)   # (casts into its dtype; a fresh result, so out may alias)
    return out_arg


# ufunc keywords accepted at their defaults (SciPy's own wrappers may pass them)
_DEFAULTS = {"where": True, "casting": "same_kind", "order": "K", "dtype": None, "subok": True,
             "signature": None}


def _out_argument(name, kwargs):
    out = None
    for k, v in kwargs.items():
        if k == "out":
            out = v[0] if isinstance(v, tuple) and len(v) == 1 else v
        elif k not in _DEFAULTS or not (v is _DEFAULTS[k] or (isinstance(v, str)
                                                                and v == _DEFAULTS[k])):
            raise BackendLimitation("webgpu", f"scipy.special.{name}",
                                    f"keyword argument '{k}={v!r}' is not supported")
    return out


def _check_out(name, out, ctx, shape):
    """out= as a ufunc takes it: an array of the arguments' namespace and device, of a float
    dtype (SciPy casts same_kind), whose shape the result broadcasts to."""
    if not isinstance(out, Array) or out._ctx is not ctx:
        raise BackendLimitation("webgpu", f"scipy.special.{name}",
                                f"out= must be a numr webgpu array, got {type(out).__name__}")
    if out.dtype.kind != "f":
        raise DTypeMismatch(f"scipy.special.{name}: cannot cast the float result into out= "
                            f"of dtype {out.dtype.name} (casting 'same_kind')")
    if broadcast_shapes(shape, out.shape) != tuple(out.shape):
        raise ShapeMismatch(f"scipy.special.{name}: result of shape {shape} does not fit out= "
                            f"of shape {out.shape}", expected=out.shape, got=shape)
