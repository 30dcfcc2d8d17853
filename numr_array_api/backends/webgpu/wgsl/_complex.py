"""WGSL templates of the complex helpers, on vec2<T> = (real, imag).

Finite arguments use formulas that avoid spurious overflow and cancellation (Smith division,
scaled sqrt, Kahan's formulas for the inverse functions); non-finite arguments follow the
array API (= C99 Annex G) special-case tables explicitly, with signs restored through the
documented symmetries (conj, odd/even) and bit operations, never through 0*x or inf*x,
which a compiler may fold.
"""

from ._types import unit_registry
FUNCS, fn = unit_registry()


fn("cbase", ["core"], """
fn numr__cnan_$T() -> vec2<$T> { return vec2<$T>(numr_nan_$T(), numr_nan_$T()); }
fn numr__cfinite_$T(z: vec2<$T>) -> bool { return numr_is_finite_$T(z.x) && numr_is_finite_$T(z.y); }
// v * inf and v * 0 with IEEE signs and NaNs, without the multiplication
fn numr__inf_times_$T(v: $T) -> $T {
  if (numr_is_nan_$T(v) || v == 0.0) { return numr_nan_$T(); }
  return numr_copysign_$T(numr_inf_$T(), v);
}
fn numr__zero_times_$T(v: $T) -> $T {
  if (numr_is_nan_$T(v) || numr_is_inf_$T(v)) { return numr_nan_$T(); }
  return numr_copysign_$T(0.0, v);
}
// x with its sign flipped when s has the sign bit set
fn numr__xorsign_$T(x: $T, s: $T) -> $T { return bitcast<$T>(bitcast<$U>(x) ^ (bitcast<$U>(s) & ${SIGN})); }
fn numr_cadd_$T(a: vec2<$T>, b: vec2<$T>) -> vec2<$T> { return a + b; }
fn numr_csub_$T(a: vec2<$T>, b: vec2<$T>) -> vec2<$T> { return a - b; }
fn numr_cconj_$T(a: vec2<$T>) -> vec2<$T> { return vec2<$T>(a.x, numr_neg_$T(a.y)); }
fn numr__inf_or_zero_$T(v: $T) -> $T { return numr_copysign_$T(select($T(0.0), $T(1.0), numr_is_inf_$T(v)), v); }
fn numr__nan_to_zero_$T(v: $T) -> $T { return select(v, numr_copysign_$T(0.0, v), numr_is_nan_$T(v)); }
fn numr_cmul_$T(a: vec2<$T>, b: vec2<$T>) -> vec2<$T> {
  let ac = a.x * b.x; let bd = a.y * b.y; let ad = a.x * b.y; let bc = a.y * b.x;
  var r = vec2<$T>(ac - bd, ad + bc);
  if (numr_is_nan_$T(r.x) && numr_is_nan_$T(r.y)) {
    // C99 Annex G: an infinite operand gives an infinite result
    var p = a; var q = b; var rec = false;
    if (numr_is_inf_$T(p.x) || numr_is_inf_$T(p.y)) {
      p = vec2<$T>(numr__inf_or_zero_$T(p.x), numr__inf_or_zero_$T(p.y));
      q = vec2<$T>(numr__nan_to_zero_$T(q.x), numr__nan_to_zero_$T(q.y));
      rec = true;
    }
    if (numr_is_inf_$T(q.x) || numr_is_inf_$T(q.y)) {
      q = vec2<$T>(numr__inf_or_zero_$T(q.x), numr__inf_or_zero_$T(q.y));
      p = vec2<$T>(numr__nan_to_zero_$T(p.x), numr__nan_to_zero_$T(p.y));
      rec = true;
    }
    if (!rec && (numr_is_inf_$T(ac) || numr_is_inf_$T(bd) || numr_is_inf_$T(ad) || numr_is_inf_$T(bc))) {
      p = vec2<$T>(numr__nan_to_zero_$T(p.x), numr__nan_to_zero_$T(p.y));
      q = vec2<$T>(numr__nan_to_zero_$T(q.x), numr__nan_to_zero_$T(q.y));
      rec = true;
    }
    if (rec) {
      r = vec2<$T>(numr__inf_times_$T(p.x * q.x - p.y * q.y), numr__inf_times_$T(p.x * q.y + p.y * q.x));
    }
  }
  return r;
}
// Smith's algorithm (with the r == 0 refinement) and a pre-scaling of huge dividends
fn numr_cdiv_$T(a0: vec2<$T>, b0: vec2<$T>) -> vec2<$T> {
  var a = a0; var b = b0; var sc: $T = 1.0;
  if (max(numr_abs_$T(a.x), numr_abs_$T(a.y)) > ${MAX} * 0.25) { a = a * 0.25; sc = 4.0; }
  // divisors above 2^126 may be inverted through a flushed reciprocal (NVIDIA f32)
  if (max(numr_abs_$T(b.x), numr_abs_$T(b.y)) > ${DIV_BIG}) { b = b * ${DIV_SCALE}; sc = sc * ${DIV_SCALE}; }
  var r: vec2<$T>;
  if (numr_abs_$T(b.x) >= numr_abs_$T(b.y)) {
    let t = b.y / b.x; let d = b.x + b.y * t;
    // t == 0 from an exact zero takes the plain formula (the refinement's cross term
    // 0 * (an overflowed quotient) would be NaN); from an underflow, the refinement
    if (t != 0.0 || b.y == 0.0) { r = vec2<$T>((a.x + a.y * t) / d, (a.y - a.x * t) / d); }
    else { r = vec2<$T>((a.x + b.y * (a.y / b.x)) / d, (a.y - b.y * (a.x / b.x)) / d); }
  } else {
    let t = b.x / b.y; let d = b.x * t + b.y;
    if (t != 0.0 || b.x == 0.0) { r = vec2<$T>((a.x * t + a.y) / d, (a.y * t - a.x) / d); }
    else { r = vec2<$T>((b.x * (a.x / b.y) + a.y) / d, (b.x * (a.y / b.y) - a.x) / d); }
  }
  r = r * sc;
  if (numr_is_nan_$T(r.x) && numr_is_nan_$T(r.y)) {
    let an = numr_is_nan_$T(a0.x) || numr_is_nan_$T(a0.y);
    let bfin = numr__cfinite_$T(b0);
    if (b0.x == 0.0 && b0.y == 0.0 && !an) {
      let s = numr_copysign_$T(1.0, b0.x);
      r = vec2<$T>(numr__inf_times_$T(s * a0.x), numr__inf_times_$T(s * a0.y));
    } else if ((numr_is_inf_$T(a0.x) || numr_is_inf_$T(a0.y)) && bfin) {
      let p = vec2<$T>(numr__inf_or_zero_$T(a0.x), numr__inf_or_zero_$T(a0.y));
      r = vec2<$T>(numr__inf_times_$T(p.x * b0.x + p.y * b0.y), numr__inf_times_$T(p.y * b0.x - p.x * b0.y));
    } else if ((numr_is_inf_$T(b0.x) || numr_is_inf_$T(b0.y)) && numr__cfinite_$T(a0)) {
      let q = vec2<$T>(numr__inf_or_zero_$T(b0.x), numr__inf_or_zero_$T(b0.y));
      r = vec2<$T>(numr__zero_times_$T(a0.x * q.x + a0.y * q.y), numr__zero_times_$T(a0.y * q.x - a0.x * q.y));
    }
  }
  return r;
}
""")

fn("cabs", ["hypot"], """
fn numr_cabs_$T(z: vec2<$T>) -> $T { return numr_hypot_$T(z.x, z.y); }
""")

fn("csqrt", ["cbase", "hypot", "sqrt"], """
fn numr_csqrt_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  let inf = numr_inf_$T();
  if (numr_is_inf_$T(b)) { return vec2<$T>(inf, b); }
  if (numr_is_nan_$T(a)) { return numr__cnan_$T(); }
  if (numr_is_inf_$T(a)) {
    if (numr_is_nan_$T(b)) {
      if (a > 0.0) { return vec2<$T>(inf, b); }
      return vec2<$T>(b, inf);
    }
    if (a > 0.0) { return vec2<$T>(inf, numr_copysign_$T(0.0, b)); }
    return vec2<$T>(0.0, numr_copysign_$T(inf, b));
  }
  if (numr_is_nan_$T(b)) { return numr__cnan_$T(); }
  if (a == 0.0 && b == 0.0) { return vec2<$T>(0.0, b); }
  var sa = a; var sb = b; var post: $T = 1.0;
  let big = max(numr_abs_$T(a), numr_abs_$T(b));
  if (big > ${MAX} * 0.25) { sa = a * 0.25; sb = b * 0.25; post = 2.0; }
  else if (big < ${CSQRT_SMALL}) { sa = a * ${CSQRT_UP}; sb = b * ${CSQRT_UP}; post = ${CSQRT_DOWN}; }
  let t = numr_sqrt_$T((numr_abs_$T(sa) + numr_hypot_$T(sa, sb)) * 0.5);
  if (sa >= 0.0) { return vec2<$T>(t, sb / (2.0 * t)) * post; }
  return vec2<$T>(numr_abs_$T(sb) / (2.0 * t), numr_copysign_$T(t, sb)) * post;
}
""")

fn("cexp", ["cbase", "exp", "sincos"], """
fn numr_cexp_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (b == 0.0) { return vec2<$T>(numr_exp_$T(a), b); }
  if (numr_is_inf_$T(a)) {
    if (a < 0.0) {
      if (numr_is_finite_$T(b)) {
        let sc = numr__sincos_$T(b);
        return vec2<$T>(numr_copysign_$T(0.0, sc.y), numr_copysign_$T(0.0, sc.x));
      }
      return vec2<$T>(0.0, 0.0);
    }
    if (numr_is_finite_$T(b)) {
      let sc = numr__sincos_$T(b);
      return vec2<$T>(numr__inf_times_$T(sc.y), numr__inf_times_$T(sc.x));
    }
    return vec2<$T>(a, numr_nan_$T());
  }
  if (numr_is_nan_$T(a) || !numr_is_finite_$T(b)) { return numr__cnan_$T(); }
  let sc = numr__sincos_$T(b);
  if (a < ${EXP_SAFE}) {
    let e = numr_exp_$T(a);
    return vec2<$T>(e * sc.y, e * sc.x);
  }
  // e^a alone may overflow while e^a cos b does not
  let t = numr_exp_$T(0.5 * a);
  return vec2<$T>(numr__opq_$T(t * sc.y) * t, numr__opq_$T(t * sc.x) * t);
}
""")

fn("cexpm1", ["cexp", "expm1"], """
fn numr_cexpm1_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (!numr__cfinite_$T(z) || a > ${EXP_SAFE}) {
    let e = numr_cexp_$T(z);
    return vec2<$T>(e.x - 1.0, e.y);
  }
  if (b == 0.0) { return vec2<$T>(numr_expm1_$T(a), b); }
  let sc = numr__sincos_$T(b);
  let sh = numr_sin_$T(0.5 * b);
  // e^a cos b - 1 = expm1(a) cos b - 2 sin^2(b/2)
  return vec2<$T>(numr_expm1_$T(a) * sc.y - 2.0 * sh * sh, numr_exp_$T(a) * sc.x);
}
""".replace('["cexp", "expm1"]', '["cexp", "expm1", "sin"]'))
FUNCS["cexpm1"] = (("cexp", "expm1", "sin"), FUNCS["cexpm1"][1])

fn("clog", ["cbase", "dd", "hypot", "log", "log1p", "atan2"], """
// log|z| without overflow, and without cancellation near the unit circle
fn numr__clog_abs_$T(a: $T, b: $T) -> $T {
  if (numr_is_inf_$T(a) || numr_is_inf_$T(b)) { return numr_inf_$T(); }
  var big = numr_abs_$T(a); var small = numr_abs_$T(b);
  if (small > big) { let t = big; big = small; small = t; }
  if (numr_is_nan_$T(big) || numr_is_nan_$T(small)) { return numr_nan_$T(); }
  if (big > 0.5 && big < 2.0) {
    let s = numr__dd_add_$T(numr__two_prod_$T(big, big), numr__two_prod_$T(small, small));
    return 0.5 * numr_log1p_$T(numr__opq_$T(s.x - 1.0) + s.y);
  }
  if (big > ${MAX} * 0.5) { return numr_log_$T(numr_hypot_$T(a * 0.5, b * 0.5)) + ${LN2_H}; }
  return numr_log_$T(numr_hypot_$T(a, b));
}
fn numr_clog_$T(z: vec2<$T>) -> vec2<$T> {
  return vec2<$T>(numr__clog_abs_$T(z.x, z.y), numr_atan2_$T(z.y, z.x));
}
""")

fn("clog1p", ["clog"], """
fn numr_clog1p_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (numr__cfinite_$T(z) && max(numr_abs_$T(a), numr_abs_$T(b)) < 0.5) {
    // |1 + z|^2 - 1 = 2a + a^2 + b^2, summed in double-word
    let s = numr__dd_add_$T(numr__dd_add_$T(vec2<$T>(2.0 * a, 0.0), numr__two_prod_$T(a, a)), numr__two_prod_$T(b, b));
    return vec2<$T>(0.5 * numr_log1p_$T(s.x + s.y), numr_atan2_$T(b, 1.0 + a));
  }
  return numr_clog_$T(vec2<$T>(1.0 + a, b));
}
""")

fn("chyp", ["cbase", "sinh", "cosh", "tanh", "sincos", "tan", "sqrt", "exp"], """
fn numr_csinh_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (numr__cfinite_$T(z)) {
    if (b == 0.0) { return vec2<$T>(numr_sinh_$T(a), b); }
    let sc = numr__sincos_$T(b);
    if (numr_abs_$T(a) < ${EXP_SAFE}) { return vec2<$T>(numr_sinh_$T(a) * sc.y, numr_cosh_$T(a) * sc.x); }
    let t = numr_exp_$T(0.5 * numr_abs_$T(a));
    return vec2<$T>(numr__xorsign_$T(numr__opq_$T(0.5 * sc.y * t) * t, a), numr__opq_$T(0.5 * sc.x * t) * t);
  }
  if (a == 0.0) { return vec2<$T>(a, numr_nan_$T()); }
  if (numr_is_finite_$T(a)) { return numr__cnan_$T(); }
  if (numr_is_inf_$T(a)) {
    if (b == 0.0) { return vec2<$T>(a, b); }
    if (numr_is_finite_$T(b)) {
      let sc = numr__sincos_$T(b);
      return vec2<$T>(numr__xorsign_$T(numr__inf_times_$T(sc.y), a), numr__inf_times_$T(sc.x));
    }
    return vec2<$T>(a, numr_nan_$T());
  }
  if (b == 0.0) { return vec2<$T>(a, b); }
  return numr__cnan_$T();
}
fn numr_ccosh_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (numr__cfinite_$T(z)) {
    if (b == 0.0) { return vec2<$T>(numr_cosh_$T(a), numr__xorsign_$T(b, a)); }
    let sc = numr__sincos_$T(b);
    if (numr_abs_$T(a) < ${EXP_SAFE}) { return vec2<$T>(numr_cosh_$T(a) * sc.y, numr_sinh_$T(a) * sc.x); }
    let t = numr_exp_$T(0.5 * numr_abs_$T(a));
    return vec2<$T>(numr__opq_$T(0.5 * sc.y * t) * t, numr__xorsign_$T(numr__opq_$T(0.5 * sc.x * t) * t, a));
  }
  if (a == 0.0) { return vec2<$T>(numr_nan_$T(), 0.0); }
  if (numr_is_finite_$T(a)) { return numr__cnan_$T(); }
  if (numr_is_inf_$T(a)) {
    if (b == 0.0) { return vec2<$T>(numr_inf_$T(), numr__xorsign_$T(b, a)); }
    if (numr_is_finite_$T(b)) {
      let sc = numr__sincos_$T(b);
      return vec2<$T>(numr__inf_times_$T(sc.y), numr__xorsign_$T(numr__inf_times_$T(sc.x), a));
    }
    return vec2<$T>(numr_inf_$T(), numr_nan_$T());
  }
  if (b == 0.0) { return vec2<$T>(a, b); }
  return numr__cnan_$T();
}
fn numr_ctanh_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (numr_is_inf_$T(a)) {
    let one = numr_copysign_$T(1.0, a);
    if (numr_is_finite_$T(b)) { let sc = numr__sincos_$T(b); return vec2<$T>(one, numr_copysign_$T(0.0, sc.x * sc.y)); }
    return vec2<$T>(one, numr_copysign_$T(0.0, b));
  }
  if (numr_is_nan_$T(a)) {
    if (b == 0.0) { return vec2<$T>(a, b); }
    return numr__cnan_$T();
  }
  if (!numr_is_finite_$T(b)) {
    if (a == 0.0) { return vec2<$T>(a, numr_nan_$T()); }
    return numr__cnan_$T();
  }
  if (b == 0.0) { return vec2<$T>(numr_tanh_$T(a), b); }
  if (numr_abs_$T(a) > ${HYP_BIG}) {
    let sc = numr__sincos_$T(b);
    return vec2<$T>(numr_copysign_$T(1.0, a), 4.0 * sc.x * sc.y * numr_exp_$T(-2.0 * numr_abs_$T(a)));
  }
  // Kahan: tanh z = (beta rho s + i t) / (1 + beta s^2), t = tan b, beta = 1 + t^2, s = sinh a
  let t = numr_tan_$T(b);
  let beta = 1.0 + t * t;
  let s = numr_sinh_$T(a);
  let rho = numr_sqrt_$T(1.0 + s * s);
  let den = 1.0 + beta * s * s;
  return vec2<$T>((beta * rho * s) / den, t / den);
}
// sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz)
fn numr_csin_$T(z: vec2<$T>) -> vec2<$T> {
  let w = numr_csinh_$T(vec2<$T>(numr_neg_$T(z.y), z.x));
  return vec2<$T>(w.y, numr_neg_$T(w.x));
}
fn numr_ccos_$T(z: vec2<$T>) -> vec2<$T> { return numr_ccosh_$T(vec2<$T>(numr_neg_$T(z.y), z.x)); }
fn numr_ctan_$T(z: vec2<$T>) -> vec2<$T> {
  let w = numr_ctanh_$T(vec2<$T>(numr_neg_$T(z.y), z.x));
  return vec2<$T>(w.y, numr_neg_$T(w.x));
}
""")

fn("cinv", ["csqrt", "asinh", "atan2", "log1p", "hypot"], """
// Kahan's formulas ("Branch cuts for complex elementary functions") for finite z: built from
// two principal square roots so that signed zeros select the correct side of each cut.
fn numr__casin_fin_$T(z: vec2<$T>) -> vec2<$T> {
  let s1 = numr_csqrt_$T(vec2<$T>(1.0 - z.x, numr_neg_$T(z.y)));
  let s2 = numr_csqrt_$T(vec2<$T>(1.0 + z.x, z.y));
  return vec2<$T>(numr_atan2_$T(z.x, s1.x * s2.x - s1.y * s2.y), numr_asinh_$T(s1.x * s2.y - s1.y * s2.x));
}
fn numr_casinh_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (!numr__cfinite_$T(z)) {
    var r: vec2<$T>;
    let inf = numr_inf_$T();
    if (numr_is_inf_$T(b)) {
      if (numr_is_nan_$T(a)) { r = vec2<$T>(inf, numr_nan_$T()); }
      else if (numr_is_inf_$T(a)) { r = vec2<$T>(inf, ${PIO4_H}); }
      else { r = vec2<$T>(inf, ${PIO2_H}); }
    } else if (numr_is_nan_$T(b)) {
      if (numr_is_inf_$T(a)) { r = vec2<$T>(inf, numr_nan_$T()); } else { r = numr__cnan_$T(); }
    } else if (numr_is_inf_$T(a)) { r = vec2<$T>(inf, 0.0); }
    else if (b == 0.0) { r = vec2<$T>(numr_nan_$T(), 0.0); }
    else { r = numr__cnan_$T(); }
    return vec2<$T>(numr_copysign_$T(r.x, a), numr_copysign_$T(r.y, b));
  }
  // asinh z = -i asin(iz)
  let w = numr__casin_fin_$T(vec2<$T>(numr_neg_$T(b), a));
  return vec2<$T>(w.y, numr_neg_$T(w.x));
}
fn numr_casin_$T(z: vec2<$T>) -> vec2<$T> {
  // asin z = -i asinh(iz)
  let w = numr_casinh_$T(vec2<$T>(numr_neg_$T(z.y), z.x));
  return vec2<$T>(w.y, numr_neg_$T(w.x));
}
fn numr_cacos_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (!numr__cfinite_$T(z)) {
    var r: vec2<$T>;
    let inf = numr_inf_$T();
    if (numr_is_inf_$T(b)) {
      if (numr_is_nan_$T(a)) { r = vec2<$T>(numr_nan_$T(), -inf); }
      else if (a == -inf) { r = vec2<$T>(${PI3O4_H}, -inf); }
      else if (a == inf) { r = vec2<$T>(${PIO4_H}, -inf); }
      else { r = vec2<$T>(${PIO2_H}, -inf); }
    } else if (numr_is_nan_$T(b)) {
      if (numr_is_inf_$T(a)) { r = vec2<$T>(numr_nan_$T(), inf); }
      else if (a == 0.0) { r = vec2<$T>(${PIO2_H}, numr_nan_$T()); }
      else { r = numr__cnan_$T(); }
      return r;
    } else if (a == -inf) { r = vec2<$T>(${PI_H}, -inf); }
    else if (a == inf) { r = vec2<$T>(0.0, -inf); }
    else { return numr__cnan_$T(); }
    return vec2<$T>(r.x, numr__xorsign_$T(r.y, b));
  }
  let s1 = numr_csqrt_$T(vec2<$T>(1.0 - a, numr_neg_$T(b)));
  let s2 = numr_csqrt_$T(vec2<$T>(1.0 + a, b));
  return vec2<$T>(2.0 * numr_atan2_$T(s1.x, s2.x), numr_asinh_$T(s2.x * s1.y - s2.y * s1.x));
}
fn numr_cacosh_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  if (!numr__cfinite_$T(z)) {
    var r: vec2<$T>;
    let inf = numr_inf_$T();
    if (numr_is_inf_$T(b)) {
      if (numr_is_nan_$T(a)) { r = vec2<$T>(inf, numr_nan_$T()); }
      else if (a == -inf) { r = vec2<$T>(inf, ${PI3O4_H}); }
      else if (a == inf) { r = vec2<$T>(inf, ${PIO4_H}); }
      else { r = vec2<$T>(inf, ${PIO2_H}); }
    } else if (numr_is_nan_$T(b)) {
      if (numr_is_inf_$T(a)) { r = vec2<$T>(inf, numr_nan_$T()); }
      else if (a == 0.0) { r = vec2<$T>(numr_nan_$T(), ${PIO2_H}); }
      else { r = numr__cnan_$T(); }
      return r;
    } else if (a == -inf) { r = vec2<$T>(inf, ${PI_H}); }
    else if (a == inf) { r = vec2<$T>(inf, 0.0); }
    else { return numr__cnan_$T(); }
    return vec2<$T>(r.x, numr_copysign_$T(r.y, b));
  }
  let s1 = numr_csqrt_$T(vec2<$T>(a - 1.0, b));
  let s2 = numr_csqrt_$T(vec2<$T>(a + 1.0, b));
  return vec2<$T>(numr_asinh_$T(s1.x * s2.x + s1.y * s2.y), 2.0 * numr_atan2_$T(s1.y, s2.x));
}
fn numr_catanh_$T(z: vec2<$T>) -> vec2<$T> {
  let a = z.x; let b = z.y;
  let ax = numr_abs_$T(a); let ay = numr_abs_$T(b);
  var r: vec2<$T>;
  if (!numr__cfinite_$T(z)) {
    if (numr_is_inf_$T(ay)) { r = vec2<$T>(0.0, ${PIO2_H}); }
    else if (numr_is_inf_$T(ax)) {
      if (numr_is_nan_$T(b)) { r = vec2<$T>(0.0, numr_nan_$T()); } else { r = vec2<$T>(0.0, ${PIO2_H}); }
    } else if (numr_is_nan_$T(b)) {
      if (ax == 0.0) { r = vec2<$T>(0.0, numr_nan_$T()); } else { return numr__cnan_$T(); }
    } else { return numr__cnan_$T(); }
  } else if (ax == 1.0 && ay == 0.0) {
    r = vec2<$T>(numr_inf_$T(), 0.0);
  } else if (max(ax, ay) > ${CATANH_BIG}) {
    let h = numr_hypot_$T(ax, ay);
    r = vec2<$T>((ax / h) / h, ${PIO2_H});
  } else {
    let d = (1.0 - ax) * (1.0 - ax) + ay * ay;
    r = vec2<$T>(0.25 * numr_log1p_$T(4.0 * ax / d), 0.5 * numr_atan2_$T(2.0 * ay, (1.0 - ax) * (1.0 + ax) - ay * ay));
  }
  return vec2<$T>(numr_copysign_$T(r.x, a), numr_copysign_$T(r.y, b));
}
fn numr_catan_$T(z: vec2<$T>) -> vec2<$T> {
  // atan z = -i atanh(iz)
  let w = numr_catanh_$T(vec2<$T>(numr_neg_$T(z.y), z.x));
  return vec2<$T>(w.y, numr_neg_$T(w.x));
}
""")

fn("cpow", ["cbase", "clog", "cexp"], """
// x^y = exp(y log x); y = 0 gives 1 and 0^y (Re y > 0, Im y = 0) gives 0 exactly
fn numr_cpow_$T(x: vec2<$T>, y: vec2<$T>) -> vec2<$T> {
  if (y.x == 0.0 && y.y == 0.0) { return vec2<$T>(1.0, 0.0); }
  if (x.x == 0.0 && x.y == 0.0 && y.y == 0.0 && y.x > 0.0) { return vec2<$T>(0.0, 0.0); }
  if (x.y == 0.0 && y.y == 0.0 && x.x > 0.0 && numr_is_finite_$T(x.x) && numr_is_finite_$T(y.x)) {
    return vec2<$T>(numr_pow_$T(x.x, y.x), 0.0);
  }
  return numr_cexp_$T(numr_cmul_$T(y, numr_clog_$T(x)));
}
""")
FUNCS["cpow"] = (("cbase", "clog", "cexp", "pow"), FUNCS["cpow"][1])

PUBLIC = {
    "cadd": "cbase", "csub": "cbase", "cmul": "cbase", "cdiv": "cbase", "cconj": "cbase",
    "cabs": "cabs", "csqrt": "csqrt", "cexp": "cexp", "cexpm1": "cexpm1", "clog": "clog",
    "clog1p": "clog1p", "csinh": "chyp", "ccosh": "chyp", "ctanh": "chyp", "csin": "chyp",
    "ccos": "chyp", "ctan": "chyp", "casinh": "cinv", "casin": "cinv", "cacos": "cinv",
    "cacosh": "cinv", "catanh": "cinv", "catan": "cinv", "cpow": "cpow",
}
