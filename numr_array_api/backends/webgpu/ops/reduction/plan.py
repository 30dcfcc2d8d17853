"""Planning a reduction: mapping by layout, chunks and passes, boxes over big data.

``run(op, x, axes, acc, dv)`` returns a new contiguous storage of the kept shape holding the
result in the kernel's unpacked result dtype (table.VAL_DTYPE of the result type).

One launch (``_launch``) reduces a view whose operands fit one binding and at most
MAX_BOX_ELEMS elements: the kept dims and the reduced dims are collapsed separately (the
reduced ones in memory order, except for argmax / argmin whose indices are row-major in the
logical order); rows contiguous in memory -> ``row`` mapping (vec4 loads), outputs
contiguous -> ``col``; long reductions are cut into K chunks whose partial states a further
pass reduces, until one chunk per output is left. Every thread loops at most ``ITER`` times
per pass: lavapipe ends any invocation after 65535 loop iterations, and float sums stay
pairwise-like (at most 4 * ITER elements added in sequence, then trees).

Beyond one binding / buffer / MAX_BOX_ELEMS, ``primitives.slabs.boxes`` splits the
iteration space (memory order; argmax / argmin: kept dims then the reduced ones, so the
reduced part of a box is a row-major run whose first index is the box's 64-bit base).
Boxes covering whole reductions write results directly; otherwise every box merges its
states into one state per output (``merge``), and a last pass writes ``post(state)``.
"""

from __future__ import annotations

import math
import struct
import threading

from ....._core import dtypes as dt
from ....._core.errors import BackendLimitation
from ...codegen.caps import Caps
from ...codegen.render import collapse
from ...codegen.types import WTYPES
from ...kernels.fill import full
from ...kernels.nary import _flat_start
from ...primitives.slabs import MAX_BOX_ELEMS, box_views, boxes
from ...runtime.allocator import Block
from ...storage import WgpuStorage, _row_major
from . import table as T
from .spec import ReduceSpec, types_of, vec_width
from ...runtime import caches as _caches
from ...runtime.progress import paced
from .....tuning.registry import epoch as _tuning_epoch, get as tuned

ITER = 256              # loop trips per thread and pass
MIN_ITER = 16           # col mapping: below this, more chunks only add partials
TARGET_THREADS = 1 << 17  # col mapping: 2 vec4 loads each keep ~4 MB in flight

# The row mapping's tuning is the reduction family's knobs (numr_array_api.tuning, per
# adapter): REDUCE_UNROLL / REDUCE_STRIDED_UNROLL loads per thread and trip, REDUCE_GROUPS
# workgroups wanted in flight, REDUCE_MIN_LOADS, REDUCE_WG, REDUCE_ROW_SPLIT (mixin.py).
# A job reads them when created; the caches below key on the tuning epoch.


def _dims_words(shape, strides):
    w = []
    for n, s in zip(shape, strides):
        w += [n, s]
    return w


def _f32_pair(x):
    hi = struct.unpack("<f", struct.pack("<f", x))[0]
    lo = x - hi
    return (struct.unpack("<I", struct.pack("<f", hi))[0],
            struct.unpack("<I", struct.pack("<f", lo))[0])


def _pow2_at_least(n, lo, hi):
    w = lo
    while w < hi and w < n:
        w *= 2
    return w


class _Job:
    """What stays fixed over the launches of one reduction (cached per key)."""

    __slots__ = ("op", "acc", "caps", "types", "names", "fields", "dtypes", "arg", "dv",
                 "client", "key", "max_wg", "unroll", "sunroll", "groups", "min_loads",
                 "tail")

    def __init__(self, op, acc, client, src_dtype, dv):
        self.op = op
        self.acc = acc
        self.client = client
        self.caps = Caps.of(client)
        self.types = types_of(op, src_dtype, acc, self.caps)
        self.fields = ReduceSpec(op, None, acc, "row", False, 0, 0, 0, 32,
                                 "part").fields(self.caps)
        self.names = tuple(n for n, _ in self.fields)
        self.dtypes = tuple(T.VAL_DTYPE[ty] for _, ty in self.fields)
        self.arg = T.row(op).uses_index
        self.dv = _f32_pair(float(dv))
        self.key = (op, acc, id(client), src_dtype, self.dv, _tuning_epoch())
        # row workgroups: the config's size, within workgroup memory for one state each
        state = sum(16 if ty == "vec2<f64>" else 8 if ty in ("f64", "i64", "u64", "vec2<f32>")
                    else 4 for _, ty in self.fields)
        self.max_wg = 256
        while self.max_wg < tuned("REDUCE_WG", client) and 2 * self.max_wg * state * 2 <= \
                self.caps.workgroup_storage:
            self.max_wg *= 2
        self.unroll = tuned("REDUCE_UNROLL", client)
        self.sunroll = tuned("REDUCE_STRIDED_UNROLL", client)
        self.groups = tuned("REDUCE_GROUPS", client)
        self.min_loads = tuned("REDUCE_MIN_LOADS", client)
        self.tail = bool(tuned("REDUCE_TAIL", client))


_JOBS = {}


def _job(op, acc, client, src_dtype, dv):
    # the epoch in the keys: plans made with other knob values stay for when they return
    key = (op, acc, id(client), src_dtype, dv, _tuning_epoch())
    job = _JOBS.get(key)
    if job is None or job.client is not client:
        if len(_JOBS) >= 1024:
            _JOBS.clear()
        job = _JOBS[key] = _Job(op, acc, client, src_dtype, dv)
    return job


class _Pass:
    """One launch of a plan: its kernel, grid and words (binding offsets and the box base
    are added at launch), and, when it writes partial states, their shape and how the next
    pass views them."""

    __slots__ = ("kern", "groups", "words", "part_shape", "part_view", "fast", "tail")

    def __init__(self, kern, groups, words, part_shape, part_view, tail=False):
        self.kern = kern
        self.groups = groups
        self.words = words
        self.part_shape = part_shape
        self.part_view = part_view
        self.tail = tail  # one launch: chunk partials, then the last chunk's workgroup ends
        self.fast = None  # (pipe, params with zero offsets, src_off / dst_off byte positions)

    def launch_fast(self, storages):
        """The eager hot path of a launch whose ``storages`` (the bound views, in the
        layout's binding order; no box base) lie in plain single-buffer blocks bound whole,
        parameters as immediates: records the dispatch ``kern.launch`` would and returns
        True, or returns False (no side effect) for the general path."""
        f = self.fast
        if f is None:
            lay = self.kern.layout
            pipe = self.kern.pipes["main"]
            if pipe.uniform_size:
                self.fast = False
                return False
            offs = tuple(4 * lay._off_pos[b.name] if b.name in lay._off_pos else -1
                         for b in lay.bufs)
            f = self.fast = (pipe, lay.pack(**self.words), offs)
        elif f is False:
            return False
        pipe, params, offs = f
        if len(storages) != len(offs):
            return False
        client = storages[0].client
        limit = client.max_binding
        entries = []
        blocks = []
        edit = None
        for s, po in zip(storages, offs):
            b = s.block
            if b.__class__ is not Block or b.size > limit:
                return False
            entries.append((b.buffer, 0, b.size))
            blocks.append(b)
            if s.offset and po >= 0:
                if edit is None:
                    edit = bytearray(params)
                _U32.pack_into(edit, po, s.offset // s.dtype.itemsize)
        entries = tuple(entries)
        if len({id(e[0]) for e in entries}) != len(entries):
            return False  # (one buffer bound twice: the general path checks the aliasing)
        bgc = client.bindgroups
        bg = bgc._cache.get((id(pipe.bgl), entries))
        if bg is None:
            bg = bgc.get(pipe.bgl, entries)
        else:
            bgc.hits += 1
        client.launch_raw(pipe, bg, params if edit is None else bytes(edit), self.groups,
                          blocks)
        return True


_U32 = struct.Struct("<I")


def _passes(job, shape, strides, src_dtype, kept, dstrides, out, eoff, chunks=None,
            res=None, pro=None):
    """The launches reducing a view of ``shape`` / ``strides`` (elements of ``src_dtype``,
    or states if it is None) over its dims not in ``kept`` into a destination with
    ``dstrides`` over the kept dims (``out``: final / merge), chunk partials reduced by
    further passes. ``eoff``: the source's element offset in its binding (vec4 columns
    need it aligned). ``chunks``: force a row mapping with that many chunks and return
    after the partials (chunk_totals). ``pro``: the elements are an expression's
    (ReduceSpec.pro), read through ``value(e)`` at the row-major index of ``shape``."""
    kd = [d for d in range(len(shape)) if kept[d]]
    rd = [d for d in range(len(shape)) if not kept[d]]
    # kept dims: outermost in memory first (the innermost one then runs over threads);
    # reduced dims likewise, except argmax / argmin (indices are logical row-major)
    order_k = list(range(len(kd)))
    if chunks is None:
        order_k.sort(key=lambda i: -abs(strides[kd[i]]))
    kshape = [shape[kd[i]] for i in order_k]
    oshape, ostr = collapse(kshape, [strides[kd[i]] for i in order_k])
    dshape, dstr = ((), ()) if dstrides is None else \
        collapse(kshape, [dstrides[i] for i in order_k])
    if not job.arg:
        rd = sorted(rd, key=lambda d: -abs(strides[d]))
    rshape, rstr = collapse([shape[d] for d in rd], [strides[d] for d in rd])
    nout = math.prod(kshape)
    m = math.prod(shape[d] for d in rd)
    ro, rr = len(oshape), len(rshape)
    it = WTYPES[src_dtype] if src_dtype is not None else None
    four = it is not None and it.itemsize == 4 and not it.packed
    ew = vec_width(src_dtype) if it is not None else 0
    row_contig = rr >= 1 and rstr[-1] == 1
    col_contig = ro >= 1 and ostr[-1] == 1
    if chunks is not None:
        mapping = "row"
    elif row_contig and m >= 64:
        mapping = "row"
    elif col_contig and nout >= 64:
        mapping = "col"
    else:
        mapping = "row" if (m >= 256 or nout < 64) else "col"
    caps = job.caps
    unroll = 1
    if mapping == "row":
        vec = bool(ew) and row_contig and rr == 1 and chunks is None
        units = -(-m // ew) if vec else m
        unroll = max(1, job.unroll if vec else job.sunroll)
        wg = min(_pow2_at_least(units // 8, 32, job.max_wg), caps.wg_size(job.max_wg))
        k = max(1, -(-units // (wg * ITER)))
        if chunks is not None:
            k = chunks
        elif nout * k < job.groups and units > wg * job.min_loads:
            k = max(k, min(-(-job.groups // nout), -(-units // (wg * job.min_loads))))
        chunk = -(-units // k)
        tiles = 0
        items = nout * k
    else:
        vec = (four and col_contig and oshape[-1] % 4 == 0 and eoff % 4 == 0
               and all(s % 4 == 0 for s in ostr[:-1] + rstr) and pro is None)
        nov = nout // 4 if vec else nout
        wg = min(_pow2_at_least(nov, 32, 256), caps.wg_size(256))
        k = max(1, -(-m // ITER))
        # (few threads walking long columns of states would wait on latency, not bandwidth)
        if nov * k < TARGET_THREADS and m > MIN_ITER and (it or m >= 4 * MIN_ITER):
            k = max(k, min(-(-TARGET_THREADS // nov), -(-m // MIN_ITER)))
        chunk = -(-m // k) if m else 0
        tiles = -(-nov // wg)
        items = tiles * k
    mode = out if k == 1 and chunks is None else "part"
    if (mode == "part" and out == "final" and chunks is None and mapping == "row"
            and job.tail and nout <= TAIL_OUTPUTS):
        mode = "tail"
    narrow = res if mode in ("final", "tail") else None
    if narrow is not None and (nout != 1 or mapping != "row"):
        raise AssertionError("a packed result is written only by a one-output row pass")
    spec = ReduceSpec(job.op, src_dtype, job.acc, mapping, vec, ro, rr,
                      len(dshape) if mode != "part" else 0, wg, mode, unroll, narrow,
                      pro if src_dtype is not None else None)
    gx = min(items, caps.max_groups)
    gy = -(-items // gx)
    if gy > caps.max_groups:
        raise BackendLimitation("webgpu", f"a reduction with {items} work items",
                                "more workgroups than a 2D grid holds")
    words = dict(items=items, K=k, C=chunk, M=m, tiles=tiles, nout=nout,
                 dv_hi=job.dv[0], dv_lo=job.dv[1])
    if ro:
        words["od"] = _dims_words(oshape, ostr)
    if rr:
        words["rd"] = _dims_words(rshape, rstr)
    if mode != "part" and dshape:
        words["dd"] = _dims_words(dshape, dstr)
    kern = job.client.kernel(spec)
    if mode == "tail":
        return [_Pass(kern, (gx, gy, 1), words, (nout, k), None, tail=True)]
    if mode != "part":
        return [_Pass(kern, (gx, gy, 1), words, None, None)]
    part_shape = (nout, k) if mapping == "row" else (k, nout)
    if chunks is not None:
        return [_Pass(kern, (gx, gy, 1), words, part_shape, None)]
    # the next pass reduces the partial states over their chunk dim, viewed with the kept
    # dims back in src's order, so they pair with dst's dims as before
    nk = len(kshape)
    inv = [0] * nk
    for i, j in enumerate(order_k):
        inv[j] = i
    if mapping == "row":
        rs, perm = tuple(kshape) + (k,), tuple(inv) + (nk,)
    else:
        rs, perm = (k,) + tuple(kshape), tuple(1 + j for j in inv) + (0,)
    rst = _row_major(rs)
    nshape = tuple(rs[p] for p in perm)
    nstrides = tuple(rst[p] for p in perm)
    rest = _passes(job, nshape, nstrides, None, (True,) * nk + (False,), dstrides, out, 0,
                   res=res)
    return [_Pass(kern, (gx, gy, 1), words, part_shape, (rs, perm))] + rest


_PLANS = {}
_RUNS = {}

# tail launches (REDUCE_TAIL): one arrival counter per output, in a buffer of the client's
# own (not pooled: wgpu zeroes a new buffer, and each launch leaves its counters at zero)
TAIL_OUTPUTS = 4096
_CTR_LOCK = threading.Lock()


def _counters(client):
    ctr = client.__dict__.get("_reduce_counters")
    if ctr is None:
        with _CTR_LOCK:
            ctr = client.__dict__.get("_reduce_counters")
            if ctr is None:
                from ...runtime.allocator import _STORAGE_USAGE
                n = TAIL_OUTPUTS * 4
                buf = client.device.create_buffer(size=n, usage=_STORAGE_USAGE)
                ctr = WgpuStorage(Block(buf, n, None), 0, (TAIL_OUTPUTS,), (1,), dt.uint32,
                                  client)
                client._reduce_counters = ctr
    return ctr


def _plan(job, src, src_dtype, kept, dst, out, chunks=None, pro=None):
    first = src if src_dtype is not None else src[0]
    dfirst = None if dst is None else dst if out == "final" else dst[0]
    dstrides = None if dfirst is None else dfirst.strides
    eoff = 0
    if src_dtype is not None and src_dtype.itemsize == 4 and not WTYPES[src_dtype].packed:
        eoff = first.binding()[3] % 4
    res = dfirst.dtype if out == "final" else None
    if res is T.VAL_DTYPE[job.types.R]:
        res = None
    key = (job.key, first.shape, first.strides, src_dtype, kept, dstrides, out, eoff, chunks,
           res, pro)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _passes(job, first.shape, first.strides, src_dtype, kept, dstrides, out, eoff,
                       chunks, res, pro)
        if len(_PLANS) >= 4096:
            _PLANS.clear()
        _PLANS[key] = plan
    return plan


def _launch(job, src, src_dtype, kept, dst, out, base=0, chunks=None, pro=None):
    """Reduce ``src`` (elements of ``src_dtype``, or, if ``src_dtype`` is None, a tuple of
    state storages of one shape) over its dims not in ``kept`` (a bool per dim) into
    ``dst`` (final: a values view of the kept shape; merge: a tuple of state views).
    Returns the partial states with ``chunks`` (chunk_totals), else None. ``pro``: (the
    prologue's FusedSpec, its launch arguments); ``src`` is then a _Virtual array."""
    names = job.names

    def general(p, src, outs, out_prefix, extra=None):
        args = dict(p.words)
        if extra:
            args.update(extra)
        if src_dtype is None:
            for name, s in zip(names, src):
                args["s_" + name] = s
        elif src.__class__ is _Virtual:
            args.update(pro[1])
        else:
            args["src"] = src
            if base:
                args["base_lo"] = base & 0xFFFFFFFF
                args["base_hi"] = base >> 32
        if out_prefix is None:
            args["dst"] = outs[0]
        else:
            for name, s in zip(names, outs):
                args[out_prefix + name] = s
        p.kern.launch(p.groups, **args)

    for p in _plan(job, src, src_dtype, kept, dst, out, chunks,
                   pro[0] if pro is not None else None):
        ins = (src,) if src_dtype is not None else tuple(src)
        virtual = src.__class__ is _Virtual   # (its first pass binds the leaves)
        if p.tail:
            part = tuple(WgpuStorage._new(p.part_shape, d, job.client) for d in job.dtypes)
            ctr = _counters(job.client)
            if virtual or base or not p.launch_fast(ins + part + (dst, ctr)):
                general(p, src, part, "d_", dict(dst=dst, ctr=ctr))
            return None
        if p.part_shape is None:
            outs = (dst,) if out == "final" else tuple(dst)
            if virtual or base or not p.launch_fast(ins + outs):
                general(p, src, outs, None if out == "final" else "d_")
            return None
        part = tuple(WgpuStorage._new(p.part_shape, d, job.client) for d in job.dtypes)
        if virtual or base or not p.launch_fast(ins + part):
            general(p, src, part, "d_")
        if p.part_view is None:
            return part
        rs, perm = p.part_view
        src = tuple(s.reshape(rs).permute(perm) for s in part)
        src_dtype = None
        base = 0
    raise AssertionError("a plan ends with a final or merge pass")


def _run_shape(job, op, shape, axes, res):
    """What ``run`` derives from a call's signature (cached): kept mask, kept shape, output
    dtype, output count, reduced count."""
    nd = len(shape)
    axes = tuple(range(nd)) if axes is None else tuple(sorted(axes))
    kept = tuple(d not in axes for d in range(nd))
    kshape = tuple(n for d, n in enumerate(shape) if kept[d])
    nout = math.prod(kshape)
    rdt = T.VAL_DTYPE[job.types.R]
    if res is not None and res is not rdt and WTYPES[res].packed and nout == 1:
        # one output of a sub-word dtype (float16, bool, int8, ...): the last pass writes
        # it in place of a separate cast (a fresh output: its word is the pass's alone)
        rdt = res
    m = math.prod(shape[d] for d in axes)
    return axes, kept, kshape, nout, rdt, m


def run(op, x, axes, acc, dv=0.0, res=None):
    """The result of ``op`` over ``axes`` of ``x`` (unpacked result dtype, kept shape; or
    ``res``, the caller's result dtype, when it is a sub-word dtype and one output)."""
    client = x.client
    job = _job(op, acc, client, x.dtype, dv)
    key = (job.key, x.shape, axes, res)
    r = _RUNS.get(key)
    if r is None:
        r = _run_shape(job, op, x.shape, axes, res)
        if len(_RUNS) >= 4096:
            _RUNS.clear()
        _RUNS[key] = r
    axes, kept, kshape, nout, rdt, m = r
    out = WgpuStorage._new(kshape, rdt, client)
    if nout == 0:
        return out
    if job.types.I == "u32" and (job.arg or op == "count_nonzero") and m >= 1 << 31:
        raise BackendLimitation("webgpu", f"{op} over {m} elements",
                                "indices and counts beyond 2^31 need shader-int64")
    if x.size <= MAX_BOX_ELEMS and x.fits_binding() and out.fits_binding():
        _launch(job, x, x.dtype, kept, out, "final")
    else:
        with paced(client.recorder) as pace:  # a Ctrl-C abandons at most a box or two
            _run_boxes(job, x, axes, kept, kshape, out, pace.step)
    return out


class _Virtual:
    """The row-major array an elementwise prologue would have materialised: what planning
    reads of a source (shape, strides, dtype, the element offset of its binding: 0)."""

    __slots__ = ("shape", "strides", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.strides, self.dtype = shape, _row_major(shape), dtype

    def binding(self):
        return (None, 0, 0, 0)


def run_prologue(op, prog, leaves, words, shape, dtype, vshape, axes, acc, dv=0.0,
                 res=None):
    """``run`` of ``op`` over ``axes`` of the (row-major) array of ``vshape`` an expression
    of ``shape`` and ``dtype`` (the same elements) would have materialised: ``prog``
    (fusion's Program) over the ``leaves`` and scalar ``words``, evaluated inside the
    reduction's first pass (no array written and read back). The caller checks that it
    applies (prologue.py ``pending``)."""
    from ...fusion.codegen import prologue_args
    client = leaves[0].client
    src = _Virtual(vshape, dtype)
    job = _job(op, acc, client, src.dtype, dv)
    axes, kept, kshape, nout, rdt, m = _run_shape(job, op, vshape, axes, res)
    out = WgpuStorage._new(kshape, rdt, client)
    if nout:
        _launch(job, src, src.dtype, kept, out, "final",
                pro=prologue_args(prog, leaves, words, shape))
    return out


def chunk_totals(op, view, acc, k):
    """The ``op`` ("sum" / "prod") of ``k`` equal chunks (ceil(m / k) elements, the last
    shorter) of every line along the last dim of ``view``: a (lines, k) storage in the
    accumulator's unpacked dtype, lines in ``view``'s row-major order (cumulative ops)."""
    job = _job(op, acc, view.client, view.dtype, 0)
    kept = (True,) * (view.ndim - 1) + (False,)
    return _launch(job, view, view.dtype, kept, None, "part", chunks=k)[0]


def _in_space(v, order, kept_pos):
    """View ``v`` (over the kept dims) in the iteration space ``order``: stride 0 on the
    reduced dims."""
    shape, strides = [], []
    for d in order:
        if d in kept_pos:
            i = kept_pos[d]
            shape.append(v.shape[i])
            strides.append(v.strides[i])
        else:
            shape.append(1)
            strides.append(0)
    return v._view(shape, strides)


def _run_boxes(job, x, axes, kept, kshape, out, step):
    nd = x.ndim
    if job.arg and len(axes) > 1:
        # flat indices over several dims: boxes must be row-major runs of them
        order = tuple(d for d in range(nd) if kept[d]) + axes
    else:
        order = tuple(sorted(range(nd), key=lambda d: -abs(x.strides[d])))
    it = x.permute(order)
    kmask = tuple(kept[d] for d in order)
    kept_pos = {d: i for i, d in enumerate(d for d in range(nd) if kept[d])}
    full_shape = it.shape

    def spread(v):
        return _in_space(v, order, kept_pos).broadcast_to(full_shape)

    def kept_only(v):
        return v[tuple(slice(None) if kmask[i] else 0 for i in range(nd))]

    out_b = spread(out)
    parts = boxes(full_shape, [it, out_b], MAX_BOX_ELEMS, outer_first=True)
    whole = all(b == (0, n) for box in parts
                for b, n, k in zip(box, full_shape, kmask) if not k)
    if whole:
        for box in parts:
            sub, osub = box_views([it, out_b], box)
            _launch(job, sub, x.dtype, kmask, kept_only(osub), "final")
            step()
        return
    # boxes cut reductions: merge every box's states into one state per output
    acc = tuple(full(kshape, _identity(job, name, ty), d, job.client)
                for (name, ty), d in zip(job.fields, job.dtypes))
    acc_b = [spread(a) for a in acc]
    rshape = tuple(x.shape[d] for d in axes)
    rpos = [order.index(d) for d in axes]  # the reduced dims, logical order
    for box in boxes(full_shape, [it] + acc_b, MAX_BOX_ELEMS, outer_first=True):
        subs = box_views([it] + acc_b, box)
        base = 0
        if job.arg:
            base = _flat_start(rshape, [box[i] for i in rpos])
            if base is None:
                raise BackendLimitation("webgpu", f"{job.op} over {x.shape}",
                                        "a box that is not a run of whole rows")
        dst = tuple(kept_only(s) for s in subs[1:])
        _launch(job, subs[0], x.dtype, kmask, dst, "merge", base)
        step()
    # post(state) per output, in boxes over the kept shape
    kall = (True,) * len(kshape)
    for box in boxes(kshape, list(acc) + [out], MAX_BOX_ELEMS, outer_first=True):
        subs = box_views(list(acc) + [out], box)
        _launch(job, tuple(subs[:-1]), None, kall, subs[-1], "final")
        step()


def _identity(job, field, ty):
    """Python value of the identity state's ``field`` (fills the merge accumulators)."""
    op = job.op
    if field == "i":
        return (1 << 63) - 1 if ty == "i64" else (1 << 32) - 1
    if op in ("var", "std", "sum", "mean", "any", "count_nonzero"):
        return 0
    if op in ("prod", "all"):
        return 1
    import numpy as np
    low = op in ("max", "argmax")
    if ty in ("f32", "f64"):
        return -math.inf if low else math.inf
    info = np.iinfo(T.VAL_DTYPE[ty].np)
    return int(info.min) if low else int(info.max)


_caches.register("ops.reduction.plan _PLANS", _PLANS.clear)
_caches.register("ops.reduction.plan _RUNS", _RUNS.clear)
_caches.register("ops.reduction.plan _JOBS", _JOBS.clear)
