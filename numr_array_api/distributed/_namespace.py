"""Builds a Cubed chunk namespace (numr_array_api.distributed.cpu / .cuda / .webgpu).

Cubed's chunk functions are written against NumPy-like namespaces (NumPy, CuPy, JAX) and use
three things numr's strict namespaces refuse on purpose:

* mixed-kind arithmetic: its mean / var / nanmean intermediates divide and multiply a float
  total by an ``int64`` count (``total / n``, ``n_a * mu_a``, ``n - correction``);
* ``full`` / ``full_like`` of a bool dtype with an int fill value (``zeros_like`` of a bool
  array is ``full(shape, 0, dtype=bool)`` in Cubed), cast as NumPy casts it;
* ``nansum`` (no nan-reductions in the standard), ``mean(x, dtype=...)``, ``prod`` of a
  shape tuple (``prod(shape, dtype=...)``) and ``take`` with a Python int (``take(a, 0,
  axis=k)`` drops axis ``k``, as ``a[..., 0, ...]``);
* ``__array_namespace_info__().default_dtypes(device="cpu")``: a Cubed array reports the
  device ``"cpu"`` whatever its chunks' namespace, meaning "where the chunks live" (here:
  the default device, the one a worker is pinned to);
* NumPy dtypes as ``dtype=`` arguments (Cubed normalises every dtype with ``np.dtype``);
  the shared front-end accepts those everywhere (``_core.dtypes.coerce``).

Each chunk namespace is a second numr namespace over the *same* backend object as its strict
sibling (same devices, memory pools, kernels), whose binary elementwise functions and
operators follow NumPy's promotion where the standard defines none, with the extras above.
Everything runs on the chunk's device: the promotions are device casts (``astype``), the
nan-reductions are ``isnan`` / ``where`` / ``sum`` kernels (``numr_array_api.ext.reductions``).
"""

import importlib

import numpy as np

from .._api._common import PY_SCALARS
from .._api.elementwise import BINARY_OPERATORS, COMPARISONS
from .._core.functions import BINARY
from .._core import dtypes as dt
from .._core.namespace import name_by_attribute, populate
from .._core.promotion import TABLE
from ..ext import reductions

__all__ = ["build", "NUMPY_MIXED_KIND"]


def _numpy_mixed_kind_table():
    """(dtype, dtype) -> NumPy's result dtype, for the pairs the standard leaves undefined."""
    out = {}
    for a in dt.ALL_DTYPES:
        for b in dt.ALL_DTYPES:
            if (a, b) not in TABLE:
                r = dt.from_numpy(np.result_type(a.np, b.np))
                if r is not None:
                    out[(a, b)] = r
    return out


NUMPY_MIXED_KIND = _numpy_mixed_kind_table()


def _scalar_promotion(ctx, x, value):
    """The dtype NumPy (NEP 50) gives an array of ``x``'s dtype combined with a Python
    scalar the standard does not allow with it (a float with an integer array, ...)."""
    k = x._dtype.kind
    t = type(value)
    f, i, c, _ = ctx.defaults_for(x.device)
    if t is complex and k in "biu":
        return c
    if t is float and k in "biu":
        return f
    if t is int and k == "b":
        return i
    return None


def _numpy_promoting(ctx, fn):
    """``fn`` (a binary elementwise function) with mixed-kind operands cast first."""
    A = ctx.ArrayT
    astype = ctx.api.astype

    def promoted(x1, x2, /):
        a1 = x1.__class__ is A
        a2 = x2.__class__ is A
        if a1 and a2:
            t = NUMPY_MIXED_KIND.get((x1._dtype, x2._dtype))
            if t is not None:
                x1 = x1 if x1._dtype is t else astype(x1, t)
                x2 = x2 if x2._dtype is t else astype(x2, t)
        elif a1 and type(x2) in PY_SCALARS:
            t = _scalar_promotion(ctx, x1, x2)
            if t is not None:
                x1 = astype(x1, t)
        elif a2 and type(x1) in PY_SCALARS:
            t = _scalar_promotion(ctx, x2, x1)
            if t is not None:
                x2 = astype(x2, t)
        return fn(x1, x2)

    promoted.__name__ = fn.__name__
    promoted.__doc__ = fn.__doc__
    promoted.inplace = fn.inplace
    return promoted


def _attach_operators(ctx, ns):
    A = ctx.ArrayT
    NI = NotImplemented

    def forward(fn):
        def op(self, other, /):
            if other.__class__ is A or type(other) in PY_SCALARS:
                return fn(self, other)
            return NI
        return op

    def reflected(fn):
        def rop(self, other, /):
            if type(other) in PY_SCALARS:
                return fn(other, self)
            return NI
        return rop

    for opname, fname in BINARY_OPERATORS.items():
        setattr(A, f"__{opname}__", forward(ns[fname]))
        setattr(A, f"__r{opname}__", reflected(ns[fname]))
    for opname, fname in COMPARISONS.items():
        setattr(A, f"__{opname}__", forward(ns[fname]))


def _extras(ctx, ns):
    mean, prod, sum_, asarray = ns["mean"], ns["prod"], ns["sum"], ns["asarray"]
    astype, take, full, full_like = ns["astype"], ns["take"], ns["full"], ns["full_like"]

    def _fill(fill_value, dtype):
        if type(fill_value) is int and dtype is not None and \
                dt.coerce(dtype) is dt.bool_:
            return bool(fill_value)
        return fill_value

    def full_(shape, fill_value, *, dtype=None, device=None):
        return full(shape, _fill(fill_value, dtype), dtype=dtype, device=device)

    def full_like_(x, /, fill_value, *, dtype=None, device=None):
        target = dtype if dtype is not None else getattr(x, "dtype", None)
        return full_like(x, _fill(fill_value, target), dtype=dtype, device=device)

    def mean_(x, /, *, axis=None, keepdims=False, dtype=None):
        """``mean``; ``dtype`` (NumPy's extension) computes in that floating dtype."""
        if dtype is not None:
            x = astype(x, ctx.check_dtype(dtype), copy=False)
        return mean(x, axis=axis, keepdims=keepdims)

    def _sequence(x, dtype):
        # Cubed reduces shape tuples (prod(shape, dtype=...)): a tuple of Python ints
        return asarray(x, dtype=dtype) if isinstance(x, (tuple, list)) else x

    def prod_(x, /, *, axis=None, dtype=None, keepdims=False):
        return prod(_sequence(x, dtype), axis=axis, dtype=dtype, keepdims=keepdims)

    def sum_seq(x, /, *, axis=None, dtype=None, keepdims=False):
        return sum_(_sequence(x, dtype), axis=axis, dtype=dtype, keepdims=keepdims)

    def take_(x, indices, /, *, axis=None):
        if type(indices) is int and x.__class__ is ctx.ArrayT:
            if axis is None:
                if x.ndim != 1:
                    return take(x, asarray(indices, device=x.device), axis=axis)
                axis = 0
            axis = axis + x.ndim if axis < 0 else axis
            return x[(slice(None),) * axis + (indices,)]
        return take(x, indices, axis=axis)

    for f, name in ((mean_, "mean"), (prod_, "prod"), (sum_seq, "sum"), (take_, "take"),
                    (full_, "full"), (full_like_, "full_like")):
        f.__name__ = name
        f.__doc__ = f.__doc__ or ns[name].__doc__
    return {"mean": mean_, "prod": prod_, "sum": sum_seq, "take": take_, "full": full_,
            "full_like": full_like_, "nansum": reductions.nansum,
            "nanmean": reductions.nanmean}


def _info(ctx, base):
    """The inspection API with Cubed's placeholder device "cpu" read as the default device."""
    foreign_cpu = ctx.be.device_kind != "cpu"

    def chunk_device(device):
        return None if foreign_cpu and isinstance(device, str) and device == "cpu" else device

    class __array_namespace_info__(base):
        __doc__ = base.__doc__

        def default_dtypes(self, *, device=None):
            return super().default_dtypes(device=chunk_device(device))

        def dtypes(self, *, device=None, kind=None):
            return super().dtypes(device=chunk_device(device), kind=kind)

    __array_namespace_info__.__module__ = base.__module__
    return __array_namespace_info__


def build(module_globals, strict_name):
    """Fill a chunk namespace module's globals: the strict namespace ``strict_name``
    rebuilt over the same backend object, with Cubed's NumPy behaviour on top."""
    strict = importlib.import_module(strict_name)
    ctx = populate(module_globals, strict._backend)
    # Cubed moves every chunk to its host storage with np.asarray: designed, not implicit
    ctx.checks_host_conversion = False
    ns = module_globals
    for name in BINARY:
        ns[name] = _numpy_promoting(ctx, ns[name])
    ns.update(_extras(ctx, ns))
    ns["__array_namespace_info__"] = _info(ctx, ns["__array_namespace_info__"])
    for k, v in ns.items():
        if callable(v) and not k.startswith("_") and hasattr(ctx.api, k):
            setattr(ctx.api, k, v)
    _attach_operators(ctx, ns)
    name_by_attribute(ns, module_globals["__name__"])
    return ctx
