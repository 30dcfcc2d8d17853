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
_F_LIB_BINARY = ("atan2", "copysign", "hypot", "logaddexp", "nextafter", "pow")
F_BINARY = {n: (f"return numr_{n}_$R(a, b);", (n,)) for n in _F_LIB_BINARY}
F_BINARY.update({
    "add": ("return a + b;", ()), "subtract": ("return a - b;", ()),
    "multiply": ("return a * b;", ()), "divide": ("return a / b;", ()),
    # NaN propagates; equal operands (+0 and -0) give x2, as NumPy (WGSL min/max would be
    # undefined on NaN)
    "maximum": ("if (numr_is_nan_$R(a) || numr_is_nan_$R(b)) { return numr_nan_$R(); } "
                "return select(b, a, a > b);", ("is_nan",)),
    "minimum": ("if (numr_is_nan_$R(a) || numr_is_nan_$R(b)) { return numr_nan_$R(); } "
                "return select(b, a, a < b);", ("is_nan",)),
    "equal": ("return a == b;", ()), "not_equal": ("return !(a == b);", ()),
    "less": ("return a < b;", ()), "less_equal": ("return a <= b;", ()),
    "greater": ("return a > b;", ()), "greater_equal": ("return a >= b;", ()),
    # NumPy's divmod on the exact fmod: floor of the exact quotient (1 // 0.33333334f is
    # 2, while the rounded a / b is 3.0); infinities, zeros and NaN take floor(x1 / x2),
    # the standard's special cases
    "floor_divide": ("""
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b)) { return numr_nan_$R(); }
  if (numr_is_inf_$R(a) || numr_is_inf_$R(b) || b == $R(0.0)) { return numr_floor_$R(a / b); }
  let m = fmod_$R(a, b);
  var d = (a - m) / b;
  if (m != $R(0.0) && ((b < $R(0.0)) != (m < $R(0.0)))) { d = d - $R(1.0); }
  if (d == $R(0.0)) { return numr_copysign_$R($R(0.0), a / b); }
  var f = numr_floor_$R(d);
  if (d - f > $R(0.5)) { f = f + $R(1.0); }
  return f;""", ("floor", "is_nan", "is_inf")),
    # NumPy's algorithm on an exact fmod: the result takes the divisor's sign (the standard's
    # special cases: NaN for x % 0 and inf % y, Python results for finite % inf)
    "remainder": ("""
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b) || numr_is_inf_$R(a) || b == $R(0.0)) {
    return numr_nan_$R();
  }
  if (numr_is_inf_$R(b)) {
    if (a == $R(0.0)) { return numr_copysign_$R($R(0.0), b); }
    if ((a > $R(0.0)) == (b > $R(0.0))) { return a; }
    return b;
  }
  var r = fmod_$R(a, b);
  if (r == $R(0.0)) { return numr_copysign_$R($R(0.0), b); }
  if ((r < $R(0.0)) != (b < $R(0.0))) { r = r + b; }
  return r;""", ("is_nan", "is_inf")),
})
# exact fmod for finite x and finite nonzero y (musl's shift-subtract on the significands;
# up to exponent-difference iterations, so it is exact where a - b * trunc(a / b) is not)
FMOD = """
fn fmod_$R(x: $R, y: $R) -> $R {
  let ux0 = bitcast<$U>(x);
  let uy0 = bitcast<$U>(y);
  let sx = ux0 & $SIGN;
  let ax = ux0 & ~$SIGN;
  let ay = uy0 & ~$SIGN;
  if (ax <= ay) { if (ax == ay) { return x * $R(0.0); } return x; }
  var ex = i32((ax >> $MB) & $EXPF);
  var ey = i32((ay >> $MB) & $EXPF);
  let one = $U(1) << $MB;
  var ux = ax & (one - $U(1));
  var uy = ay & (one - $U(1));
  if (ex == 0) { ex = 1; loop { if ((ux & one) != $U(0)) { break; } ux = ux << 1u; ex -= 1; } }
  else { ux = ux | one; }
  if (ey == 0) { ey = 1; loop { if ((uy & one) != $U(0)) { break; } uy = uy << 1u; ey -= 1; } }
  else { uy = uy | one; }
  loop {
    if (ex <= ey) { break; }
    if (ux >= uy) { ux = ux - uy; if (ux == $U(0)) { return x * $R(0.0); } }
    ux = ux << 1u;
    ex -= 1;
  }
  if (ux >= uy) { ux = ux - uy; if (ux == $U(0)) { return x * $R(0.0); } }
  loop { if ((ux & one) != $U(0)) { break; } ux = ux << 1u; ex -= 1; }
  if (ex > 0) { ux = (ux - one) | ($U(ex) << $MB); } else { ux = ux >> u32(1 - ex); }
  return bitcast<$R>(ux | sx);
}
"""
FMOD_SUBS = {"f32": {"$U": "u32", "$SIGN": "0x80000000u", "$MB": "23u", "$EXPF": "0xffu"},
             "f64": {"$U": "u64", "$SIGN": "0x8000000000000000lu", "$MB": "52u",
                     "$EXPF": "0x7fflu"}}


def fmod_source(R):
    src = FMOD
    for k, v in FMOD_SUBS[R].items():
        src = src.replace(k, v)
    return src.replace("$R", R)


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
# helpers shared by the complex snippets (rendered with $R); multiplication and division
# are the math library's (C99 Annex G infinities, scaled division)
C_HELPERS = """
fn c_mul_$R(a: vec2<$R>, b: vec2<$R>) -> vec2<$R> { return numr_cmul_$R(a, b); }
fn c_div_$R(a: vec2<$R>, b: vec2<$R>) -> vec2<$R> { return numr_cdiv_$R(a, b); }
fn c_isnan_$R(a: vec2<$R>) -> bool { return numr_is_nan_$R(a.x) || numr_is_nan_$R(a.y); }
"""
C_LIB = ("abs", "is_nan", "cmul", "cdiv")
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
# complex transcendental functions: the library's numr_c<fn>_$R; log2 / log10 by the
# change of base the standard prescribes
for _n in ("exp", "expm1", "log", "log1p", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh",
           "asin", "acos", "atan", "asinh", "acosh", "atanh"):
    C_UNARY[_n] = (f"return numr_c{_n}_$R(a);", ("c" + _n,))
# two special cases the library (as of 57f2a74) gets with the wrong zero sign; reported to
# the math-library owner, remove when fixed there
C_UNARY["expm1"] = ("if (a.x == $R(0.0) && a.y == $R(0.0)) { return vec2<$R>($R(0.0), a.y); }"
                    " return numr_cexpm1_$R(a);", ("cexpm1",))
C_UNARY["tanh"] = ("if (numr_is_inf_$R(a.x) && numr_is_finite_$R(a.y)) { return vec2<$R>("
                   "numr_copysign_$R($R(1.0), a.x), numr_copysign_$R($R(0.0), a.y)); }"
                   " return numr_ctanh_$R(a);", ("ctanh", "is_inf", "is_finite"))
C_UNARY["log2"] = ("return numr_clog_$R(a) * $R(1.4426950408889634);", ("clog",))
C_UNARY["log10"] = ("return numr_clog_$R(a) * $R(0.4342944819032518);", ("clog",))
C_BINARY = {
    "add": ("return a + b;", ()), "subtract": ("return a - b;", ()),
    "multiply": ("return c_mul_$R(a, b);", ()), "divide": ("return c_div_$R(a, b);", ()),
    "equal": ("return a.x == b.x && a.y == b.y;", ()),
    "not_equal": ("return !(a.x == b.x && a.y == b.y);", ()),
    # NumPy's zero cases (x**0 = 1; 0**b is 0 when real(b) > 0, else NaN + NaN j, as the
    # four complex zeros make it ill-defined); the rest from the library
    "pow": ("""
  if (b.x == $R(0.0) && b.y == $R(0.0)) { return vec2<$R>($R(1.0), $R(0.0)); }
  if (a.x == $R(0.0) && a.y == $R(0.0)) {
    if (b.x > $R(0.0)) { return vec2<$R>($R(0.0)); }
    return vec2<$R>(numr_nan_$R());
  }
  return numr_cpow_$R(a, b);""", ("cpow",)),
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
