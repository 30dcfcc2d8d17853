"""The elementwise "map" template behind copy and cast.

One thread per output *unit*: a u32 word for sub-word dtypes (so no two threads write one
word) or an element otherwise. Each unit reads its source element(s) through a strided index
(any rank, any strides, generated per rank), converts, packs and stores. Grid-stride loop.
"""

from ..codegen.render import WG, Params, collapse, strided_index_fn, workgroups
from ..codegen.types import RAW, convert, load, pack, render_helpers, wtype
from ..primitives.slabs import MAX_BOX_ELEMS
from .nary import launch


def _render(client, st, dt, rank, params):
    P = params.P
    helpers = set()
    value = convert(st, dt, load(st, "S", "i", helpers), helpers, client.has("shader-int64"))
    lines = []
    store = f"D[{P(2)} + u]"
    if dt.packed:
        per = 32 // dt.bits
        lines.append("    var w = 0u;")
        for j in range(per):
            lines.append(f"    let e{j} = u * {per}u + {j}u;")
            shift = f" << {j * dt.bits}u" if j else ""
            lines.append(f"    if (e{j} < n) {{ w |= {pack(dt, f'value(e{j})', helpers)}{shift}; }}")
        lines.append(f"    {store} = w;")
    else:
        lines.append(f"    {store} = value(u);")
    body = "\n".join(lines)
    src = f"""{render_helpers(helpers, client.has("shader-int64"))}
{params.decl()}
@group(0) @binding(0) var<storage, read> S: array<{st.arr}>;
@group(0) @binding(1) var<storage, read_write> D: array<{dt.arr}>;
{strided_index_fn(rank, P, 3)}
fn value(e: u32) -> {dt.val} {{
  let i = src_index(e);
  return {value};
}}
@compute @workgroup_size({WG})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {{
  let units = {P(0)};
  let n = {P(1)};
  for (var u = g.x; u < units; u += nw.x * {WG}u) {{
{body}
  }}
}}
"""
    return {"source": src, "entry": "main", "bindings": params.layout(("read", "rw")),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": f"map_{st.name}_to_{dt.name}_r{rank}"}


_PLANS = {}


def _plan(src, st, dt):
    """(pipeline, Params, dims words, units, workgroups) for a source layout; memoised."""
    client = src.client
    key = (id(client), src.shape, src.strides, st.name, dt.name)
    plan = _PLANS.get(key)
    if plan is None:
        n = src.size
        shape, strides = collapse(src.shape, src.strides)
        rank = len(shape)
        params = Params.of(client, 4 + 2 * rank, binding=2)
        pipe = client.pipelines.get_rendered(
            ("map", st.name, dt.name, rank, params.immediate),
            lambda: _render(client, st, dt, rank, params))
        dims = []
        for e, s in zip(shape, strides):
            dims += [e, s]
        units = -(-n // (32 // dt.bits)) if dt.packed else n
        plan = (pipe, params, dims, units, workgroups(units, client))
        if len(_PLANS) >= 8192:
            _PLANS.clear()
        _PLANS[key] = plan
    else:
        client.pipelines.hits += 1
    return plan


def _launch_one(src, out_bind, st, dt, out_unit=0):
    pipe, params, dims, units, wg = _plan(src, st, dt)
    block, boff, bsize, eoff = src.binding()
    src.client.launch(pipe, [(block, boff, bsize), out_bind],
                      params.pack([units, src.size, out_unit, eoff] + dims), wg)


def _launch(src, out, st, dt):
    n = src.size
    if n == 0:
        return out
    client = src.client
    limit = client.max_binding
    if (out.block.size <= limit and src.block.size <= limit and n <= MAX_BOX_ELEMS) \
            or src.ndim == 0:
        _launch_one(src, out.out_binding(), st, dt)
        return out
    # beyond one binding / buffer: the N-ary template splits the work into boxes
    op = f"fn op(a: {st.val}, e: u32) -> {st.val} {{ return a; }}"
    return launch(client, ("map", st.name, dt.name), (src,), [st], st, dt, op, "",
                  src.shape, out)


def map_into(src, dst_dtype, raw):
    """A new contiguous storage holding ``src`` (any view) converted to ``dst_dtype``.

    ``raw``: move bits unchanged (a copy; src and dst dtypes must have equal itemsize).
    """
    client = src.client
    if raw:
        st = dt = RAW[src.itemsize]
    else:
        st = wtype(src.dtype, client, "astype")
        dt = wtype(dst_dtype, client, "astype")
    return _launch(src, src._new(src.shape, dst_dtype, client), st, dt)


def map_into_block(src, dst):
    """Copy ``src`` (any view) into the existing contiguous storage ``dst`` (same shape/dtype)."""
    return _launch(src, dst, RAW[src.itemsize], RAW[src.itemsize])
