"""WGSL templates of the trigonometric functions and their inverses: the argument
reduction (Cody-Waite, then Payne-Hanek through the bits of 2/pi for huge arguments),
sin / cos / tan, atan / atan2, asin / acos. Template syntax and the rounding rules that
hold throughout: _real.py.
"""

from ._types import unit_registry

# name -> (dependencies, template); _real.py merges them into its FUNCS
FUNCS, fn = unit_registry()


fn("trigred", ["core", "dd", "rounding"], """
const numr_two_over_pi_words_$T = array<u32, 40>(@TWO_OVER_PI_WORDS@);
struct numr_red_$T { hi: $T, lo: $T, q: i32 }
fn numr__mul32_$T(a: u32, b: u32) -> vec2<u32> {
  let a0 = a & 0xffffu; let a1 = a >> 16u; let b0 = b & 0xffffu; let b1 = b >> 16u;
  let p00 = a0 * b0; let p01 = a0 * b1; let p10 = a1 * b0; let p11 = a1 * b1;
  let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
  return vec2<u32>((p00 & 0xffffu) | (mid << 16u), p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}
// Payne-Hanek: x * 2/pi = m 2^e * 2/pi; only the bits of 2/pi from position e-1 on matter
// modulo 4. Exact integer product of the mantissa with a window of ${PH_WORDS} words.
fn numr__rem_pio2_ph_$T(ax: $T) -> numr_red_$T {
  let b = bitcast<$U>(ax);
  let mant = (b & ${MANT}) | (${UONE} << ${MB});
  let e = numr__bexp_$T(ax) - ${BIAS} - ${MBI};
  let m0 = u32(mant & ${UMASK32});
  let m1 = u32(mant >> ${SHIFT32});
  // window starts at 2/pi bit (e - 1), table bit index j = i + 63
  let j0 = u32(e - 1 + 63);
  let wq = j0 / 32u; let wr = j0 % 32u;
  var win: array<u32, 6>;   // little endian: win[NW-1] most significant
  for (var i = 0u; i < ${PH_WORDS}u; i++) {
    let hiw = numr_two_over_pi_words_$T[wq + i];
    let low = numr_two_over_pi_words_$T[wq + i + 1u];
    var w = hiw;
    if (wr != 0u) { w = (hiw << wr) | (low >> (32u - wr)); }
    win[${PH_WORDS}u - 1u - i] = w;
  }
  var prod: array<u32, 8>;
  for (var i = 0u; i < 8u; i++) { prod[i] = 0u; }
  for (var a = 0u; a < 2u; a++) {
    let ma = select(m0, m1, a == 1u);
    var carry = 0u;
    for (var i = 0u; i < ${PH_WORDS}u; i++) {
      let p = numr__mul32_$T(ma, win[i]);
      let s1 = prod[a + i] + p.x;
      let c1 = select(0u, 1u, s1 < p.x);
      let s2 = s1 + carry;
      let c2 = select(0u, 1u, s2 < carry);
      prod[a + i] = s2;
      carry = p.y + c1 + c2;
    }
    if (a + ${PH_WORDS}u < 8u) { prod[a + ${PH_WORDS}u] = prod[a + ${PH_WORDS}u] + carry; }
  }
  // binary point 2 bits below the top of word NW-1
  let top = prod[${PH_WORDS}u - 1u];
  var q = i32(top >> 30u);
  var fw: array<u32, 6>;     // fraction words, fw[0] most significant
  for (var i = 0u; i < ${PH_WORDS}u; i++) {
    let hw = prod[${PH_WORDS}u - 1u - i];
    var lw = 0u;
    if (i + 1u < ${PH_WORDS}u) { lw = prod[${PH_WORDS}u - 2u - i]; }
    fw[i] = (hw << 2u) | (lw >> 30u);
  }
  var neg = false;
  if ((fw[0] >> 31u) == 1u) {   // fraction >= 1/2: use fraction - 1 (two's complement)
    neg = true;
    q = q + 1;
    var borrow = 1u;
    for (var ii = 0; ii < ${PH_WORDS}; ii++) {
      let i = u32(${PH_WORDS} - 1 - ii);
      let v = ~fw[i] + borrow;
      borrow = select(0u, 1u, borrow == 1u && v == 0u);
      fw[i] = v;
    }
  }
  var z = 0u;
  while (z + 3u < ${PH_WORDS}u && fw[z] == 0u) { z++; }
  let sc = numr__pow2_$T(-32 * i32(z));
  let a0 = $T(fw[z] >> 16u) * numr__pow2_$T(-16) * sc;
  let a1 = $T(fw[z] & 0xffffu) * numr__pow2_$T(-32) * sc;
  let a2 = $T(fw[z + 1u] >> 16u) * numr__pow2_$T(-48) * sc;
  let a3 = $T(fw[z + 1u] & 0xffffu) * numr__pow2_$T(-64) * sc;
  let a4 = $T(fw[z + 2u] >> 16u) * numr__pow2_$T(-80) * sc;
  let a5 = $T(fw[z + 2u] & 0xffffu) * numr__pow2_$T(-96) * sc;
  let fs = numr__two_sum_$T(a0, a1);
  let f = numr__fast_two_sum_$T(fs.x, fs.y + (a2 + (a3 + (a4 + a5))));
  let r = numr__dd_mul_$T(f, vec2<$T>(${PIO2_H}, ${PIO2_L}));
  if (neg) { return numr_red_$T(-r.x, -r.y, q & 3); }
  return numr_red_$T(r.x, r.y, q & 3);
}
// ax >= 0 finite -> ax = q pi/2 + (hi + lo), |hi| <= ~pi/4
fn numr__rem_pio2_$T(ax: $T) -> numr_red_$T {
  if (ax <= ${PIO4_H}) { return numr_red_$T(ax, 0.0, 0); }
  if (ax >= ${CW_MAX}) { return numr__rem_pio2_ph_$T(ax); }
  let n = numr_round_$T(ax * ${TWO_OPI});
  let t = numr__opq_$T(ax - n * ${PIO2_CW_0});
  var s = numr__two_sum_$T(t, -numr__opq_$T(n * ${PIO2_CW_1}));
  let s2 = numr__two_sum_$T(s.x, -numr__opq_$T(n * ${PIO2_CW_2}));
  let lo = (s.y + s2.y) - n * ${PIO2_CW_3};
  let r = numr__fast_two_sum_$T(s2.x, lo);
  return numr_red_$T(r.x, r.y, i32(n) & 3);
}
// sin(h + l), cos(h + l) for |h| <= ~pi/4, |l| << ulp(h)
fn numr__sin_k_$T(h: $T, l: $T) -> $T {
  let z = h * h;
  return h + (h * z * $P{SIN}(z) + l * (1.0 - 0.5 * z));
}
fn numr__cos_k_$T(h: $T, l: $T) -> $T {
  let z = h * h;
  let hz = 0.5 * z;
  let w = numr__opq_$T(1.0 - hz);
  return w + ((numr__opq_$T(1.0 - w) - hz) + (z * z * $P{COS}(z) - h * l));
}
""")

fn("sincos", ["trigred"], """
// (sin x, cos x) from one argument reduction; x finite
fn numr__sincos_$T(x: $T) -> vec2<$T> {
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return vec2<$T>(x, 1.0); }
  let r = numr__rem_pio2_$T(ax);
  let s = numr__sin_k_$T(r.hi, r.lo);
  let c = numr__cos_k_$T(r.hi, r.lo);
  var v: vec2<$T>;
  switch (r.q) {
    case 0: { v = vec2<$T>(s, c); }
    case 1: { v = vec2<$T>(c, -s); }
    case 2: { v = vec2<$T>(-s, -c); }
    default: { v = vec2<$T>(-c, s); }
  }
  if (x < 0.0) { v.x = -v.x; }
  return v;
}
""")

fn("sin", ["trigred"], """
fn numr_sin_$T(x: $T) -> $T {
  if (!numr_is_finite_$T(x)) { return numr_nan_$T(); }
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return x; }
  let r = numr__rem_pio2_$T(ax);
  var v: $T;
  switch (r.q) {
    case 0: { v = numr__sin_k_$T(r.hi, r.lo); }
    case 1: { v = numr__cos_k_$T(r.hi, r.lo); }
    case 2: { v = -numr__sin_k_$T(r.hi, r.lo); }
    default: { v = -numr__cos_k_$T(r.hi, r.lo); }
  }
  if (x < 0.0) { return -v; }
  return v;
}
""")

fn("cos", ["trigred"], """
fn numr_cos_$T(x: $T) -> $T {
  if (!numr_is_finite_$T(x)) { return numr_nan_$T(); }
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return 1.0; }
  let r = numr__rem_pio2_$T(ax);
  switch (r.q) {
    case 0: { return numr__cos_k_$T(r.hi, r.lo); }
    case 1: { return -numr__sin_k_$T(r.hi, r.lo); }
    case 2: { return -numr__cos_k_$T(r.hi, r.lo); }
    default: { return numr__sin_k_$T(r.hi, r.lo); }
  }
}
""")

fn("tan", ["trigred"], """
fn numr_tan_$T(x: $T) -> $T {
  if (!numr_is_finite_$T(x)) { return numr_nan_$T(); }
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return x; }
  let r = numr__rem_pio2_$T(ax);
  let s = numr__sin_k_$T(r.hi, r.lo);
  let c = numr__cos_k_$T(r.hi, r.lo);
  var v = s / c;
  if ((r.q & 1) == 1) { v = -c / s; }
  if (x < 0.0) { return -v; }
  return v;
}
""")

fn("atan", ["core"], """
// atan(|x|) for |x| finite, as hi + lo pieces summed once at the end
fn numr__atan_pos_$T(ax: $T) -> $T {
  var t = ax; var bh: $T = 0.0; var bl: $T = 0.0;
  if (ax >= 0.4375) {
    if (ax < 0.6875) { t = (2.0 * ax - 1.0) / (2.0 + ax); bh = ${ATAN_HALF_H}; bl = ${ATAN_HALF_L}; }
    else if (ax < 1.1875) { t = (ax - 1.0) / (ax + 1.0); bh = ${ATAN_ONE_H}; bl = ${ATAN_ONE_L}; }
    else if (ax < 2.4375) { t = (ax - 1.5) / (1.0 + 1.5 * ax); bh = ${ATAN_1P5_H}; bl = ${ATAN_1P5_L}; }
    else { t = -1.0 / ax; bh = ${PIO2_H}; bl = ${PIO2_L}; }
  }
  let z = t * t;
  return bh + ((bl + t * z * $P{ATAN}(z)) + t);
}
fn numr_atan_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (ax < ${TINY}) { return x; }
  if (ax > ${ATAN_BIG}) { return numr_copysign_$T(${PIO2_H}, x); }
  return numr_copysign_$T(numr__atan_pos_$T(ax), x);
}
""")

fn("atan2", ["atan"], """
fn numr_atan2_$T(y: $T, x: $T) -> $T {
  if (numr_is_nan_$T(x) || numr_is_nan_$T(y)) { return numr_nan_$T(); }
  let xneg = numr_signbit_$T(x);
  if (numr_is_inf_$T(x)) {
    if (numr_is_inf_$T(y)) {
      if (xneg) { return numr_copysign_$T(${PI3O4_H}, y); }
      return numr_copysign_$T(${PIO4_H}, y);
    }
    if (xneg) { return numr_copysign_$T(${PI_H}, y); }
    return numr_copysign_$T(0.0, y);
  }
  if (numr_is_inf_$T(y)) { return numr_copysign_$T(${PIO2_H}, y); }
  if (y == 0.0) {
    if (xneg) { return numr_copysign_$T(${PI_H}, y); }
    return y;
  }
  if (x == 0.0) { return numr_copysign_$T(${PIO2_H}, y); }
  var ay = numr_abs_$T(y); var ax = numr_abs_$T(x);
  // f32 division may go through a reciprocal that flushes for divisors above 2^126 (NVIDIA):
  // scale huge operands down (exact; a ratio that then underflows is negligible anyway)
  if (ax > ${DIV_BIG}) { ax = ax * ${DIV_SCALE}; ay = ay * ${DIV_SCALE}; }
  var a: $T;
  if (ay > ax * ${ATAN_BIG}) { a = ${PIO2_H}; }
  else {
    let q = ay / ax;
    if (q < ${TINY}) { a = q; } else { a = numr__atan_pos_$T(q); }
  }
  if (xneg) { a = ${PI_H} - (a - ${PI_L}); }
  return numr_copysign_$T(a, y);
}
""")

fn("asincore", ["core", "dd"], """
// for z = (1 - |x|) / 2 in (0, 1/4]: sqrt(z) as hi + lo, from the builtin plus one exact
// Newton correction (the builtin's few-ulp error would otherwise show up undamped)
fn numr__sqrt_dd_$T(z: $T) -> vec2<$T> {
  let s = sqrt(z);
  let p = numr__two_prod_$T(s, s);
  return vec2<$T>(s, ((numr__opq_$T(z - p.x) - p.y) / (2.0 * s)));
}
""")

fn("asin", ["asincore"], """
fn numr_asin_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (ax > 1.0) { return numr_nan_$T(); }
  if (ax < ${TINY}) { return x; }
  if (ax < 0.5) { let z = x * x; return x + x * z * $P{ASIN}(z); }
  if (ax == 1.0) { return numr_copysign_$T(${PIO2_H}, x); }
  let z = (1.0 - ax) * 0.5;
  let s = numr__sqrt_dd_$T(z);
  let w = z * $P{ASIN}(z);
  let r = 2.0 * (numr__opq_$T(${PIO4_H} - s.x) + (${PIO4_L} - (s.y + s.x * w)));
  return numr_copysign_$T(r, x);
}
""")

fn("acos", ["asincore"], """
fn numr_acos_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  let ax = numr_abs_$T(x);
  if (ax > 1.0) { return numr_nan_$T(); }
  if (ax < 0.5) {
    let z = x * x;
    return ${PIO2_H} - (x - (${PIO2_L} - x * z * $P{ASIN}(z)));
  }
  let z = (1.0 - ax) * 0.5;
  if (z == 0.0) {
    if (x > 0.0) { return 0.0; }
    return 2.0 * ${PIO2_H};
  }
  let s = numr__sqrt_dd_$T(z);
  let w = z * $P{ASIN}(z);
  if (x > 0.0) { return 2.0 * (s.x + (s.y + s.x * w)); }
  return 2.0 * (numr__opq_$T(${PIO2_H} - s.x) + (${PIO2_L} - (s.y + s.x * w)));
}
""")
