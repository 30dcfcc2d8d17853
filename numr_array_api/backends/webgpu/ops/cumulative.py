"""cumulative_sum / cumulative_prod on the GPU, through the shared scan
(primitives/scan.py).

The axis is moved last (a view) and the other dims collapse into rows (a contiguous copy
only when they cannot); each row is scanned in blocks (reduce-then-scan), so float sums
associate blockwise, not strictly left to right as NumPy's loop does: results agree within
float rounding, and are more accurate for long rows (the error grows like the block tree's
depth, not the row length).
"""

import math

from ...._core import dtypes as dt
from ..codegen.render import collapse
from ..codegen.types import WTYPES
from ..primitives.scan import scan
from .host_fallback import _make
from .reduction.table import VAL_DTYPE, acc_wtype

_HOST = _make("cumulative")


def _supported(client, *dtypes):
    return all(not WTYPES[d].need or client.has(WTYPES[d].need) for d in dtypes)


class CumulativeMixin:
    def cumulative(self, name, data, axis, dtype, include_initial):
        client = data.client
        if dtype is dt.bool_ or not _supported(client, data.dtype, dtype):
            return _HOST(self, name, data, axis, dtype, include_initial)
        # a scan is a few planned dispatches: a repeated signature replays them
        # (runtime/recipes.py); the job derives every buffer from ``data`` itself
        return client.recipes.call(
            ("cumulative", name, axis, dtype, include_initial), (data,),
            lambda: self._cumulative(name, data, axis, dtype, include_initial))

    def _cumulative(self, name, data, axis, dtype, include_initial):
        acc = VAL_DTYPE[acc_wtype(dtype).val]   # float16 accumulates in float32
        nd = data.ndim
        rest = [d for d in range(nd) if d != axis]
        view = data.permute(tuple(rest) + (axis,))
        lshape = tuple(data.shape[d] for d in rest)
        m = data.shape[axis]
        rows = math.prod(lshape)
        oshape, ostr = collapse(view.shape[:-1], view.strides[:-1])
        if len(oshape) > 1:
            view = view.contiguous()
            oshape, ostr = (rows,), (m,)
        rs = ostr[0] if ostr else 0
        v2 = view._view((rows, m), (rs, view.strides[-1] if m else 1))
        op = "add" if name == "sum" else "mul"
        out = scan(v2, op, acc, "total" if include_initial else "inclusive")
        out = out.reshape(lshape + (out.shape[1],))
        if out.dtype is not dtype:
            out = out.astype(dtype)
        inv = list(range(nd - 1))
        inv.insert(axis, nd - 1)
        res = out.permute(tuple(inv))
        return res if res.is_contiguous else res.contiguous()
