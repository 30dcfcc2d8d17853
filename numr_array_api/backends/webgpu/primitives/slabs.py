"""Splitting work over data larger than one binding (or one buffer) into boxes.

A kernel binds each operand through one window of one buffer: at most the adapter's
storage-binding limit (128 MiB on lavapipe, 2 GiB on NVIDIA), inside one segment of a
multi-buffer array, and its index arithmetic is u32. ``boxes`` cuts an iteration space into
boxes (ranges per dimension) such that, for every operand viewed over the box, the view
fits one binding and the box holds at most ``max_elems`` elements; a family then runs its
ordinary single-binding launch once per box on the sub-views. The split happens on the
dimension that spans the most memory in the first operand that does not fit, at a segment
boundary or at the binding size when one is in the way, else in half, so a contiguous array meets few, large boxes and
broadcast views (stride 0) are bounded by element count, never by bytes.
"""

from __future__ import annotations

import math
from typing import Sequence

from ...._core.errors import BackendLimitation

__all__ = ["MAX_BOX_ELEMS", "boxes", "box_views", "fits"]

# elements per box: grid-stride loops over u32 element numbers never come near 2^32
MAX_BOX_ELEMS = 1 << 30


def fits(views: Sequence, max_elems: int = MAX_BOX_ELEMS) -> bool:
    """True if one launch can take every view as it is."""
    return all(v.size <= max_elems and v.fits_binding() for v in views)


def _sub(v, box):
    return v[tuple(slice(a, b) for a, b in box)]


def box_views(views: Sequence, box) -> list:
    return [_sub(v, box) for v in views]


def boxes(shape: Sequence[int], views: Sequence, max_elems: int = MAX_BOX_ELEMS,
          outer_first: bool = False) -> list:
    """Boxes ``((start, stop), ...)`` covering ``shape`` in row-major order such that every
    view (each of shape ``shape``; broadcast views allowed) over each box ``fits``.
    ``outer_first``: always cut the outermost dimension first, so boxes are runs of whole
    rows as long as possible (callers that number elements row-major need that)."""
    shape = tuple(shape)
    full = tuple((0, n) for n in shape)
    if math.prod(shape) == 0 or fits(views, max_elems):
        return [full]
    out, stack = [], [full]
    while stack:
        box = stack.pop()
        sub = box_views(views, box)
        if fits(sub, max_elems):
            out.append(box)
            continue
        d = _split_dim(sub, box, max_elems, outer_first)
        if d is None:
            raise BackendLimitation("webgpu", f"a kernel over {shape}",
                                    "one element does not fit a storage binding")
        a, b = box[d]
        mid = _split_point(sub, d, a, b, max_elems)
        stack.append(box[:d] + ((mid, b),) + box[d + 1:])
        stack.append(box[:d] + ((a, mid),) + box[d + 1:])
    return out


def _split_dim(sub, box, max_elems, outer_first=False):
    """The dimension to cut: for the first view that does not fit a binding, its widest
    dimension in memory (cutting it shrinks that view's window most; for a transposed view
    that is not the outermost one); for a box that is only too many elements, the
    outermost dimension longer than one."""
    live = [i for i, (a, b) in enumerate(box) if b - a > 1]
    if not live or outer_first:
        return live[0] if live else None
    for v in sub:
        if not v.fits_binding():
            return max(live, key=lambda i: abs(v.strides[i]) * (v.shape[i] - 1))
    return live[0]


def _split_point(sub, d, a, b, max_elems):
    """Where to cut [a, b) along dim ``d``: the largest prefix the first offending view can
    take (up to its segment boundary or binding size), else the middle."""
    n = b - a
    inner = math.prod(sub[0].shape[d + 1:]) if sub else 1
    best = n // 2
    for v in sub:
        if v.size <= max_elems and v.fits_binding():
            continue
        rows = n
        if v.size > max_elems:
            rows = min(rows, max(1, max_elems // max(inner, 1)))
        step = abs(v.strides[d]) * v.itemsize
        if step:
            lo, hi = v.extent()
            row_span = (hi - lo) - (n - 1) * step  # bytes of one row (index d fixed)
            limit = v.client.max_binding - 512
            seg = getattr(v.block, "seg_bytes", None)
            room = limit
            if seg is not None and v.strides[d] > 0:
                room = min(room, seg - lo % seg)
            if seg is not None and v.strides[d] < 0:
                room = min(room, hi - (hi - 1) // seg * seg)
            rows = min(rows, max(1, (room - row_span) // step + 1))
        best = rows
        break
    return a + min(max(best, 1), n - 1)
