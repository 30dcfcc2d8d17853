"""WGSL templates of scipy.special's functions computed by recurrences in their order or
degree: yn (Bessel Y of integer order) and lpmv (associated Legendre P of integer order m
and real degree v).

Same template syntax and rules as _real.py; y0 / y1 are _bessel.py's, gamma / psi
_special.py's. Both follow SciPy's algorithms and special values:

* yn (Cephes): Y_-n = (-1)^n Y_n, then the forward recurrence Y_(k+1) = (2k / x) Y_k -
  Y_(k-1) from Y0, Y1 (stable: Y is the dominant solution), stopped once it overflows.
  SciPy truncates n to a C int; an n of 2^31 or more (or inf) wraps negative there, and its
  recurrence runs until it overflows: so does this one, up to YN_MAX steps (then NaN).
* lpmv (SciPy's specfun LPMV / LPMV0): P_v^-m from P_v^m (DLMF 14.9.3), v < 0 through
  v -> -v - 1 (14.9.5); the hypergeometric series in (1 - x) / 2 for x >= -0.35 (integer
  v: the terminating one in (1 + x) / 2), the logarithmic series at x = -1 below (DLMF
  14.3.5 / 15.8.10), and the upward recurrence in the degree (14.10.3) from
  P_(v0+m)^m, P_(v0+m+1)^m above degree max(2, m), up to LP_MAX steps (then NaN).
"""

from ._types import lit, unit_registry

FUNCS, fn = unit_registry()


def _consts(ft):
    f64 = ft == "f64"
    L = lambda v: lit(v, ft)
    return {
        "YN_MAX": "20000",
        # SciPy's float32 loop computes in float64: (2k / x) Y_k may leave float32's range
        # before the value does
        "YN_F32": "false" if f64 else "true",
        "LP_MAX": "20000",
        "LP_EPS": L(1e-14 if f64 else 1e-7),
        # specfun's overflow marker (float64); float32: its largest finite value
        "LP_HUGE": L(1e300 if f64 else 3.4028234663852886e38),
        "LP_POLE": L(1e300 if f64 else 0.0),
        "LP_WIDE": "false" if f64 else "true",
        "LP_PI": L(3.141592653589793),
    }


SERIES = {"f32": {}, "f64": {}}
CONSTS = {ft: _consts(ft) for ft in ("f32", "f64")}

fn("sp_yn", ["sp_bessel_y", "rounding"], """
fn numr_yn_$T(n0: $T, x: $T) -> $T {
  if (numr_is_nan_$T(n0)) { return n0; }
  var n = numr_abs_$T(numr_trunc_$T(n0));
  var sg: $T = 1.0;
  let wrapped = !(n < 2147483648.0);   // (SciPy: INT_MIN, even)
  if (!wrapped && n0 < 0.0 && numr_trunc_$T(0.5 * n) != 0.5 * n) { sg = -1.0; }
  let y = numr__bessel_y_pub_$T(x);   // (NaN below 0 and at inf, -inf at 0)
  if (!wrapped && n == 0.0) { return sg * y.x; }
  if (!wrapped && n == 1.0) { return sg * y.y; }
  if (x == 0.0) { return -sg * numr_inf_$T(); }
  if (x < 0.0) { return numr_nan_$T(); }
  var am2 = y.x;
  var am1 = y.y;
  var an = am1;
  var r: $T = 2.0;
  var k: i32 = 1;
  loop {
    an = select((r * am1) / x, (r / x) * am1, ${YN_F32}) - am2;
    am2 = am1;
    am1 = an;
    r = r + 2.0;
    k = k + 1;
    if (!numr_is_finite_$T(an)) { break; }
    if (!wrapped && $T(k) >= n) { break; }
    if (k >= ${YN_MAX}) { return numr_nan_$T(); }
  }
  return sg * an;
}
""")

fn("sp_lpmv", ["sp_psi", "sin", "tan", "sqrt", "log", "rounding", "frexp"], """
fn numr__lp_isint_$T(v: $T) -> bool {
  return numr_abs_$T(v) < 2147483648.0 && numr_trunc_$T(v) == v;
}
// (int)v as SciPy's C conversion: truncation, INT_MIN out of range
fn numr__lp_int_$T(v: $T) -> $T {
  if (numr_abs_$T(v) < 2147483648.0) { return numr_trunc_$T(v); }
  return -2147483648.0;
}
fn numr__lp_sign_$T(k: $T) -> $T {
  return select($T(1.0), $T(-1.0), numr_trunc_$T(0.5 * k) != 0.5 * k);
}
// P_v^m(x) for an integer m >= 0 and v >= 0 (specfun's LPMV0)
fn numr__lpmv0_$T(v: $T, m: $T, x: $T) -> $T {
  let nv = numr__lp_int_$T(v);
  let v0 = v - nv;
  var c0: $T = 1.0;
  if (m != 0.0) {
    var rg = v * (v + m);
    for (var j: $T = 1.0; j <= m - 1.0; j += 1.0) { rg = rg * (v * v - j * j); }
    let xq = numr_sqrt_$T(1.0 - x * x);
    var r0: $T = 1.0;
    for (var j: $T = 1.0; j <= m; j += 1.0) { r0 = 0.5 * r0 * xq / j; }
    c0 = r0 * rg;
  }
  if (v0 == 0.0) {   // DLMF 14.3.4, 14.7.17, 15.2.4: the terminating series
    var pmv: $T = 1.0;
    var r: $T = 1.0;
    for (var k: $T = 1.0; k <= nv - m; k += 1.0) {
      r = 0.5 * r * (-nv + m + k - 1.0) * (nv + m + k) / (k * (k + m)) * (1.0 + x);
      pmv = pmv + r;
    }
    return numr__lp_sign_$T(nv) * c0 * pmv;
  }
  if (x >= -0.35) {   // DLMF 14.3.4, 15.2.1
    var pmv: $T = 1.0;
    var r: $T = 1.0;
    for (var k: $T = 1.0; k <= 100.0; k += 1.0) {
      r = 0.5 * r * (-v + m + k - 1.0) * (v + m + k) / (k * (m + k)) * (1.0 - x);
      pmv = pmv + r;
      if (k > 12.0 && numr_abs_$T(r / pmv) < ${LP_EPS}) { break; }
    }
    return numr__lp_sign_$T(m) * c0 * pmv;
  }
  // DLMF 14.3.5, 15.8.10: the logarithmic series at x = -1
  let vs = numr_sin_$T(v * ${LP_PI}) / ${LP_PI};
  var pv0: $T = 0.0;
  if (m != 0.0) {
    let qr = numr_sqrt_$T((1.0 - x) / (1.0 + x));
    var r2: $T = 1.0;
    for (var j: $T = 1.0; j <= m; j += 1.0) { r2 = r2 * qr * j; }
    var s0: $T = 1.0;
    var r1: $T = 1.0;
    for (var k: $T = 1.0; k <= m - 1.0; k += 1.0) {
      r1 = 0.5 * r1 * (-v + k - 1.0) * (v + k) / (k * (k - m)) * (1.0 + x);
      s0 = s0 + r1;
    }
    pv0 = -vs * r2 / m * s0;
  }
  let lx = numr_log_$T(0.5 * (1.0 + x));
  let pa = 2.0 * (numr_psi_$T(v) + 0.5772156649015329) + ${LP_PI} / numr_tan_$T(${LP_PI} * v)
           + 1.0 / v;
  var s1: $T = 0.0;
  for (var j: $T = 1.0; j <= m; j += 1.0) { s1 = s1 + (j * j + v * v) / (j * (j * j - v * v)); }
  var pmv = pa + s1 - 1.0 / (m - v) + lx;
  var r: $T = 1.0;
  var s2: $T = 0.0;
  // s: sum_(j=1..m) f(k + j), f(i) = (i^2 + v^2) / (i (i^2 - v^2)), kept as a running sum
  var s = s1;
  for (var k: $T = 1.0; k <= 100.0; k += 1.0) {
    r = 0.5 * r * (-v + m + k - 1.0) * (v + m + k) / (k * (k + m)) * (1.0 + x);
    if (m != 0.0) {
      let hi = k + m;
      s = (s - (k * k + v * v) / (k * (k * k - v * v)))
          + (hi * hi + v * v) / (hi * (hi * hi - v * v));
    }
    s2 = s2 + 1.0 / (k * (k * k - v * v));
    let pss = pa + s + 2.0 * v * v * s2 - 1.0 / (m + k - v) + lx;
    let r2 = pss * r;
    pmv = pmv + r2;
    if (numr_abs_$T(r2 / pmv) < ${LP_EPS}) { break; }
  }
  return pv0 + pmv * vs * c0;
}
// SciPy's lpmv(m, v, x) (specfun's LPMV): NaN for a non-integer m
fn numr_lpmv_$T(m0: $T, v: $T, x: $T) -> $T {
  if (!(numr_floor_$T(m0) == m0)) { return numr_nan_$T(); }
  let m = numr__lp_int_$T(m0);
  if (x == -1.0 && !numr__lp_isint_$T(v)) {   // (SciPy 1.17: -inf for m = 0, else inf)
    return select(numr_inf_$T(), -numr_inf_$T(), m == 0.0);
  }
  var vx = v;
  if (v < 0.0) { vx = -v - 1.0; }
  var mx = m;
  var negm = false;
  if (m < 0.0) {
    if (vx + m + 1.0 > 0.0 || !numr__lp_isint_$T(vx)) { negm = true; mx = -m; }
    else { return numr_nan_$T(); }
  }
  if (mx > ${LP_MAX}.0) { return numr_nan_$T(); }
  let nv = numr__lp_int_$T(vx);
  let v0 = vx - nv;
  // above degree max(2, m): DLMF 14.10.3 upward in the degree from v0 + m, v0 + m + 1
  let up = nv > 2.0 && nv > mx;
  if (up && nv - mx > ${LP_MAX}.0) { return numr_nan_$T(); }
  var p = vec2<$T>(0.0);
  for (var i = 0; i < select(1, 2, up); i++) {   // (one call site: the series is large)
    let pi = numr__lpmv0_$T(select(vx, v0 + mx + $T(i), up), mx, x);
    p = select(vec2<$T>(p.x, pi), vec2<$T>(pi, p.y), i == 0);
  }
  var pmv = p.x;
  if (up) {
    var p0 = p.x;
    var p1 = p.y;
    pmv = p1;
    for (var j: $T = mx + 2.0; j <= nv; j += 1.0) {
      pmv = ((2.0 * (v0 + j) - 1.0) * x * p1 - (v0 + j - 1.0 + mx) * p0) / (v0 + j - mx);
      p0 = p1;
      p1 = pmv;
    }
  }
  if (negm && numr_abs_$T(pmv) < ${LP_HUGE}) {   // DLMF 14.9.3: Gamma(t1) / Gamma(t2)
    let t1 = (vx - mx) + 1.0;
    let t2 = (vx + mx) + 1.0;
    let pole = t1 <= 0.0 && numr_floor_$T(t1) == t1;   // (specfun's gamma: 1e300 there)
    if (${LP_WIDE}) {
      // float32 with float64's range (SciPy's float32 loop computes in float64): Gamma
      // overflows past 171.6 there; else 1 / prod_(j < 2m) (t1 + j) kept as q 2^e
      if (pole) {
        if (pmv != 0.0) { pmv = pmv * numr_exp_$T(690.7755278982137 - numr_gammaln_$T(t2)); }
      } else if (t1 > 171.62437695630272) { pmv = numr_nan_$T(); }
      else if (t2 > 171.62437695630272) { pmv = numr_copysign_$T(0.0, pmv * numr_gammasgn_$T(t1)); }
      else {
        var q: $T = 1.0;
        var e: i32 = 0;
        for (var j: $T = 0.0; j < 2.0 * mx; j += 1.0) {
          let f = numr_frexp_$T(q * (t1 + j));
          q = f.fract;
          e = e + f.exp;
        }
        pmv = numr_ldexp_$T(pmv / q, -e);
      }
      pmv = pmv * numr__lp_sign_$T(mx);
    } else {
      var g = vec2<$T>(0.0);
      for (var i = 0; i < 2; i++) {
        let gi = numr_gamma_$T(select(t1, t2, i == 1));
        g = select(vec2<$T>(g.x, gi), vec2<$T>(gi, g.y), i == 0);
      }
      if (pole) { g.x = ${LP_POLE}; }
      pmv = pmv * g.x / g.y * numr__lp_sign_$T(mx);
    }
  }
  // (SciPy reads +-1e300 as specfun's overflow: +-inf)
  if (numr_abs_$T(pmv) == ${LP_HUGE}) { return numr_copysign_$T(numr_inf_$T(), pmv); }
  return pmv;
}
""")

PUBLIC = {"yn": "sp_yn", "lpmv": "sp_lpmv"}
