"""Statistical functions: sum, prod, max, min, mean, var, std, cumulative sums/products."""

import math

from .._core import dtypes as dt
from .._core.errors import DTypeMismatch, InvalidArgument
from .._core.shapes import normalize_axes, normalize_axis
from .._core.semantics import strict
from ._common import require_array, require_kind


def accumulation_dtype(ctx, x_dtype, dtype, fname):
    """The standard's accumulator dtype: integers widen to the default integer of their
    signedness, floats keep their precision."""
    if dtype is not None:
        dtype = ctx.check_dtype(dtype)
        if x_dtype.kind == "c" and dtype.kind != "c":
            raise DTypeMismatch(f"{fname}: cannot accumulate complex {x_dtype.name} in "
                                f"{dtype.name}", x_dtype, dtype)
        return dtype
    k = x_dtype.kind
    if k == "b":
        return ctx.default_int
    if k == "i":
        return x_dtype if x_dtype.itemsize >= ctx.default_int.itemsize else ctx.default_int
    if k == "u":
        u = dt.uint64 if ctx.default_int.itemsize == 8 else dt.uint32
        return x_dtype if x_dtype.itemsize >= u.itemsize else u
    return x_dtype


def build(ctx):
    be = ctx.be
    wrap = ctx.wrap
    A = ctx.ArrayT
    FLOAT_OK = frozenset(d for d in dt.ALL_DTYPES if d.kind in "fc")

    def _keepdims(keepdims):
        # the boundary refused non-bools already; NumPy's bool scalars become Python's
        return keepdims if type(keepdims) is bool else bool(keepdims)

    sum_all = be.sum_all
    P = be.payload_type
    fix = be.fix_result
    DT = be.dtype_table
    stamp = be.trusted_result_dtypes

    def sum(x, /, *, axis=None, dtype=None, keepdims=False):
        if x.__class__ is A and axis is None and dtype is None and keepdims is False:
            t = x._dtype
            if t in FLOAT_OK:
                r = sum_all(x._data)
                if r.__class__ is not P:
                    r = fix(r)
                a = A()
                a._data = r
                a._dtype = t if stamp else DT[r.dtype]
                return a
        return _accumulate("sum", x, axis, dtype, keepdims)

    def prod(x, /, *, axis=None, dtype=None, keepdims=False):
        return _accumulate("prod", x, axis, dtype, keepdims)

    def _accumulate(name, x, axis, dtype, keepdims):
        require_array(ctx, x, name)
        require_kind(x, "biufc", name)
        axes = normalize_axes(axis, x.ndim)
        acc = accumulation_dtype(ctx, x._dtype, dtype, name)
        return wrap(be.reduce(name, x._data, axes, _keepdims(keepdims), acc))

    def _extreme(name, x, axis, keepdims):
        require_array(ctx, x, name)
        boolean = x._dtype.kind == "b" and not strict()  # NumPy: max is any, min is all
        if not boolean:
            require_kind(x, "iuf", name)
        axes = normalize_axes(axis, x.ndim)
        if any(x.shape[a] == 0 for a in axes) or (x.size == 0 and not axes):
            raise InvalidArgument("x", f"{name}: reduction over an empty axis has no identity")
        if boolean:
            return ctx.api.any(x, axis=axis, keepdims=keepdims) if name == "max" else \
                ctx.api.all(x, axis=axis, keepdims=keepdims)
        return wrap(be.reduce(name, x._data, axes, _keepdims(keepdims)))

    def max(x, /, *, axis=None, keepdims=False):
        return _extreme("max", x, axis, keepdims)

    def min(x, /, *, axis=None, keepdims=False):
        return _extreme("min", x, axis, keepdims)

    def _floating_input(x, kinds, name, dtype):
        """``x`` for a floating reduction: NumPy's ``dtype=`` (the precision it computes
        in) and integer / bool inputs as the default float, in the compatible semantics."""
        require_array(ctx, x, name)
        if dtype is not None:
            if strict():
                raise TypeError(f"{name}: 'dtype' is not a parameter of the standard's "
                                f"{name} (it is accepted in the compatible semantics)")
            dtype = ctx.check_dtype(dtype)
            if dtype.kind not in kinds or (x._dtype.kind == "c" and dtype.kind != "c"):
                raise DTypeMismatch(f"{name}: cannot compute a {x._dtype.name} {name} in "
                                    f"{dtype.name}", x._dtype, dtype)
            if dtype is not x._dtype:
                x = wrap(be.astype(x._data, dtype))
            return x
        return ctx.floating(x, kinds, name)

    def mean(x, /, *, axis=None, keepdims=False, dtype=None):
        x = _floating_input(x, "fc", "mean", dtype)
        axes = normalize_axes(axis, x.ndim)
        return wrap(be.reduce("mean", x._data, axes, _keepdims(keepdims)))

    def _moment(name, x, axis, correction, keepdims, dtype=None):
        x = _floating_input(x, "f", name, dtype)
        axes = normalize_axes(axis, x.ndim)
        if type(correction) not in (int, float) or not 0 <= correction < math.inf:
            raise InvalidArgument("correction", f"{name}: must be a non-negative number, got "
                                                f"{correction!r}")  # NaN / inf too
        if type(correction) is int and correction >= 1 << 53:
            correction = float(correction)  # beyond any count: the same result on every backend
        return wrap(be.var(x._data, axes, correction, _keepdims(keepdims), name == "std"))

    def var(x, /, *, axis=None, correction=0.0, keepdims=False, dtype=None):
        return _moment("var", x, axis, correction, keepdims, dtype)

    def std(x, /, *, axis=None, correction=0.0, keepdims=False, dtype=None):
        return _moment("std", x, axis, correction, keepdims, dtype)

    def _cumulative(name, x, axis, dtype, include_initial):
        fname = f"cumulative_{name}"
        require_array(ctx, x, fname)
        require_kind(x, "biufc", fname)
        if axis is None:
            if x.ndim > 1:
                raise InvalidArgument("axis", f"{fname}: 'axis' is required for arrays with "
                                              f"more than one dimension")
            if x.ndim == 0:
                raise InvalidArgument("x", f"{fname}: needs at least one dimension")
            ax = 0
        else:
            ax = normalize_axis(axis, x.ndim)
        acc = accumulation_dtype(ctx, x._dtype, dtype, fname)
        return wrap(be.cumulative(name, x._data, ax, acc, bool(include_initial)))

    def cumulative_sum(x, /, *, axis=None, dtype=None, include_initial=False):
        return _cumulative("sum", x, axis, dtype, include_initial)

    def cumulative_prod(x, /, *, axis=None, dtype=None, include_initial=False):
        return _cumulative("prod", x, axis, dtype, include_initial)

    return {"sum": sum, "prod": prod, "max": max, "min": min, "mean": mean, "var": var,
            "std": std, "cumulative_sum": cumulative_sum, "cumulative_prod": cumulative_prod}
