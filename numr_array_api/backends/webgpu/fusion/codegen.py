"""The WGSL of one fused elementwise kernel, and its launch.

A fused kernel evaluates a whole expression DAG per output element: every node is the very
``fn op(..)`` the eager kernel of that function would run (ops/elementwise.py's recipe,
renamed ``op_<k>``), called in sequence with ``let`` bindings, so a node shared by several
consumers is computed once. Bit-identity with the eager path rests on three rules:

* a node's value is what the eager kernel would have *stored and the next one loaded*:
  ``convert`` to the node's dtype, then for sub-word dtypes the pack / unpack pair of the
  storage layout (int8 wraps and sign-extends, float16 rounds to f16 and back to f32);
* every operand passes through an optimisation barrier, an XOR with a parameter word that
  is always 0 (one word per operand position): an identity on every bit pattern (NaN
  payloads included) that no compiler can see through, so each op sees opaque operands, as
  loads are in the eager kernel: no reassociation, folding or contraction (``(a + b) - a``,
  ``x * y + z`` into an fma) crosses a node boundary, ``x - x`` is not folded to 0 (wrong
  for inf and NaN: the two operands are different values to the compiler, as two loads of
  two bindings are), and no value range is inferred from a previous node (lavapipe
  answered ``abs(i64(x))`` of an int32 ``x`` with ``x``: the select on ``a >= 0`` went
  wrong once the compiler saw ``a`` was a sign extension);
* Python-scalar operands are parameter words holding the bytes NumPy's conversion gives
  (the bytes the eager path's cached 0-d operand holds), read back with bit casts.

Layout, threads and the output write follow the N-ary template (kernels/nary.py): one
thread per output unit (a u32 word for sub-word output dtypes), grid-stride loop, inputs
read through their own strides after a joint dim collapse, scatter form for boxes of arrays
beyond one binding.
"""

import dataclasses
import math

from ..codegen.layout import Buf, Layout, Words
from ..codegen.render import WG, workgroups
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..codegen.types import WTYPES, convert, load, pack, render_helpers
from ..kernels.nary import _index_fn, joint_collapse
from ..primitives.slabs import MAX_BOX_ELEMS, box_views, boxes
from ..runtime.progress import paced

T = {t.name: t for t in WTYPES.values()}

_FRAME = Template("""${helpers}
${lib}
${layout}
${ops}
${idx_fn}
fn value(e: u32) -> ${out_val} {
${value_body}
}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let units = ${units};
  let n = ${n};
  for (var u = g.x; u < units; u += nw.x * ${wg}u) {
${body}
  }
}
""", "fused")


def _barrier(t, v, zero):
    """``v`` (of ``t.val``) unchanged, through an XOR with the always-0 word ``zero``."""
    val = t.val
    if val == "f32":
        return f"bitcast<f32>(bitcast<u32>({v}) ^ {zero})"
    if val == "f64":
        return f"bitcast<f64>(bitcast<u64>({v}) ^ u64({zero}))"
    if val == "vec2<f32>":
        return f"bitcast<vec2<f32>>(bitcast<vec2<u32>>({v}) ^ vec2<u32>({zero}))"
    if val == "vec2<f64>":
        return (f"vec2<f64>(bitcast<f64>(bitcast<u64>(({v}).x) ^ u64({zero})), "
                f"bitcast<f64>(bitcast<u64>(({v}).y) ^ u64({zero})))")
    if val == "u32":
        return f"({v} ^ {zero})"
    if val == "i32":
        return f"bitcast<i32>(bitcast<u32>({v}) ^ {zero})"
    if val == "u64":
        return f"({v} ^ u64({zero}))"
    if val == "i64":
        return f"bitcast<i64>(bitcast<u64>({v}) ^ u64({zero}))"
    return f"({v} != ({zero} != 0u))"  # bool


def _unpack(t, w, helpers):
    """The value a load of ``t`` gives for the u32 ``w`` holding its bits at bit 0."""
    if t.val == "bool":
        return f"({w} != 0u)"
    if t.signed:
        return f"extractBits(bitcast<i32>({w}), 0u, {t.bits}u)"
    if t.name == "float16":
        helpers.add("f16_to_f32")
        return f"f16_to_f32({w})"
    return w


def _stored(t, v, helpers):
    """``v`` (already ``t.val``) as the next kernel would load it back from storage."""
    if not t.packed or t.val == "bool":
        return v
    return _unpack(t, pack(t, v, helpers), helpers)


def scalar_expr(t, words, helpers):
    """WGSL value of a scalar operand of WType ``t`` whose bytes are the u32 ``words``."""
    v = t.val
    if t.packed:
        return _unpack(t, f"extractBits({words[0]}, 0u, {t.bits}u)", helpers)
    if v == "u32":
        return words[0]
    if v in ("i32", "f32"):
        return f"bitcast<{v}>({words[0]})"
    if v == "u64":
        return _u64(words[0], words[1])
    if v in ("i64", "f64"):
        return f"bitcast<{v}>({_u64(words[0], words[1])})"
    if v == "vec2<f32>":
        return f"vec2<f32>(bitcast<f32>({words[0]}), bitcast<f32>({words[1]}))"
    return (f"vec2<f64>(bitcast<f64>({_u64(words[0], words[1])}), "
            f"bitcast<f64>({_u64(words[2], words[3])}))")


def _u64(lo, hi):
    return f"(u64({lo}) | (u64({hi}) << 32u))"


def scalar_words(t):
    return max(1, t.itemsize // 4)


@dataclasses.dataclass(frozen=True)
class FusedSpec(KernelSpec):
    """One fused expression over strided inputs into a contiguous output (or, with
    ``scatter``, any view: boxes of arrays beyond one binding).

    ``ops``: distinct op sources (``fn op(..)``); ``program``: per node, in evaluation
    order, ``(op index, result WType name, node dtype WType name, args)`` with args
    ``("i", k)`` input k, ``("s", k)`` scalar k, ``("n", k)`` node k; the last node is
    the output. ``in_ts`` / ``sc_ts``: WType names of the inputs / scalar operands."""

    ops: tuple
    lib: str
    program: tuple
    in_ts: tuple
    sc_ts: tuple
    rank: int
    scatter: bool

    def needs(self):
        names = set(self.in_ts) | set(self.sc_ts) | {p[1] for p in self.program} | \
            {p[2] for p in self.program}
        need = set()
        for n in names:
            if T[n].need == "shader-f64":  # (its bit casts go through u64)
                need.update(("f64", "int64"))
            elif T[n].need == "shader-int64":
                need.add("int64")
        return tuple(sorted(need))

    @property
    def out_t(self):
        return T[self.program[-1][2]]

    def _sc_offsets(self):
        offs, pos = [], 0
        for name in self.sc_ts:
            offs.append(pos)
            pos += scalar_words(T[name])
        return offs, pos

    def layout(self, caps):
        bufs, words = self.prologue_layout(1 if self.scatter else 0)
        out_t = self.out_t
        packed_scatter = self.scatter and out_t.packed
        bufs.append(Buf("D", "atomic<u32>" if packed_scatter else out_t.arr, "rw",
                        offset=self.scatter))
        return Layout(bufs, ["units", "n"] + words, caps)

    def prologue_layout(self, extra=0):
        """(input bindings, words dims / zero / S) indexing the inputs and ``extra``
        further operands: the fused kernel's own (``extra`` 1: its scattered output), or
        what a reduction whose prologue this is adds to its layout."""
        n_ops = len(self.in_ts) + extra
        n_sw = self._sc_offsets()[1]
        return ([Buf(f"I{k}", T[n].arr) for k, n in enumerate(self.in_ts)],
                [Words("dims", max(1, self.rank * (1 + n_ops))), Words("zero", 3),
                 Words("S", max(1, n_sw))])

    def value_parts(self, lay, caps, helpers, stored=False):
        """(body of ``fn value(e: u32)``, the renamed op functions) against ``lay``, a
        layout holding this spec's inputs I<k> and words dims / zero / S (its own, or a
        reduction's whose prologue this is: ``stored`` then gives the value the reduction
        would load back from the materialised array)."""
        zeros = [lay.word("zero", k) for k in range(3)]
        kinds = {}  # value name -> WType name
        lines = ["  let ix = idx(e);"]
        for k, name in enumerate(self.in_ts):
            lines.append(f"  let i{k} = {load(T[name], f'I{k}', f'ix[{k}]', helpers)};")
            kinds[f"i{k}"] = name
        sc_offs, _ = self._sc_offsets()
        for k, name in enumerate(self.sc_ts):
            t = T[name]
            ws = [lay.word("S", sc_offs[k] + j) for j in range(scalar_words(t))]
            lines.append(f"  let s{k} = {scalar_expr(t, ws, helpers)};")
            kinds[f"s{k}"] = name
        last = len(self.program) - 1
        for j, (op, res, out, args) in enumerate(self.program):
            refs = ", ".join([_barrier(T[kinds[f"{kind}{i}"]], f"{kind}{i}", zeros[p])
                              for p, (kind, i) in enumerate(args)])
            res_t, out_t = T[res], T[out]
            call = f"op_{op}({refs}, e)"
            v = convert(res_t, out_t, call, helpers, caps.int64)
            if j == last:
                if stored:
                    # a reduction's prologue: the value the reduction would load back,
                    # opaque as a load is: the compiler must not fold the last op into the
                    # reduction's arithmetic (a product into the sum's add as an fma)
                    v = _barrier(out_t, _stored(out_t, v, helpers), zeros[0])
                lines.append(f"  return {v};")
                break
            lines.append(f"  let n{j} = {_stored(out_t, v, helpers)};")
            kinds[f"n{j}"] = out
        if any(T[p[2]].name == "float16" or T[p[1]].name == "float16"
               for p in self.program) or "f16_to_f32(" in "".join(self.ops):
            helpers.update(("f16_to_f32", "f32_to_f16"))  # (float16 nextafter uses both)
        ops = "\n".join(src.replace("fn op(", f"fn op_{k}(", 1)
                        for k, src in enumerate(self.ops))
        return "\n".join(lines), ops

    def render(self, caps):
        lay = self.layout(caps)
        helpers = set()
        n_in = len(self.in_ts)
        value_body, ops = self.value_parts(lay, caps, helpers)
        idx_fn = index_fn(self, lay, ("D_off",) if self.scatter else ())
        out_t = self.out_t
        body = []
        if self.scatter:
            body.append("    let v = value(u);")
            body.append(f"    let ixo = idx(u)[{n_in}];")
            if out_t.packed:
                mask = "0xffu" if out_t.bits == 8 else "0xffffu"
                sh = ("((ixo & 3u) << 3u)" if out_t.bits == 8 else "((ixo & 1u) << 4u)")
                wd = f"ixo >> {2 if out_t.bits == 8 else 1}u"
                body.append(f"    let sh = {sh};")
                body.append(f"    atomicAnd(&D[{wd}], ~({mask} << sh));")
                body.append(f"    atomicOr(&D[{wd}], {pack(out_t, 'v', helpers)} << sh);")
            else:
                body.append("    D[ixo] = v;")
        elif out_t.packed:
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
        return _FRAME.render(lay.tokens(), helpers=render_helpers(helpers, caps.int64),
                             lib=self.lib, ops=ops, idx_fn=idx_fn,
                             out_val=out_t.val, value_body=value_body, wg=WG,
                             body="\n".join(body))

    @property
    def label(self):
        return (f"fused_{len(self.program)}ops_{len(self.in_ts)}in_to_{self.out_t.name}"
                f"_r{self.rank}{'_scatter' if self.scatter else ''}")


def index_fn(spec, lay, extra=()):
    """``idx(e)`` of ``spec``'s inputs and the ``extra`` offset words (the scattered
    output's), against ``lay``: the fused kernel's layout, or a reduction's whose prologue
    ``spec`` is."""
    offs = [lay.word(f"I{k}_off") for k in range(len(spec.in_ts))]
    offs += [lay.word(x) for x in extra]
    w = 1 + len(offs)
    return _index_fn(spec.rank, offs, lambda d, j: lay.word("dims", d * w + j))


def prologue_args(prog, leaves, words, shape):
    """(FusedSpec, launch arguments) of an expression ``prog`` over the leaf storages
    ``leaves`` (broadcastable to ``shape``) and its scalar ``words``, read by a reduction
    as the row-major array of ``shape`` it would materialise."""
    gkey = (prog, "prologue", shape, tuple([(s.shape, s.strides) for s in leaves]))
    geo = _GEOMETRY.get(gkey)
    if geo is None:
        rank, dims = _dims(shape, leaves)
        if len(_GEOMETRY) > 4096:
            _GEOMETRY.clear()
        geo = _GEOMETRY[gkey] = (prog(rank, False), dims)
    spec, dims = geo
    n_sw = spec._sc_offsets()[1]
    args = {f"I{k}": s for k, s in enumerate(leaves)}  # (bound whole; dims broadcast)
    args.update(dims=dims or [0], zero=[0, 0, 0], S=list(words) + [0] * (max(1, n_sw) -
                                                                          len(words)))
    return spec, args


# ops/elementwise.py (which imports this package) hands over the recipe functions at its
# import: fusion never imports it back (the package graph stays acyclic)
_ELEMENTWISE = {}


def bind_elementwise(**fns):
    _ELEMENTWISE.update(fns)


def elementwise(name):
    if name not in _ELEMENTWISE:
        import importlib   # the backend's elementwise module binds itself when imported
        importlib.import_module(__package__.rsplit(".", 1)[0] + ".ops.elementwise")
    return _ELEMENTWISE[name]


def variants():
    """Fused kernels covering every value class, scalar operands of every width, sub-word
    and complex round trips, the contiguous / packed / scatter outputs (render-and-compile
    test coverage; real programs come from ops/elementwise.py's recipes the same way)."""
    from ...._core import dtypes as dt
    merged_library, recipe = elementwise("merged_library"), elementwise("recipe")
    f64 = dt.float64
    out = []
    for d, fns in ((dt.float32, ("exp", "add", "less")), (dt.float16, ("multiply", "sqrt")),
                   (dt.int8, ("add", "remainder")), (dt.uint16, ("bitwise_xor",)),
                   (dt.bool_, ("logical_and",)), (dt.complex64, ("multiply", "exp")),
                   (dt.float64, ("divide", "sin")), (dt.complex128, ("add", "sqrt")),
                   (dt.int64, ("floor_divide",)), (dt.uint64, ("pow",))):
        rs = [recipe(f, 2 if f in ("add", "less", "multiply", "remainder", "bitwise_xor",
                                   "logical_and", "divide", "floor_divide", "pow") else 1,
                     d, f64) for f in fns]
        t = WTYPES[d].name
        program, prev = [], ("i", 0)
        for k, r in enumerate(rs):
            args = (prev, ("s", 0)) if len(r.in_ts) == 2 else (prev,)
            if r.out_t is not WTYPES[d]:  # (a comparison ends the chain)
                program.append((k, r.res_t.name, r.out_t.name, args))
                break
            program.append((k, r.res_t.name, r.out_t.name, args))
            prev = ("n", k)
        ops = tuple(r.op_src for r in rs[:len(program)])
        lib = merged_library([r.lib_parts for r in rs[:len(program)]])
        for rank, scatter in ((1, False), (2, True)):
            out.append(FusedSpec(ops, lib, tuple(program), (t,), (t,), rank, scatter))
    return out


_GEOMETRY = {}


def _dims(shape, inputs, out_strides=None):
    """(rank, dims words) of ``inputs`` (broadcastable to ``shape``) and a scattered
    output's strides after their joint dim collapse: per dim its extent, then every
    operand's stride."""
    stride_sets = [(s if s.shape == shape else s.broadcast_to(shape)).strides for s in inputs]
    if out_strides is not None:
        stride_sets.append(out_strides)
    cshape, cstrides = joint_collapse(shape, stride_sets)
    dims = []
    for d in range(len(cshape)):
        dims.append(cshape[d])
        dims += [st[d] for st in cstrides]
    return len(cshape), dims


def launch(client, spec_of, inputs, scalar_words_, shape, out, scatter=False, _boxed=False):
    """Record the fused kernel(s) writing ``out`` (a fresh contiguous storage, or with
    ``scatter`` a view). ``spec_of(rank, scatter)`` gives the FusedSpec; ``inputs`` are
    the leaf storages (broadcastable to ``shape``), ``scalar_words_`` the scalar words."""
    n = math.prod(shape)
    if n == 0:
        return out
    limit = client.max_binding
    if not _boxed and (n > MAX_BOX_ELEMS or out.block.size > limit
                       or any([s.block.size > limit for s in inputs])):
        views = [s if s.shape == shape else s.broadcast_to(shape) for s in inputs]
        with paced(client.recorder) as pace:
            for box in boxes(shape, views + [out]):
                subs = box_views(views + [out], box)
                launch(client, spec_of, subs[:-1], scalar_words_, subs[-1].shape, subs[-1],
                       scatter=True, _boxed=True)
                pace.step()
        return out
    gkey = (spec_of, client.index, shape, scatter, out.strides if scatter else None,
            tuple([(s.shape, s.strides) for s in inputs]))
    geo = _GEOMETRY.get(gkey)
    if geo is None:
        rank, dims = _dims(shape, inputs, out.strides if scatter else None)
        kernel = client.kernel(spec_of(rank, scatter))
        out_t = kernel.spec.out_t
        units = n if (scatter or not out_t.packed) else -(-n // (32 // out_t.bits))
        n_dims = kernel.layout._index["dims"][1]
        dims += [0] * (n_dims - len(dims))
        geo = (kernel.pipes["main"], kernel.layout, dims, units, workgroups(units, client),
               kernel.layout._index["S"][1])
        if len(_GEOMETRY) > 4096:
            _GEOMETRY.clear()
        _GEOMETRY[gkey] = geo
    else:
        client.pipelines.hits += 1
    pipe, layout, dims, units, wg, n_sw = geo
    words = [units, n, *dims, 0, 0, 0, *scalar_words_]
    words += [0] * (n_sw - len(scalar_words_))
    bindings = []
    for s in inputs:
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


from ..runtime import caches as _caches  # noqa: E402

_caches.register("fusion _GEOMETRY", _GEOMETRY.clear, mid_call=False)
