"""Linear algebra in the main namespace (matmul, tensordot, vecdot, matrix_transpose) and
the ``linalg`` extension (built by ``linalg_ext``)."""

from .._core.array import Array
from .._core.errors import InvalidArgument, ShapeMismatch
from .._core.shapes import as_int, broadcast_shapes, check_addressable, normalize_axis
from . import linalg_ext
from ._common import promote_pair, require_array, require_kind, require_same_device


def build(ctx):
    be = ctx.be
    A = ctx.ArrayT
    wrap = ctx.wrap
    single = ctx.single_device
    dev = be.device_of

    def matmul(x1, x2, /):
        if x1.__class__ is A and x2.__class__ is A and x1._dtype is x2._dtype \
                and x1._dtype.kind in "iufc" and (single or dev(x1._data) is dev(x2._data)):
            s1, s2 = x1._data.shape, x2._data.shape
            # matrices, or stacks of them with equal batch shapes: nothing left to validate
            if len(s1) == len(s2) >= 2 and s1[-1] == s2[-2] and s1[:-2] == s2[:-2]:
                return wrap(be.matmul(x1._data, x2._data))
        d1, d2, t = promote_pair(ctx, "matmul", x1, x2)
        s1, s2 = x1.shape, x2.shape
        if not s1 or not s2:
            raise InvalidArgument("x1", "matmul: 0-d arrays are not allowed (use multiply)")
        k1 = s1[-1]
        k2 = s2[-2] if len(s2) > 1 else s2[0]
        if k1 != k2:
            raise ShapeMismatch(f"matmul: contracted dimensions differ: x1 {s1} has {k1}, x2 "
                                f"{s2} has {k2}", k1, k2)
        batch = broadcast_shapes(s1[:-2], s2[:-2])
        check_addressable(be, "matmul", batch + s1[-2:-1] + s2[-1:])
        return wrap(be.matmul(d1, d2))

    def matrix_transpose(x, /):
        require_array(ctx, x, "matrix_transpose")
        if x.ndim < 2:
            raise InvalidArgument("x", f"matrix_transpose: needs at least 2 dimensions, got "
                                       f"{x.ndim}")
        axes = tuple(range(x.ndim - 2)) + (x.ndim - 1, x.ndim - 2)
        return ctx.view_of(x, be.permute(x._data, axes))

    def tensordot(x1, x2, /, *, axes=2):
        d1, d2, t = promote_pair(ctx, "tensordot", x1, x2)
        if isinstance(axes, (tuple, list)):
            if len(axes) != 2:
                raise InvalidArgument("axes", "tensordot: a sequence 'axes' must have two "
                                              "entries")
            a1 = [normalize_axis(a, x1.ndim, "axes") for a in axes[0]]
            a2 = [normalize_axis(a, x2.ndim, "axes") for a in axes[1]]
            if len(a1) != len(a2):
                raise InvalidArgument("axes", "tensordot: both axis lists must be equally long")
            for i, j in zip(a1, a2):
                if x1.shape[i] != x2.shape[j]:
                    raise ShapeMismatch(f"tensordot: axis {i} of x1 has size {x1.shape[i]}, "
                                        f"axis {j} of x2 has {x2.shape[j]}", x1.shape[i],
                                        x2.shape[j])
            spec = (tuple(a1), tuple(a2))
        else:
            n = as_int(axes, "axes")
            if n < 0 or n > x1.ndim or n > x2.ndim:
                raise InvalidArgument("axes", f"tensordot: {n} axes cannot be contracted for "
                                              f"arrays of {x1.ndim} and {x2.ndim} dimensions")
            if x1.shape[x1.ndim - n:] != x2.shape[:n]:
                raise ShapeMismatch(f"tensordot: the last {n} dimensions of x1 {x1.shape} do "
                                    f"not match the first of x2 {x2.shape}")
            spec = n
        c1, c2 = (range(x1.ndim - spec, x1.ndim), range(spec)) if type(spec) is int else spec
        check_addressable(be, "tensordot",
                          [d for i, d in enumerate(x1.shape) if i not in c1] +
                          [d for j, d in enumerate(x2.shape) if j not in c2])
        return wrap(be.tensordot(d1, d2, spec))

    def vecdot(x1, x2, /, *, axis=-1):
        d1, d2, t = promote_pair(ctx, "vecdot", x1, x2)
        if x1.ndim == 0 or x2.ndim == 0:
            raise InvalidArgument("x1", "vecdot: 0-d arrays are not allowed")
        axis = as_int(axis, "axis")
        if axis >= 0 or axis < -min(x1.ndim, x2.ndim):
            # the standard counts the axis from the end, after broadcasting
            nd = max(x1.ndim, x2.ndim)
            if not -nd <= axis < 0:
                raise InvalidArgument("axis", f"vecdot: axis must be a negative integer within "
                                              f"the broadcast rank, got {axis}")
        if x1.shape[axis] != x2.shape[axis]:
            raise ShapeMismatch(f"vecdot: sizes along axis {axis} differ ({x1.shape[axis]} and "
                                f"{x2.shape[axis]})", x1.shape[axis], x2.shape[axis])
        check_addressable(be, "vecdot", broadcast_shapes(x1.shape, x2.shape))
        return wrap(be.vecdot(d1, d2, axis))

    def _op(self, other):
        if other.__class__ is A:
            return matmul(self, other)
        if isinstance(other, Array):  # another numr namespace
            require_array(ctx, other, "matmul", "x2")
        return NotImplemented

    def _rop(self, other):
        if other.__class__ is A:
            return matmul(other, self)
        return NotImplemented

    def _iop(self, other):
        if other.__class__ is not A:
            if isinstance(other, Array):
                require_array(ctx, other, "matmul", "x2")
            return NotImplemented
        r = matmul(self, other)
        if r.shape != self.shape or r._dtype is not self._dtype:
            raise ShapeMismatch(f"in-place matmul: the result {r.shape} {r._dtype.name} differs "
                                f"from the left operand {self.shape} {self._dtype.name}")
        be.setitem(self._data, (Ellipsis,), r._data)
        return self

    A.__matmul__, A.__rmatmul__, A.__imatmul__ = _op, _rop, _iop
    ns = {"matmul": matmul, "matrix_transpose": matrix_transpose, "tensordot": tensordot,
          "vecdot": vecdot}
    ns["__linalg__"] = linalg_ext.build(ctx, ns)
    return ns
