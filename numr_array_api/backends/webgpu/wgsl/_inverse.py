"""WGSL templates of scipy.special's inverse distribution functions (scipy.special on webgpu
arrays): the inverses of the regularized incomplete gamma and beta functions.

Same template syntax and rules as _real.py and _special.py, whose incomplete gamma
(numr__igam_pq, its D(x / a) and a^a e^-a / Gamma(1 + a)) and _beta.py's incomplete beta
(numr__ibeta_pql, the pair (I, 1 - I) from the exact x and 1 - x) these invert.

* gammaincinv / gammainccinv: DiDonato & Morris's (1986) first approximation (their
  equations 21-25 for a < 1, 31-36 above; the normal quantile s of eq. 32 taken from
  ndtri), then Halley's iteration on the smaller of P(a, x) - p and Q(a, x) - q (f''/f' =
  (a - 1)/x - 1), a fixed small number of steps with an early exit once a step is below
  IGAMI_TOL relative.
* betaincinv, as the pair (x, 1 - x): the symmetry I_x(a, b) = 1 - I_(1-x)(b, a) makes the
  target p <= 1/2; the start is the normal approximation (Abramowitz & Stegun 26.5.22) for
  a, b >= 1 or the series' leading term x^a / (a B(a, b)) = p in the lower tail, and the
  two power-law ends of the density otherwise (the start of Numerical Recipes' invbetai);
  then Halley's iteration on log I against log t, t the smaller of x and 1 - x (the other
  formed as 1 - t, so both keep their relative accuracy), inside a bracket that halves any
  step leaving it, with Newton on the series' leading term where I underflows; the
  logarithm of t is carried along, so a t below the normal range keeps its exponent.
* the distributions on them (SciPy's definitions and special values, with the float64
  quirks of its Boost and Cephes routines that tests pin): fdtr / fdtrc / fdtri, chdtri,
  stdtrit, bdtri, nbdtri, pdtri.
"""

from ._types import lit, unit_registry

FUNCS, fn = unit_registry()


def _consts(ft):
    f64 = ft == "f64"
    L = lambda v: lit(v, ft)
    return {
        "EULER": L(0.57721566490153286060651209008240243),
        "IGAMI_IT": "6" if f64 else "5",
        # Halley converges cubically: a relative step below this leaves < eps after it
        "IGAMI_TOL": L(1e-7 if f64 else 1e-4),
        "IBETAI_IT": "12" if f64 else "10",
        "IBETAI_TOL": L(1e-10 if f64 else 1e-5),
        "LOG_MAX": L(709.0 if f64 else 88.0),
        # Student's t: the normal quantile beyond (its error ~ 1/df)
        "STDTRIT_NORMAL": L(1e20 if f64 else 1e10),
        # float64: Boost's floor of an underflowing x at the smallest normal (SciPy's float32
        # values are its float64 ones rounded)
        "STDTRIT_FLOOR": "true" if f64 else "false",
        "SQRT_MIN_NORMAL": L(2.0 ** -511 if f64 else 2.0 ** -63),
        "LOG_MIN_NORMAL": L(-708.3964185322641 if f64 else -87.33654475055310898657),
    }


SERIES = {"f32": {}, "f64": {}}
CONSTS = {ft: _consts(ft) for ft in ("f32", "f64")}

fn("sp_igami", ["sp_igam", "sp_erfinv", "pow", "sqrt"], """
// DiDonato & Morris eq. 25 (the asymptotic inversion for small Q), y = -log(q Gamma(a))
fn numr__igami_dm25_$T(a: $T, y: $T) -> $T {
  let c1 = (a - 1.0) * numr_log_$T(y);
  let c12 = c1 * c1;
  let c13 = c12 * c1;
  let a2 = a * a;
  let c2 = (a - 1.0) * (1.0 + c1);
  let c3 = (a - 1.0) * (-(c12 / 2.0) + (a - 2.0) * c1 + (3.0 * a - 5.0) / 2.0);
  let c4 = (a - 1.0) * ((c13 / 3.0) - (3.0 * a - 5.0) * c12 / 2.0 + (a2 - 6.0 * a + 7.0) * c1
                        + (11.0 * a2 - 46.0 * a + 47.0) / 6.0);
  let c5 = (a - 1.0) * (-(c12 * c12 / 4.0) + (11.0 * a - 17.0) * c13 / 6.0
                        + (-3.0 * a2 + 13.0 * a - 13.0) * c12
                        + (2.0 * a2 * a - 25.0 * a2 + 72.0 * a - 61.0) * c1 / 2.0
                        + (25.0 * a2 * a - 195.0 * a2 + 477.0 * a - 379.0) / 12.0);
  let w = 1.0 / y;
  return y + c1 + w * (c2 + w * (c3 + w * (c4 + w * c5)));
}
// DiDonato & Morris's first approximation of x with P(a, x) = p, Q(a, x) = q, a > 0 finite
fn numr__igami_start_$T(a: $T, p: $T, q: $T) -> $T {
  if (a == 1.0) { return select(-numr_log1p_$T(-p), -numr_log_$T(q), q < 0.9); }
  if (a < 1.0) {
    let g = numr_gamma_$T(a);
    let b = q * g;
    if (b > 0.6 || (b >= 0.45 && a >= 0.3)) {   // eq. 21 (its second form for small q)
      var u: $T;
      if (b * q > 1e-8 && q > 1e-5) { u = numr_pow_$T(p * g * a, 1.0 / a); }
      else { u = numr_exp_$T(-q / a - ${EULER}); }
      return u / (1.0 - u / (a + 1.0));
    }
    if (a < 0.3 && b >= 0.35) {   // eq. 22
      let t = numr_exp_$T(-${EULER} - b);
      let u = t * numr_exp_$T(t);
      return t * numr_exp_$T(u);
    }
    let y = -numr_log_$T(b);
    if (b > 0.1 || a >= 0.3) {
      let u = y - (1.0 - a) * numr_log_$T(y);
      let v = y - (1.0 - a) * numr_log_$T(u);
      if (b > 0.15 || a >= 0.3) { return v - numr_log_$T(1.0 + (1.0 - a) / (1.0 + u)); }   // eq. 23
      return v - numr_log_$T((u * u + 2.0 * (3.0 - a) * u + (2.0 - a) * (3.0 - a))
                             / (u * u + (5.0 - a) * u + 2.0));   // eq. 24
    }
    return numr__igami_dm25_$T(a, y);
  }
  // eq. 31 around the normal quantile s of p
  var s: $T;
  if (p < 0.5) { s = numr_ndtri_$T(p); } else { s = -numr_ndtri_$T(q); }
  let ra = numr_sqrt_$T(a);
  let s2 = s * s;
  var w = a + s * ra + (s2 - 1.0) / 3.0;
  w = w + (s2 * s - 7.0 * s) / (36.0 * ra);
  w = w - (3.0 * s2 * s2 + 7.0 * s2 - 16.0) / (810.0 * a);
  w = w + (9.0 * s2 * s2 * s + 256.0 * s2 * s - 433.0 * s) / (38880.0 * a * ra);
  if (a >= 500.0 && numr_abs_$T(1.0 - w / a) < 1e-6) { return w; }
  if (p > 0.5) {
    if (w < 3.0 * a) { return w; }
    let d = max(2.0, a * (a - 1.0));
    let lb = numr_log_$T(q) + numr__lgamma_pos_$T(a);
    if (lb < -d * 2.3) { return numr__igami_dm25_$T(a, -lb); }
    let u = -lb + (a - 1.0) * numr_log_$T(w) - numr_log_$T(1.0 + (1.0 - a) / (1.0 + w));   // eq. 33
    return -lb + (a - 1.0) * numr_log_$T(u) - numr_log_$T(1.0 + (1.0 - a) / (1.0 + u));
  }
  var z = w;
  let ap1 = a + 1.0;
  let v = numr_log_$T(p) + numr__lgamma_pos_$T(ap1);
  if (w < 0.15 * ap1) {   // eq. 35: three fixed-point steps
    z = numr_exp_$T((v + w) / a);
    var sl = numr_log1p_$T(z / ap1 * (1.0 + z / (a + 2.0)));
    z = numr_exp_$T((v + z - sl) / a);
    sl = numr_log1p_$T(z / ap1 * (1.0 + z / (a + 2.0)));
    z = numr_exp_$T((v + z - sl) / a);
    sl = numr_log1p_$T(z / ap1 * (1.0 + z / (a + 2.0) * (1.0 + z / (a + 3.0))));
    z = numr_exp_$T((v + z - sl) / a);
  }
  if (z <= 0.01 * ap1 || z > 0.7 * ap1) { return z; }
  // eq. 36 with the partial sum S_N of eq. 34
  var sn: $T = 1.0;
  var term: $T = 1.0;
  for (var i = 1; i < 100; i++) {
    term = term * z / (a + $T(i));
    sn = sn + term;
    if (term < 1e-4) { break; }
  }
  let ls = numr_log_$T(sn);
  let zz = numr_exp_$T((v + z - ls) / a);
  return zz * (1.0 - (a * numr_log_$T(zz) - zz - v + ls) / (a - zz));
}
// x^a e^-x / Gamma(a) = a exp(-a D(x / a)) a^a e^-a / Gamma(1 + a), a, x > 0 finite
fn numr__igam_fac_$T(a: $T, x: $T) -> $T {
  let r = x / a;
  if (numr_is_inf_$T(r)) { return 0.0; }
  let d = numr__igam_d_$T(r, (x - a) / a);
  return a * numr__opq_$T(numr_exp_$T(-(a * d)) * numr__igam_g_$T(a));
}
// x with P(a, x) = p and Q(a, x) = q (p + q = 1, both given), a > 0 finite, 0 < p, q < 1
fn numr__igami_$T(a: $T, p: $T, q: $T) -> $T {
  var x = numr__igami_start_$T(a, p, q);
  let lower = p <= q;
  for (var i = 0; i < ${IGAMI_IT}; i++) {
    if (!(x > 0.0) || !numr_is_finite_$T(x)) { break; }
    let fac = numr__igam_fac_$T(a, x);
    if (!(fac > 0.0) || !numr_is_finite_$T(fac)) { break; }
    let pq = numr__igam_pq_$T(a, x);
    var f = pq.x - p;
    if (!lower) { f = q - pq.y; }
    let r = f * x / fac;             // f / f'
    let c = (a - 1.0) / x - 1.0;     // f'' / f'
    var dx = r;
    let den = 1.0 - 0.5 * r * c;
    if (numr_is_finite_$T(c) && den >= 0.5 && den <= 2.0) { dx = r / den; }
    var xn = x - dx;
    if (!(xn > 0.0)) { xn = 0.125 * x; }
    let done = numr_abs_$T(dx) <= ${IGAMI_TOL} * x;
    x = xn;
    if (done) { break; }
  }
  return x;
}
// a = +0 (and float64 subnormals, whose Gamma overflows): SciPy's igami gives 0 where
// q <= 1e-5 and NaN elsewhere (P(0, x) = 1); a = -0 and a = inf: NaN
fn numr__igam_inv_$T(a: $T, p: $T, q: $T) -> $T {
  if (numr_is_inf_$T(a) || numr_signbit_$T(a)) { return numr_nan_$T(); }
  if (a == 0.0) { return select(numr_nan_$T(), 0.0, q <= 1e-5); }
  return numr__igami_$T(a, p, q);
}
fn numr_gammaincinv_$T(a: $T, p: $T) -> $T {
  if (numr_is_nan_$T(a) || numr_is_nan_$T(p) || a < 0.0 || p < 0.0 || p > 1.0) {
    return numr_nan_$T();
  }
  if (p == 0.0) { return 0.0; }
  if (p == 1.0) { return numr_inf_$T(); }
  return numr__igam_inv_$T(a, p, 1.0 - p);
}
fn numr_gammainccinv_$T(a: $T, q: $T) -> $T {
  if (numr_is_nan_$T(a) || numr_is_nan_$T(q) || a < 0.0 || q < 0.0 || q > 1.0) {
    return numr_nan_$T();
  }
  if (q == 0.0) { return numr_inf_$T(); }
  if (q == 1.0) { return 0.0; }
  return numr__igam_inv_$T(a, 1.0 - q, q);
}
""")

fn("sp_ibetai", ["sp_ibeta", "sp_erfinv", "sqrt"], """
// log(e^u + e^v)
fn numr__lse_$T(u: $T, v: $T) -> $T {
  return max(u, v) + numr_log1p_$T(numr_exp_$T(-numr_abs_$T(u - v)));
}
// (log x, log(1 - x)) of the start for I_x(a, b) = p <= 1/2, a, b > 0 finite, lp = log p,
// lb = log B(a, b)
fn numr__ibeta_start_$T(a: $T, b: $T, p: $T, q: $T, lp: $T, lb: $T) -> vec2<$T> {
  if (a >= 1.0 && b >= 1.0) {
    // x = a / (a + b e^(2w)) (Abramowitz & Stegun 26.5.22), y the upper normal quantile of p
    let y = -numr_ndtri_$T(p);
    let lam = (y * y - 3.0) / 6.0;
    let ia = 1.0 / (2.0 * a - 1.0);
    let ib = 1.0 / (2.0 * b - 1.0);
    let h = 2.0 / (ia + ib);
    let w = y * numr_sqrt_$T(h + lam) / h - (ib - ia) * (lam + 5.0 / 6.0 - 2.0 / (3.0 * h));
    let r = numr_log_$T(b / a) + 2.0 * w;          // log((1 - x) / x)
    let lxn = -(max(r, 0.0) + numr_log1p_$T(numr_exp_$T(-numr_abs_$T(r))));
    // the lower tail: the series' leading term x^a / (a B(a, b)) = p
    let lxt = (lp + numr_log_$T(a) + lb) / a;
    if (lxt < numr_log_$T(0.5 * a / (a + b)) && lxt > lxn) {
      return vec2<$T>(lxt, numr_log1p_$T(-numr_exp_$T(lxt)));
    }
    return vec2<$T>(lxn, lxn + r);
  }
  // I ~ x^a / (a B') near 0 and 1 - (1 - x)^b / (b B') near 1, B' = t + u their weights
  let lab = numr_log_$T(a + b);
  let lt = a * (numr_log_$T(a) - lab) - numr_log_$T(a);
  let lu = b * (numr_log_$T(b) - lab) - numr_log_$T(b);
  let lw = numr__lse_$T(lt, lu);
  if (lp < lt - lw) {
    let lx = min((numr_log_$T(a) + lw + lp) / a, 0.0);
    return vec2<$T>(lx, numr_log1p_$T(-numr_exp_$T(lx)));
  }
  let lxc = min((numr_log_$T(b) + lw + numr_log_$T(q)) / b, 0.0);
  return vec2<$T>(numr_log1p_$T(-numr_exp_$T(lxc)), lxc);
}
// (x, 1 - x, log x, log(1 - x)) with I_x(a, b) = p, 1 - I_x(a, b) = q (p + q = 1, both
// given), a, b > 0 finite, 0 < p, q < 1. The smaller t of x and 1 - x is the variable (the
// other is 1 - t); its logarithm is carried along, so a t below the normal range keeps its
// exponent
fn numr__ibeta_inv_$T(a0: $T, b0: $T, p0: $T, q0: $T) -> vec4<$T> {
  let swap = p0 > q0;
  var a = a0; var b = b0; var p = p0; var q = q0;
  if (swap) { a = b0; b = a0; p = q0; q = p0; }
  let lb = numr_betaln_$T(a, b);
  let lp = numr_log_$T(p);
  let st = numr__ibeta_start_$T(a, b, p, q, lp, lb);
  var lx = st.x;
  var lxc = st.y;
  var x = numr_exp_$T(lx);
  var xc = numr_exp_$T(lxc);
  var lo = vec2<$T>(-numr_inf_$T(), 0.0);   // bracket ends as (log x, log(1 - x))
  var hi = vec2<$T>(0.0, -numr_inf_$T());
  for (var i = 0; i < ${IBETAI_IT}; i++) {
    if (!numr_is_finite_$T(lx) || !numr_is_finite_$T(lxc)) { break; }
    let small = lx <= lxc;
    let t = select(xc, x, small);
    let lt = select(lxc, lx, small);
    let sg = select($T(-1.0), $T(1.0), small);                // d t / d x
    let lxd = a * lx + b * lxc - lb;                            // log(x (1 - x) I'(x))
    let f = numr__ibeta_pql_$T(a, b, x, xc, lx, lxc).x;
    var step: $T;
    if (f > 0.0) {
      let h = numr_log_$T(f) - lp;
      if (h < 0.0) { lo = vec2<$T>(lx, lxc); } else { hi = vec2<$T>(lx, lxc); }
      let g1 = sg * numr_exp_$T(lxd - select(lx, lxc, small)) / f;   // d log I / d log t
      // t ((a - 1) / x - (b - 1) / (1 - x)), without dividing by t
      var c = (a - 1.0) * (xc / x) - (b - 1.0);
      if (small) { c = (a - 1.0) - (b - 1.0) * (x / xc); }
      let g2 = g1 * (1.0 + sg * c - g1);
      let den = clamp(1.0 - h * g2 / (2.0 * g1 * g1), 0.5, 2.0);
      step = -h / g1 / den;
    } else {
      // I underflowed (below the root): Newton on log(x^a (1 - x)^b / (a B)) = log p
      lo = vec2<$T>(lx, lxc);
      let h = (lxd - numr_log_$T(a)) - lp;
      let d = select(b - a * (xc / x), a - b * (x / xc), small);
      step = -h / d;
    }
    if (!numr_is_finite_$T(step)) { break; }
    step = clamp(step, -${LOG_MAX}, ${LOG_MAX});
    var ltn = lt;
    var tn = t;
    var lon = select(lx, lxc, small);
    for (var k = 0; k < 64; k++) {
      ltn = lt + step;
      tn = select(numr_exp_$T(ltn), t * numr_exp_$T(step), t >= ${MIN_NORMAL});
      if (tn >= ${MIN_NORMAL}) { ltn = numr_log_$T(tn); }
      lon = numr_log1p_$T(-tn);
      var inside = ltn <= lo.y && ltn >= hi.y;
      if (small) { inside = ltn >= lo.x && ltn <= hi.x; }
      if (inside && tn < 1.0) { break; }
      step = 0.5 * step;
    }
    if (small) { x = tn; xc = 1.0 - tn; lx = ltn; lxc = lon; }
    else { xc = tn; x = 1.0 - tn; lxc = ltn; lx = lon; }
    if (numr_abs_$T(step) <= ${IBETAI_TOL}) { break; }
  }
  if (swap) { return vec4<$T>(xc, x, lxc, lx); }
  return vec4<$T>(x, xc, lx, lxc);
}
// with Boost's (SciPy's) special values: NaN outside a, b > 0, 0 <= p <= 1; p = 0 -> 0,
// p = 1 -> 1; NaN for an infinite shape
fn numr__ibetainv_$T(a: $T, b: $T, p: $T) -> vec4<$T> {
  let nan = numr_nan_$T();
  if (numr_is_nan_$T(a) || numr_is_nan_$T(b) || numr_is_nan_$T(p) || a <= 0.0 || b <= 0.0
      || p < 0.0 || p > 1.0) { return vec4<$T>(nan); }
  if (p == 0.0) { return vec4<$T>(0.0, 1.0, -numr_inf_$T(), 0.0); }
  if (p == 1.0) { return vec4<$T>(1.0, 0.0, 0.0, -numr_inf_$T()); }
  if (numr_is_inf_$T(a) || numr_is_inf_$T(b)) { return vec4<$T>(nan); }
  return numr__ibeta_inv_$T(a, b, p, 1.0 - p);
}
fn numr_betaincinv_$T(a: $T, b: $T, p: $T) -> $T { return numr__ibetainv_$T(a, b, p).x; }
""")

fn("sp_invdist", ["sp_igami", "sp_ibetai", "tan", "rounding"], """
// C's (int) conversion of x86 (SciPy's legacy loops): truncation, INT_MIN outside the range
fn numr__int32_$T(v: $T) -> $T {
  if (!(numr_abs_$T(v) < 2147483648.0)) { return -2147483648.0; }
  return numr_trunc_$T(v);
}
// the incomplete beta argument of the F distribution as the pair (w, 1 - w),
// w = a x / (b + a x), both from quotients (no cancellation in 1 - w, no overflow of a x)
fn numr__fdtr_w_$T(a: $T, b: $T, x: $T) -> vec2<$T> {
  let ax = a * x;
  if (ax <= b) { let d = b + ax; return vec2<$T>(ax / d, b / d); }
  let r = (b / x) / a;
  return vec2<$T>(1.0 / (1.0 + r), r / (1.0 + r));
}
// (fdtr, fdtrc): NaN outside a, b > 0, x >= 0; x = inf: (1, 0), also for infinite shapes
// (which give NaN for finite x)
fn numr__fdtr_$T(a: $T, b: $T, x: $T) -> vec2<$T> {
  let nan = vec2<$T>(numr_nan_$T());
  if (numr_is_nan_$T(a) || numr_is_nan_$T(b) || numr_is_nan_$T(x) || a <= 0.0 || b <= 0.0
      || x < 0.0) { return nan; }
  if (numr_is_inf_$T(x)) { return vec2<$T>(1.0, 0.0); }
  if (numr_is_inf_$T(a) || numr_is_inf_$T(b)) { return nan; }
  let w = numr__fdtr_w_$T(a, b, x);
  return numr__ibeta_$T(0.5 * a, 0.5 * b, w.x, w.y);
}
fn numr_fdtr_$T(a: $T, b: $T, x: $T) -> $T { return numr__fdtr_$T(a, b, x).x; }
fn numr_fdtrc_$T(a: $T, b: $T, x: $T) -> $T { return numr__fdtr_$T(a, b, x).y; }
// x = (b / a) w / (1 - w), I_w(a / 2, b / 2) = p (float64: w and 1 - w floored as Boost's)
fn numr_fdtri_$T(a: $T, b: $T, p: $T) -> $T {
  if (numr_is_nan_$T(a) || numr_is_nan_$T(b) || numr_is_nan_$T(p) || a <= 0.0 || b <= 0.0
      || p < 0.0 || p > 1.0 || numr_is_inf_$T(a) || numr_is_inf_$T(b)) { return numr_nan_$T(); }
  if (p == 0.0) { return 0.0; }
  if (p == 1.0) { return numr_inf_$T(); }
  let ha = 0.5 * a;
  let hb = 0.5 * b;
  if (ha == 0.0 || hb == 0.0) { return numr_nan_$T(); }
  var w = numr__ibeta_inv_$T(ha, hb, p, 1.0 - p);
  if (${STDTRIT_FLOOR}) {   // (float64: Boost's floor of an underflowing x or 1 - x)
    if (w.x < ${MIN_NORMAL}) { w = vec4<$T>(${MIN_NORMAL}, w.y, ${LOG_MIN_NORMAL}, w.w); }
    if (w.y < ${MIN_NORMAL}) { w = vec4<$T>(w.x, ${MIN_NORMAL}, w.z, ${LOG_MIN_NORMAL}); }
  }
  let r = b / a;
  if (w.x >= ${MIN_NORMAL} && w.y >= ${MIN_NORMAL} && r >= ${MIN_NORMAL} && numr_is_finite_$T(r)) {
    return (r * w.x) / w.y;   // (overflows only where the quotient does)
  }
  return numr_exp_$T((numr_log_$T(b) - numr_log_$T(a)) + (w.z - w.w));
}
fn numr_chdtri_$T(df: $T, y: $T) -> $T {
  if (y < 0.0 || y > 1.0) { return numr_nan_$T(); }
  return 2.0 * numr_gammainccinv_$T(0.5 * df, y);
}
// Student's t quantile: t^2 = df (1 - x) / x with I_x(df / 2, 1 / 2) = 2 min(p, 1 - p);
// the closed forms for df = 1, 2; the normal quantile past STDTRIT_NORMAL. SciPy's (Boost's)
// values: +inf for p = 0 and p = 1; float64: +inf where t overflows and x floored at the
// smallest normal (SciPy's float32 values are its float64 ones rounded)
fn numr_stdtrit_$T(df: $T, p: $T) -> $T {
  if (numr_is_nan_$T(df) || numr_is_nan_$T(p) || df <= 0.0 || p < 0.0 || p > 1.0) {
    return numr_nan_$T();
  }
  if (p == 0.0 || p == 1.0) { return numr_inf_$T(); }
  if (p == 0.5) { return 0.0; }
  if (df > ${STDTRIT_NORMAL}) { return numr_ndtri_$T(p); }
  if (0.5 * df == 0.0) { return numr_nan_$T(); }
  let q = select(p, 1.0 - p, p > 0.5);
  var t: $T;
  if (df == 1.0) {
    // cot(pi q) = tan(pi (1/2 - q)) (1/2 - q exact for q > 1/4)
    if (q > 0.25) { t = numr_tan_$T(${PI_T} * (0.5 - q)); }
    else { t = 1.0 / numr_tan_$T(${PI_T} * q); }
  } else if (df == 2.0) {
    t = (1.0 - 2.0 * q) / numr_sqrt_$T(2.0 * q * (1.0 - q));
  } else {
    let z = 2.0 * q;
    let w = numr__ibeta_inv_$T(0.5 * df, 0.5, z, 1.0 - z);
    if (w.x >= ${MIN_NORMAL}) { t = numr_sqrt_$T(df) * (numr_sqrt_$T(w.y) / numr_sqrt_$T(w.x)); }
    else if (${STDTRIT_FLOOR}) { t = numr_sqrt_$T(df) * (numr_sqrt_$T(w.y) / ${SQRT_MIN_NORMAL}); }
    else { t = numr_exp_$T(0.5 * ((numr_log_$T(df) + w.w) - w.z)); }
  }
  if (numr_is_inf_$T(t) && ${STDTRIT_FLOOR}) { return t; }
  return select(t, -t, p < 0.5);
}
// binomial: 1 - p = x with I_x(n - k, k + 1) = y (k = floor(k), n as C's int)
fn numr_bdtri_$T(k: $T, n: $T, y: $T) -> $T {
  if (numr_is_nan_$T(k) || numr_is_nan_$T(n) || numr_is_inf_$T(n)) { return numr_nan_$T(); }
  let nn = numr__int32_$T(n);
  let fk = numr_floor_$T(k);
  if (y < 0.0 || y > 1.0 || fk < 0.0 || nn <= fk || numr_is_nan_$T(y)) { return numr_nan_$T(); }
  let dn = nn - fk;
  if (fk == 0.0) { return -numr_expm1_$T(numr_log_$T(y) / dn); }   // 1 - y^(1/dn)
  return numr__ibetainv_$T(dn, fk + 1.0, y).y;
}
// negative binomial: p with I_p(n, k + 1) = y (k, n as C's int)
fn numr_nbdtri_$T(k: $T, n: $T, y: $T) -> $T {
  if (numr_is_nan_$T(k) || numr_is_nan_$T(n)) { return numr_nan_$T(); }
  let kk = numr__int32_$T(k);
  let nn = numr__int32_$T(n);
  if (y < 0.0 || y > 1.0 || kk < 0.0 || numr_is_nan_$T(y)) { return numr_nan_$T(); }
  if (y == 0.0) { return 0.0; }
  if (y == 1.0) { return 1.0; }
  if (nn <= 0.0) { return numr_nan_$T(); }
  return numr__ibeta_inv_$T(nn, kk + 1.0, y, 1.0 - y).x;
}
// Poisson: m with Q(k + 1, m) = y (k as C's int; its k + 1 overflows at INT_MAX)
fn numr_pdtri_$T(k: $T, y: $T) -> $T {
  if (numr_is_nan_$T(k)) { return k; }
  let kk = numr__int32_$T(k);
  if (kk < 0.0 || kk >= 2147483647.0 || y < 0.0 || y >= 1.0) { return numr_nan_$T(); }
  return numr_gammainccinv_$T(kk + 1.0, y);
}
""")

PUBLIC = {"gammaincinv": "sp_igami", "gammainccinv": "sp_igami", "betaincinv": "sp_ibetai"}
PUBLIC.update({n: "sp_invdist" for n in ("fdtr", "fdtrc", "fdtri", "chdtri", "stdtrit", "bdtri",
                                         "nbdtri", "pdtri")})

