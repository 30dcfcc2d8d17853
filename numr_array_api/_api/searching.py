"""Searching functions: argmax, argmin, count_nonzero, nonzero, searchsorted, where."""

from .._core import dtypes as dt
from .._core.errors import DTypeMismatch, InvalidArgument
from .._core.semantics import strict
from .._core.shapes import broadcast_named, check_addressable, normalize_axes, normalize_axis
from ._common import (PY_SCALARS, check_py_scalar, promote_arrays, py_scalar, require_array,
                      require_kind, require_same_device, scalar_promote)


def build(ctx):
    be = ctx.be
    wrap = ctx.wrap
    A = ctx.ArrayT

    def _arg(name, x, axis, keepdims):
        require_array(ctx, x, name)
        if x._dtype.kind == "b" and not strict():
            x = ctx.wrap(be.astype(x._data, dt.uint8))  # NumPy's argmax of bool
        require_kind(x, "iuf", name)
        if axis is None:
            if x.size == 0:
                raise InvalidArgument("x", f"{name}: empty array")
            ax = None
        else:
            ax = normalize_axis(axis, x.ndim)
            if x.shape[ax] == 0:
                raise InvalidArgument("x", f"{name}: empty axis {ax}")
        return wrap(be.astype(getattr(be, name)(x._data, ax, bool(keepdims)),
                              ctx.default_index, copy=False))

    def argmax(x, /, *, axis=None, keepdims=False):
        return _arg("argmax", x, axis, keepdims)

    def argmin(x, /, *, axis=None, keepdims=False):
        return _arg("argmin", x, axis, keepdims)

    def count_nonzero(x, /, *, axis=None, keepdims=False):
        require_array(ctx, x, "count_nonzero")
        axes = normalize_axes(axis, x.ndim)
        return wrap(be.count_nonzero(x._data, axes, bool(keepdims)))

    def nonzero(x, /):
        require_array(ctx, x, "nonzero")
        if x.ndim == 0:
            raise InvalidArgument("x", "nonzero: 0-d arrays are not allowed; use "
                                       "nonzero(reshape(x, (1,)))")
        return tuple(wrap(be.astype(d, ctx.default_index, copy=False))
                     for d in be.nonzero(x._data))

    def searchsorted(x1, x2, /, *, side="left", sorter=None):
        require_array(ctx, x1, "searchsorted", "x1")
        require_kind(x1, "iuf", "searchsorted", "x1")
        if x1.ndim != 1:
            raise InvalidArgument("x1", f"searchsorted: must be 1-D, got {x1.ndim}-D")
        if side not in ("left", "right"):
            raise InvalidArgument("side", f"searchsorted: must be 'left' or 'right', got {side!r}")
        t = x1._dtype
        x2 = py_scalar(x2)
        if x2.__class__ is A:
            require_same_device(ctx, "searchsorted", x1, x2)
            t = promote_arrays(ctx, "searchsorted", x1, x2)
            if t.kind not in "iuf":
                raise DTypeMismatch(f"searchsorted: 'x2' has dtype {x2._dtype.name}; the "
                                    f"values must be real", x1._dtype, x2._dtype)
            v = x2._data if x2._dtype is t else be.astype(x2._data, t)
        elif type(x2) in PY_SCALARS:
            t = scalar_promote(ctx, x2, t, "searchsorted", "x2", be.device_of(x1._data))
            if t.kind not in "iuf":
                raise DTypeMismatch(f"searchsorted: 'x2' must be real, got {x2!r}", t, None)
            v = be.full((), x2, t, be.device_of(x1._data))
        else:
            require_array(ctx, x2, "searchsorted", "x2")
        if sorter is not None:
            require_array(ctx, sorter, "searchsorted", "sorter")
            require_kind(sorter, "iu", "searchsorted", "sorter")
            if sorter.shape != x1.shape:
                raise InvalidArgument("sorter", "searchsorted: must have the shape of 'x1'")
            require_same_device(ctx, "searchsorted", x1, sorter, names=("x1", "sorter"))
            # x1 in sorted order through the checked gather of every backend: a sorter
            # entry out of bounds raises InvalidIndex, never reads another element
            x1_sorted = be.take(x1._data, sorter._data, 0)
        d1 = x1._data if sorter is None else x1_sorted
        d1 = d1 if x1._dtype is t else be.astype(d1, t)
        return wrap(be.astype(be.searchsorted(d1, v, side, None), ctx.default_index,
                              copy=False))

    B = dt.bool_
    single_device = len(tuple(be.devices())) <= 1
    # a wrapped module that computes sizes in wrapping integers (CuPy) gets only operands of
    # one shape on the fast path: a broadcast result is checked against the size bound first
    same_shape_only = getattr(be, "wrapping_byte_counts", False)

    def where(condition, x1, x2, /):
        # fast path: a bool condition and two arrays of one dtype, on a one-device namespace
        # (the kernel itself reports a shape mismatch, re-validated below for numr's error)
        if single_device and condition.__class__ is A and x1.__class__ is A \
                and x2.__class__ is A and condition._dtype is B and x1._dtype is x2._dtype \
                and (not same_shape_only or
                     condition._data.shape == x1._data.shape == x2._data.shape):
            try:
                return wrap(be.where(condition._data, x1._data, x2._data))
            except ValueError:
                pass
        return _where(condition, x1, x2)

    def _where(condition, x1, x2):
        x1, x2 = py_scalar(x1), py_scalar(x2)
        require_array(ctx, condition, "where", "condition")
        if condition._dtype is not dt.bool_:
            raise DTypeMismatch(f"where: 'condition' must be a bool array, got "
                                f"{condition._dtype.name}", condition._dtype, None)
        arrays = [a for a in (x1, x2) if a.__class__ is A]
        for name, v in (("x1", x1), ("x2", x2)):
            if v.__class__ is not A and type(v) not in PY_SCALARS:
                require_array(ctx, v, "where", name)
        if not arrays:
            raise TypeError("where: at least one of 'x1' and 'x2' must be an array")
        require_same_device(ctx, "where", condition, *arrays,
                            names=("condition", "x1", "x2"))
        if len(arrays) == 2:
            t = promote_arrays(ctx, "where", x1, x2)
        else:
            t = arrays[0]._dtype
            for name, v in (("x1", x1), ("x2", x2)):
                if v.__class__ is not A:
                    t = scalar_promote(ctx, v, t, "where", name, be.device_of(condition._data))
        ops = []
        for name, v in (("x1", x1), ("x2", x2)):
            if v.__class__ is A:
                ops.append(v._data if v._dtype is t else be.astype(v._data, t))
            else:
                check_py_scalar(v, t, "where", name)
                # a backend without native scalars keeps its cached 0-d operand (no fill
                # kernel a call); the others get a 0-d array of the promoted dtype
                ops.append(be.full((), v, t, be.device_of(condition._data))
                           if be.scalars_native else be.scalar_operand(v, t))
        shape = broadcast_named("where", condition=condition.shape,
                                **{n: v.shape for n, v in (("x1", x1), ("x2", x2))
                                   if v.__class__ is A})
        check_addressable(be, "where", shape)
        return wrap(be.where(condition._data, ops[0], ops[1]))

    return {"argmax": argmax, "argmin": argmin, "count_nonzero": count_nonzero,
            "nonzero": nonzero, "searchsorted": searchsorted, "where": where}
