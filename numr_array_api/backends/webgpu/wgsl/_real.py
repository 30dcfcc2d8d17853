"""WGSL templates of the real-valued functions.

Template syntax (expanded by math.py): `$T` float type, `$U` same-width unsigned type,
`${NAME}` per-type constant (_types.CONSTS), `$P{NAME}(v)` Horner polynomial in `v` with
the per-type coefficients _types.SERIES[NAME] (lowest order first).

Two rules hold throughout, because Mesa (lavapipe) and other Vulkan compilers treat float
operations as reassociable unless told otherwise, and naga cannot tell them otherwise:
* every intermediate whose exact rounding matters (error-free transforms, Cody-Waite
  steps, `(1 - w) - h` corrections) passes through `numr__opq_$T`, a select on a bit pattern
  the compiler cannot rule out, so `(a + b) - a` is not folded to `b`;
* rounding to integers, NaN/Inf tests and signed zeros use bit operations, never magic
  constants, `x != x`, min/max, or the builtin rounding functions.
"""

from ._trig import FUNCS as TRIG_FUNCS
from ._types import unit_registry

# name -> (dependencies, template); the trigonometric units are _trig.py's
FUNCS, fn = unit_registry()


fn("core", [], """
fn numr_is_nan_$T(x: $T) -> bool { return (bitcast<$U>(x) & ${ABS}) > ${EXPM}; }
fn numr_is_inf_$T(x: $T) -> bool { return (bitcast<$U>(x) & ${ABS}) == ${EXPM}; }
fn numr_is_finite_$T(x: $T) -> bool { return (bitcast<$U>(x) & ${ABS}) < ${EXPM}; }
fn numr_signbit_$T(x: $T) -> bool { return (bitcast<$U>(x) & ${SIGN}) != ${UZERO}; }
fn numr_abs_$T(x: $T) -> $T { return bitcast<$T>(bitcast<$U>(x) & ${ABS}); }
fn numr_neg_$T(x: $T) -> $T { return bitcast<$T>(bitcast<$U>(x) ^ ${SIGN}); }
fn numr_copysign_$T(x: $T, y: $T) -> $T {
  return bitcast<$T>((bitcast<$U>(x) & ${ABS}) | (bitcast<$U>(y) & ${SIGN}));
}
fn numr_nan_$T() -> $T { return bitcast<$T>(${QNAN}); }
fn numr_inf_$T() -> $T { return bitcast<$T>(${EXPM}); }
// Optimisation barrier: the compiler cannot prove x differs from this signalling-NaN pattern,
// so it must keep x's rounded value instead of reassociating through it.
fn numr__opq_$T(x: $T) -> $T { return select(x, $T(0.0), bitcast<$U>(x) == ${BARRIER}); }
// 2^k for k in the normal exponent range
fn numr__pow2_$T(k: i32) -> $T { return bitcast<$T>($U(k + ${BIAS}) << ${MB}); }
// biased exponent field
fn numr__bexp_$T(x: $T) -> i32 { return i32((bitcast<$U>(x) >> ${MB}) & ${EXPF}); }
// y * 2^k with a single rounding for y in [0.5, 4) and any k (overflow -> inf, gradual underflow)
fn numr__scale_$T(y: $T, k: i32) -> $T {
  if (k > ${EMAX}) { return numr__opq_$T(y * numr__pow2_$T(${EMAX})) * numr__pow2_$T(min(k - ${EMAX}, ${EMAX})); }
  if (k < ${EMIN}) {
    let kk = max(k, ${EMIN} - ${P} - 3);
    return numr__opq_$T(y * numr__pow2_$T(kk + ${P} + 3)) * numr__pow2_$T(-(${P} + 3));
  }
  return y * numr__pow2_$T(k);
}
""")

fn("dd", ["core"], """
// Error-free transforms (double-word arithmetic). Splitting by masking the low mantissa bits
// keeps every partial product exact whether or not the compiler contracts into fma.
fn numr__two_sum_$T(a: $T, b: $T) -> vec2<$T> {
  let s = numr__opq_$T(a + b);
  let bb = numr__opq_$T(s - a);
  let e = (a - numr__opq_$T(s - bb)) + (b - bb);
  return vec2<$T>(s, e);
}
fn numr__fast_two_sum_$T(a: $T, b: $T) -> vec2<$T> {
  let s = numr__opq_$T(a + b);
  return vec2<$T>(s, b - numr__opq_$T(s - a));
}
fn numr__split_$T(a: $T) -> vec2<$T> {
  let h = bitcast<$T>(bitcast<$U>(a) & ${SPLIT});
  return vec2<$T>(h, a - h);
}
fn numr__two_prod_$T(a: $T, b: $T) -> vec2<$T> {
  let p = numr__opq_$T(a * b);
  let sa = numr__split_$T(a);
  let sb = numr__split_$T(b);
  let e = ((numr__opq_$T(sa.x * sb.x) - p) + sa.x * sb.y + sa.y * sb.x) + sa.y * sb.y;
  return vec2<$T>(p, e);
}
fn numr__dd_mul_$T(a: vec2<$T>, b: vec2<$T>) -> vec2<$T> {
  let p = numr__two_prod_$T(a.x, b.x);
  return numr__fast_two_sum_$T(p.x, p.y + (a.x * b.y + a.y * b.x));
}
fn numr__dd_add_$T(a: vec2<$T>, b: vec2<$T>) -> vec2<$T> {
  let s = numr__two_sum_$T(a.x, b.x);
  return numr__fast_two_sum_$T(s.x, s.y + (a.y + b.y));
}
""")

fn("rounding", ["core"], """
fn numr_trunc_$T(x: $T) -> $T {
  let b = bitcast<$U>(x);
  let e = numr__bexp_$T(x) - ${BIAS};
  if (e >= ${MBI}) { return x; }
  if (e < 0) { return bitcast<$T>(b & ${SIGN}); }
  return bitcast<$T>(b & ~(${MANT} >> u32(e)));
}
fn numr_floor_$T(x: $T) -> $T {
  let t = numr_trunc_$T(x);
  if (x < t) { return t - 1.0; }
  return t;
}
fn numr_ceil_$T(x: $T) -> $T {
  let t = numr_trunc_$T(x);
  if (x > t) { return t + 1.0; }
  return t;
}
// an integer within 1/2 (plus one rounding) of y, |y| < 2^30: the conversion truncates
// exactly, a few instructions where numr_round takes two truncations (the reductions of
// exp / exp2 / expm1 / pow accept either neighbour at a tie)
fn numr__nint_$T(y: $T) -> $T { return $T(i32(y + numr_copysign_$T(0.5, y))); }
// round half to even; x - trunc(x) is exact
fn numr_round_$T(x: $T) -> $T {
  let t = numr_trunc_$T(x);
  let d = numr_abs_$T(x - t);
  let h = t * 0.5;
  let odd = numr_trunc_$T(h) != h;
  if (d > 0.5 || (d == 0.5 && odd)) { return t + numr_copysign_$T(1.0, x); }
  return t;
}
""")

fn("frexp", ["core"], """
struct numr_frexp_result_$T { fract: $T, exp: i32 }
// x = fract * 2^exp with |fract| in [0.5, 1); zero / inf / nan returned unchanged with exp 0
fn numr_frexp_$T(x: $T) -> numr_frexp_result_$T {
  if (!numr_is_finite_$T(x) || x == 0.0) { return numr_frexp_result_$T(x, 0); }
  var y = x;
  var adj = 0;
  if (numr__bexp_$T(x) == 0) { y = x * numr__pow2_$T(${P} + 1); adj = ${P} + 1; }
  let b = bitcast<$U>(y);
  let e = numr__bexp_$T(y) - (${BIAS} - 1) - adj;
  return numr_frexp_result_$T(bitcast<$T>((b & ~${EXPM}) | ${HALFEXP}), e);
}
fn numr_ldexp_$T(x: $T, n: i32) -> $T {
  if (!numr_is_finite_$T(x) || x == 0.0) { return x; }
  let f = numr_frexp_$T(x);
  let k = f.exp + clamp(n, -100000, 100000) - 1;
  let r = numr__scale_$T(numr_abs_$T(f.fract) * 2.0, k);
  return numr_copysign_$T(r, x);
}
""")

fn("nextafter", ["core"], """
fn numr_nextafter_$T(x: $T, y: $T) -> $T {
  if (numr_is_nan_$T(x) || numr_is_nan_$T(y)) { return numr_nan_$T(); }
  if (x == y) { return y; }
  if (x == 0.0) { return bitcast<$T>(${UONE} | (bitcast<$U>(y) & ${SIGN})); }
  let b = bitcast<$U>(x);
  if ((y > x) == (x > 0.0)) { return bitcast<$T>(b + ${UONE}); }
  return bitcast<$T>(b - ${UONE});
}
""")

fn("minmax", ["core"], """
fn numr_maximum_$T(x: $T, y: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (numr_is_nan_$T(y)) { return y; }
  if (x > y) { return x; }
  if (y > x) { return y; }
  // equal: only the zero signs may differ; max(-0, +0) = +0 (x's bits otherwise, so that a
  // flushing adapter still returns one of the operands)
  return bitcast<$T>(bitcast<$U>(x) & (bitcast<$U>(y) | ${ABS}));
}
fn numr_minimum_$T(x: $T, y: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (numr_is_nan_$T(y)) { return y; }
  if (x < y) { return x; }
  if (y < x) { return y; }
  return bitcast<$T>(bitcast<$U>(x) | (bitcast<$U>(y) & ${SIGN}));  // min(-0, +0) = -0
}
""")

fn("sqrt", ["core"], """
// a*b as (lo, hi) words, through half-width limbs
fn numr__mulw_$T(a: $U, b: $U) -> vec2<$U> {
  let a0 = a & ${LOWMASK}; let a1 = a >> ${HALFW};
  let b0 = b & ${LOWMASK}; let b1 = b >> ${HALFW};
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> ${HALFW}) + (p01 & ${LOWMASK}) + (p10 & ${LOWMASK});
  return vec2<$U>((p00 & ${LOWMASK}) | (mid << ${HALFW}), p11 + (p01 >> ${HALFW}) + (p10 >> ${HALFW}) + (mid >> ${HALFW}));
}
fn numr__wlt_$T(a: vec2<$U>, b: vec2<$U>) -> bool { return a.y < b.y || (a.y == b.y && a.x < b.x); }
fn numr__wsub_$T(a: vec2<$U>, b: vec2<$U>) -> vec2<$U> {
  return vec2<$U>(a.x - b.x, a.y - b.y - select(${UZERO}, ${UONE}, a.x < b.x));
}
// Correctly rounded: the builtin gives a candidate q, exact integer arithmetic on the
// mantissa (N = m * 2^k, q = round(sqrt(N))) fixes the last bits.
fn numr_sqrt_$T(x: $T) -> $T {
  if (x == 0.0 || numr_is_nan_$T(x)) { return x; }
  if (x < 0.0) { return numr_nan_$T(); }
  if (numr_is_inf_$T(x)) { return x; }
  var y = x;
  var adj = 0;
  if (numr__bexp_$T(x) == 0) { y = x * numr__pow2_$T(2 * ${P}); adj = 2 * ${P}; }
  let b = bitcast<$U>(y);
  let m = (b & ${MANT}) | (${UONE} << ${MB});
  let E = numr__bexp_$T(y) - ${BIAS} - ${MBI} - adj;       // x = m * 2^E
  let k = select(${MBI} + 1, ${MBI}, ((E - ${MBI}) & 1) == 0);  // E - k even
  let N = vec2<$U>(m << u32(k), m >> u32(${W} - k));
  var q = $U(sqrt($T(m) * numr__pow2_$T(k)) + 0.5);
  for (var it = 0; it < 4; it++) {
    let sq = numr__mulw_$T(q, q);
    if (numr__wlt_$T(N, sq)) { q = q - ${UONE}; continue; }
    let r = numr__wsub_$T(N, sq);
    if (r.y != ${UZERO} || r.x > 2 * q) { q = q + ${UONE}; continue; }
    break;
  }
  let r = numr__wsub_$T(N, numr__mulw_$T(q, q));
  if (r.x > q) { q = q + ${UONE}; }
  return $T(q) * numr__pow2_$T((E - k) / 2);
}
""")

fn("exp", ["core", "rounding"], """
fn numr_exp_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x > ${EXP_HI}) { return numr_inf_$T(); }
  if (x < ${EXP_LO}) { return 0.0; }
  if (numr_abs_$T(x) < ${TINY}) { return 1.0 + x; }
  let kf = numr__nint_$T(x * ${INV_LN2_H});
  let r = numr__opq_$T(x - kf * ${LN2_0}) - kf * ${LN2_1};
  let p = r + r * r * $P{EXPQ}(r);
  return numr__scale_$T(1.0 + p, i32(kf));
}
""")

fn("exp2", ["core", "rounding"], """
fn numr_exp2_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x > ${EXP2_HI}) { return numr_inf_$T(); }
  if (x < ${EXP2_LO}) { return 0.0; }
  let kf = numr__nint_$T(x);
  let r = x - kf;
  return numr__scale_$T(1.0 + r * $P{EXP2Q}(r), i32(kf));
}
""")

fn("expm1", ["core", "rounding"], """
fn numr_expm1_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x > ${EXP_HI}) { return numr_inf_$T(); }
  if (x < ${EXPM1_LO}) { return -1.0; }
  if (numr_abs_$T(x) < ${TINY1}) { return x; }
  if (numr_abs_$T(x) <= ${HALF_LN2}) { return x + x * x * $P{EXPQ}(x); }
  let kf = numr__nint_$T(x * ${INV_LN2_H});
  let r = numr__opq_$T(x - kf * ${LN2_0}) - kf * ${LN2_1};
  let em = r + r * r * $P{EXPQ}(r);       // e^r - 1
  let k = i32(kf);
  if (k > ${EXPM1_K}) { return numr__scale_$T(1.0 + em, k); }
  // 2^k (em + 1) - 1, ordered so that the constant parts are exact
  if (k >= 1) { return numr__scale_$T(em + numr__opq_$T(1.0 - numr__pow2_$T(-k)), k); }
  return numr__opq_$T(em * numr__pow2_$T(k)) + (numr__pow2_$T(k) - 1.0);
}
""")

fn("logcore", ["core"], """
// x > 0 finite -> (f, k) with x = 2^k (1 + f), 1 + f in [sqrt(1/2), sqrt(2)), f exact
fn numr__log_red_$T(x: $T) -> vec2<$T> {
  var y = x;
  var adj = 0;
  if (numr__bexp_$T(x) == 0) { y = x * numr__pow2_$T(${P} + 1); adj = ${P} + 1; }
  var e = numr__bexp_$T(y) - ${BIAS} - adj;
  var m = bitcast<$T>((bitcast<$U>(y) & ${MANT}) | (${U}(${BIAS}) << ${MB}));
  if (m > ${SQRT2}) { m = m * 0.5; e = e + 1; }
  return vec2<$T>(m - 1.0, $T(e));
}
// f - log1p(f) for |f| <= sqrt(2) - 1: log1p(f) = 2 atanh(s), s = f / (2 + f)
fn numr__log1p_d_$T(f: $T) -> $T {
  let s = f / (2.0 + f);
  let z = s * s;
  return s * (f - z * $P{LOGR}(z));
}
""".replace("${U}", "$U"))

fn("log", ["logcore"], """
fn numr_log_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x < 0.0) { return numr_nan_$T(); }
  if (x == 0.0) { return -numr_inf_$T(); }
  if (numr_is_inf_$T(x)) { return x; }
  let r = numr__log_red_$T(x);
  let f = r.x; let k = r.y;
  return k * ${LN2_0} + (f - (numr__log1p_d_$T(f) - k * ${LN2_1}));
}
""")

fn("log2", ["logcore"], """
fn numr_log2_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x < 0.0) { return numr_nan_$T(); }
  if (x == 0.0) { return -numr_inf_$T(); }
  if (numr_is_inf_$T(x)) { return x; }
  let r = numr__log_red_$T(x);
  let f = r.x;
  let lf = f - numr__log1p_d_$T(f);
  // lf * (1/ln2) with the constant split in two keeps the k = 0 case near 1 ulp
  return r.y + (lf * ${INV_LN2_H} + lf * ${INV_LN2_L});
}
""")

fn("log10", ["logcore"], """
fn numr_log10_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x < 0.0) { return numr_nan_$T(); }
  if (x == 0.0) { return -numr_inf_$T(); }
  if (numr_is_inf_$T(x)) { return x; }
  let r = numr__log_red_$T(x);
  let f = r.x; let k = r.y;
  let lf = f - numr__log1p_d_$T(f);
  return k * ${LOG10_2_0} + (lf * ${INV_LN10} + k * ${LOG10_2_1});
}
""")

fn("log1p", ["logcore"], """
fn numr_log1p_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x < -1.0) { return numr_nan_$T(); }
  if (x == -1.0) { return -numr_inf_$T(); }
  if (numr_is_inf_$T(x)) { return x; }
  if (numr_abs_$T(x) < ${TINY1}) { return x; }
  let u = numr__opq_$T(1.0 + x);
  let r = numr__log_red_$T(u);
  let k = r.y;
  if (k == 0.0) { return x - numr__log1p_d_$T(x); }   // 1 + x in [sqrt(1/2), sqrt(2)): f = x exactly
  // rounding error of 1 + x, as a relative correction
  var c = x - numr__opq_$T(u - 1.0);
  if (k > 0.0) { c = 1.0 - numr__opq_$T(u - x); }
  c = c / u;
  let f = r.x;
  return k * ${LN2_0} + (f - (numr__log1p_d_$T(f) - (k * ${LN2_1} + c)));
}
""")

fn("sinh", ["exp", "expm1"], """
fn numr_sinh_$T(x: $T) -> $T {
  if (!numr_is_finite_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return x; }
  var r: $T;
  if (ax < 1.0) { let z = x * x; r = ax + ax * z * $P{SINH}(z); }
  else if (ax < ${HYP_BIG}) { let e = numr_expm1_$T(ax); r = 0.5 * (e + e / (e + 1.0)); }
  else if (ax < ${EXP_SAFE}) { r = 0.5 * numr_exp_$T(ax); }
  else { let t = numr_exp_$T(0.5 * ax); r = numr__opq_$T(0.5 * t) * t; }  // barrier: 0.5*(t*t) would overflow
  return numr_copysign_$T(r, x);
}
""")

fn("cosh", ["exp", "expm1"], """
fn numr_cosh_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (numr_is_inf_$T(x)) { return ax; }
  if (ax < ${HALF_LN2}) { let t = numr_expm1_$T(ax); return 1.0 + (t * t) / (2.0 * (1.0 + t)); }
  if (ax < ${HYP_BIG}) { let e = numr_exp_$T(ax); return 0.5 * e + 0.5 / e; }
  if (ax < ${EXP_SAFE}) { return 0.5 * numr_exp_$T(ax); }
  let t = numr_exp_$T(0.5 * ax);
  return numr__opq_$T(0.5 * t) * t;
}
""")

fn("tanh", ["expm1"], """
fn numr_tanh_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return x; }
  var r: $T = 1.0;
  if (ax < 1.0) { let t = numr_expm1_$T(-2.0 * ax); r = -t / (t + 2.0); }
  else if (ax < ${HYP_BIG}) { let t = numr_expm1_$T(2.0 * ax); r = 1.0 - 2.0 / (t + 2.0); }
  return numr_copysign_$T(r, x);
}
""")

fn("asinh", ["log", "log1p"], """
fn numr_asinh_$T(x: $T) -> $T {
  if (!numr_is_finite_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return x; }
  var r: $T;
  if (ax > ${BIG_ARG}) { r = numr_log_$T(ax) + ${LN2_H}; }
  else if (ax > 2.0) { r = numr_log_$T(2.0 * ax + 1.0 / (sqrt(ax * ax + 1.0) + ax)); }
  else { let z = ax * ax; r = numr_log1p_$T(ax + z / (1.0 + sqrt(1.0 + z))); }
  return numr_copysign_$T(r, x);
}
""")

fn("acosh", ["log", "log1p"], """
fn numr_acosh_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x < 1.0) { return numr_nan_$T(); }
  if (numr_is_inf_$T(x)) { return x; }
  if (x > ${BIG_ARG}) { return numr_log_$T(x) + ${LN2_H}; }
  if (x > 2.0) { return numr_log_$T(2.0 * x - 1.0 / (x + sqrt(x * x - 1.0))); }
  let t = x - 1.0;
  return numr_log1p_$T(t + sqrt(2.0 * t + t * t));
}
""")

fn("atanh", ["log1p"], """
fn numr_atanh_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (ax > 1.0) { return numr_nan_$T(); }
  if (ax == 1.0) { return numr_copysign_$T(numr_inf_$T(), x); }
  if (ax < ${TINY}) { return x; }
  var r: $T;
  if (ax < 0.5) { let t = ax + ax; r = 0.5 * numr_log1p_$T(t + t * ax / (1.0 - ax)); }
  else { r = 0.5 * numr_log1p_$T((ax + ax) / (1.0 - ax)); }
  return numr_copysign_$T(r, x);
}
""")

fn("cbrt", ["core", "dd", "frexp"], """
fn numr_cbrt_$T(x: $T) -> $T {
  if (!numr_is_finite_$T(x) || x == 0.0) { return x; }
  let f = numr_frexp_$T(numr_abs_$T(x));
  // |x| = m 2^(3q + r), m' = m 2^r in [1/2, 4)
  var q = f.exp / 3; var r = f.exp - 3 * q;
  if (r < 0) { r = r + 3; q = q - 1; }
  let m = f.fract * numr__pow2_$T(r);
  var y = 0.55 + m * (0.4 - 0.035 * m);
  for (var i = 0; i < ${CBRT_ITERS}; i++) { y = y - (y * y * y - m) / (3.0 * y * y); }
  // last step with the residual y^3 - m computed exactly
  let y2 = numr__two_prod_$T(y, y);
  let y3 = numr__dd_mul_$T(y2, vec2<$T>(y, 0.0));
  let res = (numr__opq_$T(y3.x - m) + y3.y);
  y = y - res / (3.0 * y * y);
  return numr_copysign_$T(numr__scale_$T(y, q), x);
}
""")

fn("hypot", ["core", "dd", "frexp"], """
fn numr_hypot_$T(x: $T, y: $T) -> $T {
  if (numr_is_inf_$T(x) || numr_is_inf_$T(y)) { return numr_inf_$T(); }
  if (numr_is_nan_$T(x) || numr_is_nan_$T(y)) { return numr_nan_$T(); }
  var a = numr_abs_$T(x); var b = numr_abs_$T(y);
  if (b > a) { let t = a; a = b; b = t; }
  if (b == 0.0) { return a; }
  let f = numr_frexp_$T(a);
  let e = f.exp;
  let a1 = f.fract;
  // b * 2^-e in two exact halves (a single 2^-e may not be representable)
  let h1 = -e / 2;
  let b1 = numr__opq_$T(b * numr__pow2_$T(h1)) * numr__pow2_$T(-e - h1);
  let s1 = numr__two_prod_$T(a1, a1);
  let s2 = numr__two_prod_$T(b1, b1);
  let s = numr__dd_add_$T(s1, s2);
  let h = sqrt(s.x);
  let p = numr__two_prod_$T(h, h);
  let c = ((numr__opq_$T(s.x - p.x) - p.y) + s.y) / (2.0 * h);
  return numr__scale_$T(h + c, e);
}
""")

fn("pow", ["dd", "logcore", "rounding", "exp2"], """
// log2(x) as hi + lo for x > 0 finite, relative error ~2^-(2P-40)
fn numr__log2_dd_$T(x: $T) -> vec2<$T> {
  let r = numr__log_red_$T(x);
  let f = r.x;
  let dh = numr__opq_$T(2.0 + f);
  let dl = f - numr__opq_$T(dh - 2.0);
  let sh = f / dh;
  let pp = numr__two_prod_$T(sh, dh);
  let sl = ((numr__opq_$T(f - pp.x) - pp.y) - sh * dl) / dh;
  let s = vec2<$T>(sh, sl);
  let z = sh * sh;
  var s2 = numr__two_prod_$T(sh, sh);
  s2.y = s2.y + 2.0 * sh * sl;
  let s3 = numr__dd_mul_$T(s2, s);
  var L = numr__dd_add_$T(vec2<$T>(2.0 * sh, 2.0 * sl), numr__dd_mul_$T(s3, vec2<$T>(${TWO_THIRDS_H}, ${TWO_THIRDS_L})));
  L = numr__fast_two_sum_$T(L.x, L.y + sh * z * z * $P{LOGT}(z));
  let M = numr__dd_mul_$T(L, vec2<$T>(${INV_LN2_H}, ${INV_LN2_L}));
  return numr__dd_add_$T(vec2<$T>(r.y, 0.0), M);
}
// 2^(h + l), |l| << 1
fn numr__exp2_dd_$T(h: $T, l: $T) -> $T {
  let kf = numr__nint_$T(h);
  let r = (h - kf) + l;
  return numr__scale_$T(1.0 + r * $P{EXP2Q}(r), i32(kf));
}
// 0: not an integer, 1: odd integer, 2: even integer
fn numr__int_class_$T(y: $T) -> i32 {
  let ay = numr_abs_$T(y);
  if (ay >= ${EVEN_ALL}) { return 2; }
  if (numr_trunc_$T(y) != y) { return 0; }
  let h = 0.5 * y;
  if (numr_trunc_$T(h) != h) { return 1; }
  return 2;
}
fn numr_pow_$T(x: $T, y: $T) -> $T {
  if (y == 0.0) { return 1.0; }
  if (x == 1.0) { return 1.0; }
  if (numr_is_nan_$T(x) || numr_is_nan_$T(y)) { return numr_nan_$T(); }
  let ax = numr_abs_$T(x);
  if (numr_is_inf_$T(y)) {
    if (ax == 1.0) { return 1.0; }
    if ((ax > 1.0) == (y > 0.0)) { return numr_inf_$T(); }
    return 0.0;
  }
  let yc = numr__int_class_$T(y);
  let odd_neg = yc == 1 && numr_signbit_$T(x);
  let sgn = select(${UZERO}, ${SIGN}, odd_neg);
  if (x == 0.0 || numr_is_inf_$T(x)) {
    // |x|^y is 0 or inf; the sign follows x for odd integer y
    let big = (x == 0.0) == (y < 0.0);
    let m = select(${UZERO}, ${EXPM}, big);
    return bitcast<$T>(m | sgn);
  }
  if (x < 0.0 && yc == 0) { return numr_nan_$T(); }
  let L = numr__log2_dd_$T(ax);
  let p = numr__two_prod_$T(L.x, y);
  let lo = p.y + L.y * y;
  var r: $T;
  if (p.x > ${EXP2_HI}) { r = numr_inf_$T(); }
  else if (p.x < ${EXP2_LO}) { r = 0.0; }
  else { r = numr__exp2_dd_$T(p.x, lo); }
  return bitcast<$T>(bitcast<$U>(r) | sgn);
}
""")

fn("erf", ["core", "exp", "dd"], """
// exp(-h x^2), h = 1 or 1/2, for finite h x^2 <= ERFC_ZERO^2: x^2 is split so the
// exponential keeps full accuracy; exp's reduction inline without its range checks (the
// argument is finite and past no overflow), the scale as two normal powers of two so a
// subnormal result is rounded once
fn numr__exp_negsq_$T(x: $T, h: $T) -> $T {
  let xh = bitcast<$T>(bitcast<$U>(x) & ${SPLIT});
  let xl = x - xh;
  let t = -h * (xl * (x + xh));   // |t| small: a few Taylor terms, not a second exp
  let u = -h * (xh * xh);
  let kf = numr__nint_$T(u * ${INV_LN2_H});
  let r = numr__opq_$T(u - kf * ${LN2_0}) - kf * ${LN2_1};
  let k = i32(kf);
  let k1 = k / 2;
  // (the barrier keeps a compiler from rewriting (1 + p) 2^k as fma(p, 2^k, 2^k))
  let e = (numr__opq_$T(1.0 + (r + r * r * $P{EXPQ}(r))) * numr__pow2_$T(k1)) * numr__pow2_$T(k - k1);
  return e * $P{EXPS}(t);
}
// G(x) = exp(x^2) erfc(x) for x in [0.5, ERFC_ZERO): one polynomial evaluation, no
// divergent branch (see _erfc_eval)
fn numr__erfc_g_$T(x: $T) -> $T {
  @ERFC_EVAL_ALL@
  return r;
}
// erfc(x) for x >= 0.5: exp(-x^2) G(x)
fn numr__erfc_pos_$T(x: $T) -> $T {
  if (x >= ${ERFC_ZERO}) { return 0.0; }
  return numr__exp_negsq_$T(x, 1.0) * numr__erfc_g_$T(x);
}
fn numr_erf_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return x * ${TWO_OSQRTPI}; }
  if (ax < 1.0) { let z = x * x; return x * $P{ERF}(z); }
  if (ax >= ${ERF_ONE}) { return numr_copysign_$T(1.0, x); }
  return numr_copysign_$T(1.0 - numr__erfc_pos_$T(ax), x);
}
fn numr_erfc_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x >= 0.5) { return numr__erfc_pos_$T(x); }
  if (x > -0.5) { let z = x * x; return 1.0 - x * $P{ERF}(z); }
  return 2.0 - numr__erfc_pos_$T(-x);
}
""")

fn("logaddexp", ["exp", "log1p"], """
fn numr_logaddexp_$T(x: $T, y: $T) -> $T {
  if (numr_is_nan_$T(x) || numr_is_nan_$T(y)) { return numr_nan_$T(); }
  let inf = numr_inf_$T();
  if (x == inf || y == inf) { return inf; }
  if (x == -inf && y == -inf) { return x; }
  var m = x;
  if (y > x) { m = y; }
  let d = -numr_abs_$T(x - y);
  return m + numr_log1p_$T(numr_exp_$T(d));
}
""")

FUNCS.update(TRIG_FUNCS)

# public name -> template unit providing it
PUBLIC = {
    "is_nan": "core", "is_inf": "core", "is_finite": "core", "signbit": "core", "copysign": "core",
    "abs": "core", "trunc": "rounding", "floor": "rounding", "ceil": "rounding", "round": "rounding",
    "frexp": "frexp", "ldexp": "frexp", "nextafter": "nextafter", "maximum": "minmax",
    "minimum": "minmax", "sqrt": "sqrt", "exp": "exp", "exp2": "exp2", "expm1": "expm1",
    "log": "log", "log2": "log2", "log10": "log10", "log1p": "log1p", "sin": "sin", "cos": "cos",
    "tan": "tan", "asin": "asin", "acos": "acos", "atan": "atan", "atan2": "atan2", "sinh": "sinh",
    "cosh": "cosh", "tanh": "tanh", "asinh": "asinh", "acosh": "acosh", "atanh": "atanh",
    "pow": "pow", "hypot": "hypot", "erf": "erf", "erfc": "erf", "cbrt": "cbrt",
    "logaddexp": "logaddexp",
}
