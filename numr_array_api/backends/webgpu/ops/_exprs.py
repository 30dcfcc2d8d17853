"""Expression snippets of the elementwise functions, one per (function, value class).

A snippet is the body of ``fn op(a: T[, b: T], e: u32) -> R`` written once per class with
``$T`` (the WGSL value type), ``$R`` (the real float type of a float or complex class) and
``$W`` (the integer width); ``lib`` names the math-library functions it calls
(``numr_<fn>_$R``). Classes: b (bool), si/ui (signed/unsigned int, 32 or 64 bits: sub-word
ints are computed in 32 bits and the store keeps the low bits, which is exactly wrapping
arithmetic), f (f32/f64; float16 computes in f32), c (vec2 complex).

WGSL departs from the standard in ways the snippets correct (docs/webgpu.md): NaN tests are
bit tests (naga's != is ordered), integer division by zero and shift counts >= width are
guarded, signed remainders are computed as a - b * (a / b) (signed % is miscompiled on some
drivers), min/max on floats go through the library (NaN propagation).
"""

_ID = "return a;"

# ---- float (f32 / f64) --------------------------------------------------------------------
_F_LIB_UNARY = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh",
                "exp", "expm1", "floor", "log", "log1p", "log2", "log10", "round", "sin",
                "sinh", "sqrt", "tan", "tanh", "trunc", "abs")
F_UNARY = {n: (f"return numr_{n}_$R(a);", (n,)) for n in _F_LIB_UNARY}
F_UNARY.update({
    "isfinite": ("return numr_is_finite_$R(a);", ("is_finite",)),
    "isinf": ("return numr_is_inf_$R(a);", ("is_inf",)),
    "isnan": ("return numr_is_nan_$R(a);", ("is_nan",)),
    "signbit": ("return numr_signbit_$R(a);", ("signbit",)),
    "negative": ("return numr_neg_$R(a);", ("abs",)),
    "positive": (_ID, ()), "conj": (_ID, ()), "real": (_ID, ()),
    "reciprocal": ("return $R(1.0) / a;", ()),
    "square": ("return a * a;", ()),
    # zeros give +0 (as NumPy), a NaN stays NaN (every comparison is false)
    "sign": ("if (a > $R(0.0)) { return $R(1.0); } if (a < $R(0.0)) { return $R(-1.0); } "
             "if (a == $R(0.0)) { return $R(0.0); } return a;", ()),
})
_F_LIB_BINARY = ("atan2", "copysign", "hypot", "logaddexp", "nextafter", "pow", "maximum",
                 "minimum")
F_BINARY = {n: (f"return numr_{n}_$R(a, b);", (n,)) for n in _F_LIB_BINARY}
F_BINARY.update({
    "add": ("return a + b;", ()), "subtract": ("return a - b;", ()),
    "multiply": ("return a * b;", ()), "divide": ("return a / b;", ()),
    "equal": ("return a == b;", ()), "not_equal": ("return !(a == b);", ()),
    "less": ("return a < b;", ()), "less_equal": ("return a <= b;", ()),
    "greater": ("return a > b;", ()), "greater_equal": ("return a >= b;", ()),
    # the standard defines x1 // x2 as floor(x1 / x2), special cases included
    "floor_divide": ("return numr_floor_$R(a / b);", ("floor",)),
    # Python semantics: the result takes the divisor's sign (special cases per the standard)
    "remainder": ("""
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b) || numr_is_inf_$R(a) || b == $R(0.0)) {
    return numr_nan_$R();
  }
  if (numr_is_inf_$R(b)) {
    if (a == $R(0.0)) { return numr_copysign_$R($R(0.0), b); }
    if ((a > $R(0.0)) == (b > $R(0.0))) { return a; }
    return b;
  }
  var r = a - b * numr_trunc_$R(a / b);
  if (r == $R(0.0)) { return numr_copysign_$R($R(0.0), b); }
  if ((r < $R(0.0)) != (b < $R(0.0))) { r = r + b; }
  return r;""", ("trunc", "is_nan")),
})
# float16 computes in f32; nextafter must step in float16 units (the bit patterns of the
# operands are exact in f32, so convert back, step the 16-bit pattern, convert again)
F16_NEXTAFTER = ("""
  if (numr_is_nan_f32(a) || numr_is_nan_f32(b)) { return numr_nan_f32(); }
  if (a == b) { return b; }
  if (a == 0.0f) { return numr_copysign_f32(5.9604644775390625e-8f, b); }
  var h = f32_to_f16(a);
  if ((a < b) == (a > 0.0f)) { h = h + 1u; } else { h = h - 1u; }
  return f16_to_f32(h);""", ("is_nan", "copysign"))

# ---- integers -----------------------------------------------------------------------------
I_UNARY = {
    "bitwise_invert": ("return ~a;", ()),
    "ceil": (_ID, ()), "floor": (_ID, ()), "trunc": (_ID, ()), "round": (_ID, ()),
    "conj": (_ID, ()), "positive": (_ID, ()), "real": (_ID, ()),
    "isfinite": ("return true;", ()), "isinf": ("return false;", ()),
    "isnan": ("return false;", ()),
    "square": ("return a * a;", ()),
}
SI_UNARY = dict(I_UNARY, **{
    "abs": ("return select(-a, a, a >= $T(0));", ()),
    "negative": ("return -a;", ()),
    "sign": ("return select(select($T(0), $T(1), a > $T(0)), $T(-1), a < $T(0));", ()),
})
UI_UNARY = dict(I_UNARY, **{
    "abs": (_ID, ()),
    "negative": ("return $T(0) - a;", ()),
    "sign": ("return select($T(0), $T(1), a > $T(0));", ()),
})
I_BINARY = {
    "add": ("return a + b;", ()), "subtract": ("return a - b;", ()),
    "multiply": ("return a * b;", ()),
    "bitwise_and": ("return a & b;", ()), "bitwise_or": ("return a | b;", ()),
    "bitwise_xor": ("return a ^ b;", ()),
    "equal": ("return a == b;", ()), "not_equal": ("return a != b;", ()),
    "less": ("return a < b;", ()), "less_equal": ("return a <= b;", ()),
    "greater": ("return a > b;", ()), "greater_equal": ("return a >= b;", ()),
    "maximum": ("return max(a, b);", ()), "minimum": ("return min(a, b);", ()),
}
# shift counts outside [0, width) give 0 (left) or the sign fill (right), as the standard
# asks; WGSL would take the count modulo the width
_SHL = "return select($T(0), a << u32(b & $T($W - 1)), b >= $T(0) && b < $T($W));"
_POW_LOOP = """
  var r = $T(1);
  var p = a;
  var k = b;
  loop {
    if (k == $T(0)) { break; }
    if ((k & $T(1)) != $T(0)) { r = r * p; }
    p = p * p;
    k = k >> 1u;
  }
  return r;"""
SI_BINARY = dict(I_BINARY, **{
    "bitwise_left_shift": (_SHL, ()),
    "bitwise_right_shift": ("return select(select($T(0), $T(-1), a < $T(0)), "
                            "a >> u32(b & $T($W - 1)), b >= $T(0) && b < $T($W));", ()),
    # x // 0 is unspecified by the standard: 0 like NumPy (WGSL would return x)
    "floor_divide": ("""
  if (b == $T(0)) { return $T(0); }
  let q = a / b;
  let r = a - q * b;
  if (r != $T(0) && ((r < $T(0)) != (b < $T(0)))) { return q - $T(1); }
  return q;""", ()),
    "remainder": ("""
  if (b == $T(0)) { return $T(0); }
  let r = a - (a / b) * b;
  if (r != $T(0) && ((r < $T(0)) != (b < $T(0)))) { return r + b; }
  return r;""", ()),
    # a negative exponent is unspecified: 1 / a^-b truncated (0 unless |a| == 1)
    "pow": ("""
  if (b < $T(0)) {
    if (a == $T(1)) { return $T(1); }
    if (a == $T(-1)) { return select($T(1), $T(-1), (b & $T(1)) != $T(0)); }
    return $T(0);
  }""" + _POW_LOOP, ()),
})
UI_BINARY = dict(I_BINARY, **{
    "bitwise_left_shift": ("return select($T(0), a << u32(b & $T($W - 1)), b < $T($W));", ()),
    "bitwise_right_shift": ("return select($T(0), a >> u32(b & $T($W - 1)), b < $T($W));",
                            ()),
    "floor_divide": ("if (b == $T(0)) { return $T(0); } return a / b;", ()),
    "remainder": ("if (b == $T(0)) { return $T(0); } return a - (a / b) * b;", ()),
    "pow": (_POW_LOOP, ()),
})

# ---- bool ---------------------------------------------------------------------------------
B_UNARY = {"logical_not": ("return !a;", ()), "bitwise_invert": ("return !a;", ())}
B_BINARY = {
    "equal": ("return a == b;", ()), "not_equal": ("return a != b;", ()),
    "logical_and": ("return a && b;", ()), "logical_or": ("return a || b;", ()),
    "logical_xor": ("return a != b;", ()), "bitwise_and": ("return a && b;", ()),
    "bitwise_or": ("return a || b;", ()), "bitwise_xor": ("return a != b;", ()),
}

# ---- complex (vec2: re, im) ---------------------------------------------------------------
# helpers shared by the complex snippets (rendered with $R)
C_HELPERS = """
fn c_mul_$R(a: vec2<$R>, b: vec2<$R>) -> vec2<$R> {
  return vec2<$R>(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}
// Smith's algorithm: no overflow of |b|^2; a zero divisor gives inf/NaN per part as NumPy
fn c_div_$R(a: vec2<$R>, b: vec2<$R>) -> vec2<$R> {
  if (b.x == $R(0.0) && b.y == $R(0.0)) { return vec2<$R>(a.x / b.x, a.y / b.x); }
  if (numr_abs_$R(b.x) >= numr_abs_$R(b.y)) {
    let r = b.y / b.x;
    let d = b.x + b.y * r;
    return vec2<$R>((a.x + a.y * r) / d, (a.y - a.x * r) / d);
  }
  let r = b.x / b.y;
  let d = b.x * r + b.y;
  return vec2<$R>((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}
fn c_isnan_$R(a: vec2<$R>) -> bool { return numr_is_nan_$R(a.x) || numr_is_nan_$R(a.y); }
"""
C_LIB = ("abs", "is_nan")
C_UNARY = {
    "positive": (_ID, ()), "conj": ("return vec2<$R>(a.x, numr_neg_$R(a.y));", ()),
    "negative": ("return vec2<$R>(numr_neg_$R(a.x), numr_neg_$R(a.y));", ()),
    "real": ("return a.x;", ()), "imag": ("return a.y;", ()),
    "abs": ("return numr_hypot_$R(a.x, a.y);", ("hypot",)),
    "isnan": ("return c_isnan_$R(a);", ()),
    "isinf": ("return numr_is_inf_$R(a.x) || numr_is_inf_$R(a.y);", ("is_inf",)),
    "isfinite": ("return numr_is_finite_$R(a.x) && numr_is_finite_$R(a.y);", ("is_finite",)),
    "square": ("return c_mul_$R(a, a);", ()),
    "reciprocal": ("return c_div_$R(vec2<$R>($R(1.0), $R(0.0)), a);", ()),
    "round": ("return vec2<$R>(numr_round_$R(a.x), numr_round_$R(a.y));", ("round",)),
    "sign": ("""
  if (c_isnan_$R(a)) { return vec2<$R>(numr_nan_$R()); }
  if (a.x == $R(0.0) && a.y == $R(0.0)) { return vec2<$R>($R(0.0)); }
  let m = numr_hypot_$R(a.x, a.y);
  return c_div_$R(a, vec2<$R>(m, $R(0.0)));""", ("hypot",)),
}
C_BINARY = {
    "add": ("return a + b;", ()), "subtract": ("return a - b;", ()),
    "multiply": ("return c_mul_$R(a, b);", ()), "divide": ("return c_div_$R(a, b);", ()),
    "equal": ("return a.x == b.x && a.y == b.y;", ()),
    "not_equal": ("return !(a.x == b.x && a.y == b.y);", ()),
}

TABLES = {
    "b": (B_UNARY, B_BINARY), "si": (SI_UNARY, SI_BINARY), "ui": (UI_UNARY, UI_BINARY),
    "f": (F_UNARY, F_BINARY), "c": (C_UNARY, C_BINARY),
}


def value_class(val):
    """Snippet class and (T, R, W) substitutions of a WGSL value type."""
    if val == "bool":
        return "b", ("bool", "", "")
    if val in ("i32", "i64"):
        return "si", (val, "", val[1:])
    if val in ("u32", "u64"):
        return "ui", (val, "", val[1:])
    if val in ("f32", "f64"):
        return "f", (val, val, "")
    return "c", (val, val[5:8], "")


def snippet(name, arity, val):
    """(body, lib functions, class, subs) or None when the class has no GPU snippet."""
    cls, subs = value_class(val)
    got = TABLES[cls][arity - 1].get(name)
    if got is None:
        return None
    return got[0], got[1], cls, subs


def expand(text, subs):
    T, R, W = subs
    return text.replace("$T", T).replace("$R", R).replace("$W", W)
