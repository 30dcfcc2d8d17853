"""A reduction of a pending elementwise expression (lazy fusion on): the expression runs
inside the reduction's first pass instead of being written to an array and read back.

``sum((x - m) ** 2, axis=-1)`` then reads ``x`` and ``m`` once and writes nothing but
the sums. The reduction kernel is the one the materialised array would get (the same
mapping, chunks, loads and fold order), its element loads replaced by the expression's
``value(e)`` (ReduceSpec.pro, fusion/codegen.py), and ``value`` is bit for bit what the
fused kernel would have stored, passed through fusion's optimisation barrier as a load
would be: so the result is bit-identical to computing the expression, then reducing it
(but for the sign and payload of a NaN the reduction makes from NaN operands, which WGSL
leaves to the compiler).

Taken when the reduced axes are the trailing ones of the expression's shape (the kept
outputs are then rows of its row-major order), its dtype is not a sub-word one, it fits
one launch (every leaf inside one binding, at most MAX_BOX_ELEMS elements) and its leaves
leave room for the reduction's own bindings. Otherwise the expression is computed first,
as before. The expression itself stays pending: reading the array later computes it then.
"""

from __future__ import annotations

import math

from ...codegen.types import WTYPES
from ...fusion import graph as G
from ...primitives.slabs import MAX_BOX_ELEMS
from ...storage import _row_major
from . import plan

# reductions from elements whose states the first pass folds (the bool-accumulating ones
# read sub-word expressions, which are not taken)
OPS = ("sum", "prod", "mean", "max", "min", "var", "std", "argmax", "argmin")
_OWN_BINDINGS = 6   # at most: 3 state fields, the result, the tail counter, one spare


def pending(data, op, axes):
    """The Node of ``data`` when a reduction of ``op`` over ``axes`` can take it as its
    prologue, else None."""
    if not G.settings.on or op not in OPS:
        return None
    node = G.pending_node(data)
    if node is None:
        return None
    nd = len(data.shape)
    if (nd == 0 or data.offset or data.shape != node.shape
            or data.strides != _row_major(data.shape)
            or sorted(axes) != list(range(nd - len(axes), nd))):
        return None
    t = WTYPES[data.dtype]
    if t.packed or math.prod(data.shape) > MAX_BOX_ELEMS:
        return None
    client = data.client
    if len(node.leaves) + _OWN_BINDINGS > \
            client.limits.get("max-storage-buffers-per-shader-stage", 8):
        return None
    if not all(leaf.fits_binding() for leaf in node.leaves.values()):
        return None
    return node


def run(op, node, vshape, axes, acc, dv=0.0, res=None):
    """``plan.run`` of ``op`` over ``axes`` of the row-major ``vshape`` view of ``node``'s
    values (its own shape, or a reshape of it: the row split of a whole-array reduction),
    with the expression as the first pass's prologue."""
    with G.LOCK:  # (a materialisation in another thread clears a node's arguments)
        if node.result is not None:
            return None
        sig, ops, leaves, words, count = G._plan(node)
        prog = G._program(sig, ops)
        # a replayed recipe (runtime/recipes.py) skips the planning; the scalar operands'
        # words are in the key (a replay binds new leaves, never new parameters)
        key = ("reduce_prologue", op, acc, res, tuple(axes), dv, vshape, node.shape,
               node.dtype, sig, tuple(words))
        out = node.client.recipes.call(
            key, tuple(leaves), lambda: plan.run_prologue(op, prog, leaves, words,
                                                          node.shape, node.dtype, vshape,
                                                          axes, acc, dv, res),
            flush=False)
        G.stats.prologues += 1
        return out
