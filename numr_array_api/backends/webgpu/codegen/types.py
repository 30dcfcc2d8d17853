"""How each numr dtype lives in a WGSL storage buffer, and how values convert.

Layout equals NumPy's. Sub-word dtypes (bool, int8, uint8, int16, uint16, float16) live in
``array<u32>`` words: loads extract the byte / half-word, stores are done one thread per
output word so no two threads ever write the same word. float16 is converted in software
(exact round-to-nearest-even, inf, NaN, subnormals) so results match NumPy on every adapter
and no shader-f16 feature is needed. 8-byte types are native (i64/u64 need shader-int64,
f64 needs shader-f64); complex values are vec2 (re, im).

Raw pseudo-types (``raw8``..``raw128``) move bits without interpreting them: copies of any
dtype, 8- and 16-byte ones included, need no optional feature and preserve NaN payloads.
"""

from ...._core import dtypes as D
from ...._core.errors import BackendLimitation


class WType:
    __slots__ = ("name", "itemsize", "bits", "arr", "val", "signed", "need")

    def __init__(self, name, itemsize, arr, val, bits=0, signed=False, need=None):
        self.name = name
        self.itemsize = itemsize
        self.bits = bits          # element width when packed into u32 words, else 0
        self.arr = arr            # WGSL element type of the storage array
        self.val = val            # WGSL type a loaded value has
        self.signed = signed
        self.need = need          # device feature the WGSL needs

    @property
    def packed(self):
        return self.bits != 0


WTYPES = {
    D.bool_: WType("bool", 1, "u32", "bool", bits=8),
    D.int8: WType("int8", 1, "u32", "i32", bits=8, signed=True),
    D.uint8: WType("uint8", 1, "u32", "u32", bits=8),
    D.int16: WType("int16", 2, "u32", "i32", bits=16, signed=True),
    D.uint16: WType("uint16", 2, "u32", "u32", bits=16),
    D.float16: WType("float16", 2, "u32", "f32", bits=16),
    D.int32: WType("int32", 4, "i32", "i32"),
    D.uint32: WType("uint32", 4, "u32", "u32"),
    D.float32: WType("float32", 4, "f32", "f32"),
    D.int64: WType("int64", 8, "i64", "i64", need="shader-int64"),
    D.uint64: WType("uint64", 8, "u64", "u64", need="shader-int64"),
    D.float64: WType("float64", 8, "f64", "f64", need="shader-f64"),
    D.complex64: WType("complex64", 8, "vec2<f32>", "vec2<f32>"),
    D.complex128: WType("complex128", 16, "vec2<f64>", "vec2<f64>", need="shader-f64"),
}
RAW = {
    1: WType("raw8", 1, "u32", "u32", bits=8),
    2: WType("raw16", 2, "u32", "u32", bits=16),
    4: WType("raw32", 4, "u32", "u32"),
    8: WType("raw64", 8, "vec2<u32>", "vec2<u32>"),
    16: WType("raw128", 16, "vec4<u32>", "vec4<u32>"),
}


def wtype(dtype, client=None, operation="kernel"):
    t = WTYPES[dtype]
    if client is not None and t.need and not client.has(t.need):
        raise BackendLimitation("webgpu", f"{operation} on {dtype.name}",
                                f"the adapter lacks the '{t.need}' feature")
    return t


# WGSL helper functions, included only when a generated kernel calls them.
# f32_to_f16 follows NumPy's npy_floatbits_to_halfbits: NaN keeps its top payload bits
# (not quieted) and stays a NaN; overflow gives inf.
HELPERS = {
    "f16_to_f32": """
fn f16_to_f32(h: u32) -> f32 {
  let s = (h & 0x8000u) << 16u;
  let e = (h >> 10u) & 0x1fu;
  let m = h & 0x3ffu;
  if (e == 0x1fu) { return bitcast<f32>(s | 0x7f800000u | (m << 13u)); }
  if (e == 0u) { return bitcast<f32>(s | bitcast<u32>(f32(m) * bitcast<f32>(0x33800000u))); }
  return bitcast<f32>(s | ((e + 112u) << 23u) | (m << 13u));
}""",
    "f32_to_f16": """
fn f32_to_f16(x: f32) -> u32 {
  let b = bitcast<u32>(x);
  let s = (b >> 16u) & 0x8000u;
  let a = b & 0x7fffffffu;
  if (a > 0x7f800000u) { return s | 0x7c00u | max((a >> 13u) & 0x3ffu, 1u); }
  if (a >= 0x477ff000u) { return s | 0x7c00u; }
  if (a >= 0x38800000u) {
    let r = a - 0x38000000u;
    return s | ((r + 0xfffu + ((r >> 13u) & 1u)) >> 13u);
  }
  if (a < 0x33000000u) { return s; }
  let e = a >> 23u;
  let m = (a & 0x7fffffu) | 0x800000u;
  let sh = 126u - e;
  let q = m >> sh;
  let rem = m & ((1u << sh) - 1u);
  let half = 1u << (sh - 1u);
  return s | (q + select(0u, 1u, rem > half || (rem == half && (q & 1u) == 1u)));
}""",
    # round-to-odd narrowing: a following round-to-nearest to f16 is then correctly rounded
    "f64_to_f32_odd": """
fn f64_to_f32_odd(x: f64) -> f32 {
  let r = f32(x);
  let b = bitcast<u32>(r);
  if ((b & 1u) == 0u && (b & 0x7f800000u) != 0x7f800000u && f64(r) != x) {
    return bitcast<f32>(select(b + 1u, b - 1u, abs(f64(r)) > abs(x)));
  }
  return r;
}""",
    "nz_f32": """
fn nz_f32(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) != 0u; }""",
    # bit test with shader-int64; otherwise !(x == 0): an ordered == is false for NaN
    "nz_f64": """
fn nz_f64(x: f64) -> bool { return (bitcast<u64>(x) & 0x7ffffffffffffffflu) != 0lu; }""",
    "nz_f64_noint64": """
fn nz_f64(x: f64) -> bool { return !(x == 0.0lf); }""",
}


def load(t, buf, idx, helpers):
    """WGSL expression of type ``t.val`` for element ``idx`` (a u32 identifier) of ``buf``."""
    if not t.packed:
        return f"{buf}[{idx}]"
    if t.bits == 8:
        word, sh = f"{buf}[{idx} >> 2u]", f"(({idx} & 3u) << 3u)"
    else:
        word, sh = f"{buf}[{idx} >> 1u]", f"(({idx} & 1u) << 4u)"
    if t.signed:
        return f"extractBits(bitcast<i32>({word}), {sh}, {t.bits}u)"
    raw = f"extractBits({word}, {sh}, {t.bits}u)"
    if t.val == "bool":
        return f"({raw} != 0u)"
    if t.name == "float16":
        helpers.add("f16_to_f32")
        return f"f16_to_f32({raw})"
    return raw


def pack(t, v, helpers):
    """u32 holding the low ``t.bits`` bits of value ``v`` (packed dtypes only)."""
    mask = "0xffu" if t.bits == 8 else "0xffffu"
    if t.val == "bool":
        return f"select(0u, 1u, {v})"
    if t.name == "float16":
        helpers.add("f32_to_f16")
        return f"f32_to_f16({v})"
    if t.val == "i32":
        return f"(bitcast<u32>({v}) & {mask})"
    return f"({v} & {mask})"


def _cls(t):
    return {"bool": "b", "i32": "i32", "u32": "u32", "i64": "i64", "u64": "u64", "f32": "f32",
            "f64": "f64", "vec2<f32>": "c64", "vec2<f64>": "c128"}[t.val]


def _to_bool(c, e, h):
    if c == "b":
        return e
    if c in ("i32", "u32", "i64", "u64"):
        zero = {"i32": "0i", "u32": "0u", "i64": "0li", "u64": "0lu"}[c]
        return f"({e} != {zero})"
    if c in ("f32", "f64"):
        h.add("nz_" + c)
        return f"nz_{c}({e})"
    f = "f32" if c == "c64" else "f64"
    h.add("nz_" + f)
    return f"(nz_{f}(({e}).x) || nz_{f}(({e}).y))"


def _low32(e):
    return f"u32(bitcast<u64>({e}) & 0xfffffffflu)"


def convert(src, dst, e, helpers, has_int64):
    """WGSL expression converting ``e`` (of ``src.val``) to ``dst.val`` as NumPy's astype."""
    if src is dst:
        return e
    sc, dc = _cls(src), _cls(dst)
    if sc == dc and not (dst.name == "float16" and src.name != "float16"):
        return e
    h = helpers
    if sc in ("c64", "c128") and dc not in ("c64", "c128", "b"):
        # complex -> real drops the imaginary part (NumPy's ComplexWarning behaviour)
        sc, e = ("f32" if sc == "c64" else "f64"), f"({e}).x"
        if sc == dc and dst.name != "float16":
            return e
    if dc == "b":
        return _to_bool(sc, e, h)
    if sc == "b":
        one = {"i32": "1i", "u32": "1u", "i64": "1li", "u64": "1lu", "f32": "1.0f",
               "f64": "1.0lf", "c64": "vec2<f32>(1.0f, 0.0f)", "c128": "vec2<f64>(1.0lf, 0.0lf)"}
        zero = {"i32": "0i", "u32": "0u", "i64": "0li", "u64": "0lu", "f32": "0.0f",
                "f64": "0.0lf", "c64": "vec2<f32>(0.0f)", "c128": "vec2<f64>(0.0lf)"}
        return f"select({zero[dc]}, {one[dc]}, {e})"
    if dc in ("c64", "c128"):
        if sc in ("c64", "c128"):
            return f"{dst.val}({e})"
        f = "f32" if dc == "c64" else "f64"
        re = convert(src, _REAL[f], e, h, has_int64)
        return f"{dst.val}({re}, 0.0)"
    if dc == "i32":
        if sc == "u32":
            return f"bitcast<i32>({e})"
        if sc in ("i64", "u64"):
            return f"bitcast<i32>({_low32(e)})"
        return f"i32({e})"  # float -> int truncates toward zero
    if dc == "u32":
        if sc == "i32":
            return f"bitcast<u32>({e})"
        if sc in ("i64", "u64"):
            return _low32(e)
        if dst.bits:  # uint8/uint16: wrap like NumPy on x86 (-1.0 -> 255)
            return f"bitcast<u32>(i32({e}))"
        if has_int64:
            return _low32(f"i64({e})")
        return f"select(u32({e}), bitcast<u32>(i32({e})), {e} < 0.0)"
    if dc == "i64":
        if sc == "u64":
            return f"bitcast<i64>({e})"
        if sc == "u32":
            return f"bitcast<i64>(u64({e}))"
        return f"i64({e})"
    if dc == "u64":
        if sc == "i64":
            return f"bitcast<u64>({e})"
        if sc == "i32":
            return f"bitcast<u64>(i64({e}))"
        if sc in ("f32", "f64"):
            return f"select(u64({e}), bitcast<u64>(i64({e})), {e} < 0.0)"
        return f"u64({e})"
    if dc == "f32":
        if sc == "f64" and dst.name == "float16":
            helpers.add("f64_to_f32_odd")
            return f"f64_to_f32_odd({e})"
        return f"f32({e})"
    if dc == "f64":
        return f"f64({e})"
    raise AssertionError((src.name, dst.name))


_REAL = {"f32": WTYPES[D.float32], "f64": WTYPES[D.float64]}


def render_helpers(names, has_int64=True):
    order = ["nz_f32", "nz_f64", "f16_to_f32", "f32_to_f16", "f64_to_f32_odd"]
    out = []
    for n in order:
        if n in names:
            out.append(HELPERS[n + "_noint64"] if n == "nz_f64" and not has_int64 else HELPERS[n])
    return "".join(out)



def widen(wgsl_type, u32_expr):
    """``u32_expr`` converted to ``wgsl_type`` without sign extension.

    A u32 -> i64 conversion written ``i64(x)`` came out sign-extended on the NVIDIA driver
    (an index >= 2^31 became negative: arange / argmax beyond 2^31 elements went wrong on
    the H100), so it goes through u64, whose widening is unsigned, then a same-width bitcast.
    """
    if wgsl_type == "i64":
        return f"bitcast<i64>(u64({u32_expr}))"
    return f"{wgsl_type}({u32_expr})"
