"""The one-sweep scatter of the carried-key sort (primitives/radix_keys.py): a pass in one
launch, without the tile histograms and their scan.

Each workgroup takes the next tile number from a per-pass counter (so every tile it waits
for has already started), counts its tile's digits, publishes them as the tile's
aggregate, then walks back over the tiles before it (one thread per digit) adding their
aggregates until it meets one that published its inclusive prefix, and publishes its own
(decoupled look-back). Its keys then go to the pass's global digit offset (the plan
kernel turns the prep's digit counts G into their exclusive scans, once for all tiles)
plus that prefix, ranked in the tile as the workgroup-bitmask scatter ranks them.

A status word is a 2-bit flag (1: aggregate, 2: inclusive prefix; 0: not yet written)
over a 30-bit count, so the sweep takes fewer than 2^30 keys. The status tables (one per
pass, a word per (tile, digit), after ``SWEEP_HEAD`` words of tile counters) are zeroed
by the prep kernel, which runs before the first pass anyway.

The wait for a previous tile spins: it needs that a workgroup which has started keeps
running while others spin (forward progress between workgroups), which WebGPU does not
promise. So the sweep runs only where an adapter's tuning table sets SORT_SWEEP, once
tests/webgpu_kernels/test_sort_sweep.py passed on that adapter, and never on a CPU adapter
(``usable``).
"""

from __future__ import annotations

from .radix_wgsl import key_from_bits, rank_frame

DIGITS = 256
SWEEP_HEAD = 256     # tile counters, one per pass (MAX_PASSES <= 256)
AGG = 0x40000000
INC = 0x80000000


def usable(client, rank, n, npass, nb):
    """Whether a sort of ``n`` keys in ``npass`` passes over ``nb`` tiles runs one-sweep:
    SORT_SWEEP on (a table vouching for the adapter's forward progress), the workgroup
    ranking, counts within 30 bits, the status tables within a binding, and not a CPU
    adapter: lavapipe ends an invocation's loops after 65535 trips in all, which a spin
    for a descheduled tile can pass (then silently, with a wrong result)."""
    from ....tuning.registry import get as tuned
    from ..runtime.adapters import is_cpu
    return bool(rank == "workgroup" and tuned("SORT_SWEEP", client) and n < 1 << 30
                and table_words(npass, nb) * 4 <= client.max_binding - 512
                and not is_cpu(client.info))


def table_words(npass, nb):
    """u32 words of the status buffer of a sort of ``npass`` passes over ``nb`` tiles."""
    return SWEEP_HEAD + npass * nb * DIGITS


def scatter_wgsl(spec, lay, access, loads, chunks, wg):
    """WGSL of the one-sweep scatter: ``spec`` the KeySortSpec (workgroup ranking), the
    pieces (plane access, each thread's loads, the ranking chunks) shared with the
    reduce-then-scan scatter of radix_keys.py."""
    W = lay.word
    ch = spec.tile // wg
    count = "\n".join(f"  if (ok{k}) {{ atomicAdd(&lh[d{k}], 1u); }}" for k in range(ch))
    st = f"{W('ST_off')}"
    arrays, frame = rank_frame(wg)
    return f"""{lay.decl()}
{key_from_bits(spec.kt.words, W)}
{access}
{arrays}
var<workgroup> lh: array<atomic<u32>, {DIGITS}>;
var<workgroup> tile_no: u32;
@compute @workgroup_size({wg})
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {{
  let live = T[{W('T_off')} + 2u * {W('pno')}];
  if (live == 0u) {{ return; }}
  if (lid.x == 0u) {{ tile_no = atomicAdd(&ST[{st} + {W('pno')}], 1u); }}
  let blk = workgroupUniformLoad(&tile_no);
  if (blk >= {W('nb')}) {{ return; }}
  let hs = T[{W('T_off')} + 2u * {W('pno')} + 1u];
  let tb = blk * {spec.tile}u;
{spec._flags(lay)}{frame}
  atomicStore(&lh[lid.x], 0u);
{loads}
  workgroupBarrier();
{count}
  workgroupBarrier();
  // publish this tile's digit counts, then add the earlier tiles' (decoupled look-back)
  let c = atomicLoad(&lh[lid.x]);
  let sb = {st} + {SWEEP_HEAD}u + {W('pno')} * {W('nb')} * {DIGITS}u + lid.x;
  var acc = 0u;
  if (blk == 0u) {{
    atomicStore(&ST[sb], {INC}u | c);
  }} else {{
    atomicStore(&ST[sb + blk * {DIGITS}u], {AGG}u | c);
    var j = blk - 1u;
    loop {{
      let s = atomicLoad(&ST[sb + j * {DIGITS}u]);
      if (s == 0u) {{ continue; }}
      acc += s & 0x3fffffffu;
      if ((s & {INC}u) != 0u) {{ break; }}
      j -= 1u;
    }}
    atomicStore(&ST[sb + blk * {DIGITS}u], {INC}u | (acc + c));
  }}
  // the digit's first slot: the pass's exclusive digit offset (the plan scanned G) plus
  // the prefix
  run[lid.x] = G[{W('G_off')} + {W('pno')} * {DIGITS}u + lid.x] + acc;
  workgroupBarrier();
{chunks}
}}
"""
