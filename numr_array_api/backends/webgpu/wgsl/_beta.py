"""WGSL templates of scipy.special's incomplete beta (scipy.special on webgpu arrays).

Same template syntax and rules as _real.py and _special.py (whose lgamma series and
Stirling correction these use).

* log B(a, b), a, b > 0 (internal): lgamma(a) + lgamma(b) - lgamma(a + b) for small
  arguments; Stirling's series written as differences (log1p(a / b), no a log a
  cancellation) once the larger (or both) arguments pass LG_BIG.
* betainc / betaincc: Cephes' incbet (power series for b x <= 1, x <= 0.95, else the two
  continued fractions, after the symmetry swap a <-> b, x <-> 1 - x past the mean), as the
  pair (I, 1 - I): the complement of whichever was computed is 1 - it (so the smaller of
  the pair has absolute, not relative, accuracy where the larger one is the computed one:
  the power series with a small a); the prefactor x^a (1 - x)^b / (a B(a, b)) as one exp
  of logarithms taken from the exact x and 1 - x.
* huge shapes (past 1e30 / 1e7, where the fractions' terms overflow): the gamma limit
  P(a, b x) when a < b eps, the normal approximation (leading term) when both are huge.
"""

from ._types import unit_registry

FUNCS, fn = unit_registry()


def _consts(ft):
    f64 = ft == "f64"
    return {
        "BETA_IT": "4000" if f64 else "600",
        "BETA_HUGE": "1e30" if f64 else "1e7",
        # continued fractions' rescaling (Cephes' big = 2^52)
        "BETA_BIG": "4.503599627370496e15" if f64 else "16777216.0",
        "BETA_BIGINV": "2.220446049250313e-16" if f64 else "5.9604645e-8",
    }


SERIES = {"f32": {}, "f64": {}}
CONSTS = {ft: _consts(ft) for ft in ("f32", "f64")}

fn("sp_beta", ["sp_gammaln", "log", "log1p", "exp"], """
// Stirling's correction of lgamma(x), x >= LG_BIG
fn numr__stirc_$T(x: $T) -> $T { let w = 1.0 / x; let w2 = w * w; return w * $P{STIR}(w2); }
// log B(a, b) for 0 < a <= b finite
fn numr__lbeta_pos_$T(a: $T, b: $T) -> $T {
  let s = a + b;
  if (b < ${LG_BIG}) {
    return (numr__lgamma_pos_$T(a) + numr__lgamma_pos_$T(b)) - numr__lgamma_pos_$T(s);
  }
  let r = numr_log1p_$T(a / b);   // log(s / b)
  if (a < ${LG_BIG}) {
    // lgamma(b) - lgamma(s) = -(b - 1/2) log(s / b) - a log(s) + a + stir(b) - stir(s)
    let d = (a - (b - 0.5) * r) + (numr__stirc_$T(b) - numr__stirc_$T(s));
    return (numr__lgamma_pos_$T(a) - a * numr_log_$T(s)) + d;
  }
  // log(2 pi)/2 - log(s)/2 + (a - 1/2) log(a / s) - (b - 1/2) log(s / b) + stirling terms
  let c = (numr__stirc_$T(a) + numr__stirc_$T(b)) - numr__stirc_$T(s);
  return ((${HALF_LOG_2PI} - 0.5 * numr_log_$T(s)) + (a - 0.5) * numr_log_$T(a / s)
          - (b - 0.5) * r) + c;
}
fn numr_betaln_$T(x: $T, y: $T) -> $T {
  if (numr_is_nan_$T(x) || numr_is_nan_$T(y)) { return numr_nan_$T(); }
  let a = min(x, y);
  let b = max(x, y);
  if (a > 0.0) {
    if (numr_is_inf_$T(b)) { return -numr_inf_$T(); }
    return numr__lbeta_pos_$T(a, b);
  }
  return (numr_gammaln_$T(a) + numr_gammaln_$T(b)) - numr_gammaln_$T(a + b);   // log|B|
}
""")

fn("sp_ibeta", ["sp_beta", "sp_igam", "sp_ndtr"], """
// power series of I_x(a, b) for b x <= 1 (Cephes' pseries); lx = log x
fn numr__ibeta_ps_$T(a: $T, b: $T, x: $T, lx: $T) -> $T {
  let ai = 1.0 / a;
  var u = (1.0 - b) * x;
  var v = u / (a + 1.0);
  let t1 = v;
  var t = u;
  var n: $T = 2.0;
  var s: $T = 0.0;
  let z = ${EPS_HALF} * ai;
  for (var i = 0; i < ${BETA_IT}; i++) {
    if (numr_abs_$T(v) <= z) { break; }
    u = (n - b) * x / n;
    t = t * u;
    v = t / (a + n);
    s = s + v;
    n = n + 1.0;
  }
  s = (s + t1) + ai;
  return numr_exp_$T((a * lx - numr_betaln_$T(a, b)) + numr_log_$T(s));
}
// Cephes' continued fractions incbcf (k = 0, in x) and incbd (k = 1, in x / (1 - x))
fn numr__ibeta_cf_$T(a: $T, b: $T, x: $T, xc: $T, kind: i32) -> $T {
  var k1 = a; var k2 = a + b; var k3 = a; var k4 = a + 1.0;
  var k5: $T = 1.0; var k6 = b - 1.0; var k7 = a + 1.0; var k8 = a + 2.0;
  var z = x;
  if (kind == 1) { k2 = b - 1.0; k6 = a + b; z = x / xc; }
  var pkm2: $T = 0.0; var qkm2: $T = 1.0; var pkm1: $T = 1.0; var qkm1: $T = 1.0;
  var ans: $T = 1.0;
  var r: $T = 1.0;
  for (var n = 0; n < ${BETA_IT}; n++) {
    var xk = -(z * k1 * k2) / (k3 * k4);
    var pk = pkm1 + pkm2 * xk;
    var qk = qkm1 + qkm2 * xk;
    pkm2 = pkm1; pkm1 = pk; qkm2 = qkm1; qkm1 = qk;
    xk = (z * k5 * k6) / (k7 * k8);
    pk = pkm1 + pkm2 * xk;
    qk = qkm1 + qkm2 * xk;
    pkm2 = pkm1; pkm1 = pk; qkm2 = qkm1; qkm1 = qk;
    if (!(qk == 0.0)) { r = pk / qk; }
    var t: $T = 1.0;
    if (!(r == 0.0)) { t = numr_abs_$T((ans - r) / r); ans = r; }
    if (t < 3.0 * ${EPS_HALF}) { break; }
    k1 = k1 + 1.0; k3 = k3 + 2.0; k4 = k4 + 2.0; k5 = k5 + 1.0; k7 = k7 + 2.0; k8 = k8 + 2.0;
    if (kind == 1) { k2 = k2 - 1.0; k6 = k6 + 1.0; } else { k2 = k2 + 1.0; k6 = k6 - 1.0; }
    if (numr_abs_$T(qk) + numr_abs_$T(pk) > ${BETA_BIG}) {
      pkm2 = pkm2 * ${BETA_BIGINV}; pkm1 = pkm1 * ${BETA_BIGINV};
      qkm2 = qkm2 * ${BETA_BIGINV}; qkm1 = qkm1 * ${BETA_BIGINV};
    }
    if (numr_abs_$T(qk) < ${BETA_BIGINV} || numr_abs_$T(pk) < ${BETA_BIGINV}) {
      pkm2 = pkm2 * ${BETA_BIG}; pkm1 = pkm1 * ${BETA_BIG};
      qkm2 = qkm2 * ${BETA_BIG}; qkm1 = qkm1 * ${BETA_BIG};
    }
  }
  return ans;
}
// I_x(a, b) of the swapped or unswapped problem, a, b > 0 finite, 0 < x < 1 with xc = 1 - x
// (both given exactly), lx = log x, lxc = log(1 - x)
fn numr__ibeta_one_$T(a: $T, b: $T, x: $T, xc: $T, lx: $T, lxc: $T) -> $T {
  if (b * x <= 1.0 && x <= 0.95) { return numr__ibeta_ps_$T(a, b, x, lx); }
  let y = x * (a + b - 2.0) - (a - 1.0);
  var w: $T;
  if (y < 0.0) { w = numr__ibeta_cf_$T(a, b, x, xc, 0); }
  else { w = numr__ibeta_cf_$T(a, b, x, xc, 1) / xc; }
  return numr_exp_$T(((a * lx + b * lxc) - numr_betaln_$T(a, b)) + numr_log_$T(w / a));
}
// (I_x(a, b), 1 - I_x(a, b)), a, b > 0 finite, 0 < x < 1, xc = 1 - x exactly; past
// BETA_HUGE (where the fractions' terms overflow) the limits: P(a, b x) for a < b eps, the
// normal approximation (leading term, error ~1/sqrt(min(a, b)): such a distribution is
// a step of width ~1/sqrt(a + b) at its mean) when both are huge
fn numr__ibeta_pq_$T(a: $T, b: $T, x: $T, xc: $T) -> vec2<$T> {
  let lx = select(numr_log_$T(x), numr_log1p_$T(-xc), x > 0.5);
  let lxc = select(numr_log_$T(xc), numr_log1p_$T(-x), xc > 0.5);
  return numr__ibeta_pql_$T(a, b, x, xc, lx, lxc);
}
// the same with lx = log x, lxc = log(1 - x) given (x itself may have underflowed)
fn numr__ibeta_pql_$T(a: $T, b: $T, x: $T, xc: $T, lx: $T, lxc: $T) -> vec2<$T> {
  if (max(a, b) > ${BETA_HUGE}) {
    if (a < b * ${EPS_HALF}) { return numr__igam_pq_$T(a, b * x); }
    if (b < a * ${EPS_HALF}) { return numr__igam_pq_$T(b, a * xc).yx; }
    let s = a + b;
    let z = (x - a / s) / (numr_sqrt_$T(a / s) * numr_sqrt_$T(b / s) / numr_sqrt_$T(s));
    return vec2<$T>(numr_ndtr_$T(z), numr_ndtr_$T(-z));
  }
  if (b * x <= 1.0 && x <= 0.95) {
    let p = numr__ibeta_ps_$T(a, b, x, lx);
    return vec2<$T>(p, 1.0 - p);
  }
  if (x > a / (a + b)) {
    let q = numr__ibeta_one_$T(b, a, xc, x, lxc, lx);
    return vec2<$T>(1.0 - q, q);
  }
  let p = numr__ibeta_one_$T(a, b, x, xc, lx, lxc);
  return vec2<$T>(p, 1.0 - p);
}
// with SciPy's special values: NaN outside a, b >= 0, 0 <= x <= 1 and for a = b = 0 or
// a = b = inf; then x = 0 (0) and x = 1 (1); the limits a = 0 or b = inf (1), b = 0 or
// a = inf (0)
fn numr__ibeta_$T(a: $T, b: $T, x: $T, xc: $T) -> vec2<$T> {
  let nan = numr_nan_$T();
  if (numr_is_nan_$T(a) || numr_is_nan_$T(b) || numr_is_nan_$T(x) || numr_is_nan_$T(xc)
      || a < 0.0 || b < 0.0 || x < 0.0 || xc < 0.0) { return vec2<$T>(nan); }
  if ((a == 0.0 && b == 0.0) || (numr_is_inf_$T(a) && numr_is_inf_$T(b))) {
    return vec2<$T>(nan);
  }
  if (x == 0.0) { return vec2<$T>(0.0, 1.0); }
  if (xc == 0.0) { return vec2<$T>(1.0, 0.0); }
  if (a == 0.0 || numr_is_inf_$T(b)) { return vec2<$T>(1.0, 0.0); }
  if (b == 0.0 || numr_is_inf_$T(a)) { return vec2<$T>(0.0, 1.0); }
  return numr__ibeta_pq_$T(a, b, x, xc);
}
fn numr_betainc_$T(a: $T, b: $T, x: $T) -> $T { return numr__ibeta_$T(a, b, x, 1.0 - x).x; }
fn numr_betaincc_$T(a: $T, b: $T, x: $T) -> $T { return numr__ibeta_$T(a, b, x, 1.0 - x).y; }
""")

# (betaln's unit is internal: negative arguments do not follow SciPy's conventions at the
# poles yet, so scipy.special.betaln is not built on it)
PUBLIC = {"betainc": "sp_ibeta", "betaincc": "sp_ibeta"}
