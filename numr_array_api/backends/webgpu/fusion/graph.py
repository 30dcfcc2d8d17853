"""Pending elementwise expressions: nodes, the lazy payload, materialisation and limits.

With fusion on, an elementwise call validates eagerly (dtype, shape, device: the errors are
raised where the eager path raises them) and returns a ``LazyStorage``: a ``WgpuStorage``
whose ``block`` slot holds the expression ``Node`` instead of a buffer. Shape, strides,
dtype and client are real, so metadata costs nothing; the first access to ``block`` (any
read, view, binding or copy by non-elementwise code: every use of the data goes through
it) compiles the expression into one kernel, runs it, stores the buffer in the slot and
turns the object into a plain ``WgpuStorage``. A lazy array collected unread runs nothing.

Nodes hold their inputs (storages, scalar operands, other nodes) strongly, so an input
buffer cannot return to the pool and be rewritten while an expression still reads it.
Writes into existing buffers (``__setitem__``, in-place operators, graph replays, custom
kernels) first flush every pending expression (``flush_all``): an expression reading the
written buffer then sees the values it had when the expression was built.

Limits (``settings``): nodes per expression, inputs per kernel (the adapter's storage
bindings per stage, one kept for the output), scalar words, pending expressions, and the
bytes of input buffers held by pending expressions; past one, the operands are computed
first (a node) or everything pending is flushed (the totals).
"""

import math
import weakref

from ...._core import environment
from ..runtime.concurrency import LOCK
from ..storage import WgpuStorage, _row_major, new_output
from . import codegen

_BLOCK = WgpuStorage.block  # the slot descriptor under LazyStorage's property


class Settings:
    __slots__ = ("on", "max_nodes", "max_inputs", "max_scalar_words", "max_library_ops",
                 "max_pending", "max_held_bytes")

    def __init__(self):
        self.on = environment.get("NUMR_WEBGPU_FUSION") == "1"
        self.max_nodes = 128
        self.max_inputs = 16         # also capped by the adapter's storage bindings - 1
        self.max_scalar_words = 64
        # distinct math-library functions (exp, sin, complex division ...) per kernel: each
        # inlines up to a few hundred lines, and lavapipe's compile time grows faster than
        # the shader (several f64 / complex ones took tens of seconds)
        self.max_library_ops = 8
        self.max_pending = 1024
        self.max_held_bytes = 4 << 30


settings = Settings()


class Stats:
    __slots__ = ("kernels", "nodes", "deferred", "dropped", "prologues")

    def __init__(self):
        self.reset()

    def reset(self):
        self.kernels = 0    # fused kernels run
        self.nodes = 0      # nodes they evaluated (eager would run one kernel per node)
        self.deferred = 0   # elementwise calls that built a node
        self.dropped = 0    # pending expressions collected unread
        self.prologues = 0  # expressions a reduction evaluated in its first pass

    def as_dict(self):
        return {k: getattr(self, k) for k in self.__slots__}


stats = Stats()


class Scalar:
    """A Python-scalar operand: its WType and the u32 words of its bytes."""

    __slots__ = ("t", "words")

    def __init__(self, t, words):
        self.t, self.words = t, words


class Node:
    """One elementwise call: ``op`` (the eager recipe, ops/elementwise.py's ``_Spec``) over
    ``args`` (Nodes of the same shape, leaf storages, Scalars)."""

    __slots__ = ("op", "args", "shape", "dtype", "client", "count", "leaves", "nscal",
                 "libs", "result", "__weakref__")

    def __init__(self, op, args, shape, client):
        self.op, self.args, self.shape, self.client = op, args, shape, client
        self.dtype = op.out_dtype
        self.result = None  # the storage once computed (then it is read as a leaf)
        count, nscal, leaves = 1, 0, None
        libs = frozenset((op.op_src,)) if op.lib_parts else frozenset()
        for a in args:
            c = a.__class__
            if c is Node and a.result is not None:
                a = a.result  # computed meanwhile: read as a leaf
                c = a.__class__
            if c is Node:
                count += a.count
                nscal += a.nscal
                if a.libs:
                    libs = libs | a.libs
                leaves = a.leaves if leaves is None or leaves is a.leaves else \
                    {**leaves, **a.leaves}
            elif c is Scalar:
                nscal += len(a.words)
            else:
                leaves = {id(a): a} if leaves is None else {**leaves, id(a): a}
        self.count, self.nscal, self.leaves = count, nscal, leaves or {}
        self.libs = libs  # the distinct math-library ops (shader size, compile time)


def _exact(node):
    """(nodes, leaf storages, scalar words, math-library ops) of ``node``'s DAG, shared
    nodes counted once (Node's running totals count them once per use)."""
    seen, stack, leaves, scalars, libs = set(), [node], {}, {}, set()
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.op.lib_parts:
            libs.add(n.op.op_src)
        for a in n.args:
            c = a.__class__
            if c is Node:
                if a.result is None:
                    stack.append(a)
                else:
                    leaves[id(a.result)] = a.result
            elif c is Scalar:
                scalars[id(a)] = len(a.words)
            else:
                leaves[id(a)] = a
    return len(seen), leaves, sum(scalars.values()), frozenset(libs)


def _reach(node):
    seen, stack = {}, [node]
    while stack:
        n = stack.pop()
        if id(n) not in seen:
            seen[id(n)] = n
            stack.extend(a for a in n.args if a.__class__ is Node and a.result is None)
    return seen


def _shared_tops(args):
    """The topmost nodes reachable from two or more of ``args``: computing them first
    keeps the operands' kernels from each recomputing them."""
    uses, nodes = {}, {}
    for a in args:
        if a.__class__ is Node and a.result is None:
            r = _reach(a)
            nodes.update(r)
            for k in r:
                uses[k] = uses.get(k, 0) + 1
    shared = {k for k, u in uses.items() if u > 1}
    below = {id(c) for k in shared for c in nodes[k].args if id(c) in shared}
    return [nodes[k] for k in shared - below]


class LazyStorage(WgpuStorage):
    """A pending elementwise result; becomes a plain WgpuStorage when its data is used."""

    __slots__ = ()

    @property
    def block(self):
        v = _BLOCK.__get__(self)
        if v.__class__ is Node:
            with LOCK:
                v = _BLOCK.__get__(self)
                if v.__class__ is Node:
                    v = materialize(v).block
                    _BLOCK.__set__(self, v)
                    _unregister(self)
        self.__class__ = WgpuStorage
        return v

    @block.setter
    def block(self, v):
        _BLOCK.__set__(self, v)

    def _view(self, shape, strides, offset=None):
        block = self.block
        return WgpuStorage(block, self.offset if offset is None else offset, tuple(shape),
                           tuple(strides), self.dtype, self.client)

    def __repr__(self):
        return "Lazy" + super().__repr__()


def pending_node(s):
    """The Node of a pending lazy storage, else None."""
    if s.__class__ is LazyStorage:
        v = _BLOCK.__get__(s)
        if v.__class__ is Node:
            return v
    return None


# ---- registry of pending lazy storages (for flush_all and the memory bound) ------------
_PENDING = {}   # id(storage) -> (weakref, held bytes)
_FREED = []     # held bytes of pending storages collected unread (drained under LOCK)
_held = [0]


def _collected(key, ref, _pending=_PENDING, _freed=_FREED):
    # runs at any point of any thread (garbage collection): only atomic list/dict ops
    entry = _pending.get(key)
    if entry is not None and entry[0] is ref and _pending.pop(key, None) is not None:
        _freed.append(entry[1])
        stats.dropped += 1


def _drain():
    while _FREED:
        _held[0] -= _FREED.pop()


def _held_bytes(node):
    return sum([s.block.size for s in node.leaves.values()])


def _register(s, node):
    _drain()
    b = _held_bytes(node)
    if len(_PENDING) >= settings.max_pending or _held[0] + b > settings.max_held_bytes:
        flush_all()
    key = id(s)
    _PENDING[key] = (weakref.ref(s, lambda r, k=key: _collected(k, r)), b)
    _held[0] += b
    if b > settings.max_held_bytes:
        flush_all()  # alone past the bound: computed now


def _unregister(s):
    entry = _PENDING.pop(id(s), None)
    if entry is not None:
        _held[0] -= entry[1]


def flush_all():
    """Compute every pending expression (of every thread)."""
    if not _PENDING:
        return
    with LOCK:
        for ref, _ in list(_PENDING.values()):
            s = ref()
            if s is not None:
                s.block  # noqa: B018 (materialises)
        _drain()


def pending_count():
    return len(_PENDING)


def held_bytes():
    _drain()
    return _held[0]


# ---- building ------------------------------------------------------------------------
_SCALARS = {}   # id(cached 0-d operand) -> (operand, Scalar)


def note_scalar(storage, t, raw):
    """Remember that the cached 0-d ``storage`` holds the bytes ``raw`` (WType ``t``)."""
    if len(_SCALARS) > 4096:
        _SCALARS.clear()
    raw = raw + b"\0" * (-len(raw) % 4)
    words = tuple(int.from_bytes(raw[i:i + 4], "little") for i in range(0, len(raw), 4))
    _SCALARS[id(storage)] = (storage, Scalar(t, words))


def _max_inputs(client):
    got = getattr(client, "_fusion_max_inputs", None)
    if got is None:
        got = client.limits.get("max-storage-buffers-per-shader-stage", 8) - 1
        client._fusion_max_inputs = got
    return min(got, settings.max_inputs)


def _fits(node, client):
    return (node.count <= settings.max_nodes and len(node.leaves) <= _max_inputs(client)
            and node.nscal <= settings.max_scalar_words
            and len(node.libs) <= settings.max_library_ops)


def _build(op, inputs, shape, client):
    args = []
    for s in inputs:
        if s.__class__ is LazyStorage:
            v = _BLOCK.__get__(s)
            if v.__class__ is Node:
                if v.shape == shape and v.result is None:
                    args.append(v)
                    continue
                s.block  # noqa: B018 (a broadcast operand: computed once, read as a leaf)
        got = _SCALARS.get(id(s))
        if got is not None and got[0] is s:
            args.append(got[1])
        else:
            args.append(s)
    node = Node(op, tuple(args), shape, client)
    if not _fits(node, client):
        node.count, node.leaves, node.nscal, node.libs = _exact(node)
        if not _fits(node, client):
            # too large for one kernel: compute the shared operands, else all operands,
            # first; this node then reads them
            for t in _shared_tops(args):
                materialize(t)
            node.count, node.leaves, node.nscal, node.libs = _exact(node)
            if not _fits(node, client):
                args = [materialize(a) if a.__class__ is Node else a for a in args]
                node = Node(op, tuple(args), shape, client)
    stats.deferred += 1
    return node


def _no_int64(client):
    got = getattr(client, "_fusion_no_int64", None)
    if got is None:
        got = client._fusion_no_int64 = not client.has("shader-int64")
    return got


def defer(op, inputs, shape, client):
    """The lazy result of ``op`` (an eager recipe) over ``inputs`` broadcast to ``shape``,
    or None where the eager kernel must run (f64 on an adapter without shader-int64: the
    fused kernel's f64 bit casts go through u64; inside a recipe's capture)."""
    if _no_int64(client) and any(t.need == "shader-f64" for t in (*op.in_ts, op.out_t)):
        return None
    if client.recorder.watch is not None:
        # a call recipe is being captured (runtime/recipes.py): it must record its own
        # dispatches as they run, not an expression materialised at some later trigger
        return None
    node = _build(op, inputs, shape, client)
    s = LazyStorage(node, 0, shape, _row_major(shape), node.dtype, client)
    _register(s, node)
    return s


def adopt(dst, src):
    """In-place ``dst = src`` for a pending ``dst`` (nothing views a pending storage, so
    no one else sees its values) and a pending ``src``: ``dst`` takes ``src``'s node;
    expressions built from the old value keep the old node. False: not applicable (the
    caller writes into ``dst``)."""
    if pending_node(dst) is None:
        return False
    node = pending_node(src)
    if node is None:
        return False
    with LOCK:
        _unregister(src)
        _unregister(dst)
        _BLOCK.__set__(dst, node)
        _register(dst, node)
    return True


# ---- compiling and running ----------------------------------------------------------------
_PROGRAMS = {}


class Program:
    """A compiled-once fused expression signature; called with (rank, scatter) it gives
    the FusedSpec (its identity keys the launch geometry cache)."""

    __slots__ = ("ops", "lib", "program", "in_ts", "sc_ts", "specs", "__weakref__")

    def __init__(self, ops, lib, program, in_ts, sc_ts):
        self.ops, self.lib, self.program = ops, lib, program
        self.in_ts, self.sc_ts = in_ts, sc_ts
        self.specs = {}

    def __call__(self, rank, scatter):
        key = (rank, scatter)
        s = self.specs.get(key)
        if s is None:
            s = self.specs[key] = codegen.FusedSpec(self.ops, self.lib, self.program,
                                                     self.in_ts, self.sc_ts, rank, scatter)
        return s


def _plan(root):
    """(signature, ops, leaf storages, scalar words, scalar WTypes) of ``root``'s DAG."""
    order, index, seen = [], {}, set()
    stack = [(root, False)]
    while stack:  # iterative post-order (expressions may be deep)
        n, done = stack.pop()
        if done:
            index[id(n)] = len(order)
            order.append(n)
            continue
        if id(n) in seen:
            continue
        seen.add(id(n))
        stack.append((n, True))
        for a in reversed(n.args):
            if a.__class__ is Node and a.result is None and id(a) not in seen:
                stack.append((a, False))
    leaves, leaf_ix, scalars, sc_ix, ops, op_ix, program = [], {}, [], {}, [], {}, []
    for n in order:
        refs = []
        for a in n.args:
            c = a.__class__
            if c is Node:
                if a.result is None:
                    refs.append(("n", index[id(a)]))
                    continue
                a = a.result
                c = a.__class__
            if c is Scalar:
                k = sc_ix.get(id(a))
                if k is None:
                    k = sc_ix[id(a)] = len(scalars)
                    scalars.append(a)
                refs.append(("s", k))
            else:
                k = leaf_ix.get(id(a))
                if k is None:
                    k = leaf_ix[id(a)] = len(leaves)
                    leaves.append(a)
                refs.append(("i", k))
        src = n.op.op_src
        j = op_ix.get(src)
        if j is None:
            j = op_ix[src] = len(ops)
            ops.append(n.op)
        program.append((j, n.op.res_t.name, n.op.out_t.name, tuple(refs)))
    from ..codegen.types import WTYPES
    in_ts = tuple(WTYPES[s.dtype].name for s in leaves)
    sc_ts = tuple(s.t.name for s in scalars)
    sig = (tuple(program), in_ts, sc_ts, tuple(o.op_src for o in ops))
    words = [w for s in scalars for w in s.words]
    return sig, ops, leaves, words, len(order)


def _program(sig, ops):
    p = _PROGRAMS.get(sig)
    if p is None:
        merged_library = codegen.elementwise("merged_library")
        if len(_PROGRAMS) > 2048:
            _PROGRAMS.clear()
        program, in_ts, sc_ts, srcs = sig
        p = _PROGRAMS[sig] = Program(srcs, merged_library([o.lib_parts for o in ops]),
                                     program, in_ts, sc_ts)
    return p


from ..runtime import caches as _caches  # noqa: E402

_caches.register("fusion scalar operands and programs",
                 lambda: (_SCALARS.clear(), _PROGRAMS.clear()), mid_call=False)


def materialize(node):
    """The storage holding ``node``'s values (computed now by one fused kernel)."""
    if node.result is not None:
        return node.result
    with LOCK:
        if node.result is not None:
            return node.result
        sig, ops, leaves, words, count = _plan(node)
        prog = _program(sig, ops)
        out = new_output(node.shape, node.dtype, node.client)
        if math.prod(node.shape):
            codegen.launch(node.client, prog, leaves, words, node.shape, out)
            stats.kernels += 1
            stats.nodes += count
        node.result = out
        # the inputs are no longer needed by this node
        node.args = ()
        node.leaves = {}
        return out
