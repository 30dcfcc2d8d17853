"""Order-preserving unsigned sort keys of every dtype, computed from raw bits.

Sorting, searching and the set functions compare elements through one key: a few u32
words (word 0 least significant) whose unsigned lexicographic order is NumPy's sort order.
Keys read the storage through its raw type (codegen/types.RAW), so no shader-f64 /
shader-int64 feature is needed to sort 64-bit data.

* bool / unsigned: the bits; signed: the sign bit flipped.
* floats: negative values have every bit inverted, others the sign bit set; -0.0 takes
  +0.0's key (they compare equal, so stable sorts keep their order); every NaN takes the
  all-ones key, above +inf, so NaNs sort last and, sharing one key, keep their order.
* complex: (real, imaginary) lexicographic as NumPy; any NaN part gives the all-ones key
  (NaNs last, in their original order, as the cpu backend's unique puts them).

Descending order inverts every key bit: the exact reverse of the ascending order with ties
kept in their original order (the cpu backend's flip / stable sort / flip, NaNs first).
"""

from __future__ import annotations

from ...._core import dtypes as dt
from ..codegen.types import RAW, load

__all__ = ["KeyType", "key_type", "key_fn", "less_fn"]


class KeyType:
    """How one dtype becomes a key: raw storage type, key words, significant bits."""

    __slots__ = ("dtype", "raw", "words", "bits", "nan")

    def __init__(self, dtype):
        self.dtype = dtype
        self.raw = RAW[dtype.itemsize]
        self.bits = 1 if dtype is dt.bool_ else dtype.itemsize * 8
        self.words = max(1, self.bits // 32)
        self.nan = dtype.kind in "fc"   # the all-ones key means NaN

    @property
    def name(self):
        return self.dtype.name


_KEYS = {}


def key_type(dtype):
    k = _KEYS.get(dtype)
    if k is None:
        k = _KEYS[dtype] = KeyType(dtype)
    return k


_F32 = """
fn key_f32(b0: u32) -> u32 {
  if ((b0 & 0x7fffffffu) > 0x7f800000u) { return 0xffffffffu; }
  let b = select(b0, 0u, b0 == 0x80000000u);
  return select(b | 0x80000000u, ~b, (b & 0x80000000u) != 0u);
}
"""
_F16 = """
fn key_f16(h0: u32) -> u32 {
  if ((h0 & 0x7fffu) > 0x7c00u) { return 0xffffu; }
  let h = select(h0, 0u, h0 == 0x8000u);
  return select(h | 0x8000u, (~h) & 0xffffu, (h & 0x8000u) != 0u);
}
"""
_F64 = """
fn f64_nan(v: vec2<u32>) -> bool {
  let a = v.y & 0x7fffffffu;
  return a > 0x7ff00000u || (a == 0x7ff00000u && v.x != 0u);
}
fn key_f64(v0: vec2<u32>) -> vec2<u32> {
  if (f64_nan(v0)) { return vec2<u32>(0xffffffffu); }
  var v = v0;
  if (v.y == 0x80000000u && v.x == 0u) { v = vec2<u32>(0u); }
  if ((v.y & 0x80000000u) != 0u) { return ~v; }
  return vec2<u32>(v.x, v.y | 0x80000000u);
}
"""


def key_fn(kt: KeyType, buf: str, name: str = "key", descending: bool = False,
           helpers: bool = True) -> str:
    """WGSL: ``fn <name>(j: u32) -> array<u32, W>``, the key of element ``j`` of the raw
    binding ``buf`` (an index inside the binding, offset included), plus the helper
    functions unless ``helpers`` is False (a second key function of the same dtype)."""
    d = kt.dtype
    h = set()
    v = load(kt.raw, buf, "j", h)   # raw loads need no helper functions
    W = kt.words
    hs = ""
    if d is dt.bool_:
        body = f"return array<u32, 1>(select(0u, 1u, {v} != 0u));"
    elif d.kind == "u":
        body = f"return array<u32, {W}>({'v.x, v.y' if W == 2 else 'v'});"
    elif d.kind == "i":
        sign = {1: "0x80u", 2: "0x8000u", 4: "0x80000000u", 8: "0x80000000u"}[d.itemsize]
        body = (f"return array<u32, 2>(v.x, v.y ^ {sign});" if W == 2 else
                f"return array<u32, 1>(v ^ {sign});")
    elif d is dt.float16:
        hs = _F16
        body = "return array<u32, 1>(key_f16(v));"
    elif d is dt.float32:
        hs = _F32
        body = "return array<u32, 1>(key_f32(v));"
    elif d is dt.float64:
        hs = _F64
        body = "let k = key_f64(v);\n  return array<u32, 2>(k.x, k.y);"
    elif d is dt.complex64:
        hs = _F32
        body = ("if ((v.x & 0x7fffffffu) > 0x7f800000u || (v.y & 0x7fffffffu) > 0x7f800000u) "
                "{ return array<u32, 2>(0xffffffffu, 0xffffffffu); }\n"
                "  return array<u32, 2>(key_f32(v.y), key_f32(v.x));")
    elif d is dt.complex128:
        hs = _F64
        body = ("if (f64_nan(v.xy) || f64_nan(v.zw)) { return array<u32, 4>(0xffffffffu, "
                "0xffffffffu, 0xffffffffu, 0xffffffffu); }\n"
                "  let re = key_f64(v.xy);\n  let im = key_f64(v.zw);\n"
                "  return array<u32, 4>(im.x, im.y, re.x, re.y);")
    else:
        raise AssertionError(d)
    fn = (f"fn {name}_asc(j: u32) -> array<u32, {W}> {{\n  let v = {v};\n  {body}\n}}\n")
    if descending:
        inv = ", ".join(f"~k[{w}]" for w in range(W))
        fn += (f"fn {name}(j: u32) -> array<u32, {W}> {{\n  let k = {name}_asc(j);\n"
               f"  return array<u32, {W}>({inv});\n}}\n")
    else:
        fn += (f"fn {name}(j: u32) -> array<u32, {W}> {{ return {name}_asc(j); }}\n")
    return (hs if helpers else "") + fn


def less_fn(kt: KeyType) -> str:
    """WGSL ``key_less(a, b)`` and ``key_eq(a, b)`` on keys of ``kt`` (lexicographic from
    the most significant word)."""
    W = kt.words
    lines = [f"fn key_less(a: array<u32, {W}>, b: array<u32, {W}>) -> bool {{"]
    for w in reversed(range(W)):
        if w:
            lines.append(f"  if (a[{w}] != b[{w}]) {{ return a[{w}] < b[{w}]; }}")
        else:
            lines.append(f"  return a[{w}] < b[{w}];")
    lines.append("}")
    eq = " && ".join(f"a[{w}] == b[{w}]" for w in range(W))
    lines.append(f"fn key_eq(a: array<u32, {W}>, b: array<u32, {W}>) -> bool "
                 f"{{ return {eq}; }}")
    nan = " && ".join(f"k[{w}] == 0xffffffffu" for w in range(W)) if kt.nan and kt.bits >= 32 \
        else ("k[0] == 0xffffu" if kt.nan else "false")
    lines.append(f"fn key_nan(k: array<u32, {W}>) -> bool {{ return {nan}; }}")
    return "\n".join(lines) + "\n"
