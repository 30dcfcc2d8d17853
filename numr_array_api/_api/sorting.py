"""Sorting functions: sort and argsort (stable by default, stable descending too)."""

from .._core.errors import InvalidArgument
from .._core.shapes import normalize_axis
from ._common import require_array, require_kind


def build(ctx):
    be = ctx.be

    def _check(name, x, axis):
        require_array(ctx, x, name)
        require_kind(x, "biuf", name)
        if x.ndim == 0:
            raise InvalidArgument("x", f"{name}: needs at least one dimension")
        return normalize_axis(axis, x.ndim)

    def sort(x, /, *, axis=-1, descending=False, stable=True):
        ax = _check("sort", x, axis)
        return ctx.wrap(be.sort(x._data, ax, bool(descending), bool(stable)))

    def argsort(x, /, *, axis=-1, descending=False, stable=True):
        ax = _check("argsort", x, axis)
        return ctx.wrap(be.astype(be.argsort(x._data, ax, bool(descending), bool(stable)),
                                  ctx.default_index, copy=False))

    return {"sort": sort, "argsort": argsort}
