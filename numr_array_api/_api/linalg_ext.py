"""The ``linalg`` extension.

Validation (dtype kinds, matrix shapes, stack broadcasting, ``ord`` / ``mode`` / ``rtol``)
happens here once for every backend; kernels are the backend's ``linalg_*`` methods.
matmul, matrix_transpose, tensordot and vecdot are the main namespace's functions.
"""

from collections import namedtuple

from .._core.errors import InvalidArgument, ShapeMismatch
from .._core.semantics import strict
from .._core.shapes import as_int, broadcast_shapes, check_addressable, normalize_axes
from ._common import promote_pair, require_array, require_kind, require_same_device
from .statistical import accumulation_dtype

__all__ = ["EighResult", "EigResult", "QRResult", "SlogdetResult", "SVDResult", "build"]

EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

_INF = float("inf")
_MATRIX_ORDS = (1, -1, 2, -2, _INF, -_INF)


def _flag(value, fname, argname):
    if type(value) is not bool:
        raise TypeError(f"linalg.{fname}: '{argname}' must be a bool, got {value!r}")
    return value


def _number(value, fname, argname):
    if type(value) not in (int, float):
        raise TypeError(f"linalg.{fname}: '{argname}' must be a Python int or float, got "
                        f"{type(value).__name__}")
    return value


def build(ctx, main):
    be = ctx.be
    wrap = ctx.wrap

    def _matrix(x, fname, kinds="fc", square=False, cast=True):
        require_array(ctx, x, f"linalg.{fname}")
        if cast and set(kinds) <= set("fc"):
            x = ctx.floating(x, kinds, f"linalg.{fname}")  # NumPy's linalg.inv(int_array)
        else:
            require_kind(x, kinds, f"linalg.{fname}")
        if x.ndim < 2:
            raise InvalidArgument("x", f"linalg.{fname}: needs a matrix or a stack of matrices "
                                       f"(..., M, N), got a {x.ndim}-d array")
        if square and x.shape[-1] != x.shape[-2]:
            raise ShapeMismatch(f"linalg.{fname}: needs square matrices (..., M, M), got shape "
                                f"{x.shape}", x.shape[-2], x.shape[-1])
        return x._data

    def _rtol(x, rtol, fname):
        """None, a Python number, or a payload broadcastable against the stack shape."""
        if rtol is None:
            return None
        if type(rtol) in (int, float):
            if not rtol >= 0:
                raise InvalidArgument("rtol", f"linalg.{fname}: must be non-negative, got {rtol}")
            return float(rtol)
        require_array(ctx, rtol, f"linalg.{fname}", "rtol")
        require_kind(rtol, "f", f"linalg.{fname}", "rtol")
        require_same_device(ctx, f"linalg.{fname}", x, rtol, names=("x", "rtol"))
        if broadcast_shapes(rtol.shape, x.shape[:-2]) != x.shape[:-2]:
            raise ShapeMismatch(f"linalg.{fname}: 'rtol' of shape {rtol.shape} does not "
                                f"broadcast to the stack shape {x.shape[:-2]}")
        return rtol._data

    def cholesky(x, /, *, upper=False):
        d = _matrix(x, "cholesky", square=True)
        return wrap(be.linalg_cholesky(d, _flag(upper, "cholesky", "upper")))

    def cross(x1, x2, /, *, axis=-1):
        d1, d2, t = promote_pair(ctx, "linalg.cross", x1, x2)
        axis = as_int(axis, "axis")
        n = min(x1.ndim, x2.ndim)
        if not -n <= axis <= -1:
            raise InvalidArgument("axis", f"linalg.cross: must be a negative integer in "
                                          f"[{-n}, -1] for arrays of {x1.ndim} and {x2.ndim} "
                                          f"dimensions, got {axis}")
        if x1.shape[axis] != 3 or x2.shape[axis] != 3:
            raise ShapeMismatch(f"linalg.cross: axis {axis} must have size 3 in both arrays, "
                                f"got {x1.shape} and {x2.shape}", 3,
                                x1.shape[axis] if x1.shape[axis] != 3 else x2.shape[axis])
        check_addressable(be, "linalg.cross", broadcast_shapes(x1.shape, x2.shape))
        return wrap(be.linalg_cross(d1, d2, axis))

    def det(x, /):
        return wrap(be.linalg_det(_matrix(x, "det", square=True)))

    def diagonal(x, /, *, offset=0):
        d = _matrix(x, "diagonal", kinds="biufc")
        n, m = x.shape[-2:]  # past the matrix: an empty diagonal (as trace)
        return wrap(be.linalg_diagonal(d, max(-n, min(as_int(offset, "offset"), m))))

    def eig(x, /):
        w, v = be.linalg_eig(_matrix(x, "eig", square=True), True)
        return EigResult(wrap(w), wrap(v))

    def eigvals(x, /):
        return wrap(be.linalg_eig(_matrix(x, "eigvals", square=True), False))

    def eigh(x, /):
        w, v = be.linalg_eigh(_matrix(x, "eigh", square=True), True)
        return EighResult(wrap(w), wrap(v))

    def eigvalsh(x, /):
        return wrap(be.linalg_eigh(_matrix(x, "eigvalsh", square=True), False))

    def inv(x, /):
        return wrap(be.linalg_inv(_matrix(x, "inv", square=True)))

    def matrix_norm(x, /, *, keepdims=False, ord="fro"):
        d = _matrix(x, "matrix_norm")
        if ord is None:
            ord = "fro"
        if type(ord) is str:
            ok = ord in ("fro", "nuc")
        else:
            ok = _number(ord, "matrix_norm", "ord") in _MATRIX_ORDS
        if not ok:
            raise InvalidArgument("ord", f"linalg.matrix_norm: must be 'fro', 'nuc' or one of "
                                         f"1, -1, 2, -2, inf, -inf, got {ord!r}")
        if type(ord) is not str and ord < 0 and 0 in x.shape[-2:]:
            raise InvalidArgument("x", f"linalg.matrix_norm: ord={ord} is a minimum over an "
                                       f"empty set for {x.shape[-2]}x{x.shape[-1]} matrices")
        return wrap(be.linalg_matrix_norm(d, ord, _flag(keepdims, "matrix_norm", "keepdims")))

    def matrix_power(x, n, /):
        n = as_int(n, "n")
        # NumPy keeps a non-negative power of an integer matrix integral (the compatible
        # semantics); a negative one goes through the inverse, in floating point
        integral = n >= 0 and x.__class__ is ctx.ArrayT and x._dtype.kind in "iu" \
            and not strict()
        d = _matrix(x, "matrix_power", kinds="iu" if integral else "fc", square=True)
        return wrap(be.linalg_matrix_power(d, n))

    def matrix_rank(x, /, *, rtol=None):
        d = _matrix(x, "matrix_rank")
        return wrap(be.linalg_matrix_rank(d, _rtol(x, rtol, "matrix_rank"), ctx.default_int))

    def outer(x1, x2, /):
        d1, d2, t = promote_pair(ctx, "linalg.outer", x1, x2)
        if x1.ndim != 1 or x2.ndim != 1:
            bad = "x1" if x1.ndim != 1 else "x2"
            raise InvalidArgument(bad, f"linalg.outer: needs 1-d arrays, got {x1.ndim}-d and "
                                       f"{x2.ndim}-d")
        check_addressable(be, "linalg.outer", (x1.shape[0], x2.shape[0]))
        return wrap(be.linalg_outer(d1, d2))

    def pinv(x, /, *, rtol=None):
        d = _matrix(x, "pinv")
        return wrap(be.linalg_pinv(d, _rtol(x, rtol, "pinv")))

    def qr(x, /, *, mode="reduced"):
        d = _matrix(x, "qr")
        if type(mode) is not str or mode not in ("reduced", "complete"):
            raise InvalidArgument("mode", f"linalg.qr: must be 'reduced' or 'complete', got "
                                          f"{mode!r}")
        q, r = be.linalg_qr(d, mode)
        return QRResult(wrap(q), wrap(r))

    def slogdet(x, /):
        s, l = be.linalg_slogdet(_matrix(x, "slogdet", square=True))
        return SlogdetResult(wrap(s), wrap(l))

    def solve(x1, x2, /):
        d1, d2, t = promote_pair(ctx, "linalg.solve", x1, x2, kinds="fc")
        if x1.ndim < 2 or x1.shape[-1] != x1.shape[-2]:
            raise ShapeMismatch(f"linalg.solve: 'x1' must be square matrices (..., M, M), got "
                                f"shape {x1.shape}")
        m = x1.shape[-1]
        if x2.ndim == 0:
            raise InvalidArgument("x2", "linalg.solve: needs shape (M,) or (..., M, K), got a "
                                        "0-d array")
        # the standard's rule: only a 1-d x2 is a vector; (..., M, K) is always a stack
        vector = x2.ndim == 1
        rows = x2.shape[0] if vector else x2.shape[-2]
        if rows != m:
            raise ShapeMismatch(f"linalg.solve: 'x2' of shape {x2.shape} does not match "
                                f"{m}x{m} matrices in 'x1' {x1.shape}", m, rows)
        if not vector:
            broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
        return wrap(be.linalg_solve(d1, d2, vector))

    def svd(x, /, *, full_matrices=True):
        u, s, vh = be.linalg_svd(_matrix(x, "svd"),
                                 _flag(full_matrices, "svd", "full_matrices"))
        return SVDResult(wrap(u), wrap(s), wrap(vh))

    def svdvals(x, /):
        return wrap(be.linalg_svdvals(_matrix(x, "svdvals")))

    def trace(x, /, *, offset=0, dtype=None):
        d = _matrix(x, "trace", kinds="iufc")
        acc = accumulation_dtype(ctx, x._dtype, dtype, "linalg.trace")
        offset = as_int(offset, "offset")
        # an offset past the matrix selects an empty diagonal (a sum of 0), as in NumPy; clamp
        # it so no backend meets an integer wider than its C int
        n, m = x.shape[-2:]
        offset = max(-n, min(offset, m))
        return wrap(be.linalg_trace(d, offset, acc))

    def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
        require_array(ctx, x, "linalg.vector_norm")
        x = ctx.floating(x, "fc", "linalg.vector_norm")
        axes = normalize_axes(axis, x.ndim)
        _number(ord, "vector_norm", "ord")
        if ord != ord:
            raise InvalidArgument("ord", "linalg.vector_norm: must not be NaN")
        keepdims = _flag(keepdims, "vector_norm", "keepdims")
        return wrap(be.linalg_vector_norm(x._data, axes, keepdims, ord))

    return {
        "cholesky": cholesky, "cross": cross, "det": det, "diagonal": diagonal, "eig": eig,
        "eigh": eigh, "eigvals": eigvals, "eigvalsh": eigvalsh, "inv": inv,
        "matmul": main["matmul"], "matrix_norm": matrix_norm, "matrix_power": matrix_power,
        "matrix_rank": matrix_rank, "matrix_transpose": main["matrix_transpose"],
        "outer": outer, "pinv": pinv, "qr": qr, "slogdet": slogdet, "solve": solve,
        "svd": svd, "svdvals": svdvals, "tensordot": main["tensordot"], "trace": trace,
        "vecdot": main["vecdot"], "vector_norm": vector_norm,
    }
