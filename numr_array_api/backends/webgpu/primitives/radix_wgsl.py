"""WGSL pieces the carried-key sort's kernels share (radix_keys.py, radix_sweep.py): the
key of carried raw bits (one shader per width serves every dtype, the key class a word),
subgroup matching (which lanes of a subgroup hold the same 8-bit digit, 8 ballots, so one
atomic serves each group of equal digits instead of one per key) and the frame of the
workgroup-bitmask ranking.
"""

from __future__ import annotations

from .keys import _F16, _F32, _F64

DIGITS = 256

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


# The key class of a dtype, a runtime word: one shader serves every dtype of a width and
# both directions (descending inverts the key by the word ``inv``)
KC = {"b": 0, "u": 1, "i": 2}
KC_F16, KC_F32, KC_F64 = 3, 4, 5


def key_class(dtype):
    """(kc, sbit) words of ``dtype``: its key class and, for signed types, the sign bit
    (of the high word for 64-bit types)."""
    if dtype.kind == "f":
        return {2: KC_F16, 4: KC_F32, 8: KC_F64}[dtype.itemsize], 0
    sbit = 1 << (min(dtype.itemsize, 4) * 8 - 1) if dtype.kind == "i" else 0
    return KC[dtype.kind], sbit


def key_from_bits(words, W):
    """WGSL ``fn kb(v) -> array<u32, words>``: the key of carried raw bits ``v`` (u32, or
    vec2<u32> for 64-bit types) of key class ``kc``, xor ``inv`` (descending)."""
    kc, sbit, inv = W("kc"), W("sbit"), W("inv")
    if words == 1:
        return _F16 + _F32 + f"""fn kb_asc(v: u32) -> u32 {{
  switch ({kc}) {{
    case 0u: {{ return select(0u, 1u, v != 0u); }}
    case 2u: {{ return v ^ {sbit}; }}
    case {KC_F16}u: {{ return key_f16(v); }}
    case {KC_F32}u: {{ return key_f32(v); }}
    default: {{ return v; }}
  }}
}}
fn kb(v: u32) -> array<u32, 1> {{ return array<u32, 1>(kb_asc(v) ^ {inv}); }}
fn kw_at(v: u32, w: u32) -> u32 {{ return kb_asc(v) ^ {inv}; }}
"""
    return _F64 + f"""fn kb_asc(v: vec2<u32>) -> vec2<u32> {{
  switch ({kc}) {{
    case 2u: {{ return vec2<u32>(v.x, v.y ^ {sbit}); }}
    case {KC_F64}u: {{ return key_f64(v); }}
    default: {{ return v; }}
  }}
}}
fn kb(v: vec2<u32>) -> array<u32, 2> {{
  let k = kb_asc(v) ^ vec2<u32>({inv});
  return array<u32, 2>(k.x, k.y);
}}
fn kw_at(v: vec2<u32>, w: u32) -> u32 {{
  let k = kb_asc(v) ^ vec2<u32>({inv});
  return select(k.x, k.y, w == 1u);
}}
"""


def rank_frame(wg):
    """WGSL of the workgroup-bitmask ranking's frame: its workgroup arrays (per-digit
    thread masks, a word per 32 threads, and ``run``), and the lines giving each thread
    its mask word ``me`` and bit mask ``below`` and zeroing the masks."""
    maskw = wg // 32
    return (f"var<workgroup> masks: array<atomic<u32>, {DIGITS * maskw}>;\n"
            f"var<workgroup> run: array<u32, {DIGITS}>;",
            "  let me = lid.x >> 5u;\n  let below = (1u << (lid.x & 31u)) - 1u;\n"
            f"  for (var w = lid.x; w < {DIGITS * maskw}u; w += {wg}u) "
            "{ atomicStore(&masks[w], 0u); }")
