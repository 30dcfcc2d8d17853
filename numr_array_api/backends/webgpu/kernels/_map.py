"""The elementwise "map" template behind copy and cast.

One thread per output *unit*: a u32 word for sub-word dtypes (so no two threads write one
word) or an element otherwise. Each unit reads its source element(s) through a strided index
(any rank, any strides, generated per rank), converts, packs and stores. Grid-stride loop.
"""

import math

from ...._core.errors import BackendLimitation
from ..codegen.render import WG, Params, collapse, strided_index_fn, workgroups
from ..codegen.types import RAW, convert, load, pack, render_helpers, wtype
from ..storage import WgpuStorage


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
    if (out.block.size <= limit and src.block.size <= limit) or src.ndim == 0:
        _launch_one(src, out.out_binding(), st, dt)
        return out
    _launch_chunked(src, out, st, dt, limit)
    return out


def _launch_chunked(src, out, st, dt, limit):
    """Arrays beyond the storage-binding limit: one dispatch per slab of axis-0 rows.

    Each slab's source window and output window fit one binding; output windows start at
    an aligned offset below the slab and the kernel skips to the slab's first unit. Slabs
    begin on whole u32 words, so packed stores of two slabs never share a word.
    """
    client = src.client
    rows, inner = src.shape[0], src.size // src.shape[0]
    row_out = inner * out.itemsize
    align = max(256, client.storage_align)
    unit = 4 if dt.packed else out.itemsize
    mult = unit // math.gcd(unit, row_out)
    lo, hi = src[0:1].extent()
    step = abs(src.strides[0]) * src.itemsize
    slack = align + 16
    by_src = (limit - slack - (hi - lo)) // step + 1 if step else rows
    by_out = (limit - slack) // row_out
    r = min(by_src, by_out, rows)
    r = r - r % mult if r < rows else r
    if r <= 0:
        raise BackendLimitation("webgpu", f"a kernel over {src.shape} {src.dtype.name}",
                                f"one row exceeds the storage binding limit ({limit} bytes)")
    for i0 in range(0, rows, r):
        i1 = min(rows, i0 + r)
        start, end = i0 * row_out, i1 * row_out
        base = start - start % align
        size = min(-(-(end - base) // 16) * 16, out.block.size - base)
        _launch_one(src[i0:i1], (out.block, base, size), st, dt, (start - base) // unit)


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
