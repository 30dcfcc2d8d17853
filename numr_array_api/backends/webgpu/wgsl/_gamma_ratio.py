"""WGSL templates of scipy.special's gamma ratios: betaln, poch, binom, multigammaln.

Same template syntax and rules as _real.py; the gamma functions are _special.py's, the
log-beta of positive arguments _beta.py's (Stirling differences, no cancellation). The
branch structure and special values are Cephes' (SciPy's lbeta, beta, poch and binom:
negative integers, overflow to +-inf, 0 * inf = NaN); where Cephes' arithmetic loses
accuracy these compute the same quantity accurately:

* betaln: log B(a, b) of positive arguments by _beta.py's Stirling differences wherever
  Cephes takes lgamma sums; log |Gamma(a) Gamma(b) / Gamma(a + b)| (Cephes' product order)
  below MAXGAM, where the gammas are accurate, with the rounding e of a + b corrected to
  first order (Gamma(y + e) = Gamma(y) (1 + psi(y) e): near a pole of Gamma(a + b) it
  would cost |psi| ulp).
* poch(a, m): Cephes' recurrences bring m into (-1, 1) (the product r, as SciPy's); the
  rest Gamma(a + m) / Gamma(a) as (a + m)^m exp((a - 1/2) log1p(m / a) - m + S(a + m) -
  S(a)) for a, a + m >= LG_BIG (S: Stirling's correction; the exponent is small, so no
  |lgamma| ulp are lost), Gamma(a + m) / Gamma(a) (a + m's rounding corrected as above)
  for smaller or negative arguments, SciPy's exp(lgamma difference) only where the gammas
  leave the range.
* binom: SciPy's branches (the product for integer k < 20, the lbeta form for n >> k, the
  k >> n expansion, 1 / ((n + 1) B(n - k + 1, k + 1)) otherwise).
* float32 (GR_WIDE): SciPy's float32 loops compute in float64, so the running products of
  poch and binom and binom's k >> n form keep float64's range (an exponent carried beside
  the product, logarithms, the partial binomials), and the special values are float64's.
* multigammaln(a, d) = d (d - 1) / 4 log(pi) + sum_j<d gammaln(a - j / 2).
"""

from ._types import lit, unit_registry

FUNCS, fn = unit_registry()


def _consts(ft):
    f64 = ft == "f64"
    L = lambda v: lit(v, ft)
    return {
        # Cephes' MAXGAM (float64); float32 keeps Gamma itself in range
        "GR_MAXGAM": L(171.62437695630272 if f64 else 30.0),
        "GR_MAXLOG": L(709.782712893384 if f64 else 88.72283),
        "GR_LOGPI": L(1.1447298858494001741434273513530587),
        "GR_PI": L(3.1415926535897932384626433832795029),
        # binom's renormalisation of its running product (SciPy: 1e50)
        "GR_BIG": L(1e50 if f64 else 1e20),
        # float32: poch's running product keeps float64's range (SciPy's float32 loop
        # computes in float64: a product below float32's range is not yet 0 there)
        "GR_WIDE": "false" if f64 else "true",
    }


SERIES = {"f32": {}, "f64": {}}
CONSTS = {ft: _consts(ft) for ft in ("f32", "f64")}

fn("sp_gamma_ratio", ["sp_beta", "sp_gamma", "sin", "frexp", "rounding", "dd"], """
// Cephes' int conversion test: x == (int)x
fn numr__gr_isint_$T(x: $T) -> bool {
  return numr_abs_$T(x) < 2147483648.0 && numr_trunc_$T(x) == x;
}
fn numr__gr_odd_$T(x: $T) -> bool { return numr_trunc_$T(0.5 * x) != 0.5 * x; }
// Cephes' lbeta_asymp (a > 1e6 |b|): float64 in its order (b (1 - b) overflows to NaN
// with a = inf, as SciPy's), float32 in one that keeps float64's range
fn numr__gr_lbasy_$T(a: $T, b: $T) -> $T {
  var r = numr_gammaln_$T(b) - b * numr_log_$T(a);
  if (${GR_WIDE}) {
    let bu = b * ((1.0 - b) / a);
    r = r + 0.5 * bu;
    r = r + bu * (1.0 - 2.0 * b) / (12.0 * a);
    return r + -(bu * bu) / (12.0 * a);
  }
  r = r + b * (1.0 - b) / (2.0 * a);
  r = r + b * (1.0 - b) * (1.0 - 2.0 * b) / (12.0 * a * a);
  return r + -b * b * (1.0 - b) * (1.0 - b) / (12.0 * a * a * a);
}
// psi(y) to a couple of digits (0 at the poles): the first-order effect of a rounded
// argument, Gamma(y + e) = Gamma(y) (1 + psi(y) e); psi(1 - y) - pi cot(pi y) below 0,
// psi(y + 1) - 1/y below 1, cot(pi r) by its first terms
fn numr__gr_dpsi_$T(y: $T) -> $T {
  if (!numr_is_finite_$T(y) || (y <= 0.0 && numr_floor_$T(y) == y)) { return 0.0; }
  var z = y;
  var c: $T = 0.0;
  if (y < 0.0) {
    z = 1.0 - y;
    let t = ${GR_PI} * (y - numr_round_$T(y));
    c = -(1.0 / t - t * (0.3333333333333333 + t * t * 0.022222222222222223)) * ${GR_PI};
  } else if (y < 1.0) { z = y + 1.0; c = -1.0 / y; }
  let w = 1.0 / z;
  return (numr_log_$T(z) - w * (0.5 + w * 0.08333333333333333)) + c;
}
// Cephes' beta and lbeta, shared: vec3(B, 1, 0) or vec3(log|B|, sign, 1)
fn numr__gr_beta_$T(a0: $T, b0: $T) -> vec3<$T> {
  var a = a0;
  var b = b0;
  var sg: $T = 1.0;
  // a (then b) a non-positive integer: (-1)^b B(1 - a - b, b) for a positive integer b with
  // 1 - a - b > 0, else inf (signed (-1)^b by beta when b <= 0 is an integer)
  let ai = a <= 0.0 && numr_floor_$T(a) == a;
  let bi = !ai && b <= 0.0 && numr_floor_$T(b) == b;
  if (ai || bi) {
    let p = select(a, b, bi);
    let o = select(b, a, bi);
    if (!numr__gr_isint_$T(p) || !numr__gr_isint_$T(o) || !(1.0 - a - b > 0.0)) {
      return vec3<$T>(numr_inf_$T(), 1.0, 0.0);
    }
    if (numr__gr_odd_$T(o)) { sg = -1.0; }
    if (o <= 0.0) { return vec3<$T>(sg * numr_inf_$T(), 1.0, 0.0); }
    a = 1.0 - a - b;
    b = o;
  }
  if (numr_abs_$T(a) < numr_abs_$T(b)) { let t = a; a = b; b = t; }
  // positive arguments past MAXGAM: Stirling differences (Cephes: lgamma sums, which cancel)
  if (a > 0.0 && b > 0.0 && numr_is_finite_$T(a) && b >= ${LGAM_POLE}
      && (a > ${GR_MAXGAM} || a + b > ${GR_MAXGAM})) {
    return vec3<$T>(numr__lbeta_pos_$T(b, a), sg, 1.0);
  }
  if (numr_abs_$T(a) > 1e6 * numr_abs_$T(b) && a > 1e6) {
    return vec3<$T>(numr__gr_lbasy_$T(a, b), sg * numr_gammasgn_$T(b), 1.0);
  }
  let y = a + b;
  if (numr_abs_$T(y) > ${GR_MAXGAM} || numr_abs_$T(a) > ${GR_MAXGAM}
      || numr_abs_$T(b) > ${GR_MAXGAM}) {
    var l: $T = 0.0;   // lgamma(a) + (lgamma(b) - lgamma(a + b)), Cephes' order
    var s = sg;
    for (var i = 0; i < 3; i++) {
      let t = select(select(a, b, i == 1), y, i == 0);
      let g = numr_gammaln_$T(t);
      l = select(g + l, -g, i == 0);
      s = s * numr_gammasgn_$T(t);
    }
    return vec3<$T>(l, s, 1.0);
  }
  // rgamma(a + b) Gamma(a) Gamma(b), Cephes' product order; a + b = y + e exactly
  let ye = numr__two_sum_$T(a, b).y;
  var g0: $T = 0.0;
  var g1: $T = 0.0;
  var g2: $T = 0.0;
  for (var i = 0; i < 3; i++) {
    let t = select(select(b, a, i == 1), y, i == 0);
    let g = numr_gamma_$T(t);
    if (i == 0) {
      g0 = (1.0 / g) * (1.0 - numr__gr_dpsi_$T(t) * ye);
      if (t <= 0.0 && numr_floor_$T(t) == t) { g0 = 0.0; }      // rgamma's zeros
      if (numr_abs_$T(t) < 4.0 * ${LGAM_POLE}) { g0 = t; }      // (1 / Gamma overflowed)
    } else if (i == 1) { g1 = g; } else { g2 = g; }
  }
  if (numr_abs_$T(numr_abs_$T(g1 * g0) - 1.0) > numr_abs_$T(numr_abs_$T(g2 * g0) - 1.0)) {
    return vec3<$T>(sg * (numr__opq_$T(g2 * g0) * g1), 1.0, 0.0);
  }
  return vec3<$T>(sg * (numr__opq_$T(g1 * g0) * g2), 1.0, 0.0);
}
// SciPy's betaln (Cephes' lbeta): log |B(a, b)|
fn numr_lbeta_$T(a: $T, b: $T) -> $T {
  let r = numr__gr_beta_$T(a, b);
  if (r.z == 0.0) { return numr_log_$T(numr_abs_$T(r.x)); }
  return r.x;
}
// x <= 0, an integer of magnitude below 1e13 (Cephes' is_nonpos_int)
fn numr__gr_npi_$T(x: $T) -> bool {
  return x <= 0.0 && numr_ceil_$T(x) == x && numr_abs_$T(x) < 1e13;
}
// r * 2^e, r's exponent kept near 0 when GR_WIDE (float32 with float64's range); vec2(r, e)
fn numr__gr_norm_$T(r: $T, e: $T) -> vec2<$T> {
  if (!${GR_WIDE} || !numr_is_finite_$T(r) || r == 0.0) { return vec2<$T>(r, e); }
  let f = numr_frexp_$T(r);
  let ne = e + $T(f.exp);
  if (ne > 1024.0) { return vec2<$T>(numr_copysign_$T(numr_inf_$T(), r), 0.0); }
  if (ne < -1075.0) { return vec2<$T>(numr_copysign_$T(0.0, r), 0.0); }
  return vec2<$T>(f.fract, ne);
}
// SciPy's poch(a, m) (Cephes), Gamma(a + m) / Gamma(a) computed accurately once m is in
// (-1, 1)
fn numr_poch_$T(a: $T, m0: $T) -> $T {
  var m = m0;
  var re = vec2<$T>(1.0, 0.0);
  // bring m into (-1, 1) by the recurrences (over / underflow ends them: so does the value)
  for (var i = 0; i < 4000; i++) {
    let up = m >= 1.0;
    if (!(up || m <= -1.0)) { break; }
    if (up) {
      if (a + m == 1.0) { break; }
      m = m - 1.0;
      re = numr__gr_norm_$T(re.x * (a + m), re.y);
    } else {
      if (a + m == 0.0) { break; }
      re = numr__gr_norm_$T(re.x / (a + m), re.y);
      m = m + 1.0;
    }
    if (!numr_is_finite_$T(re.x) || re.x == 0.0) { break; }
  }
  let r = re.x;
  var v: $T;
  let b = a + m;
  let asy = a > 1e4 && numr_abs_$T(m) <= 1.0;
  let stir = a >= ${LG_BIG} && b >= ${LG_BIG} && numr_abs_$T(m) < 1.0;
  if (m == 0.0) {
    v = r;
  } else if (asy || stir) {
    let p = numr_pow_$T(select(b, a, asy), m);
    if (asy) {
      let ia = 1.0 / a;
      v = r * p * (1.0 + m * (m - 1.0) * 0.5 * ia
        + m * (m - 1.0) * (m - 2.0) * (3.0 * m - 1.0) / 24.0 * ia * ia
        + m * m * (m - 1.0) * (m - 1.0) * (m - 2.0) * (m - 3.0) / 48.0 * ia * ia * ia);
    } else {
      // Gamma(b) / Gamma(a) = b^m exp((a - 1/2) log1p(m / a) - m + S(b) - S(a))
      let e = ((a - 0.5) * numr_log1p_$T(m / a) - m) + (numr__stirc_$T(b) - numr__stirc_$T(a));
      v = r * (p * numr_exp_$T(e));
    }
  } else if (numr__gr_npi_$T(b) && !numr__gr_npi_$T(a) && b != m) {
    return numr_inf_$T();
  } else if (!numr__gr_npi_$T(b) && numr__gr_npi_$T(a)) {
    return 0.0;
  } else if (numr_abs_$T(m) < 1.0 && numr_abs_$T(a) < ${GR_MAXGAM} - 1.0
             && numr_abs_$T(b) < ${GR_MAXGAM} - 1.0 && numr_abs_$T(a) >= 4.0 * ${LGAM_POLE}
             && numr_abs_$T(b) >= 4.0 * ${LGAM_POLE} && !numr__gr_npi_$T(b)
             && !numr__gr_npi_$T(a)) {
    var g = vec2<$T>(0.0);
    for (var i = 0; i < 2; i++) {   // (one call site; selects, not a runtime vector index)
      let gi = numr_gamma_$T(select(a, b, i == 0));
      g = select(vec2<$T>(g.x, gi), vec2<$T>(gi, g.y), i == 0);
    }
    let be = numr__two_sum_$T(a, m).y;   // a + m = b + be exactly
    v = r * (g.x * (1.0 + numr__gr_dpsi_$T(b) * be) / g.y);
  } else {
    var l: $T = 0.0;
    var s: $T = 1.0;
    for (var i = 0; i < 2; i++) {
      let t = select(a, b, i == 0);
      l = l + select($T(-1.0), $T(1.0), i == 0) * numr_gammaln_$T(t);
      s = s * numr_gammasgn_$T(t);
    }
    v = r * numr_exp_$T(l) * s;
  }
  if (${GR_WIDE} && re.y != 0.0) { return numr_ldexp_$T(v, i32(re.y)); }
  return v;
}
// SciPy's binom(n, k)
fn numr_binom_$T(n: $T, k: $T) -> $T {
  if (n < 0.0 && numr_floor_$T(n) == n) { return numr_nan_$T(); }
  var kx = numr_floor_$T(k);
  if (k == kx && (numr_abs_$T(n) > 1e-8 || n == 0.0)) {
    let nx = numr_floor_$T(n);
    if (nx == n && kx > nx * 0.5 && nx > 0.0) { kx = nx - kx; }
    if (kx >= 0.0 && kx < 20.0) {
      var num: $T = 1.0;
      var den: $T = 1.0;
      for (var i: $T = 1.0; i < 1.0 + kx; i += 1.0) {
        if (${GR_WIDE}) {   // (float32: the partial binomials, which stay below the value)
          num = num * (numr__opq_$T((i + n) - kx) / i);
          continue;
        }
        num = num * numr__opq_$T((i + n) - kx);
        den = den * i;
        if (numr_abs_$T(num) > ${GR_BIG}) { num = num / den; den = 1.0; }
      }
      return num / den;
    }
  }
  if (k > 1e8 * numr_abs_$T(n) && !(n >= 1e10 * k && k > 0.0)) {
    // Gamma(1 + n) / (pi |k|^(n + 1)) (1 + n / (2 k)): float64 in SciPy's order, float32
    // through logarithms with float64's overflows (SciPy's float32 loop computes in float64)
    let ak = numr_abs_$T(k);
    var num: $T;
    if (${GR_WIDE}) {
      let lk = numr_log_$T(ak);
      let gover = 1.0 + n > 171.62437695630272;
      let pover = n * lk > 709.782712893384;
      if (gover && pover) { return numr_nan_$T(); }
      num = numr_exp_$T((numr_gammaln_$T(1.0 + n) - (n + 1.0) * lk) - 1.1447298858494002)
            * numr_gammasgn_$T(1.0 + n) * (1.0 + n / (2.0 * ak));
      if (gover) { num = numr_copysign_$T(numr_inf_$T(), num); }
    } else {
      let g = numr_gamma_$T(1.0 + n);
      num = g / ak + g * n / (2.0 * k * k);
      num = num / (${GR_PI} * numr_pow_$T(ak, n));
    }
    let fk = numr_floor_$T(k);
    if (k > 0.0) {
      var dk = k;
      var sg: $T = 1.0;
      if (numr__gr_isint_$T(fk)) { dk = k - fk; if (numr__gr_odd_$T(fk)) { sg = -1.0; } }
      return num * numr_sin_$T((dk - n) * ${GR_PI}) * sg;
    }
    if (numr__gr_isint_$T(fk)) { return 0.0; }
    return num * numr_sin_$T(k * ${GR_PI});
  }
  // B(n - k + 1, k + 1): exp(-log B - log(n + 1)) for n >> k, else 1 / (n + 1) / B
  let r = numr__gr_beta_$T(1.0 + n - k, 1.0 + k);
  if (n >= 1e10 * k && k > 0.0) {
    let lb = select(r.x, numr_log_$T(numr_abs_$T(r.x)), r.z == 0.0);
    return numr_exp_$T(-lb - numr_log_$T(n + 1.0));
  }
  var bv = r.x;
  if (r.z != 0.0) { bv = select(r.y * numr_exp_$T(r.x), r.y * numr_inf_$T(), r.x > ${GR_MAXLOG}); }
  return 1.0 / (n + 1.0) / bv;
}
// scipy.special.multigammaln(a, d) for an integer d >= 1 (the host checked d and a)
fn numr_multigammaln_$T(a: $T, d: $T) -> $T {
  var s: $T = 0.0;
  let nd = i32(d);
  for (var j = 0; j < nd; j++) { s = s + numr_gammaln_$T(a - 0.5 * $T(j)); }
  return d * (d - 1.0) * 0.25 * ${GR_LOGPI} + s;
}
""")

PUBLIC = {"lbeta": "sp_gamma_ratio", "poch": "sp_gamma_ratio", "binom": "sp_gamma_ratio",
          "multigammaln": "sp_gamma_ratio"}
