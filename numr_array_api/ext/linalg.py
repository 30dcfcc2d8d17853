"""Fused GEMM epilogues: ``act(a @ b + bias) + residual`` and its backward pass.

Validation and dtype / shape decisions live here; the arithmetic is chosen per namespace
through :mod:`numr_array_api._algorithms.dispatch` (NumPy kernels for NumPy-backed namespaces,
the portable array-API implementation elsewhere, backend kernels once registered).
"""

import numpy as np

from .._core.array import Array as _NumrArray
from .._core.errors import (DTypeMismatch, DeviceMismatch, InvalidArgument, InvalidType,
                            NamespaceMismatch, ShapeMismatch)
from .._algorithms import dispatch as _dispatch
from .._algorithms._namespace import broadcast_shapes
from .._algorithms.gemm import numpy_impl, portable
from .._algorithms.gemm.activations import ACTIVATIONS

__all__ = ["gemm_epilogue", "gemm_epilogue_bwd", "ACTIVATIONS"]


try:  # resolved once: a failing import costs tens of microseconds per call
    from array_api_compat import array_namespace as _array_namespace
    import array_api_compat.numpy as _NDARRAY_NS
except ImportError:  # pragma: no cover - array_api_compat is a dependency
    _array_namespace = None
    _NDARRAY_NS = np  # NumPy >= 2 is itself an array API namespace


def _namespace(named):
    xp = _namespace_of(named)
    _same_device(named)
    return xp


def _same_device(named):
    """The one device rule (docs/reliability.md): operands on different devices raise
    DeviceMismatch naming both before any work, whatever the library."""
    first = None
    for n, x in named:
        if x is None:
            continue
        d = getattr(x, "device", None)
        if first is None:
            first = (n, d)
        elif d is not first[1] and d != first[1]:
            raise DeviceMismatch(f"gemm_epilogue: arrays are on different devices: '{first[0]}' "
                                 f"is on {first[1]}, '{n}' on {d}; move one with to_device "
                                 f"first", (first[1], d))


def _namespace_of(named):
    arrays = [x for _, x in named if x is not None]
    for n, x in named:
        if x is None and n in ("a", "b", "grad"):
            raise InvalidType(f"'{n}' must be an array, got None")
    # fast paths (array_namespace costs several microseconds): all ndarrays, or all
    # arrays of one numr namespace
    t = type(arrays[0])
    if all(type(x) is t for x in arrays):
        if t is np.ndarray:
            return _NDARRAY_NS
        if t.__module__.startswith("numr_array_api."):
            spaces = {x.__array_namespace__() for x in arrays}
            if len(spaces) == 1:
                return spaces.pop()
    numr = [(n, x) for n, x in named if isinstance(x, _NumrArray)]
    if numr and len({x._ctx for _, x in numr}) > 1:
        (n1, x1), (n2, x2) = numr[0], next(p for p in numr if p[1]._ctx is not numr[0][1]._ctx)
        raise NamespaceMismatch(f"'{n1}' is an array of {x1._ctx.module.__name__} and '{n2}' "
                                f"of {x2._ctx.module.__name__}; move one with asarray(x, "
                                f"device=...) first", (x1.device, x2.device))
    if _array_namespace is None:  # pragma: no cover
        spaces = {x.__array_namespace__() for x in arrays}
        if len(spaces) != 1:
            raise DTypeMismatch("arrays of different namespaces cannot be combined")
        return spaces.pop()
    try:
        return _array_namespace(*arrays)
    except TypeError as exc:
        names = ", ".join(f"'{n}'" for n, x in named if x is not None)
        raise DTypeMismatch(f"{names} must be arrays of one array namespace: {exc}") from exc


# (namespace name, dtype) -> is real floating, and dtype tuples -> result dtype: isdtype and
# result_type cost microseconds each, a visible share of a small GEMM's wall time
_IS_REAL_FLOAT = {}
_RESULT_TYPE = {}


def _check_float(xp, name, x):
    key = (xp.__name__, x.dtype)
    ok = _IS_REAL_FLOAT.get(key)
    if ok is None:
        ok = _IS_REAL_FLOAT[key] = bool(xp.isdtype(x.dtype, "real floating"))
    if not ok:
        raise DTypeMismatch(f"'{name}' must have a real floating dtype, got {x.dtype}", rhs=x.dtype)


def _validate(xp, a, b, bias, activation):
    if not isinstance(activation, str) or activation not in ACTIVATIONS:
        raise InvalidArgument("activation", f"expected one of {ACTIVATIONS}, got {activation!r}")
    for name, x in (("a", a), ("b", b)):
        if x.ndim < 2:
            raise ShapeMismatch(f"'{name}' must have at least 2 dimensions, got shape {tuple(x.shape)}",
                                got=tuple(x.shape))
    M, K = a.shape[-2:]
    Kb, N = b.shape[-2:]
    if K != Kb:
        raise ShapeMismatch(f"'b' must have K={K} rows to match 'a' of shape {tuple(a.shape)}, "
                            f"got shape {tuple(b.shape)}", expected=(K, N), got=(Kb, N))
    try:
        batch = broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    except ValueError:
        raise ShapeMismatch(f"batch dimensions of 'a' {tuple(a.shape[:-2])} and 'b' "
                            f"{tuple(b.shape[:-2])} do not broadcast",
                            expected=tuple(a.shape[:-2]), got=tuple(b.shape[:-2])) from None
    if bias is not None and tuple(bias.shape) != (N,):
        raise ShapeMismatch(f"'bias' must have shape ({N},), got {tuple(bias.shape)}",
                            expected=(N,), got=tuple(bias.shape))
    return tuple(batch) + (M, N)


def _result_dtype(xp, named):
    for name, x in named:
        if x is not None:
            _check_float(xp, name, x)
    dtypes = tuple(x.dtype for _, x in named if x is not None)
    key = (xp.__name__,) + dtypes
    dt = _RESULT_TYPE.get(key)
    if dt is None:
        dt = _RESULT_TYPE[key] = xp.result_type(*dtypes)
    return dt


def gemm_epilogue(a, b, /, bias=None, *, activation="none", residual=None):
    """``act(a @ b + bias) + residual`` in one pass over the output.

    a: ``[..., M, K]``; b: ``[..., K, N]`` (batch dimensions broadcast as in ``matmul``);
    bias: ``[N]`` or None; residual: broadcastable to the output ``[..., M, N]`` or None.
    activation: one of ``none, relu, gelu`` (tanh approximation), ``gelu_erf, silu,
    sigmoid, tanh``. The result dtype follows the array API promotion of all inputs, and
    the result is an array of the inputs' namespace.
    """
    named = (("a", a), ("b", b), ("bias", bias), ("residual", residual))
    xp = _namespace(named)
    out_shape = _validate(xp, a, b, bias, activation)
    if residual is not None:
        try:
            ok = broadcast_shapes(tuple(residual.shape), out_shape) == out_shape
        except ValueError:
            ok = False
        if not ok:
            raise ShapeMismatch(f"'residual' of shape {tuple(residual.shape)} does not broadcast "
                                f"to the output shape {out_shape}",
                                expected=out_shape, got=tuple(residual.shape))
    dtype = _result_dtype(xp, named)
    impl = _dispatch.lookup("gemm_epilogue", xp)
    return impl(xp, a, b, bias, residual, activation=activation, dtype=dtype)


def gemm_epilogue_bwd(grad, a, b, /, bias=None, *, activation="none"):
    """Gradients ``(d_a, d_b, d_bias)`` of ``act(a @ b + bias)`` for upstream ``grad``.

    ``grad`` has the output shape ``[..., M, N]``. Batch dimensions that broadcasting
    added or stretched are summed back, so each gradient has its input's shape (``d_bias``
    is None when ``bias`` is None). The residual of :func:`gemm_epilogue` needs no entry:
    its gradient is ``grad`` itself (summed to its shape).
    """
    named = (("grad", grad), ("a", a), ("b", b), ("bias", bias))
    xp = _namespace(named)
    out_shape = _validate(xp, a, b, bias, activation)
    if tuple(grad.shape) != out_shape:
        raise ShapeMismatch(f"'grad' must have the output shape {out_shape}, got {tuple(grad.shape)}",
                            expected=out_shape, got=tuple(grad.shape))
    dtype = _result_dtype(xp, named)
    impl = _dispatch.lookup("gemm_epilogue_bwd", xp)
    return impl(xp, grad, a, b, bias, activation=activation, dtype=dtype)


# ---- implementations -------------------------------------------------------------------

def _np_dtype(dtype):
    # numr dtypes carry their NumPy equivalent as .np; NumPy namespaces use np.dtype itself
    return np.dtype(getattr(dtype, "np", dtype))


def _host(x):
    return None if x is None else np.asarray(x)


_NDARRAY_NAMESPACES = ("numpy", "array_api_compat.numpy")


def _wrap(xp, x):
    if x is None or xp.__name__ in _NDARRAY_NAMESPACES:
        return x
    return xp.asarray(x)


def _numpy_fwd(xp, a, b, bias, residual, *, activation, dtype):
    out = numpy_impl.gemm_epilogue(_host(a), _host(b), _host(bias), _host(residual),
                                   activation=activation, dtype=_np_dtype(dtype))
    return _wrap(xp, out)


def _numpy_bwd(xp, grad, a, b, bias, *, activation, dtype):
    res = numpy_impl.gemm_epilogue_bwd(_host(grad), _host(a), _host(b), _host(bias),
                                       activation=activation, dtype=_np_dtype(dtype))
    return tuple(_wrap(xp, r) for r in res)


_dispatch.set_portable("gemm_epilogue", portable.gemm_epilogue)
_dispatch.set_portable("gemm_epilogue_bwd", portable.gemm_epilogue_bwd)
# NumPy-backed namespaces: np.asarray is zero-copy on all three (numr cpu arrays hold a
# NumPy payload and export it through the buffer / __array__ protocols).
for _name in ("numpy", "array_api_compat.numpy", "numr_array_api.cpu"):
    _dispatch.register("gemm_epilogue", _name, _numpy_fwd)
    _dispatch.register("gemm_epilogue_bwd", _name, _numpy_bwd)
del _name


def _behind_the_boundary():
    # numr errors only, as the namespaces' functions (numr_array_api._core.boundary)
    from .._core.boundary import wrap_function
    g = globals()
    for name in __all__:
        if callable(g[name]) and not isinstance(g[name], type):
            g[name] = wrap_function(None, name, g[name], False)


_behind_the_boundary()
