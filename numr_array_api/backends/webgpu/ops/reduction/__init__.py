"""Reductions on the GPU: sum, prod, max, min, mean, all, any, var / std, argmax / argmin,
count_nonzero, sum_all.

table.py  the ops as rows (state, identity, fold, combine, post) and the result dtypes
spec.py   the one kernel frame (ReduceSpec) and ``variants()``
plan.py   mapping by layout, chunks and passes, boxes over big data
prologue.py  a pending elementwise expression (lazy fusion) as the first pass's elements
mixin.py  the backend methods
"""

from .mixin import ReductionMixin
from .spec import variants

__all__ = ["ReductionMixin", "variants"]
