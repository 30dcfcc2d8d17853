"""Kernels of the ``linalg`` extension over a NumPy-like module (NumPy or CuPy).

Arguments arrive validated by the front-end (``_api/linalg_ext.py``): dtypes are floating or
numeric as the function requires, matrices are square where they must be, stacks broadcast.
Results are cast back to the input's precision, since not every NumPy / CuPy routine
preserves float32 and the standard requires it.
"""

import contextlib
import warnings

import numpy as np

from ..._core.config import HostConversionWarning
from ..._core.errors import InvalidArgument

__all__ = ["NdLinalgMixin"]

_COMPLEX_OF = {np.dtype(np.float16): np.complex64, np.dtype(np.float32): np.complex64,
               np.dtype(np.float64): np.complex128, np.dtype(np.complex64): np.complex64,
               np.dtype(np.complex128): np.complex128}


def _real_of(dtype):
    return np.dtype(dtype).type(0).real.dtype


class NdLinalgMixin:
    """Mixed into NdBackend; uses ``self.xp``."""

    @contextlib.contextmanager
    def _lapack(self, fname, argname="x"):
        # LinAlgError is a ValueError without the argument's name; CuPy re-uses NumPy's class
        try:
            yield
        except np.linalg.LinAlgError as e:
            raise InvalidArgument(argname, f"linalg.{fname}: {e}") from None

    @contextlib.contextmanager
    def _quiet(self):
        # inf / NaN from 0 ** negative, 1 / 0 are the standard's answers, not accidents
        with np.errstate(all="ignore") if self.xp is np else contextlib.nullcontext():
            yield

    def _lapack_input(self, a):
        # LAPACK has no half precision: compute float16 in float32 (results are cast back)
        return a.astype(np.float32) if a.dtype == np.float16 else a

    def linalg_cholesky(self, a, upper):
        xp = self.xp
        with self._lapack("cholesky"):
            lo = xp.linalg.cholesky(self._lapack_input(a))
        if upper:
            lo = xp.conj(xp.swapaxes(lo, -1, -2))
        return lo.astype(a.dtype, copy=False)

    def linalg_cross(self, a, b, axis):
        xp = self.xp
        a, b = xp.broadcast_arrays(a, b)
        a, b = xp.moveaxis(a, axis, -1), xp.moveaxis(b, axis, -1)
        a0, a1, a2 = a[..., 0], a[..., 1], a[..., 2]
        b0, b1, b2 = b[..., 0], b[..., 1], b[..., 2]
        # written out rather than xp.cross: NumPy's cross warns / raises on some integer
        # dtypes and CuPy's lacks broadcasting in older versions
        r = xp.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
        return xp.moveaxis(r, -1, axis)

    def linalg_det(self, a):
        with self._lapack("det"):
            return self.xp.asarray(self.xp.linalg.det(self._lapack_input(a))).astype(
                a.dtype, copy=False)

    def linalg_diagonal(self, a, offset):
        # xp.diagonal returns a read-only view in NumPy: a copy is the only safe result
        return self.xp.diagonal(a, offset=offset, axis1=-2, axis2=-1).copy()

    def linalg_eig(self, a, vectors):
        xp = self.xp
        ct = _COMPLEX_OF[a.dtype]
        fn = getattr(xp.linalg, "eig" if vectors else "eigvals", None)
        with self._lapack("eig" if vectors else "eigvals"):
            if fn is None:
                r = self._host_eig(a, vectors)
            else:
                r = fn(self._lapack_input(a))
        # NumPy returns real dtypes when every eigenvalue happens to be real; the standard
        # requires complex results whatever the values
        if vectors:
            w, v = r
            return w.astype(ct, copy=False), v.astype(ct, copy=False)
        return r.astype(ct, copy=False)

    def _host_eig(self, a, vectors):
        # CUDA only: CuPy versions without a general eigensolver (cuSOLVER's geev is recent)
        warnings.warn(f"{self.name}: linalg.eig{'' if vectors else 'vals'} has no device "
                      f"kernel in this CuPy; computing it on the host (device -> host -> "
                      f"device round trip)", HostConversionWarning,
                      stacklevel=4)
        host = self.xp.asnumpy(a)
        host = host.astype(np.float32) if host.dtype == np.float16 else host
        if vectors:
            w, v = np.linalg.eig(host)
            return self.xp.asarray(w), self.xp.asarray(v)
        return self.xp.asarray(np.linalg.eigvals(host))

    def linalg_eigh(self, a, vectors):
        xp = self.xp
        rt = _real_of(a.dtype)
        with self._lapack("eigh" if vectors else "eigvalsh"):
            if vectors:
                w, v = xp.linalg.eigh(self._lapack_input(a))
                return w.astype(rt, copy=False), v.astype(a.dtype, copy=False)
            return xp.linalg.eigvalsh(self._lapack_input(a)).astype(rt, copy=False)

    def linalg_inv(self, a):
        with self._lapack("inv"):
            return self.xp.linalg.inv(self._lapack_input(a)).astype(a.dtype, copy=False)

    def linalg_matrix_power(self, a, n):
        with self._lapack("matrix_power"):
            r = self.xp.linalg.matrix_power(self._lapack_input(a), n)
        return r.astype(a.dtype, copy=False)

    def _svdvals(self, a):
        xp = self.xp
        if 0 in a.shape[-2:]:
            return xp.zeros(a.shape[:-2] + (0,), dtype=_real_of(a.dtype))
        with self._lapack("svd"):
            return xp.linalg.svd(self._lapack_input(a), compute_uv=False).astype(
                _real_of(a.dtype), copy=False)

    def linalg_svdvals(self, a):
        return self._svdvals(a)

    def linalg_svd(self, a, full_matrices):
        xp = self.xp
        with self._lapack("svd"):
            u, s, vh = xp.linalg.svd(self._lapack_input(a), full_matrices=full_matrices)
        return (u.astype(a.dtype, copy=False), s.astype(_real_of(a.dtype), copy=False),
                vh.astype(a.dtype, copy=False))

    def linalg_qr(self, a, mode):
        with self._lapack("qr"):
            q, r = self.xp.linalg.qr(self._lapack_input(a), mode=mode)
        return q.astype(a.dtype, copy=False), r.astype(a.dtype, copy=False)

    def linalg_slogdet(self, a):
        with self._lapack("slogdet"):
            sign, logabs = self.xp.linalg.slogdet(self._lapack_input(a))
        return (self.xp.asarray(sign).astype(a.dtype, copy=False),
                self.xp.asarray(logabs).astype(_real_of(a.dtype), copy=False))

    def linalg_solve(self, a, b, vector):
        """``b`` is (..., M, K), or (M,) when ``vector``: the standard's rule, not NumPy 1's
        guess from the number of dimensions."""
        xp = self.xp
        if vector:
            b = b[:, None]
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
        a = xp.broadcast_to(a, batch + a.shape[-2:])
        b = xp.broadcast_to(b, batch + b.shape[-2:])
        if a.size == 0 or b.size == 0:
            # nothing to solve; CuPy's batched solver divides by the zero stride of an empty b
            r = xp.empty(b.shape, dtype=a.dtype)
            return r[..., 0] if vector else r
        with self._lapack("solve", "x1"):
            r = xp.linalg.solve(self._lapack_input(a), self._lapack_input(b))
        r = r.astype(a.dtype, copy=False)
        return r[..., 0] if vector else r

    def _tolerance_cut(self, s, rtol, shape):
        """Singular values above ``rtol * max(s)`` per matrix (rtol: None, float, payload)."""
        xp = self.xp
        rt = s.dtype
        if rtol is None:
            # a Python float: a NumPy scalar would be taken for a (host) array below
            rtol = float(max(shape[-2:]) * np.finfo(rt).eps)
        if not isinstance(rtol, (int, float)):
            rtol = rtol.astype(rt, copy=False)[..., None]
        smax = s.max(axis=-1, keepdims=True) if s.shape[-1] else xp.zeros(s.shape[:-1] + (1,),
                                                                           dtype=rt)
        return s > smax * rtol

    def linalg_matrix_rank(self, a, rtol, index_dtype):
        s = self._svdvals(a)
        keep = self._tolerance_cut(s, rtol, a.shape)
        return self.xp.sum(keep, axis=-1, dtype=index_dtype.np)

    def linalg_pinv(self, a, rtol):
        xp = self.xp
        batch, (m, n) = a.shape[:-2], a.shape[-2:]
        if 0 in (m, n):
            return xp.zeros(batch + (n, m), dtype=a.dtype)
        with self._lapack("pinv"):
            u, s, vh = xp.linalg.svd(self._lapack_input(a), full_matrices=False)
        s = s.astype(_real_of(a.dtype), copy=False)
        keep = self._tolerance_cut(s, rtol, a.shape)
        with self._quiet():
            sinv = xp.where(keep, 1 / xp.where(keep, s, 1), 0).astype(s.dtype, copy=False)
        u = u.astype(a.dtype, copy=False)
        vh = vh.astype(a.dtype, copy=False)
        r = xp.matmul(xp.conj(xp.swapaxes(vh, -1, -2)) * sinv[..., None, :],
                      xp.conj(xp.swapaxes(u, -1, -2)))
        return r.astype(a.dtype, copy=False)

    def linalg_matrix_norm(self, a, ord, keepdims):
        xp = self.xp
        rt = _real_of(a.dtype)
        m, n = a.shape[-2:]
        if m == 0 or n == 0:
            # every positive-order norm of an empty matrix is 0 (the front-end rejects the
            # negative orders, which would be a min over nothing)
            r = xp.zeros(a.shape[:-2], dtype=rt)
        elif ord == "fro":
            r = xp.sqrt(xp.sum(xp.abs(a).astype(rt, copy=False) ** 2, axis=(-2, -1)))
        elif ord in ("nuc", 2, -2):
            s = self._svdvals(a)
            r = s.sum(axis=-1) if ord == "nuc" else s.max(axis=-1) if ord == 2 else s.min(-1)
        else:
            sum_axis = -2 if ord in (1, -1) else -1
            sums = xp.sum(xp.abs(a), axis=sum_axis)
            r = sums.max(axis=-1) if ord > 0 else sums.min(axis=-1)
        r = xp.asarray(r).astype(rt, copy=False)
        if keepdims:
            r = r[..., None, None]
        return r

    def linalg_vector_norm(self, a, axes, keepdims, ord):
        xp = self.xp
        rt = _real_of(a.dtype)
        if a.dtype.kind == "c" or a.dtype != rt:
            x = xp.abs(a).astype(rt, copy=False)
        else:
            x = xp.abs(a)
        empty = any(a.shape[i] == 0 for i in axes)
        kw = {"axis": axes, "keepdims": keepdims}
        with self._quiet():
            if ord == float("inf"):
                r = xp.zeros(_reduced(a.shape, axes, keepdims), rt) if empty else x.max(**kw)
            elif ord == float("-inf"):
                r = xp.full(_reduced(a.shape, axes, keepdims), np.inf, rt) if empty \
                    else x.min(**kw)
            elif ord == 0:
                r = xp.sum(x != 0, dtype=rt, **kw)
            elif ord == 1:
                r = xp.sum(x, **kw)
            elif ord == 2:
                r = xp.sqrt(xp.sum(x * x, **kw))
            elif ord > 0 and not empty:
                # scaled by the largest magnitude so large orders neither overflow nor
                # flush to zero
                big = x.max(axis=axes, keepdims=True)
                scale = xp.where((big == 0) | xp.isinf(big), 1, big)
                r = xp.sum((x / scale) ** ord, **kw) ** (1.0 / ord)
                if not keepdims:
                    big, scale = xp.squeeze(big, axis=axes), xp.squeeze(scale, axis=axes)
                r = xp.where(xp.isinf(big), big, r * scale)
            else:
                r = xp.sum(x ** ord, **kw) ** (1.0 / ord)
        return xp.asarray(r).astype(rt, copy=False)

    def linalg_trace(self, a, offset, dtype):
        return self.xp.asarray(self.xp.trace(a, offset=offset, axis1=-2, axis2=-1,
                                             dtype=dtype.np))

    def linalg_outer(self, a, b):
        return self.xp.multiply(a[:, None], b[None, :])


def _reduced(shape, axes, keepdims):
    if keepdims:
        return tuple(1 if i in axes else s for i, s in enumerate(shape))
    return tuple(s for i, s in enumerate(shape) if i not in axes)
