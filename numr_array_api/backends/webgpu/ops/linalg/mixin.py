"""The linalg backend methods on the GPU: factorisations (batched.py for stacks of small
matrices, cholesky.py, lu.py, qr.py) and the rest from existing GPU ops (simple.py).

A failed factorisation (singular matrix for solve / inv, not positive definite for
cholesky) is detected on the device: the kernels or a bit into one status word, read once
at the end of the call, after all the work is recorded (the read is the call's only wait).
The error is the cpu backend's: InvalidArgument naming the argument, LAPACK's reason.
"""

from __future__ import annotations

import math

from ....._core import dtypes as dt
from ....._core.errors import InvalidArgument
from ....._core.shapes import broadcast_shapes
from ...storage import new_output
from . import batched, warp
from .cholesky import cholesky
from .dispatch import status_word
from .lu import lu, lu_diag, lu_solve
from .plan import planned
from .qr import form_q, qr
from .simple import SimpleLinalgMixin


def _prod(shape):
    return math.prod(shape)


def _chunks(B, per_item_bytes, client):
    """Slices of the batch whose working views fit one storage binding."""
    step = max(1, client.max_binding // max(1, per_item_bytes))
    step = min(step, 1 << 22)
    return [slice(i, min(B, i + step)) for i in range(0, B, step)]


def _status_set(st):
    return bool(_status(st))


def _status(st):
    """The status word (0: every matrix went through)."""
    return int(st.to_numpy()[0])


def _wrong_subgroup(client, v):
    """Whether a warp kernel found another subgroup size than it was compiled for (then
    the path is off for the client and the caller reruns the call)."""
    if v & batched.WRONG_SUBGROUP:
        warp.disable(client)
        return True
    return False


def _recorded(key, inputs, job, sw):
    """``job()`` -> (result, status word), replayed from its recipe when the call repeats
    (runtime/recipes.py): the status read stays outside, after the recorded work, and
    submits it with the read's copy (one submit a call: the job's few dispatches bind
    enough bytes to trigger an early submit otherwise). ``sw``: the tuning epoch the
    route was decided in (batched.batch_route), part of the recipe's key."""
    client = inputs[0].client
    with client.recorder.held():
        return client.recipes.call(("linalg", sw) + key, inputs, job)


class LinalgMixin(SimpleLinalgMixin):

    def _work_dtype(self, a):
        """float16 is computed in float32 (as the cpu backend does); the result is cast
        back by ``_back``."""
        return self.astype(a, dt.float32) if a.dtype is dt.float16 else a

    def _back(self, r, dtype):
        return r if r.dtype is dtype else self.astype(r, dtype)

    def _stack(self, a, rows, cols):
        """A contiguous (B, rows, cols) working copy of ``a`` (..., rows, cols)."""
        B = _prod(a.shape[:-2])
        return a.copy().reshape((B, rows, cols)), B

    def linalg_cholesky(self, a, upper):
        dtype = a.dtype
        a0 = a
        a = self._work_dtype(a)
        client = a.client
        n = a.shape[-1]
        if a.size == 0:
            return new_output(a.shape, dtype, client)
        sw, nmax, sg = batched.batch_route(client, "chol", a.dtype, n)
        if nmax or sg:
            B = _prod(a.shape[:-2])

            def job():
                a3 = a.reshape((B, n, n))
                out = new_output((B, n, n), a.dtype, client)
                st = status_word(client)
                for sl in _chunks(B, n * n * a.itemsize, client):
                    batched.batch_cholesky(a3[sl], out[sl], st, nmax, upper, sg)
                return out, st

            out, st = _recorded(("bchol", upper, nmax, sg), (a,), job, sw)
            v = _status(st)
            if sg and _wrong_subgroup(client, v):
                return self.linalg_cholesky(a0, upper)
            if v:
                raise InvalidArgument("x", "linalg.cholesky: Matrix is not positive definite")
            return self._back(out.reshape(a.shape), dtype)
        B = _prod(a.shape[:-2])

        def run(a3):
            w = a3.copy()
            st = status_word(client)
            for sl in _chunks(B, n * n * a.itemsize, client):
                cholesky(self, w[sl], st)
            low = self.tri(w, 0, False)
            if upper:
                if low.dtype.kind == "c":
                    low = self.unary_kernel("conj")(low)
                low = low.permute((0, 2, 1)).copy()
            return low, st

        low, st = planned(f"cholesky{int(upper)}", run, a.reshape((B, n, n)))
        if _status_set(st):
            raise InvalidArgument("x", "linalg.cholesky: Matrix is not positive definite")
        return self._back(low.reshape(a.shape), dtype)

    def _lu(self, w, B, n, x=None):
        """LU of the stack ``w``; x (B, n, k): right-hand sides the factorisation may
        permute on the way (returned flag ``permuted``; ``_lu_solve_into`` then skips it)."""
        client = w.client
        ipiv = new_output((B, n), dt.int32, client)
        st = status_word(client)
        per = n * max(n, 0 if x is None else x.shape[2]) * w.itemsize
        permuted = x is not None
        for sl in _chunks(B, per, client):
            done = lu(self, w[sl], ipiv[sl], st, None if x is None else x[sl])
            permuted = permuted and done
        if x is None:
            return ipiv, st
        return ipiv, st, permuted

    def _lu_fused(self, w, x, B, n, k, ident):
        client = w.client
        ipiv = new_output((B, n), dt.int32, client)
        st = status_word(client)
        for sl in _chunks(B, max(n * n, n * k) * w.itemsize, client):
            batched.lu_solve_small(w[sl], ipiv[sl], x[sl], st, ident)
        return ipiv, st

    def _lu_solve_into(self, w, ipiv, x, B, n, k, permuted=False):
        client = w.client
        for sl in _chunks(B, max(n * n, n * k) * w.itemsize, client):
            lu_solve(self, w[sl], ipiv[sl], x[sl], permuted)

    def linalg_solve(self, a, b, vector):
        dtype = a.dtype
        a0, b0 = a, b
        a, b = self._work_dtype(a), self._work_dtype(b)
        client = a.client
        if vector:
            b = b.expand_dims(1)
        batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
        a = a.broadcast_to(batch + a.shape[-2:])
        b = b.broadcast_to(batch + b.shape[-2:])
        n, k = a.shape[-1], b.shape[-1]
        if a.size == 0 or b.size == 0:
            r = new_output(b.shape, dtype, client)
            return r.squeeze(r.ndim - 1) if vector else r
        B = _prod(batch)
        sw, nmax, sg = batched.batch_route(client, "solve", a.dtype, n, k)
        if nmax or sg:
            def job():
                x = new_output((B, n, k), a.dtype, client)
                return x, self._batch_solve(a, b, x, B, n, k, nmax, sg)

            x, st = _recorded(("bsolve", nmax, sg), (a, b), job, sw)
            v = _status(st)
            if sg and _wrong_subgroup(client, v):
                return self.linalg_solve(a0, b0, vector)
            if v:
                raise InvalidArgument("x1", "linalg.solve: Singular matrix")
            r = self._back(x.reshape(b.shape), dtype)
            return r.squeeze(r.ndim - 1) if vector else r
        def run(a3, b3):
            w, x = a3.copy(), b3.copy()
            if batched.small_path(w):
                _, st = self._lu_fused(w, x, B, n, k, False)
            else:
                ipiv, st, perm = self._lu(w, B, n, x)
                self._lu_solve_into(w, ipiv, x, B, n, k, perm)
            return x, st

        a3, b3 = a.reshape((B, n, n)), b.reshape((B, n, k))
        if batched.small_path(a3):  # one dispatch after the copies: a recipe, no plan copies
            x, st = _recorded(("solve",), (a3, b3), lambda: run(a3, b3), sw)
        else:
            x, st = planned("solve", run, a3, b3)
        if _status_set(st):
            raise InvalidArgument("x1", "linalg.solve: Singular matrix")
        r = self._back(x.reshape(b.shape), dtype)
        return r.squeeze(r.ndim - 1) if vector else r

    def linalg_inv(self, a):
        dtype = a.dtype
        a0 = a
        a = self._work_dtype(a)
        client = a.client
        n = a.shape[-1]
        if a.size == 0:
            return new_output(a.shape, dtype, client)
        B = _prod(a.shape[:-2])
        sw, nmax, sg = batched.batch_route(client, "solve", a.dtype, n, n)
        if nmax or sg:
            def job():
                x = new_output((B, n, n), a.dtype, client)
                return x, self._batch_solve(a, None, x, B, n, n, nmax, sg)

            x, st = _recorded(("binv", nmax, sg), (a,), job, sw)
            v = _status(st)
            if sg and _wrong_subgroup(client, v):
                return self.linalg_inv(a0)
            if v:
                raise InvalidArgument("x", "linalg.inv: Singular matrix")
            return self._back(x.reshape(a.shape), dtype)
        def run(a3):
            w = a3.copy()
            if batched.small_path(w):
                x = new_output((B, n, n), a.dtype, client)
                _, st = self._lu_fused(w, x, B, n, n, True)
            else:
                eye = self.eye(n, n, 0, a.dtype, self.device_of(a))
                x = eye.broadcast_to((B, n, n)).copy()
                ipiv, st, perm = self._lu(w, B, n, x)
                self._lu_solve_into(w, ipiv, x, B, n, n, perm)
            return x, st

        a3 = a.reshape((B, n, n))
        if batched.small_path(a3):
            x, st = _recorded(("inv",), (a3,), lambda: run(a3), sw)
        else:
            x, st = planned("inv", run, a3)
        if _status_set(st):
            raise InvalidArgument("x", "linalg.inv: Singular matrix")
        return self._back(x.reshape(a.shape), dtype)

    def _batch_solve(self, a, b, x, B, n, k, nmax, sg=0):
        """x <- a^-1 b (b None: a^-1) for stacks of small systems, inputs read in place
        (a contiguous copy only of views that are not)."""
        client = x.client
        a3 = a.reshape((B, n, n))
        b3 = None if b is None else b.reshape((B, n, k))
        st = status_word(client)
        for sl in _chunks(B, max(n * n, n * k) * x.itemsize, client):
            batched.batch_solve(a3[sl], None if b3 is None else b3[sl], x[sl], st, nmax, sg)
        return st

    def _lu_only(self, a):
        n = a.shape[-1]
        w, B = self._stack(a, n, n)
        ipiv, _ = self._lu(w, B, n)  # det / slogdet of a singular matrix are answers
        return w, ipiv

    def linalg_det(self, a):
        dtype = a.dtype
        a = self._work_dtype(a)
        batch, n = a.shape[:-2], a.shape[-1]
        if n == 0 or _prod(batch) == 0:
            return self.full(batch, 1, dtype, self.device_of(a)) if n == 0 else \
                new_output(batch, dtype, a.client)
        w, ipiv = self._lu_only(a)
        return self._back(lu_diag(w, ipiv, False).reshape(batch), dtype)

    def linalg_slogdet(self, a):
        dtype = a.dtype
        real = dt.float64 if dtype in (dt.float64, dt.complex128) else \
            dt.float16 if dtype is dt.float16 else dt.float32
        a = self._work_dtype(a)
        batch, n = a.shape[:-2], a.shape[-1]
        dev = self.device_of(a)
        if n == 0 or _prod(batch) == 0:
            if n == 0:
                return self.full(batch, 1, dtype, dev), self.full(batch, 0, real, dev)
            return new_output(batch, dtype, a.client), new_output(batch, real, a.client)
        w, ipiv = self._lu_only(a)
        sign = lu_diag(w, ipiv, True).reshape(batch)
        diag = w._view((w.shape[0], n), (w.strides[0], w.strides[1] + w.strides[2]))
        mag = self.unary_kernel("abs")(diag)
        logabs = self.reduce("sum", self.unary_kernel("log")(mag), (1,), False)
        return self._back(sign, dtype), self._back(logabs.reshape(batch), real)

    def linalg_qr(self, a, mode):
        dtype = a.dtype
        a = self._work_dtype(a)
        client = a.client
        batch, (m, n) = a.shape[:-2], a.shape[-2:]
        kmin = min(m, n)
        qc = m if mode == "complete" else kmin
        B = _prod(batch)
        dev = self.device_of(a)
        if B == 0 or kmin == 0:
            eye = self.eye(m, qc, 0, a.dtype, dev)
            q = eye.broadcast_to((B, m, qc)).copy() if B * m * qc else \
                new_output((B, m, qc), a.dtype, client)
            r = self.full(batch + (qc, n), 0, a.dtype, dev)
            return (self._back(q.reshape(batch + (m, qc)), dtype), self._back(r, dtype))

        def run(a3):
            w = a3.copy()
            tau = new_output((B, kmin), a.dtype, client)
            small = batched.small_path(w)
            if small:
                q = new_output((B, m, qc), a.dtype, client)  # written by the fused kernel
            else:
                q = self.eye(m, qc, 0, a.dtype, dev).broadcast_to((B, m, qc)).copy()
            for sl in _chunks(B, max(m * n, m * qc) * a.itemsize, client):
                if small:
                    batched.qr_small(w[sl], tau[sl], q[sl])
                else:
                    form_q(self, qr(self, w[sl], tau[sl]), q[sl])
            return q, self.tri(w[:, :qc, :], 0, True)

        a3 = a.reshape((B, m, n))
        if batched.small_path(a3):
            q, r = run(a3)
        else:
            q, r = planned(f"qr{qc}", run, a3)
        return (self._back(q.reshape(batch + (m, qc)), dtype),
                self._back(r.reshape(batch + (qc, n)), dtype))
