"""NaN-ignoring reductions (``nansum``, ``nanmean``) on any array-API namespace.

The standard has no nan-reductions (data-apis/array-api#621), but chunked engines such as
Cubed call ``nansum`` on their chunk namespace. Both are compositions of standard functions
(``isnan``, ``where``, ``sum``) in the namespace of ``x``, so they run where ``x`` lives:
on a GPU namespace every step is a device kernel and nothing is read back to the host.
Semantics follow ``numpy.nansum`` / ``numpy.nanmean``.
"""

from .._core.errors import DTypeMismatch, InvalidType

__all__ = ["nansum", "nanmean"]


def _namespace(x, fname):
    ns = getattr(x, "__array_namespace__", None)
    if ns is None:
        raise InvalidType(f"{fname}: 'x' must be an array of an array-API namespace, got "
                        f"{type(x).__name__}")
    return ns()


def _nan_to_zero(xp, x):
    # a complex element counts as NaN when either part is (isnan's definition), as in NumPy
    zero = xp.zeros((), dtype=x.dtype, device=x.device)
    return xp.where(xp.isnan(x), zero, x)


def _is_inexact(xp, dtype):
    return xp.isdtype(dtype, ("real floating", "complex floating"))


def nansum(x, /, *, axis=None, dtype=None, keepdims=False):
    """Sum of the elements of ``x`` over ``axis``, NaNs counted as zero: ``sum`` with the
    standard's accumulation dtype (``dtype`` as in ``sum``). All-NaN or empty slices sum
    to 0; infinities are kept (``inf + -inf`` is NaN)."""
    xp = _namespace(x, "nansum")
    if _is_inexact(xp, x.dtype):
        x = _nan_to_zero(xp, x)
    return xp.sum(x, axis=axis, dtype=dtype, keepdims=keepdims)


def nanmean(x, /, *, axis=None, keepdims=False):
    """Mean of the non-NaN elements of ``x`` over ``axis`` (floating ``x``, like ``mean``).
    A slice with no non-NaN element gives NaN (NumPy also warns; numr does not)."""
    xp = _namespace(x, "nanmean")
    if not _is_inexact(xp, x.dtype):
        raise DTypeMismatch(f"nanmean: 'x' must have a floating-point dtype, got {x.dtype}",
                            x.dtype, None)
    valid = xp.logical_not(xp.isnan(x))
    total = xp.sum(xp.where(valid, x, xp.zeros((), dtype=x.dtype, device=x.device)),
                   axis=axis, keepdims=keepdims)
    count = xp.sum(xp.astype(valid, total.dtype), axis=axis, keepdims=keepdims)
    return total / count


def _behind_the_boundary():
    # numr errors only, as the namespaces' functions (numr_array_api._core.boundary)
    from .._core.boundary import wrap_function
    g = globals()
    for name in __all__:
        if callable(g[name]) and not isinstance(g[name], type):
            g[name] = wrap_function(None, name, g[name], False)


_behind_the_boundary()
