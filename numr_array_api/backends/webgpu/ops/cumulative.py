"""cumulative_sum / cumulative_prod on the GPU.

One thread per line along the axis, sequential in the accumulator type (the same order as
NumPy, so float results match bit for bit on exact adapters). Long lines with few of them
are cut into chunks: the chunk totals (a chunked reduction, ops/reduction.py) are scanned,
then every chunk is scanned from its offset.
"""

import math

from ...._core import dtypes as dt
from ..codegen.render import Params, collapse, strided_index_fn
from ..codegen.types import WTYPES, convert, load, render_helpers
from ..kernels.cast import cast
from ..storage import WgpuStorage
from .host_fallback import _make
from .reduction.plan import chunk_totals
from .reduction.table import ONE as _ONE
from .reduction.table import VAL_DTYPE as _VAL_DTYPE
from .reduction.table import ZERO as _ZERO
from .reduction.table import acc_wtype as _acc_type

_SPLIT_MIN = 1 << 15


def _supported(client, *dtypes):
    return all(not WTYPES[d].need or client.has(WTYPES[d].need) for d in dtypes)

_HOST = _make("cumulative")


def _render_cum(op, in_t, acc_t, rank, include, chunked, params, has64):
    """One thread per (line, chunk): a sequential scan of its chunk, starting from the
    chunk's offset (``chunked``: read from OFF, the exclusive scan of the chunk totals)."""
    P = params.P
    h = set()
    a = acc_t.val
    v = convert(in_t, acc_t, load(in_t, "S", "j", h), h, has64)
    if op == "sum":
        ident, upd = _ZERO[a], "acc = acc + v;"
    else:
        ident = _ONE[a]
        upd = ("acc = vec2(acc.x * v.x - acc.y * v.y, acc.x * v.y + acc.y * v.x);"
               if a.startswith("vec2") else "acc = acc * v;")
    inc = "    if (ch == 0u) { D[ob] = acc; }\n    ob += 1u;" if include else ""
    off_decl = (f"@group(0) @binding(1) var<storage, read> OFF: array<{a}>;"
                if chunked else "")
    start = "OFF[line * (K + 1u) + ch]" if chunked else ident
    src = f"""{render_helpers(h, has64)}
{params.decl()}
@group(0) @binding(0) var<storage, read> S: array<{in_t.arr}>;
{off_decl}
@group(0) @binding({2 if chunked else 1}) var<storage, read_write> D: array<{a}>;
{strided_index_fn(rank, P, 6, "line_index")}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {{
  let units = {P(0)};
  let m = {P(1)};
  let st = {P(2)};
  let mo = {P(3)};
  let K = {P(4)};
  let C = {P(5)};
  for (var t = g.x; t < units; t += nw.x * 64u) {{
    let line = t / K;
    let ch = t - line * K;
    let lo = ch * C;
    let hi = min(lo + C, m);
    var acc: {a} = {start};
    var ob = line * mo + lo;
{inc}
    var j = line_index(line) + lo * st;
    for (var r = lo; r < hi; r += 1u) {{
      let v = {v};
      {upd}
      D[ob] = acc;
      ob += 1u;
      j += st;
    }}
  }}
}}
"""
    kinds = ("read", "read", "rw") if chunked else ("read", "rw")
    return {"source": src, "entry": "main", "bindings": params.layout(kinds),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": f"cum_{op}_{in_t.name}_{a}"}


_CUM_CHUNK = 1024


class CumulativeMixin:
    def cumulative(self, name, data, axis, dtype, include_initial):
        client = data.client
        if dtype is dt.bool_ or not _supported(client, data.dtype, dtype):
            return _HOST(self, name, data, axis, dtype,
                                                include_initial)
        acc_t = _acc_type(dtype)
        in_t = WTYPES[data.dtype]
        m = data.shape[axis]
        mo = m + (1 if include_initial else 0)
        nd = data.ndim
        rest = [d for d in range(nd) if d != axis]
        view = data.permute(tuple(rest) + (axis,))
        lshape = tuple(data.shape[d] for d in rest)
        nl = math.prod(lshape)
        out = WgpuStorage._new(lshape + (mo,), _VAL_DTYPE[acc_t.val], client)
        if nl and mo:
            oshape, ostr = collapse(view.shape[:-1], view.strides[:-1])
            rank = len(oshape)
            # long lines, few of them: K chunks per line; the chunk totals (the segmented
            # reduction's first pass) are scanned, then every chunk is scanned from its offset
            k = 1
            if m >= _SPLIT_MIN and nl < 2048:
                k = min(-(-m // _CUM_CHUNK), max(1, 8192 // nl))
            chunk = -(-m // k)
            binds = []
            block, boff, bsize, eoff = view.binding()
            binds.append((block, boff, bsize))
            if k > 1:
                part_dt = _VAL_DTYPE[acc_t.val]
                part = chunk_totals(name, view, dtype, k)
                offs = self.cumulative(name, part, 1, part_dt, True)
                ob_, oo_, os_, _ = offs.binding()
                binds.append((ob_, oo_, os_))
            words = [nl * k, m, view.strides[-1], mo, k, chunk, eoff]
            for n, s in zip(oshape, ostr):
                words += [n, s]
            params = Params.of(client, len(words), binding=len(binds) + 1)
            has64 = client.has("shader-int64")
            key = ("cumulative", name, in_t.name, acc_t.name, rank, bool(include_initial),
                   k > 1, params.immediate)
            pipe = client.pipelines.get_rendered(
                key, lambda: _render_cum(name, in_t, acc_t, rank, include_initial, k > 1,
                                         params, has64))
            groups = max(1, min(-(-(nl * k) // 64), 16384, client.max_groups))
            binds.append(out.out_binding())
            client.launch(pipe, binds, params.pack(words), (groups, 1, 1))
        if out.dtype is not dtype:
            out = cast(out, dtype)
        # (rest..., axis) -> original axis order
        inv = list(range(nd - 1))
        inv.insert(axis, nd - 1)
        res = out.permute(tuple(inv))
        return res if res.is_contiguous else res.contiguous()
