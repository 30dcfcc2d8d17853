"""Set functions: unique_* (NaNs are distinct values) and isin."""

from collections import namedtuple

from .._core.errors import DTypeMismatch
from .._core.promotion import TABLE
from ._common import PY_SCALARS, check_py_scalar, py_scalar, require_array, require_same_device

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
            t = TABLE.get((x1._dtype, x2._dtype))
            if t is None:
                raise DTypeMismatch(f"isin: dtypes {x1._dtype.name} and {x2._dtype.name} do not "
                                    f"promote", x1._dtype, x2._dtype)
        ref = x1 if a1 else x2
        dev = be.device_of(ref._data)
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
