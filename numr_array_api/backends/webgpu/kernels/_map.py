"""The elementwise "map" template behind copy and cast.

One thread per output *unit*: a u32 word for sub-word dtypes (so no two threads write one
word) or an element otherwise. Each unit reads its source element(s) through a strided index
(any rank, any strides, generated per rank), converts, packs and stores. Grid-stride loop.
"""

from ..codegen.render import WG, Params, collapse, strided_index_fn, workgroups
from ..codegen.types import RAW, convert, load, pack, render_helpers, wtype
from ..storage import WgpuStorage


def _render(client, st, dt, rank, params):
    P = params.P
    helpers = set()
    value = convert(st, dt, load(st, "S", "i", helpers), helpers, client.has("shader-int64"))
    lines = []
    if dt.packed:
        per = 32 // dt.bits
        lines.append("    var w = 0u;")
        for j in range(per):
            lines.append(f"    let e{j} = u * {per}u + {j}u;")
            shift = f" << {j * dt.bits}u" if j else ""
            lines.append(f"    if (e{j} < n) {{ w |= {pack(dt, f'value(e{j})', helpers)}{shift}; }}")
        lines.append("    D[u] = w;")
    else:
        lines.append("    D[u] = value(u);")
    body = "\n".join(lines)
    src = f"""{render_helpers(helpers, client.has("shader-int64"))}
{params.decl()}
@group(0) @binding(0) var<storage, read> S: array<{st.arr}>;
@group(0) @binding(1) var<storage, read_write> D: array<{dt.arr}>;
{strided_index_fn(rank, P, 2)}
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


def _launch(src, out, st, dt):
    client = src.client
    n = src.size
    if n == 0:
        return out
    shape, strides = collapse(src.shape, src.strides)
    rank = len(shape)
    params = Params.of(client, 3 + 2 * rank, binding=2)
    pipe = client.pipelines.get_rendered(
        ("map", st.name, dt.name, rank, params.immediate),
        lambda: _render(client, st, dt, rank, params))
    block, boff, bsize, eoff = src.binding()
    units = -(-n // (32 // dt.bits)) if dt.packed else n
    words = [units, n, eoff]
    for e, s in zip(shape, strides):
        words += [e, s]
    client.launch(pipe, [(block, boff, bsize), out.out_binding()], params.pack(words),
                  workgroups(units, client))
    return out


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
    return _launch(src, WgpuStorage._new(src.shape, dst_dtype, client), st, dt)


def map_into_block(src, dst):
    """Copy ``src`` (any view) into the existing contiguous storage ``dst`` (same shape/dtype)."""
    return _launch(src, dst, RAW[src.itemsize], RAW[src.itemsize])
