"""Subgroup matching for the key sort's digit counts and ranking (radix_keys.py): which
lanes of a subgroup hold the same 8-bit digit (8 ballots), so one atomic serves each group
of equal digits instead of one per key, and the ballot helpers around it.
"""

from __future__ import annotations

SG_FNS = """
fn pc(v: vec4<u32>) -> u32 {
  return countOneBits(v.x) + countOneBits(v.y) + countOneBits(v.z) + countOneBits(v.w);
}
fn lowest(v: vec4<u32>) -> u32 {
  if (v.x != 0u) { return firstTrailingBit(v.x); }
  if (v.y != 0u) { return 32u + firstTrailingBit(v.y); }
  if (v.z != 0u) { return 64u + firstTrailingBit(v.z); }
  return 96u + firstTrailingBit(v.w);
}
// the lanes below lane sl, as a ballot mask
fn below(sl: u32) -> vec4<u32> {
  let q = sl >> 5u;
  let bit = (1u << (sl & 31u)) - 1u;
  return vec4<u32>(select(select(0u, bit, q == 0u), 0xffffffffu, q > 0u),
                   select(select(0u, bit, q == 1u), 0xffffffffu, q > 1u),
                   select(select(0u, bit, q == 2u), 0xffffffffu, q > 2u),
                   select(0u, bit, q == 3u));
}
// the lanes holding the same 8-bit digit as this one (among those where ok)
fn peers(d: u32, ok: bool) -> vec4<u32> {
  var pe = subgroupBallot(ok);
  for (var b = 0u; b < 8u; b++) {
    let on = ((d >> b) & 1u) == 1u;
    let bal = subgroupBallot(on);
    pe &= select(~bal, bal, on);
  }
  return pe;
}
"""

SG_ARGS = ("@builtin(subgroup_size) sgs: u32, @builtin(subgroup_invocation_id) sl: u32, "
           "@builtin(subgroup_id) sid: u32")


def count(arr, slot, digit, ok, sg):
    """WGSL adding 1 to ``arr[slot + digit]`` for every lane where ``ok``: with ``sg``, one
    atomic per group of lanes with equal digits (a digit shared by many keys of a tile
    would otherwise serialize its atomics)."""
    if not sg:
        return f"    if ({ok}) {{ atomicAdd(&{arr}[{slot} + {digit}], 1u); }}"
    return (f"    {{\n      let dg = {digit};\n      let pe = peers(dg, {ok});\n"
            f"      if ({ok} && pc(pe & lt) == 0u) {{ atomicAdd(&{arr}[{slot} + dg], pc(pe)); }}\n"
            f"    }}")
