"""Set functions: unique_* (NaNs are distinct values) and isin."""

from collections import namedtuple

from ._common import (PY_SCALARS, check_py_scalar, promote_arrays, py_scalar, require_array,
                      require_same_device, scalar_promote)

UniqueAllResult = namedtuple("UniqueAllResult", ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


def build(ctx):
    be = ctx.be
    A = ctx.ArrayT

    def wrap_index(d):
        return ctx.wrap(be.astype(d, ctx.default_index, copy=False))

    def unique_all(x, /):
        require_array(ctx, x, "unique_all")
        v, i, inv, c = be.unique(x._data, counts=True, inverse=True, index=True)
        return UniqueAllResult(ctx.wrap(v), wrap_index(i), wrap_index(inv), wrap_index(c))

    def unique_counts(x, /):
        require_array(ctx, x, "unique_counts")
        v, _, _, c = be.unique(x._data, counts=True, inverse=False, index=False)
        return UniqueCountsResult(ctx.wrap(v), wrap_index(c))

    def unique_inverse(x, /):
        require_array(ctx, x, "unique_inverse")
        v, _, inv, _ = be.unique(x._data, counts=False, inverse=True, index=False)
        return UniqueInverseResult(ctx.wrap(v), wrap_index(inv))

    def unique_values(x, /):
        require_array(ctx, x, "unique_values")
        v, _, _, _ = be.unique(x._data, counts=False, inverse=False, index=False)
        return ctx.wrap(v)

    def isin(x1, x2, /, *, invert=False):
        x1, x2 = py_scalar(x1), py_scalar(x2)
        a1, a2 = x1.__class__ is A, x2.__class__ is A
        if not a1 and type(x1) not in PY_SCALARS:
            require_array(ctx, x1, "isin", "x1")
        if not a2 and type(x2) not in PY_SCALARS:
            require_array(ctx, x2, "isin", "x2")
        if not (a1 or a2):
            raise TypeError("isin: at least one of 'x1' and 'x2' must be an array")
        if a1 and a2:
            require_same_device(ctx, "isin", x1, x2)
            t = promote_arrays(ctx, "isin", x1, x2)
            if x1._dtype.kind != x2._dtype.kind:
                # the compatible semantics compare in the promoted dtype, as NumPy does
                # (isin(int, float) finds 2 in 2.0)
                x1 = x1 if x1._dtype is t else ctx.wrap(be.astype(x1._data, t))
                x2 = x2 if x2._dtype is t else ctx.wrap(be.astype(x2._data, t))
        ref = x1 if a1 else x2
        dev = be.device_of(ref._data)
        if not (a1 and a2):
            scalar, sname = (x2, "x2") if a1 else (x1, "x1")
            t = scalar_promote(ctx, scalar, ref._dtype, "isin", sname, dev)
            if t is not ref._dtype:
                ref = ctx.wrap(be.astype(ref._data, t))
                x1, x2 = (ref, x2) if a1 else (x1, ref)
        ops = []
        for name, v in (("x1", x1), ("x2", x2)):
            if v.__class__ is A:
                ops.append(v._data)
            else:
                check_py_scalar(v, ref._dtype, "isin", name)
                ops.append(be.full((), v, ref._dtype, dev))
        return ctx.wrap(be.isin(ops[0], ops[1], bool(invert)))

    return {"unique_all": unique_all, "unique_counts": unique_counts,
            "unique_inverse": unique_inverse, "unique_values": unique_values, "isin": isin}
