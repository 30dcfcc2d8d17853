"""linalg functions made of existing GPU ops (views, elementwise kernels, reductions,
GEMM): no WGSL of their own.

matrix_norm with ord 2 / -2 / 'nuc' reduces the GPU singular values of ops/linalg_spectral.
"""

from __future__ import annotations

from ....._core import dtypes as dt
from ....._core.errors import InvalidArgument
from ....._core.shapes import broadcast_shapes

_INF = float("inf")


def _real(dtype):
    return {dt.complex64: dt.float32, dt.complex128: dt.float64}.get(dtype, dtype)


class SimpleLinalgMixin:

    def _u(self, name, x):
        return self.unary_kernel(name)(x)

    def _b(self, name, x, y):
        return self.binary_kernel(name)(x, y)

    def _scalar(self, value, like):
        s = self.scalar_operand(value, like.dtype)
        if s.client is not like.client:
            s = self.to_device(s, self.device_of(like))
        return s

    def _diag_view(self, a, offset):
        m, n = a.shape[-2:]
        rs, cs = a.strides[-2:]
        if offset >= 0:
            length = max(0, min(m, n - offset))
            start = offset * cs
        else:
            length = max(0, min(m + offset, n))
            start = -offset * rs
        off = a.offset + (start * a.itemsize if length else 0)
        return a._view(a.shape[:-2] + (length,), a.strides[:-2] + (rs + cs,), off)

    def linalg_diagonal(self, a, offset):
        return self._diag_view(a, offset).copy()

    def linalg_trace(self, a, offset, dtype):
        d = self._diag_view(a, offset)
        return self.reduce("sum", d, (d.ndim - 1,), False, dtype)

    def linalg_outer(self, a, b):
        return self._b("multiply", a.expand_dims(1), b.expand_dims(0))

    def linalg_cross(self, a, b, axis):
        shape = broadcast_shapes(a.shape, b.shape)
        a, b = a.broadcast_to(shape), b.broadcast_to(shape)
        nd = len(shape)
        ax = axis % nd
        comp = [(a[(slice(None),) * ax + (i,)], b[(slice(None),) * ax + (i,)])
                for i in range(3)]
        (a0, b0), (a1, b1), (a2, b2) = comp

        def det2(x, y, u, v):
            return self._b("subtract", self._b("multiply", x, y), self._b("multiply", u, v))
        parts = [det2(a1, b2, a2, b1), det2(a2, b0, a0, b2), det2(a0, b1, a1, b0)]
        return self.stack(parts, ax)

    def linalg_matrix_power(self, a, n):
        if n == 0:
            m = a.shape[-1]
            eye = self.eye(m, m, 0, a.dtype, self.device_of(a))
            return eye.broadcast_to(a.shape).copy()
        if n < 0:
            try:
                a = self.linalg_inv(a)
            except InvalidArgument:
                raise InvalidArgument("x", "linalg.matrix_power: Singular matrix") from None
            n = -n
        result = None
        base = a
        while True:
            if n & 1:
                result = base if result is None else self.matmul(result, base)
            n >>= 1
            if not n:
                break
            base = self.matmul(base, base)
        return result.copy() if result is a else result

    def _abs_real(self, a):
        x = self._u("abs", a)
        rt = _real(a.dtype)
        return x if x.dtype is rt else self.astype(x, rt)

    def linalg_vector_norm(self, a, axes, keepdims, ord):
        # up to 13 kernels (the scaled norm): a repeated signature replays them
        # (runtime/recipes.py); the job derives every buffer from ``a`` itself
        axes = tuple(axes)
        return a.client.recipes.call(
            ("vector_norm", axes, keepdims, ord), (a,),
            lambda: self._vector_norm(a, axes, keepdims, ord))

    def _vector_norm(self, a, axes, keepdims, ord):
        x = self._abs_real(a)
        rt = x.dtype
        dev = self.device_of(a)
        empty = any(a.shape[i] == 0 for i in axes)
        if keepdims:
            oshape = tuple(1 if i in axes else s for i, s in enumerate(a.shape))
        else:
            oshape = tuple(s for i, s in enumerate(a.shape) if i not in axes)

        def red(name, v):
            return self.reduce(name, v, axes, keepdims)
        if ord == _INF:
            return self.full(oshape, 0, rt, dev) if empty else red("max", x)
        if ord == -_INF:
            return self.full(oshape, _INF, rt, dev) if empty else red("min", x)
        if ord == 0:
            nz = self._b("not_equal", x, self._scalar(0, x))
            return self.reduce("sum", nz, axes, keepdims, rt)
        if ord == 1:
            return red("sum", x)
        if ord == 2 and empty:
            return self._u("sqrt", red("sum", self._b("multiply", x, x)))
        if ord > 0 and not empty:
            return self._scaled_norm(x, axes, keepdims, ord)
        s = red("sum", self._b("pow", x, self._scalar(ord, x)))
        return self._b("pow", s, self._scalar(1.0 / ord, x))

    def _scaled_norm(self, x, axes, keepdims, p):
        """(sum x^p)^(1/p) of x >= 0 over ``axes``, scaled by the largest magnitude so that
        neither overflow nor flush to zero (the cpu backend's formula for large orders).
        Also for p = 2 (vector_norm's default, matrix_norm's fro), at the price of the max
        pass: WGSL lets GPUs flush subnormals, and on an H100 float32 entries of 1e-20 gave
        norms of 0 (squares of 1e-40 flushed) where NumPy and CuPy keep them."""
        big = self.reduce("max", x, axes, True)
        bad = self._b("logical_or", self._b("equal", big, self._scalar(0, big)),
                      self._u("isinf", big))
        scale = self.where(bad, self._scalar(1, big), big)
        y = self._b("divide", x, scale)
        y = self._b("multiply", y, y) if p == 2 else self._b("pow", y, self._scalar(p, x))
        s = self.reduce("sum", y, axes, keepdims)
        r = self._u("sqrt", s) if p == 2 else self._b("pow", s, self._scalar(1.0 / p, x))
        if not keepdims:
            big = big.squeeze(axes)
            scale = scale.squeeze(axes)
        return self.where(self._u("isinf", big), big, self._b("multiply", r, scale))

    def linalg_matrix_norm(self, a, ord, keepdims):
        # several kernels (the scaled Frobenius norm: up to 13): replayed like vector_norm's
        return a.client.recipes.call(
            ("matrix_norm", ord, keepdims), (a,),
            lambda: self._matrix_norm(a, ord, keepdims))

    def _matrix_norm(self, a, ord, keepdims):
        rt = _real(a.dtype)
        m, n = a.shape[-2:]
        nd = a.ndim
        if m == 0 or n == 0:
            r = self.full(a.shape[:-2], 0, rt, self.device_of(a))
        elif ord in ("nuc", 2, -2):
            from ..linalg_spectral.mixin import svdvals
            s = svdvals(self, a if a.dtype is not dt.float16 else self.astype(a, dt.float32))
            r = self.reduce("sum" if ord == "nuc" else "max" if ord == 2 else "min", s,
                            (s.ndim - 1,), False)
        elif ord == "fro":
            r = self._scaled_norm(self._abs_real(a), (nd - 2, nd - 1), False, 2)
        else:
            x = self._abs_real(a)
            sums = self.reduce("sum", x, (nd - 2 if ord in (1, -1) else nd - 1,), False)
            r = self.reduce("max" if ord > 0 else "min", sums, (sums.ndim - 1,), False)
        if r.dtype is not rt:  # float16 computes in float32
            r = self.astype(r, rt)
        if keepdims:
            r = r.reshape(r.shape + (1, 1))
        return r
