"""Portable exclusive prefix sum (reduce-then-scan) and mask compaction on the GPU.

Used by boolean-mask indexing: ``exclusive_scan(mask)`` gives every element its rank among
the true elements (u32, n + 1 entries: the last is the count) without a host read;
``compact`` writes the flat position of every true element at its rank.

Reduce-then-scan makes no forward-progress assumption between workgroups (WebGPU promises
none, so decoupled look-back is out): a block of 1024 elements (256 threads x 4) per
workgroup; pass 1 writes each block's sum, the block sums are scanned recursively (one block
scans 1024 sums, so two levels cover 2^20 elements, three 2^30), pass 2 rescans each block
adding its block's offset. The in-block scan is Hillis-Steele over 256 shared words.
"""

from ...._core import dtypes as dt
from ..codegen.render import WG, Params, workgroups
from ..codegen.types import WTYPES, load, render_helpers
from ..storage import WgpuStorage

BLOCK = 1024  # elements per workgroup: 256 threads x 4
_PER = BLOCK // 256


def _render(t, mode, params):
    """mode: 'reduce' (block sums) or 'scan' / 'scan_off' (exclusive ranks, + block offsets)."""
    P = params.P
    helpers = set()
    raw = load(t, "S", "j", helpers)
    flag = f"select(0u, 1u, {raw})" if t.val == "bool" else raw
    off_decl = ("@group(0) @binding(1) var<storage, read> OFF: array<u32>;"
                if mode == "scan_off" else "")
    d_bind = 2 if mode == "scan_off" else 1
    boff = "OFF[blk]" if mode == "scan_off" else "0u"
    vals = "\n".join(f"  let v{k} = val(base + {k}u);" for k in range(_PER))
    tot = " + ".join(f"v{k}" for k in range(_PER))
    if mode == "reduce":
        tail = "  if (lid.x == 255u) { D[blk] = sh[255]; }"
    else:
        w = [f"  var r = {boff} + sh[lid.x] - s;"]
        for k in range(_PER):
            w.append(f"  if (base + {k}u < n) {{ D[base + {k}u] = r; }} r += v{k};")
        w.append(f"  if (blk == nb - 1u && lid.x == 255u) {{ D[n] = {boff} + sh[255]; }}")
        tail = "\n".join(w)
    src = f"""{render_helpers(helpers)}
{params.decl()}
@group(0) @binding(0) var<storage, read> S: array<{t.arr}>;
{off_decl}
@group(0) @binding({d_bind}) var<storage, read_write> D: array<u32>;
var<workgroup> sh: array<u32, 256>;
fn val(i: u32) -> u32 {{
  if (i >= {P(0)}) {{ return 0u; }}
  let j = {P(1)} + i;
  return {flag};
}}
@compute @workgroup_size(256)
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let n = {P(0)};
  let nb = {P(2)};
  let blk = wg.x + wg.y * nw.x;   // uniform per workgroup, so the early exit is too
  if (blk >= nb) {{ return; }}
  let base = blk * {BLOCK}u + lid.x * {_PER}u;
{vals}
  let s = {tot};
  sh[lid.x] = s;
  workgroupBarrier();
  for (var d = 1u; d < 256u; d <<= 1u) {{
    var x = 0u;
    if (lid.x >= d) {{ x = sh[lid.x - d]; }}
    workgroupBarrier();
    sh[lid.x] += x;
    workgroupBarrier();
  }}
{tail}
}}
"""
    kinds = ("read", "read", "rw") if mode == "scan_off" else ("read", "rw")
    return {"source": src, "entry": "main", "bindings": params.layout(kinds),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": f"scan_{mode}_{t.name}"}


def _grid(nb, client):
    gx = min(nb, client.max_groups)
    return (gx, -(-nb // gx), 1)


def _pass(src, t, mode, out, off=None):
    client = src.client
    nbind = 3 if mode == "scan_off" else 2
    params = Params.of(client, 4, binding=nbind)
    pipe = client.pipelines.get_rendered(("scan", mode, t.name, params.immediate),
                                         lambda: _render(t, mode, params))
    block, boff, bsize, eoff = src.binding()
    n = src.size
    nb = -(-n // BLOCK)
    binds = [(block, boff, bsize)]
    if off is not None:
        ob, oo, os_, _ = off.binding()
        binds.append((ob, oo, os_))
    binds.append(out.out_binding())
    client.launch(pipe, binds, params.pack([n, eoff, nb, 0]), _grid(nb, client))


def exclusive_scan(src):
    """u32 storage of ``src.size + 1``: exclusive running count of nonzero ``src`` elements
    (``src``: contiguous bool or uint32), the last entry the total."""
    client = src.client
    t = WTYPES[src.dtype]
    n = src.size
    out = WgpuStorage._new((n + 1,), dt.uint32, client)
    if n == 0:
        from ..kernels.fill import full
        return full((1,), 0, dt.uint32, client)
    nb = -(-n // BLOCK)
    if nb == 1:
        _pass(src, t, "scan", out)
        return out
    sums = WgpuStorage._new((nb,), dt.uint32, client)
    _pass(src, t, "reduce", sums)
    offs = exclusive_scan(sums)
    _pass(src, t, "scan_off", out, offs)
    return out


def _render_compact(t, params):
    P = params.P
    helpers = set()
    raw = load(t, "S", "j", helpers)
    src = f"""{render_helpers(helpers)}
{params.decl()}
@group(0) @binding(0) var<storage, read> S: array<{t.arr}>;
@group(0) @binding(1) var<storage, read> R: array<u32>;
@group(0) @binding(2) var<storage, read_write> D: array<u32>;
@compute @workgroup_size({WG})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {{
  let n = {P(0)};
  for (var i = g.x; i < n; i += nw.x * {WG}u) {{
    let j = {P(1)} + i;
    if ({raw}) {{ D[R[i]] = i; }}
  }}
}}
"""
    return {"source": src, "entry": "main", "bindings": params.layout(("read", "read", "rw")),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": "compact"}


def compact(mask, ranks, count):
    """u32 storage (count,): the flat positions of the true elements of contiguous ``mask``."""
    client = mask.client
    out = WgpuStorage._new((count,), dt.uint32, client)
    if count == 0:
        return out
    t = WTYPES[dt.bool_]
    params = Params.of(client, 4, binding=3)
    pipe = client.pipelines.get_rendered(("compact", params.immediate),
                                         lambda: _render_compact(t, params))
    block, boff, bsize, eoff = mask.binding()
    rb, ro, rs, _ = ranks.binding()
    client.launch(pipe, [(block, boff, bsize), (rb, ro, rs), out.out_binding()],
                  params.pack([mask.size, eoff, 0, 0]), workgroups(mask.size, client))
    return out
