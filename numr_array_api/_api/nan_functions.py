"""NumPy's NaN-ignoring reductions (nansum, nanmean, nanstd, nanmax, nanargmax, nancumsum, ...).

Not in the standard. They are here because consumers look them up on the array's namespace:
xarray's default reductions (``skipna=True`` for floating data) call
``xarray.core.nputils._create_method``, which uses ``getattr(xp, "nanmean")`` for a
non-NumPy namespace and otherwise converts the data to NumPy (a host copy). CuPy serves
xarray the same way. Each function is built from the namespace's own operations, so it runs
on the device and follows every backend's kernels; the signatures are NumPy's (``out`` must
be None). Where NumPy warns and returns NaN (an all-NaN slice) these return NaN too;
``nanargmax`` / ``nanargmin`` return -1 for an all-NaN slice, as CuPy does, instead of
NumPy's ValueError, which would need a host read of the data.
"""

from .._core.errors import InvalidArgument
from ._common import require_array

NAMES = ("nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanmax", "nanmin", "nanargmax",
         "nanargmin", "nancumsum", "nancumprod")


def build(ctx):
    api = ctx.api

    def _check(x, fname, out):
        require_array(ctx, x, fname)
        if out is not None:
            raise InvalidArgument("out", f"{fname}: 'out' is not supported (numr arrays are "
                                         f"not written in place by reductions); use the result")
        return x._dtype.kind in "fc"

    def _filled(x, value):
        return api.where(api.isnan(x), value, x)

    def nansum(a, axis=None, dtype=None, out=None, keepdims=False):
        f = _check(a, "nansum", out)
        return api.sum(_filled(a, 0) if f else a, axis=axis, dtype=dtype, keepdims=keepdims)

    def nanprod(a, axis=None, dtype=None, out=None, keepdims=False):
        f = _check(a, "nanprod", out)
        return api.prod(_filled(a, 1) if f else a, axis=axis, dtype=dtype, keepdims=keepdims)

    def _count(a, axis, keepdims, dtype):
        return api.sum(api.logical_not(api.isnan(a)), axis=axis, keepdims=keepdims,
                       dtype=dtype)

    def nanmean(a, axis=None, dtype=None, out=None, keepdims=False):
        if not _check(a, "nanmean", out):
            return api.mean(a, axis=axis, keepdims=keepdims, dtype=dtype)
        if dtype is not None:
            a = api.astype(a, dtype)
        real = api.real(a) if a._dtype.kind == "c" else a
        total = api.sum(_filled(a, 0), axis=axis, keepdims=keepdims)
        return total / _count(a, axis, keepdims, real.dtype)  # 0 / 0: NaN, as NumPy

    def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        if not _check(a, "nanvar", out):
            return api.var(a, axis=axis, correction=ddof, keepdims=keepdims, dtype=dtype)
        if dtype is not None:
            a = api.astype(a, dtype)
        nan = api.isnan(a)
        real_dtype = api.real(a).dtype if a._dtype.kind == "c" else a._dtype
        n = api.sum(api.logical_not(nan), axis=axis, keepdims=True, dtype=real_dtype)
        mean = api.sum(api.where(nan, 0, a), axis=axis, keepdims=True) / n
        dev = api.where(nan, 0, a - mean)
        sq = api.real(dev * api.conj(dev)) if a._dtype.kind == "c" else dev * dev
        dof = n - ddof
        var = api.sum(sq, axis=axis, keepdims=True) / api.where(dof > 0, dof, float("nan"))
        if not keepdims:
            var = api.squeeze(var, axis=tuple(range(a.ndim)) if axis is None else axis)
        return var

    def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
        return api.sqrt(nanvar(a, axis=axis, dtype=dtype, out=out, ddof=ddof,
                               keepdims=keepdims))

    def _extreme(name, a, axis, out, keepdims):
        if not _check(a, f"nan{name}", out):
            return getattr(api, name)(a, axis=axis, keepdims=keepdims)
        nan = api.isnan(a)
        fill = float("-inf") if name == "max" else float("inf")
        r = getattr(api, name)(api.where(nan, fill, a), axis=axis, keepdims=keepdims)
        return api.where(api.all(nan, axis=axis, keepdims=keepdims), float("nan"), r)

    def nanmax(a, axis=None, out=None, keepdims=False):
        return _extreme("max", a, axis, out, keepdims)

    def nanmin(a, axis=None, out=None, keepdims=False):
        return _extreme("min", a, axis, out, keepdims)

    def _arg(name, a, axis, out, keepdims):
        if not _check(a, f"nan{name}", out):
            return getattr(api, name)(a, axis=axis, keepdims=keepdims)
        nan = api.isnan(a)
        fill = float("-inf") if name == "argmax" else float("inf")
        r = getattr(api, name)(api.where(nan, fill, a), axis=axis, keepdims=keepdims)
        return api.where(api.all(nan, axis=axis, keepdims=keepdims), -1, r)

    def nanargmax(a, axis=None, out=None, keepdims=False):
        return _arg("argmax", a, axis, out, keepdims)

    def nanargmin(a, axis=None, out=None, keepdims=False):
        return _arg("argmin", a, axis, out, keepdims)

    def _cumulative(name, a, axis, dtype, out):
        f = _check(a, f"nancum{name}", out)
        if f:
            a = _filled(a, 0 if name == "sum" else 1)
        if axis is None:  # NumPy flattens
            a = api.reshape(a, (-1,))
            axis = 0
        return getattr(api, f"cumulative_{name}")(a, axis=axis, dtype=dtype)

    def nancumsum(a, axis=None, dtype=None, out=None):
        return _cumulative("sum", a, axis, dtype, out)

    def nancumprod(a, axis=None, dtype=None, out=None):
        return _cumulative("prod", a, axis, dtype, out)

    ns = {"nansum": nansum, "nanprod": nanprod, "nanmean": nanmean, "nanvar": nanvar,
          "nanstd": nanstd, "nanmax": nanmax, "nanmin": nanmin, "nanargmax": nanargmax,
          "nanargmin": nanargmin, "nancumsum": nancumsum, "nancumprod": nancumprod}
    assert tuple(ns) == NAMES
    return ns
