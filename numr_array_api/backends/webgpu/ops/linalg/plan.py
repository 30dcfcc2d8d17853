"""Factorisation plans: the dispatches of a blocked factorisation, recorded once per
(operation, shape, dtype, adapter) and replayed.

A blocked factorisation of an n x n matrix records hundreds to thousands of dispatches
(panels, triangular solves, interchanges, GEMM updates), each costing tens of
microseconds of Python (views, allocation, parameter packing) while the GPU work of many
of them takes a few. Nothing in them depends on the data (status bits are read after the
work), so the first call of a shape runs the factorisation under graph capture
(runtime/graph.py) and later calls copy their input into the plan's input buffer and
replay the recorded dispatches (four native calls each). The plan's outputs are copied
into fresh arrays (the next replay overwrites them).

A plan pins every buffer its dispatches touch: at most ``PLAN_MAX`` plans are kept (least
recently used dropped), and matrices larger than ``PLAN_BYTES`` are never planned. The
knob LINALG_PLAN off turns plans off (every call records afresh); a plan is keyed on the
tuning epoch, so a process comparing variants replays each under its own.
"""

from __future__ import annotations

import collections

from ....._core.errors import BackendLimitation
from .....tuning.registry import epoch, get as tuned
from ...runtime.concurrency import LOCK
from ...runtime import caches as _caches
from ...runtime.graph import CapturedGraph

PLAN_MAX = 8
PLAN_BYTES = 256 << 20
_PLANS: "collections.OrderedDict" = collections.OrderedDict()
_UNPLANNABLE: set = set()


def planned(name, fn, *inputs):
    """``fn(*inputs)`` -> tuple of storages, through a cached plan: ``inputs`` contiguous
    storages of one client; returns fresh copies of the outputs."""
    client = inputs[0].client
    nbytes = sum(x.nbytes for x in inputs)
    if not tuned("LINALG_PLAN", client) or nbytes > PLAN_BYTES:
        return fn(*inputs)
    key = (name, id(client), tuple((x.shape, x.dtype.name) for x in inputs), epoch())
    with LOCK:
        g = _PLANS.get(key)
        if g is not None and g.client is client:
            _PLANS.move_to_end(key)
            outs = g.replay(*inputs)
            outs = (outs,) if g.single else outs
        else:
            if key in _UNPLANNABLE:
                return fn(*inputs)
            try:
                g = CapturedGraph(client, lambda *xs: tuple(fn(*xs)), inputs)
            except BackendLimitation:
                # something the recording cannot hold (e.g. an indirect dispatch): run
                # this shape the ordinary way from now on
                _UNPLANNABLE.add(key)
                return fn(*inputs)
            _PLANS[key] = g
            while len(_PLANS) > PLAN_MAX:
                _PLANS.popitem(last=False)
            outs = g.outputs
        return tuple(o.copy() for o in outs)


def clear():
    """Drop every plan (their buffers go back to the pool)."""
    with LOCK:
        _PLANS.clear()


_caches.register("linalg plans", clear)
