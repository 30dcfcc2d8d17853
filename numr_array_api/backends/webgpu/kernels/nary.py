"""The N-ary strided/broadcast elementwise template (every elementwise kernel, copy and cast).

Up to 3 inputs, each read through its own strides (0 on broadcast dims, negative for
flips) from its own binding; one output, either a fresh contiguous storage or (``scatter``)
any strided view of an existing one. The per-element work is an expression snippet
``fn op(a: Ta, b: Tb, c: Tc, e: u32) -> R`` supplied by the caller (``e`` is the output
element number, which arange/eye/tri use); ``R`` is converted to the output type with the
runtime's ``convert``.

Threads: one per output *unit*, a u32 word for sub-word output dtypes (so no two threads
write one word) or an element otherwise; grid-stride loop. A scatter into a sub-word view
cannot own whole words, so it clears and sets its bits with two atomics on disjoint bit
ranges (each thread only ever touches its own bits, so the pair needs no lock).

Dims are collapsed jointly over all operands before rendering, so contiguous operands of
any rank meet a rank-1 kernel; the pipeline key holds ranks and dtypes, never extents.
"""

import math
import re

import dataclasses

from ...._core.errors import BackendLimitation
from ..codegen.layout import Buf, Layout, Words
from ..codegen.render import WG, workgroups
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..codegen.types import WType, convert, load, pack, render_helpers
from ..primitives.slabs import MAX_BOX_ELEMS, box_views, boxes
from .launch_plan import LaunchPlan, eligible
from ..runtime.progress import paced

MAX_INPUTS = 3


def joint_collapse(shape, strides_list):
    """Drop size-1 dims and merge adjacent dims that are contiguous for every operand."""
    dims = [(n, [s[d] for s in strides_list]) for d, n in enumerate(shape) if n != 1]
    out = []
    for n, ss in dims:
        if out:
            pn, pss = out[-1]
            if all(ps == s * n for ps, s in zip(pss, ss)):
                out[-1] = (pn * n, ss)
                continue
        out.append((n, ss))
    return (tuple(n for n, _ in out),
            [tuple(ss[i] for _, ss in out) for i in range(len(strides_list))])


def _index_fn(rank, offs, dim):
    """WGSL ``idx(e) -> array<u32, n_ops>``: the element index of ``e`` in every operand.

    ``offs``: each operand's element-offset word; ``dim(d, j)``: word j of dim d (0 the
    extent, then every operand's stride). u32 arithmetic wraps, so negative strides work.
    """
    n_ops = len(offs)
    m = max(n_ops, 1)  # WGSL has no zero-length arrays (zero-input kernels: eye)
    lines = [f"fn idx(e: u32) -> array<u32, {m}> {{", f"  var o: array<u32, {m}>;"]
    for k, w in enumerate(offs):
        lines.append(f"  o[{k}] = {w};")
    if rank:
        lines.append("  var r = e;")
    for d in reversed(range(rank)):
        if d == 0:
            lines.append("  let c = r;")
        else:
            # unsigned division only: signed % is miscompiled on some drivers
            n = dim(d, 0)
            lines.append(f"  let q{d} = r / {n}; let c{d} = r - q{d} * {n}; r = q{d};")
        c = "c" if d == 0 else f"c{d}"
        for k in range(n_ops):
            lines.append(f"  o[{k}] += {c} * {dim(d, 1 + k)};")
    lines += ["  return o;", "}"]
    return "\n".join(lines)


_FRAME = Template("""${helpers}
${lib}
${layout}
${xfns}
${op}
${idx_fn}
${value_fn}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let units = ${units};
  let n = ${n};
  for (var u = g.x; u < units; u += nw.x * ${wg}u) {
${body}
  }
}
""", "nary")


@dataclasses.dataclass(frozen=True)
class NarySpec(KernelSpec):
    """One elementwise kernel: ``op`` (``fn op(a: Ta, .., e: u32) -> R``) over strided
    inputs into a contiguous output (units) or, with ``scatter``, into any view."""

    op: str
    lib: str
    in_ts: tuple
    res_t: WType
    out_t: WType
    rank: int
    n_extra: int
    scatter: bool

    @property
    def n_ops(self):
        return len(self.in_ts) + (1 if self.scatter else 0)

    def layout(self, caps):
        bufs = [Buf(f"I{k}", t.arr) for k, t in enumerate(self.in_ts)]
        packed_scatter = self.scatter and self.out_t.packed
        bufs.append(Buf("D", "atomic<u32>" if packed_scatter else self.out_t.arr, "rw",
                        offset=self.scatter))
        words = ["units", "n", Words("dims", max(1, self.rank * (1 + self.n_ops))),
                 Words("X", max(1, self.n_extra)), "ebase"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        helpers = set()
        n_in = len(self.in_ts)
        out_t = self.out_t
        args = [load(t, f"I{k}", f"ix[{k}]", helpers) for k, t in enumerate(self.in_ts)]
        ebase = lay.word("ebase")
        value = convert(self.res_t, out_t, f"op({', '.join(args + [f'e + {ebase}'])})",
                        helpers, caps.int64)
        # extra per-kernel words (shape parameters of eye / tri)
        xfns = "\n".join(f"fn X{j}() -> u32 {{ return {lay.word('X', j)}; }}"
                         for j in range(self.n_extra))
        offs = [lay.word(f"I{k}_off") for k in range(n_in)]
        if self.scatter:
            offs.append(lay.word("D_off"))
        w = 1 + self.n_ops
        idx_fn = _index_fn(self.rank, offs, lambda d, j: lay.word("dims", d * w + j))
        body = []
        if self.scatter:
            body.append(f"    let ix = idx(u);\n    let e = u;\n    let v = {value};")
            if out_t.packed:
                mask = "0xffu" if out_t.bits == 8 else "0xffffu"
                sh = (f"((ix[{n_in}] & 3u) << 3u)" if out_t.bits == 8
                      else f"((ix[{n_in}] & 1u) << 4u)")
                wd = f"ix[{n_in}] >> {2 if out_t.bits == 8 else 1}u"
                body.append(f"    let sh = {sh};")
                body.append(f"    atomicAnd(&D[{wd}], ~({mask} << sh));")
                body.append(f"    atomicOr(&D[{wd}], {pack(out_t, 'v', helpers)} << sh);")
            else:
                body.append(f"    D[ix[{n_in}]] = v;")
            value_fn = ""
        else:
            if out_t.packed:
                per = 32 // out_t.bits
                body.append("    var w = 0u;")
                for j in range(per):
                    body.append(f"    let e{j} = u * {per}u + {j}u;")
                    shift = f" << {j * out_t.bits}u" if j else ""
                    body.append(f"    if (e{j} < n) {{ w |= "
                                f"{pack(out_t, f'value(e{j})', helpers)}{shift}; }}")
                body.append("    D[u] = w;")
            else:
                body.append("    D[u] = value(u);")
            value_fn = (f"fn value(e: u32) -> {out_t.val} {{\n  let ix = idx(e);\n"
                        f"  return {value};\n}}")
        return _FRAME.render(lay.tokens(), helpers=render_helpers(helpers, caps.int64),
                             lib=self.lib, xfns=xfns, op=self.op, idx_fn=idx_fn,
                             value_fn=value_fn, wg=WG, body="\n".join(body))

    @property
    def label(self):
        name = self.op.split("{", 1)[0].split("(", 1)[0].replace("fn ", "").strip()
        ts = "-".join(t.name for t in self.in_ts)
        return (f"nary_{name}_{ts}_to_{self.out_t.name}_r{self.rank}"
                f"{'_scatter' if self.scatter else ''}")


def launch(client, key, inputs, in_ts, res_t, out_t, op_src, lib_src, shape, out,
           scatter=False, extra=(), _boxed=False, _ebase=0):
    """Record one elementwise dispatch; returns the output storage.

    ``key``: hashable identity of (op_src, lib_src) (the pipeline cache key prefix).
    ``inputs``: storages already broadcastable to ``shape`` (views are broadcast here).
    ``out``: a fresh contiguous storage (``new_output``) written unit by unit, or with
    ``scatter`` any view of ``shape`` (of an existing array) written element by element.
    ``extra``: u32 words the op snippet reads as ``X0()``, ``X1()``...
    """
    n = 1
    for e in shape:
        n *= e
    if n == 0:
        return out
    limit = client.max_binding
    if not _boxed and (n > MAX_BOX_ELEMS or out.block.size > limit or any(
            [s.block.size > limit for s in inputs])):
        return _launch_boxes(client, key, inputs, in_ts, res_t, out_t, op_src, lib_src,
                             shape, out, extra)
    # geometry (collapsed dims, pipeline, params layout) depends only on shapes/strides:
    # cached, so a chain of small ops pays just the bindings and the launch
    gkey = (key, client.index, shape, scatter, out.strides if scatter else None,
            tuple([(s.shape, s.strides) for s in inputs]), len(extra), out_t.name,
            tuple([t.name for t in in_ts]))
    geo = _GEOMETRY.get(gkey)
    if geo is not None:
        client.pipelines.hits += 1  # a launch that reuses a compiled pipeline
    else:
        geo = _geometry(client, key, inputs, in_ts, res_t, out_t, op_src, lib_src, shape,
                        out, scatter, len(extra), n)
        if len(_GEOMETRY) > 4096:
            _GEOMETRY.clear()
        _GEOMETRY[gkey] = geo
    pipe, layout, dims_words, units, wg = geo
    # words in the layout's declaration order: units, n, dims, X, ebase, then offsets
    words = [units, n]
    words += dims_words
    words += extra if extra else (0,)
    words.append(_ebase)
    bindings = []
    for s in inputs:
        # a broadcast view binds exactly as its source (same block, offset and extent: its
        # new and stretched dims have stride 0), and the shapes were validated when the
        # geometry was derived, so no view is made per launch
        block, boff, bsize, eoff = s.binding()
        bindings.append((block, boff, bsize))
        words.append(eoff)
    if scatter:
        block, boff, bsize, eoff = out.binding()
        bindings.append((block, boff, bsize))
        words.append(eoff)
    else:
        bindings.append(out.out_binding())
    client.launch(pipe, bindings, layout.pack_list(words), wg)
    return out


_GEOMETRY = {}


def plan_fresh(client, key, inputs, in_ts, res_t, out_t, op_src, lib_src, shape, out):
    """A ``LaunchPlan`` (launch_plan.py) for launches like ``launch(..., shape,
    new_output(shape, dtype, client))`` with operands of these shapes and strides, or None
    where such launches need the general path. Call it right after one general launch of
    the same signature, ``out`` its output: that launch validated the shapes and filled the
    geometry cache."""
    out_dtype = out.dtype
    n = 1
    for e in shape:
        n *= e
    gkey = (key, client.index, shape, False, None,
            tuple([(s.shape, s.strides) for s in inputs]), 0, out_t.name,
            tuple([t.name for t in in_ts]))
    geo = _GEOMETRY.get(gkey)
    if geo is None:
        return None
    pipe, layout, dims_words, units, wg = geo
    if not eligible(client, pipe, n, n * out_dtype.itemsize, MAX_BOX_ELEMS):
        return None
    head = [units, n, *dims_words, 0, 0]  # units, n, dims, X (none), ebase
    return LaunchPlan(client, pipe, layout, head, len(inputs), wg, out, n * out_dtype.itemsize)


def _launch_boxes(client, key, inputs, in_ts, res_t, out_t, op_src, lib_src, shape, out,
                  extra):
    """Data beyond one binding or one buffer, or more than MAX_BOX_ELEMS elements: one
    launch per box (primitives/slabs.py), the output written as a view (scatter) so each
    box lands at its place. An op reading the element number ``e`` (arange, eye, tri)
    gets the global number of the box's first element added, which is exact for boxes
    covering whole trailing dimensions (the splitter cuts outer dimensions first)."""
    views = [s if s.shape == shape else s.broadcast_to(shape) for s in inputs]
    uses_e = _USES_E.search(op_src.split("{", 1)[1]) is not None
    parts = boxes(shape, views + [out], outer_first=uses_e)
    total = math.prod(shape)
    if uses_e and len(parts) > 1 and total > 0xFFFFFFFF:
        raise BackendLimitation("webgpu", f"'{key[0]}' over {shape}",
                                "more than 2^32 elements for a kernel that reads element "
                                "numbers")
    with paced(client.recorder) as pace:  # a Ctrl-C abandons at most a box or two
        for box in parts:
            subs = box_views(views + [out], box)
            ebase = 0
            if uses_e and len(parts) > 1:
                ebase = _flat_start(shape, box)
                if ebase is None:
                    raise BackendLimitation("webgpu", f"'{key[0]}' over {shape}",
                                            "rows longer than one storage binding for a "
                                            "kernel that reads element numbers")
            launch(client, key, subs[:-1], in_ts, res_t, out_t, op_src, lib_src,
                   subs[-1].shape, subs[-1], scatter=True, extra=extra, _boxed=True,
                   _ebase=ebase)
            pace.step()
    return out


_USES_E = re.compile(r"\be\b")


def _flat_start(shape, box):
    """Row-major number of the box's first element when the box is a run of whole rows
    (single indices on leading dims, one range, complete trailing dims), else None."""
    d = 0
    while d < len(box) and box[d][1] - box[d][0] == 1:
        d += 1
    if any((a, b) != (0, n) for (a, b), n in zip(box[d + 1:], shape[d + 1:])):
        return None
    start = 0
    for (a, _), n in zip(box, shape):
        start = start * n + a
    return start


def _geometry(client, key, inputs, in_ts, res_t, out_t, op_src, lib_src, shape, out, scatter,
              n_extra, n):
    views = [s if s.shape == shape else s.broadcast_to(shape) for s in inputs]
    stride_sets = [v.strides for v in views]
    if scatter:
        stride_sets.append(out.strides)
    cshape, cstrides = joint_collapse(shape, stride_sets)
    rank = len(cshape)
    kernel = client.kernel(NarySpec(op_src, lib_src, tuple(in_ts), res_t, out_t, rank,
                                    n_extra, scatter))
    units = n if (scatter or not out_t.packed) else -(-n // (32 // out_t.bits))
    dims_words = []
    for d in range(rank):
        dims_words.append(cshape[d])
        dims_words += [s[d] for s in cstrides]
    return (kernel.pipes["main"], kernel.layout, dims_words or [0], units,
            workgroups(units, client))


def variants():
    """Copy and cast forms of the template (ops.elementwise covers the functions): every
    (source, destination) dtype pair at rank 1, the raw copies at ranks 0-3 and scatter."""
    from ...._core.dtypes import ALL_DTYPES
    from ..codegen.types import RAW, WTYPES

    out = []
    for a in ALL_DTYPES:
        for b in ALL_DTYPES:
            st, dt_ = WTYPES[a], WTYPES[b]
            op = f"fn op(a: {st.val}, e: u32) -> {st.val} {{ return a; }}"
            out.append(NarySpec(op, "", (st,), st, dt_, 1, 0, False))
    for t in RAW.values():
        op = f"fn op(a: {t.val}, e: u32) -> {t.val} {{ return a; }}"
        for rank, scatter in ((0, False), (2, False), (3, False), (1, True), (3, True)):
            out.append(NarySpec(op, "", (t,), t, t, rank, 0, scatter))
    return out


from ..runtime import caches as _caches  # noqa: E402

_caches.register("kernels.nary _GEOMETRY", _GEOMETRY.clear, mid_call=False)
