"""Utility functions: all, any, diff."""

import builtins

from .._core.errors import DTypeMismatch, InvalidArgument, ShapeMismatch
from .._core.promotion import TABLE
from .._core.shapes import normalize_axes, normalize_axis, as_int
from ._common import PY_SCALARS, check_py_scalar, py_scalar, require_array, scalar_promote


def build(ctx):
    be = ctx.be
    wrap = ctx.wrap
    A = ctx.ArrayT

    def _logical(name, x, axis, keepdims):
        require_array(ctx, x, name)
        axes = normalize_axes(axis, x.ndim)
        return wrap(be.reduce(name, x._data, axes, bool(keepdims)))

    def all(x, /, *, axis=None, keepdims=False):
        return _logical("all", x, axis, keepdims)

    def any(x, /, *, axis=None, keepdims=False):
        return _logical("any", x, axis, keepdims)

    def diff(x, /, *, axis=-1, n=1, prepend=None, append=None):
        require_array(ctx, x, "diff")
        if x.ndim == 0:
            raise InvalidArgument("x", "diff: needs at least one dimension")
        ax = normalize_axis(axis, x.ndim)
        n = as_int(n, "n")
        if n < 0:
            raise InvalidArgument("n", f"diff: must be non-negative, got {n}")
        extra = []
        # the standard defines only operands promoting to x's dtype; the compatible
        # semantics compute in the promoted dtype of all three, as NumPy does
        t = x._dtype
        for name, v in (("prepend", prepend), ("append", append)):
            v = py_scalar(v)
            if v.__class__ is A and TABLE.get((v._dtype, t)) is not t:
                r = ctx.promote(t, v._dtype, be.device_of(x._data))
                if r is None:
                    raise DTypeMismatch(f"diff: '{name}' dtype {v._dtype.name} does not promote "
                                        f"with {x._dtype.name}", x._dtype, v._dtype)
                t = r
            elif type(v) in PY_SCALARS:
                t = scalar_promote(ctx, v, t, "diff", name, be.device_of(x._data))
        if t is not x._dtype:
            x = wrap(be.astype(x._data, t))
        for name, v in (("prepend", prepend), ("append", append)):
            if v is None:
                extra.append(None)
                continue
            v = py_scalar(v)
            if v.__class__ is A:
                if v._dtype is not t:
                    v = wrap(be.astype(v._data, t))
                if v.ndim != x.ndim or builtins.any(a != b for i, (a, b) in
                                           enumerate(zip(v.shape, x.shape)) if i != ax):
                    raise ShapeMismatch(f"diff: '{name}' of shape {v.shape} does not match "
                                        f"{x.shape} outside axis {ax}", x.shape, v.shape)
                extra.append(v._data)
            elif type(v) in PY_SCALARS:
                check_py_scalar(v, x._dtype, "diff", name)
                extra.append(be.full((), v, x._dtype, be.device_of(x._data)))
            else:
                require_array(ctx, v, "diff", name)
        # n differences of L values leave max(L - n, 0): beyond L every n means the same, and
        # the backend loops n times
        total = x.shape[ax] + builtins.sum(0 if e is None else (e.shape[ax] if e.ndim else 1)
                                  for e in extra)
        n = min(n, total) if n else 0
        return wrap(be.diff(x._data, ax, n, extra[0], extra[1]))

    return {"all": all, "any": any, "diff": diff}
