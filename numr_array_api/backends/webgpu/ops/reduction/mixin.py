"""The reduction methods of the webgpu backend (interface: backends/interface.py)."""

from __future__ import annotations

import math

from ....._core import dtypes as dt
from ...codegen.caps import Caps
from ...kernels.cast import cast
from ...kernels.fill import full
from .....tuning.registry import get as tuned
from ..host_fallback import _make
from . import plan
from . import prologue as _prologue
from . import table as T

# host round trips for adapters lacking a feature a dtype needs (they warn)
_HOST = {n: _make(n) for n in ("reduce", "var", "argmax", "argmin", "count_nonzero")}


def _keep(out, shape, axes, keepdims):
    if not keepdims:
        return out
    return out.reshape(tuple(1 if d in axes else n for d, n in enumerate(shape)))


def _axes(data, axes):
    return tuple(range(data.ndim)) if axes is None else tuple(axes)


def _finish(out, dtype):
    return out if out.dtype is dtype else cast(out, dtype)


def _replayed(key, data, fn):
    """``fn()`` as a replayed recipe (runtime/recipes.py): a repeated reduction skips its
    planning, which cost the H100's host about as long as the GPU takes to read 256 MiB
    (sum: 122 -> 79 us of host time a call, 0.65 -> 0.79 of CuPy's throughput queued)."""
    return data.client.recipes.call(key, (data,), fn)


def _run(op, data, axes, acc, dv=0.0, res=None):
    node = _prologue.pending(data, op, axes)
    if node is not None:   # (lazy fusion: the expression runs inside the first pass)
        out = _prologue.run(op, node, data.shape, axes, acc, dv, res)
        if out is not None:
            return out
    return _replayed(("reduce", op, acc, res, axes, dv), data,
                     lambda: plan.run(op, data, axes, acc, dv=dv, res=res))


_ROW_SPLIT_OPS = ("sum", "max", "min", "mean")
_ROW_SPLIT_MIN = 1 << 22


def _row_split(op, data, axes, acc, m):
    """The row length to reduce a large contiguous float array through (None: no split)."""
    if (op not in _ROW_SPLIT_OPS or len(axes) != data.ndim or m < _ROW_SPLIT_MIN
            or acc is not data.dtype or data.dtype not in (dt.float32, dt.float64)
            or not data.is_contiguous):
        return None
    first = tuned("REDUCE_ROW_SPLIT", data.client)
    if not first:
        return None
    return next((c for c in (first, 8192, 4096, 16384, 2048) if m % c == 0), None)


class ReductionMixin:
    def reduce(self, name, data, axes, keepdims, dtype=None):
        caps = Caps.of(data.client)
        acc = dtype if dtype is not None and name in ("sum", "prod") else data.dtype
        op = name
        if name in ("all", "any"):
            acc = dt.bool_
        elif acc is dt.bool_:  # sum / prod accumulated in bool: or / and
            op = "any" if name == "sum" else "all"
        if not T.supported(caps, data.dtype, acc):
            return _HOST["reduce"](self, name, data, axes, keepdims, dtype)
        axes = _axes(data, axes)
        res = T.result_dtype(op, data.dtype, acc, self.default_index)
        if name == "mean" and math.prod(data.shape[d] for d in axes) == 0:
            kshape = tuple(n for d, n in enumerate(data.shape) if d not in axes)
            nan = float("nan") if res.kind == "f" else complex("nan+nanj")
            return _keep(full(kshape, nan, res, data.client), data.shape, axes, keepdims)
        m = math.prod(data.shape[d] for d in axes)
        c = _row_split(op, data, axes, acc, m)
        node = _prologue.pending(data, op, axes) if c else None
        part = None if node is None else \
            _prologue.run(op, node, (m // c, c), (1,), acc, dv=c, res=res)
        if part is not None:   # rows read from the pending expression, then the row results
            out = plan.run(op, part, (0,), acc, dv=m // c, res=res)
        elif c:
            # as rows, then the row results: the row mapping reads at 0.80 of CuPy's
            # bandwidth where the whole-array chunking reached 0.67 (H100, 256 MiB float32);
            # both launches in one recipe
            def rows():
                part = plan.run(op, data.reshape((m // c, c)), (1,), acc, dv=c, res=res)
                return plan.run(op, part, (0,), acc, dv=m // c, res=res)
            out = _replayed(("reduce_rows", op, acc, res, c), data, rows)
        else:
            out = _run(op, data, axes, acc, dv=m, res=res)
        return _keep(_finish(out, res), data.shape, axes, keepdims)

    def sum_all(self, data):
        return self.reduce("sum", data, None, False, data.dtype)

    def var(self, data, axes, correction, keepdims, std):
        if not T.supported(Caps.of(data.client), data.dtype):
            return _HOST["var"](self, data, axes, correction, keepdims, std)
        axes = _axes(data, axes)
        m = math.prod(data.shape[d] for d in axes)
        out = _run("std" if std else "var", data, axes, data.dtype,
                   dv=float(m) - float(correction), res=data.dtype)
        return _keep(_finish(out, data.dtype), data.shape, axes, keepdims)

    def _arg(self, name, data, axis, keepdims):
        caps = Caps.of(data.client)
        if not T.supported(caps, data.dtype) or (self.default_index is dt.int64
                                                 and not caps.int64):
            return _HOST[name](self, data, axis, keepdims)
        axes = tuple(range(data.ndim)) if axis is None else (axis,)
        out = _finish(_run(name, data, axes, data.dtype), self.default_index)
        if keepdims:
            out = _keep(out, data.shape, axes, True)
        return out

    def argmax(self, data, axis, keepdims):
        return self._arg("argmax", data, axis, keepdims)

    def argmin(self, data, axis, keepdims):
        return self._arg("argmin", data, axis, keepdims)

    def count_nonzero(self, data, axes, keepdims):
        caps = Caps.of(data.client)
        if not T.supported(caps, data.dtype) or (self.default_index is dt.int64
                                                 and not caps.int64):
            return _HOST["count_nonzero"](self, data, axes, keepdims)
        axes = _axes(data, axes)
        out = _run("count_nonzero", data, axes, dt.bool_)
        return _keep(_finish(out, self.default_index), data.shape, axes, keepdims)
