"""Call recipes: an op's dispatches recorded once per call signature, replayed with fresh
buffers.

A transform or a multi-kernel product records several dispatches per call through layers of
Python planning (plans, slabs, layouts, parameter words): 50-100 us of host time a call, as
much as the GPU needs for a 1024-point batch or a skinny split-K product. For a repeated
call signature (same op and arguments, inputs of the same shapes, strides, offsets, dtypes
and buffer sizes) none of those decisions can change, so a recipe keeps what they produced:
per dispatch the pipeline, the parameter bytes, the workgroups and, per binding, where its
buffer comes from:

  an input         the replay's input of the same position
  a call's buffer  allocated by the call (its intermediates and outputs): a fresh pooled
                   block of the same size class at each replay
  a lasting one    allocated before the call and not an input (a plan's twiddle table): the
                   recipe keeps it alive

A call becomes a recipe only when it is self-contained, checked while it runs: no host
transfer (a status read or an upload decides or feeds what a replay cannot repeat), no
read hook registered (lazy device-side checks), no indirect or uniform-ring dispatch, every
input and output one pooled buffer, and every buffer the call allocated either an output or
released by the call's end (one kept alive means a cache was filled: a later call is
captured instead). Anything else runs the general path, which stays the reference: a
replay records the very dispatches the general path recorded at capture.
``NUMR_WEBGPU_RECIPES=0`` turns recipes off (every call takes the general path).

A replay looks each distinct binding set of its steps up once (a column loop binds the
same buffers a thousand times: eigh's tridiagonalisation has two sets for ~2 n steps), then
issues the steps' native calls in one loop (``Recorder.replay``: pipeline, bind group,
immediates, dispatch), the buffers marked pending once a replay. The per-step Python of the
general recorder path (a bind-group lookup over every binding and per-buffer bookkeeping,
~8 us a step on an H100's host) was what bounded such loops (a host-side profile of eigh's tridiagonal
reduction, 2026-11-27).
"""

import weakref

from ...._core import environment
from ...._core.errors import DeviceLost
from ....tuning.registry import epoch as _tuning_epoch
from .allocator import Block

MAX_RECIPES = 1024
ATTEMPTS = 3   # captures tried per signature before it always takes the general path


class _Watch:
    """What one call does, seen from the pool (allocations) and the recorder (dispatches)."""

    __slots__ = ("inputs", "fresh", "slots", "sizes", "steps", "bad", "entries_of")

    def __init__(self, inputs, entries_of):
        self.inputs = {id(s.block): i for i, s in reversed(list(enumerate(inputs)))}
        self.fresh = {}   # id(Block) -> weakref of every block the call allocated
        self.slots = {}   # id(Block) -> slot of a call's block bound by a dispatch
        self.sizes = []   # slot -> size class
        self.steps = []
        self.bad = None
        self.entries_of = entries_of

    def allocated(self, blk):
        k = id(blk)
        self.fresh[k] = weakref.ref(blk)
        self.slots.pop(k, None)  # an id reused after its block died: a slot of its own

    def dispatch(self, pipe, bind_group, params, workgroups, blocks, indirect):
        if self.bad:
            return
        if indirect is not None or pipe.uniform_size:
            self.bad = "an indirect or uniform-ring dispatch"
            return
        known = self.entries_of.get(id(bind_group))
        if known is None or known[0] is not pipe.bgl:
            self.bad = "a bind group made outside the cache"
            return
        by_buf = {id(b.buffer): b for b in blocks}
        refs = []
        for buf, off, size in known[1]:
            b = by_buf.get(id(buf))
            if b is None or b.__class__ is not Block:
                self.bad = "a binding outside the dispatch's blocks"
                return
            k = id(b)
            i = self.inputs.get(k)
            if i is not None:
                refs.append((1, i, off, size))
            elif k in self.fresh:
                s = self.slots.get(k)
                if s is None:
                    s = self.slots[k] = len(self.sizes)
                    self.sizes.append(b.size)
                refs.append((0, s, off, size))
            else:
                refs.append((2, b, off, size))   # the recipe keeps it alive
        self.steps.append((pipe, pipe.bgl, bytes(params), tuple(workgroups), tuple(refs)))


class Recipe:
    __slots__ = ("sizes", "steps", "outs", "single", "sets", "raw", "nbytes")

    def __init__(self, watch, outs, single):
        self.sizes = tuple(watch.sizes)
        self.steps = tuple(watch.steps)
        self.outs = outs      # (slot, storage class, offset, shape, strides, dtype) per output
        self.single = single
        # the distinct (layout, refs) binding sets, and the steps naming theirs by index,
        # prepared for Recorder.replay at the first replay (the steps keep the params bytes)
        index = {}
        for _, bgl, _, _, refs in self.steps:
            index.setdefault((id(bgl), refs), (bgl, refs))
        self.sets = tuple(index.values())
        self.raw = None
        # bytes the steps bind, for the recorder's early submit (as its dispatches count)
        self.nbytes = sum(size for *_, refs in self.steps for *_, size in refs)

    def replay(self, client, inputs):
        alloc = client.pool.allocate_class
        blocks = [alloc(s) for s in self.sizes]
        rec = client.recorder
        bgc = client.bindgroups
        try:
            groups = []
            ids = set()
            for bgl, refs in self.sets:
                ents = []
                for kind, v, off, size in refs:
                    b = blocks[v] if kind == 0 else inputs[v].block if kind == 1 else v
                    ents.append((b.buffer, off, size))
                    ids.add(id(b.buffer))
                groups.append(bgc.get(bgl, tuple(ents)))
            if self.raw is None:
                pos = {(id(bgl), refs): i for i, (bgl, refs) in enumerate(self.sets)}
                self.raw = rec.prepare([(pipe, pos[(id(bgl), refs)], params, wg)
                                        for pipe, bgl, params, wg, refs in self.steps])
            rec.replay(self.raw, groups, ids, self.nbytes)
        except DeviceLost:
            client.lost = True
            raise
        return self._outs(client, blocks)

    def _outs(self, client, blocks):
        outs = [cls(blocks[s], off, shape, strides, dtype, client)
                for s, cls, off, shape, strides, dtype in self.outs]
        return outs[0] if self.single else tuple(outs)


class Recipes:
    """A client's recipes by call signature (see the module docstring)."""

    def __init__(self, client):
        self.client = client
        self.table = {}   # signature -> Recipe, or the count of failed captures
        self.replays = 0
        self.captured = 0
        self.refused = {}  # why the last captures failed: reason -> count (tests, docs)
        self.enabled = environment.get("NUMR_WEBGPU_RECIPES") != "0"

    def clear(self):
        self.table.clear()

    def call(self, key, inputs, fn, flush=True):
        """``fn()`` (the general path of an op whose storage operands are ``inputs`` and
        whose every other argument is in ``key``; the tuning epoch is added here), or its
        recipe's replay. ``flush=False``: ``fn`` materialises no pending expression (a
        reduction's prologue reads only computed leaves), so a capture need not compute
        every pending one first."""
        client = self.client
        rec = client.recorder
        if rec.capture is not None or rec.watch is not None or client.lost or \
                not self.enabled:
            return fn()  # a graph capture, or inside another op's capture
        # the limits are part of a signature (tests shrink them to exercise the split
        # paths), and the tuning epoch: a recording made under other knob values never
        # replays
        sig = [key, _tuning_epoch(), client.max_binding, client.single_buffer_max]
        first = {}
        for i, s in enumerate(inputs):
            b = s.block
            if b.__class__ is not Block:
                return fn()
            sig.append((s.shape, s.strides, s.offset, s.dtype, b.size,
                        first.setdefault(id(b), i)))
        sig = tuple(sig)
        r = self.table.get(sig)
        if r.__class__ is Recipe:
            self.replays += 1
            return r.replay(client, inputs)
        if r is not None and r >= ATTEMPTS:
            return fn()
        return self._capture(sig, inputs, fn, r or 0, flush)

    def _capture(self, sig, inputs, fn, failures, flush=True):
        client = self.client
        rec, pool = client.recorder, client.pool
        from ..fusion import graph as _fusion   # (the fusion package imports the runtime)
        if flush and _fusion.settings.on:
            # pending expressions first: one materialised inside the capture (by a write
            # the call makes, or a limit) would be recorded as the call's own dispatch,
            # its buffers kept and replayed as they were; during the capture elementwise
            # calls run eagerly (fusion/graph.py defer)
            _fusion.flush_all()
        w = _Watch(inputs, client.bindgroups.entries_of)
        transfers, hooks = client.transfers, len(client.read_hooks)
        rec.watch = pool.watch = w
        try:
            out = fn()
        finally:
            rec.watch = pool.watch = None
        if client.transfers != transfers or len(client.read_hooks) != hooks:
            w.bad = "a host transfer or a deferred check"
        single = not isinstance(out, tuple)
        outs = (out,) if single else out
        specs = []
        if not w.bad:
            for o in outs:
                b = getattr(o, "block", None)
                s = None if b is None else w.slots.get(id(b))
                if s is None or b.__class__ is not Block:
                    w.bad = "an output not written by the call's own buffer"
                    break
                # views of one of the call's buffers (eigh's workspace) keep their offsets
                specs.append((s, o.__class__, o.offset, o.shape, o.strides, o.dtype))
        if not w.bad:
            mine = {id(o.block) for o in outs}
            for k, ref in w.fresh.items():
                if k not in mine and ref() is not None:
                    w.bad = "a buffer the call allocated outlives it (a cache filled)"
                    break
        if w.bad:
            self.refused[w.bad] = self.refused.get(w.bad, 0) + 1
            self._put(sig, failures + 1)
        else:
            self.captured += 1
            self._put(sig, Recipe(w, tuple(specs), single))
        return out

    def _put(self, sig, value):
        t = self.table
        if sig not in t and len(t) >= MAX_RECIPES:
            t.pop(next(iter(t)))
        t[sig] = value
