"""WGSL templates of SciPy's special functions (scipy.special on webgpu arrays).

Same template syntax and rules as _real.py (barriers on every rounding that matters, bit
tests for NaN / Inf, no fma). The coefficients are exact rationals (Taylor / asymptotic
series, Bernoulli numbers) computed here, or values of zeta(k) - 1 (mpmath, 17 digits).

Methods (x > 0 unless said; the Bessel functions are in _bessel.py):
* gammaln: lgamma(2 + e) = (1 - gamma) e + sum_k (-1)^k (zeta(k) - 1) e^k / k for |e| <= 1/2
  (so the zeros at 1 and 2 keep their relative accuracy: e = x - 1, x - 2 are exact), the
  recurrence down to [1.5, 2.5) below LG_BIG, Stirling's series above, the reflection formula
  with an exact sin(pi x) reduction for x < 0.
* ndtr: erf / erfc of x / sqrt(2) with the rounding of the quotient (relative ~x^2 eps in the
  tail) corrected to first order; log_ndtr: log of that, the asymptotic series below the
  point where ndtr would lose precision.
* erfinv / ndtri: Halley's iteration on erf from the Taylor start for |y| <= 1/2; Newton's
  iteration on log(erfc(z)) = log(erfcx(z)) - z^2 (no underflow, nearly linear) from
  Winitzki's closed-form start for the tails.
* erfcx: exp(x^2) erfc(x) with x^2 split for x < 1/2, the erfc pieces' G(x) on [1/2, 4),
  the library's H(1/x^2) / x, then the asymptotic series.
* gamma / rgamma: exp of the lgamma series near 1 and 2, the recurrence product, Stirling
  with x^((x - 1/2)/2) squared through the library's pow; psi: Taylor series at its zero,
  psi(2 + e) series, recurrence, asymptotic series, reflection with an exact cot(pi x).
* gammainc / gammaincc: x^a e^-x / Gamma(1 + a) = exp(-a D(x/a)) a^a e^-a / Gamma(1 + a)
  (no a log x - x cancellation), power series / continued fraction, Temme's leading term for
  huge a.
* exp1 / expi: power series and a backward-evaluated continued fraction (E1); Taylor series
  at Ei's zero, power and asymptotic series (Ei).
"""

from fractions import Fraction

import numpy as np

from ._types import lit, rounded, unit_registry

FUNCS, fn = unit_registry()


# zeta(k) - 1 for k = 2.. (mpmath.zeta(k) - 1, 40 digits, rounded)
_ZETA_M1 = [
    0.6449340668482264, 0.2020569031595943, 0.08232323371113819, 0.03692775514336993,
    0.01734306198444914, 0.008349277381922827, 0.00407735619794434, 0.0020083928260822143,
    0.0009945751278180853, 0.0004941886041194645, 0.0002460865533080483,
    0.00012271334757848915, 6.124813505870483e-05, 3.058823630702049e-05,
    1.528225940865187e-05, 7.637197637899763e-06, 3.81729326499984e-06,
    1.908212716553939e-06, 9.539620338727962e-07, 4.769329867878064e-07,
    2.38450502727733e-07, 1.1921992596531106e-07, 5.960818905125948e-08,
    2.980350351465228e-08, 1.4901554828365043e-08, 7.45071178983543e-09,
    3.725334024788457e-09, 1.862659723513049e-09]
_ONE_MINUS_EULER = 0.42278433509846713
# the positive zero of psi (hi + lo) and psi's Taylor coefficients there,
# (-1)^(k+1) zeta(k + 1, x0) for k >= 1 (mpmath)
_PSI_ROOT = {"f64": (1.4616321449683622, 9.549995429965697e-17),
             "f32": (1.4616321325302124, 1.2438149938918909e-08)}
_PSI_TAYLOR = [
    0.9676722454476212, -0.4427631689835921, 0.258499760955651, -0.16394270544240652,
    0.10782405069126237, -0.07219956125645471, 0.04880428816414311, -0.03316112647484736,
    0.022597648232218104, -0.01542476590494896, 0.010538791616612175, -0.007204534386356869,
    0.004926781395729853, -0.003369801655439328, 0.002305126326734928,
    -0.0015769367714301972, 0.0010788252019162967, -0.0007380709389960052,
    0.000504953265834602, -0.0003454680251063077, 0.00023635601564027053]


# the positive zero of Ei (hi + lo) and Ei's Taylor coefficients there (mpmath)
_EI_ROOT = {"f64": (0.3725074107813666, 1.3140183414386028e-17),
            "f32": (0.3725074231624603, -1.2381093692686445e-08)}
_EI_TAYLOR = [
    3.8962157339071672, -3.2816078663985615, 6.522376145438925, -12.969697383536516,
    27.88629796294205, -62.37880152891542, 143.5349488096751, -337.1558271787469,
    804.5318399821382, -1943.7966457234988, 4743.765650402431, -11673.463991167164,
    28926.95530543545, -72107.9458683716, 180669.55858939196, -454696.21885446657,
    1148834.5468177444, -2912721.6638508374, 7407692.958000587, -18891727.000381533]


def _bernoulli(n):
    """B_0..B_n as Fractions (Akiyama-Tanigawa)."""
    out, a = [], [Fraction(0)] * (n + 1)
    for m in range(n + 1):
        a[m] = Fraction(1, m + 1)
        for j in range(m, 0, -1):
            a[j - 1] = j * (a[j - 1] - a[j])
        out.append(a[0])
    return out


def _series(ft):
    f64 = ft == "f64"
    n_lg = 28 if f64 else 13
    n_stir = 8 if f64 else 3
    b = _bernoulli(2 * n_stir + 2)
    s = {
        # lgamma(2 + e) / e
        "LG2": [_ONE_MINUS_EULER] + [(-1) ** k * _ZETA_M1[k - 2] / k for k in range(2, n_lg + 1)],
        # Stirling's correction sum_k B_2k / (2k (2k - 1) x^(2k - 1)) = w P(w^2), w = 1/x
        "STIR": [float(b[2 * k] / (2 * k * (2 * k - 1))) for k in range(1, n_stir + 1)],
        # psi(2 + e) = d/de lgamma(2 + e)
        "PSI2": [_ONE_MINUS_EULER] + [(-1) ** k * _ZETA_M1[k - 2] for k in range(2, n_lg + 1)],
        # Ei(x0 + d) / d
        "EIR": _EI_TAYLOR[:20 if f64 else 9],
        # psi(x0 + d) / d
        "PSIR": _PSI_TAYLOR[:21 if f64 else 10],
        # psi(x) - log(x) + 1/(2x) = -w P(w), w = 1/x^2: B_2k / (2k)
        "PSIA": [float(b[2 * k] / (2 * k)) for k in range(1, n_stir + 2)],
        # log(ndtr(x)) + x^2/2 + log(-x sqrt(2 pi)) = log1p(w P(w)), w = 1/x^2:
        # P's coefficients (-1)^k (2k - 1)!!, k >= 1
        "LNDA": [float((-1) ** k * np.prod(np.arange(1, 2 * k, 2, dtype=float)))
                 for k in range(1, 13 if f64 else 8)],
        # erfcx(x) x sqrt(pi) = sum_k (-1)^k (2k - 1)!! / (2 x^2)^k
        "ERFCXA": [float((-1) ** k * np.prod(np.arange(1, 2 * k, 2, dtype=float)))
                   for k in range(0, 9 if f64 else 6)],
    }
    return rounded(s, ft)


def _consts(ft):
    f64 = ft == "f64"
    L = lambda v: lit(v, ft)
    # 1/sqrt(2) rounded to the dtype
    s1 = 0.7071067811865476 if f64 else 0.7071067690849304
    return {
        "LG_BIG": L(10.0 if f64 else 8.0),
        "LGAM_POLE": L(5.562684646268003e-309 if f64 else 0.0),
        # series / continued fraction terms, enough up to IGAM_TEMME (~sqrt(2 a log(1/eps)))
        "IGAM_IT": "20000" if f64 else "1000",
        "IGAM_TEMME": L(5e6 if f64 else 1e4),
        "IGAM_DN": "24" if f64 else "11",
        "EI_ROOT_H": L(_EI_ROOT[ft][0]), "EI_ROOT_L": L(_EI_ROOT[ft][1]),
        "EI_ASY": L(40.0 if f64 else 20.0),
        "E1_SER": L(0.5),
        "E1_DEPTH0": L(20.0 if f64 else 10.0), "E1_DEPTH1": L(300.0 if f64 else 60.0),
        "GAM_MAX": L(171.62437695630272 if f64 else 35.040096),
        "SQRT_2PI": L(2.5066282746310005024157652848110453),
        "PI_T": L(3.1415926535897932384626433832795029),
        "PSI_ROOT_H": L(_PSI_ROOT[ft][0]), "PSI_ROOT_L": L(_PSI_ROOT[ft][1]),
        "HALF_LOG_2PI_M_HALF": L(0.41893853320467274178032973640561764),
        "HALF_LOG_2PI": L(0.91893853320467274178032973640561764),
        "LOG_PI": L(1.1447298858494001741434273513530587),
        "SQRT1_2_H": L(s1),
        "SQRT_PI_2": L(0.88622692545275801364908374167057259),
        "INV_SQRTPI": L(0.56418958354775628694807945156077259),
        "LNDTR_ASYM": L(-20.0 if f64 else -10.0),
        "ERFINV_IT": "3" if f64 else "2",
        "ERFCINV_IT": "4" if f64 else "3",
    }


SERIES = {ft: _series(ft) for ft in ("f32", "f64")}
CONSTS = {ft: _consts(ft) for ft in ("f32", "f64")}

fn("sp_gammaln", ["log", "log1p", "sin", "rounding", "dd"], """
// lgamma(2 + e), |e| <= 1/2
fn numr__lg2_$T(e: $T) -> $T { return e * $P{LG2}(e); }
// lgamma(1 + e), |e| <= 1/2 (lgamma(2 + e) - log(1 + e): both ~e, no cancellation)
fn numr__lg1_$T(e: $T) -> $T { return numr__lg2_$T(e) - numr_log1p_$T(e); }
// lgamma(x), x > 0 finite, as lgamma(2 + e) + s (log(v) + c) with one log whatever the range
// (a warp holding every range runs one path, not four):
//   x < 0.5:      e = x,      -(log1p(x) + log(x)) = -log(x (1 + x)), x (1 + x) = v + c v
//                 exactly (two-sum and two-product), log(v + c v) = log(v) + c to first order
//   [0.5, 1.5):   e = x - 1,  -log1p(e) = -log(x) (x = 1 + e exactly; the log keeps its
//                 relative accuracy near 1: its reduction's f = x - 1 is exact)
//   [1.5, 2.5):   e = x - 2,  v = 1
//   [2.5, BIG):   e = y - 2,  log(v), v = (x - 1)(x - 2)...y, every x - k exact
fn numr__lgamma_pos_$T(x: $T) -> $T {
  if (x >= ${LG_BIG}) {
    let w = 1.0 / x;
    let w2 = w * w;
    return (x - 0.5) * (numr_log_$T(x) - 1.0) + (${HALF_LOG_2PI_M_HALF} + w * $P{STIR}(w2));
  }
  var e = x;
  var v = x;
  var c: $T = 0.0;
  if (x < 0.5) {
    let s = numr__fast_two_sum_$T(1.0, x);
    let p = numr__two_prod_$T(x, s.x);
    v = p.x;
    c = (p.y + x * s.y) / p.x;
  } else if (x < 1.5) { e = x - 1.0; }
  else if (x < 2.5) { e = x - 2.0; v = 1.0; }
  else {
    var y = x;
    var q: $T = 1.0;
    loop { y = y - 1.0; q = q * y; if (y < 2.5) { break; } }
    e = y - 2.0;
    v = q;
  }
  let l = numr_log_$T(v) + c;
  let g = numr__lg2_$T(e);
  return select(g + l, g - l, x < 1.5);
}
// |sin(pi x)| for x >= 0 finite: x - round(x) is exact
fn numr__abs_sinpi_$T(x: $T) -> $T {
  let r = numr_abs_$T(x - numr_round_$T(x));
  return numr_sin_$T(numr__opq_$T(r * ${PI_H}) + r * ${PI_L});
}
fn numr_gammaln_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (numr_is_inf_$T(x)) { return x; }
  if (x > 0.0) {
    if (x < ${LGAM_POLE}) { return numr_inf_$T(); }   // SciPy's (float64: 1/x overflows)
    return numr__lgamma_pos_$T(x);
  }
  if (numr_trunc_$T(x) == x) { return numr_inf_$T(); }   // poles (and both zeros)
  if (x > -${LGAM_POLE}) { return numr_inf_$T(); }
  // reflection: lgamma(x) = log(pi / |sin(pi x)|) - lgamma(1 + a), a = -x
  let a = -x;
  var l1: $T;
  if (a < 0.5) { l1 = numr__lg1_$T(a); } else { l1 = numr__lgamma_pos_$T(a) + numr_log_$T(a); }
  return (${LOG_PI} - numr_log_$T(numr__abs_sinpi_$T(a))) - l1;
}
""")

fn("sp_ndtr", ["erf", "dd"], """
// ndtr(-a) = erfc(a / sqrt(2)) / 2 = exp(-a^2 / 2) G(z) / 2 for a >= 1 finite, z = a / sqrt(2)
// rounded: the exponential takes the exact a (a split a^2 / 2), and G(z) is flat enough
// (|z G' / G| < 1) that z's rounding moves it by less than half an ulp
fn numr__ndtr_neg_$T(a: $T) -> $T {
  let z = a * ${SQRT1_2_H};
  if (z >= ${ERFC_ZERO}) { return 0.0; }   // (also keeps inf out of the split)
  return 0.5 * (numr__exp_negsq_$T(a, 0.5) * numr__erfc_g_$T(z));
}
fn numr_ndtr_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (numr_is_inf_$T(x)) { return select($T(1.0), $T(0.0), x < 0.0); }
  let a = numr_abs_$T(x);
  if (a < 1.0) {   // erf's polynomial (|x / sqrt(2)| < 1), without erf's range checks
    let y = x * ${SQRT1_2_H};
    let y2 = y * y;
    return 0.5 + 0.5 * (y * $P{ERF}(y2));
  }
  let y = numr__ndtr_neg_$T(a);
  if (x > 0.0) { return 1.0 - y; }
  return y;
}
""")

fn("sp_log_ndtr", ["sp_ndtr", "log", "log1p"], """
fn numr_log_ndtr_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x > 0.0) {
    if (x < 1.0) { return numr_log1p_$T(-0.5 * numr_erfc_$T(x * ${SQRT1_2_H})); }
    return numr_log1p_$T(-numr__ndtr_neg_$T(x));   // (inf: log1p(-0) = -0)
  }
  if (x > ${LNDTR_ASYM}) { return numr_log_$T(numr_ndtr_$T(x)); }
  if (numr_is_inf_$T(x)) { return x; }
  let w = 1.0 / (x * x);
  let h = numr__opq_$T(0.5 * x) * x;
  return ((-h - numr_log_$T(-x)) - ${HALF_LOG_2PI}) + numr_log1p_$T(w * $P{LNDA}(w));
}
""")

fn("sp_erfcx", ["erf", "dd"], """
fn numr_erfcx_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x < 0.5) {
    if (numr_is_inf_$T(x)) { return numr_inf_$T(); }
    // exp(x^2) with x^2 split (exact to one rounding of each factor)
    let xh = bitcast<$T>(bitcast<$U>(x) & ${SPLIT});
    let xl = x - xh;
    let t = xl * (x + xh);   // |t| small: a few Taylor terms, not a second exp
    let e2 = numr_exp_$T(xh * xh) * $P{EXPS}(t);
    return e2 * numr_erfc_$T(x);
  }
  if (x < 4.0) {
    @ERFC_EVAL@
    return g;
  }
  if (x < ${ERFC_ZERO}) { let w = 1.0 / (x * x); return $P{ERFCH}(w) / x; }
  if (numr_is_inf_$T(x)) { return 0.0; }
  let v = 0.5 / (x * x);
  return (${INV_SQRTPI} / x) * $P{ERFCXA}(v);
}
""")

fn("sp_erfinv", ["erf", "sp_erfcx", "log", "exp", "dd"], """
// z with erf(z) = y, |y| <= 1/2: Halley (erf'' = -2z erf') from the Taylor start
fn numr__erfinv_c_$T(y: $T) -> $T {
  let t = ${SQRT_PI_2} * y;
  if (numr_abs_$T(y) < ${TINY}) { return t; }
  let t2 = t * t;
  var z = t * (1.0 + t2 * (0.3333333333333333 + t2 * (0.23333333333333333 + t2 * 0.20158730158730159)));
  for (var i = 0; i < ${ERFINV_IT}; i++) {
    let u = (numr_erf_$T(z) - y) * (${SQRT_PI_2} * numr_exp_$T(z * z));
    z = z - u / (1.0 + z * u);
  }
  return z;
}
// z > 0 with erfc(z) = t, 0 < t <= 1/2: Newton on g(z) = log(erfcx(z)) - z^2 - log(t),
// g' = -2 / (sqrt(pi) erfcx(z)); start: Winitzki's approximation (a = 0.147)
fn numr__erfcinv_c_$T(t: $T) -> $T {
  let lt = numr_log_$T(t);
  let l = lt + numr_log_$T(2.0 - t);          // log(1 - y^2), y = 1 - t
  let b = 4.330746750799873 + 0.5 * l;        // 2 / (pi a) + l / 2
  var z = sqrt(sqrt(b * b - l * 6.802721088435374) - b);
  for (var i = 0; i < ${ERFCINV_IT}; i++) {
    let ex = numr_erfcx_$T(z);
    let p = numr__two_prod_$T(z, z);
    let g = ((numr_log_$T(ex) - lt) - p.x) - p.y;
    z = z + g * (${SQRT_PI_2} * ex);
  }
  return z;
}
fn numr_erfinv_$T(y: $T) -> $T {
  if (numr_is_nan_$T(y)) { return y; }
  let a = numr_abs_$T(y);
  if (a > 1.0) { return numr_nan_$T(); }
  if (a == 1.0) { return numr_copysign_$T(numr_inf_$T(), y); }
  if (a == 0.0) { return 0.0; }   // +0 for -0 too, as SciPy
  if (a <= 0.5) { return numr__erfinv_c_$T(y); }
  return numr_copysign_$T(numr__erfcinv_c_$T(1.0 - a), y);
}
fn numr_ndtri_$T(p: $T) -> $T {
  if (numr_is_nan_$T(p)) { return p; }
  if (p < 0.0 || p > 1.0) { return numr_nan_$T(); }
  if (p == 0.0) { return -numr_inf_$T(); }
  if (p == 1.0) { return numr_inf_$T(); }
  if (p < 0.25) { return -${SQRT2} * numr__erfcinv_c_$T(2.0 * p); }
  if (p > 0.75) { return ${SQRT2} * numr__erfcinv_c_$T(2.0 * (1.0 - p)); }
  return ${SQRT2} * numr__erfinv_c_$T(2.0 * (p - 0.5));
}
""")

fn("sp_gamma", ["sp_gammaln", "exp", "pow"], """
// Gamma(x), x > 0 finite: exp of the lgamma series (|lgamma| < 0.3 there, so exp keeps
// ~1 ulp), the recurrence product below LG_BIG, Stirling with x^((x - 1/2)/2) squared
// (pow's double-word logarithm: no error growing with x) above
fn numr__gamma_pos_$T(x: $T) -> $T {
  if (x < 0.5) { return numr_exp_$T(numr__lg1_$T(x)) / x; }
  if (x < 1.5) { return numr_exp_$T(numr__lg1_$T(x - 1.0)); }
  if (x < 2.5) { return numr_exp_$T(numr__lg2_$T(x - 2.0)); }
  if (x < ${LG_BIG}) {
    var y = x;
    var p: $T = 1.0;
    loop { y = y - 1.0; p = p * y; if (y < 2.5) { break; } }
    return numr_exp_$T(numr__lg2_$T(y - 2.0)) * p;
  }
  if (x > ${GAM_MAX}) { return numr_inf_$T(); }
  let w = 1.0 / x;
  let w2 = w * w;
  let h = numr_pow_$T(x, 0.5 * (x - 0.5));
  let c = numr_exp_$T(w * $P{STIR}(w2)) * ${SQRT_2PI};
  return numr__opq_$T(numr__opq_$T(h * numr_exp_$T(-x)) * c) * h;
}
// sin(pi x) for x < 0 finite non-integer, a = -x: -(-1)^n sin(pi (a - n)), n = round(a)
fn numr__sinpi_neg_$T(a: $T) -> $T {
  let n = numr_round_$T(a);
  let r = a - n;
  let s = numr_sin_$T(numr__opq_$T(r * ${PI_H}) + r * ${PI_L});
  let h = 0.5 * n;
  if (numr_trunc_$T(h) == h) { return -s; }
  return s;
}
// sin(pi x) Gamma(1 - x) / pi for x < 0 non-integer, a = -x, ordered so that it overflows
// only where the value does (Gamma(1 + a) = a Gamma(a) alone may overflow first; SciPy's
// float64 rgamma returns inf for some x in (-171.6, -170.5) where the value is finite)
fn numr__refl_$T(a: $T) -> $T {
  let s = numr__sinpi_neg_$T(a);
  if (a < 0.5) { return s * numr_exp_$T(numr__lg1_$T(a)) / ${PI_T}; }
  return numr__opq_$T(s * a / ${PI_T}) * numr__gamma_pos_$T(a);
}
fn numr_gamma_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x > 0.0) {
    if (x < ${LGAM_POLE}) { return numr_inf_$T(); }
    return numr__gamma_pos_$T(x);   // (inf: inf)
  }
  if (x == 0.0) { return numr_copysign_$T(numr_inf_$T(), x); }
  if (numr_trunc_$T(x) == x) { return numr_nan_$T(); }   // poles, -inf
  let a = -x;
  // reflection: Gamma(x) = pi / (sin(pi x) Gamma(1 - x)); an overflowing Gamma(1 - x) gives
  // a zero of sin's sign, as SciPy
  return 1.0 / numr__refl_$T(a);
}
fn numr_rgamma_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x > 0.0) {
    if (numr_is_inf_$T(x)) { return 0.0; }
    if (x < 0.5) { return x / numr_exp_$T(numr__lg1_$T(x)); }
    return 1.0 / numr__gamma_pos_$T(x);
  }
  if (x == 0.0) { return x; }
  if (numr_trunc_$T(x) == x) { return 0.0; }
  let a = -x;
  return numr__refl_$T(a);
}
fn numr_gammasgn_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x > 0.0) { return 1.0; }
  if (x == 0.0) { return numr_copysign_$T(1.0, x); }
  if (numr_trunc_$T(x) == x) { return numr_nan_$T(); }
  let h = 0.5 * numr_floor_$T(x);
  if (numr_trunc_$T(h) == h) { return 1.0; }
  return -1.0;
}
// scipy.special.loggamma on real arguments: NaN for x < 0
fn numr_loggamma_$T(x: $T) -> $T {
  if (x < 0.0) { return numr_nan_$T(); }
  return numr_gammaln_$T(x);
}
""")

fn("sp_psi", ["sp_gamma", "cos"], """
// psi(x), x > 0 finite
fn numr__psi_pos_$T(x: $T) -> $T {
  let d = numr__opq_$T(x - ${PSI_ROOT_H});   // (barrier: not x - (hi + lo))
  if (numr_abs_$T(d) < 0.2) {   // Taylor at the zero: relative accuracy near it
    let dd = d - ${PSI_ROOT_L};
    return dd * $P{PSIR}(dd);
  }
  if (x < 0.5) { let e = x; return ($P{PSI2}(e) - 1.0 / (1.0 + x)) - 1.0 / x; }   // psi(2 + x) - ...
  if (x < 1.5) { let e = x - 1.0; return $P{PSI2}(e) - 1.0 / x; }
  if (x < 2.5) { let e = x - 2.0; return $P{PSI2}(e); }
  if (x < ${LG_BIG}) {
    var y = x;
    var s: $T = 0.0;
    loop { y = y - 1.0; s = s + 1.0 / y; if (y < 2.5) { break; } }
    let e = y - 2.0;
    return $P{PSI2}(e) + s;
  }
  let w = 1.0 / x;
  let w2 = w * w;
  return (numr_log_$T(x) - 0.5 * w) - w2 * $P{PSIA}(w2);
}
fn numr_psi_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x == 0.0) { return -1.0 / x; }   // -inf, +inf for -0 (SciPy)
  if (x > 0.0) {
    if (numr_is_inf_$T(x)) { return x; }
    if (x < ${LGAM_POLE}) { return -numr_inf_$T(); }
    return numr__psi_pos_$T(x);
  }
  if (numr_trunc_$T(x) == x) { return numr_nan_$T(); }
  // reflection: psi(x) = psi(1 + a) + pi cot(pi r), a = -x, r = a - round(a)
  let a = -x;
  var p1: $T;
  let d = numr__opq_$T(a - (${PSI_ROOT_H} - 1.0));
  if (numr_abs_$T(d) < 0.2) { let dd = d - ${PSI_ROOT_L}; p1 = dd * $P{PSIR}(dd); }   // 1 + a ~ root
  else if (a < 0.5) { let e = a; p1 = $P{PSI2}(e) - 1.0 / (1.0 + a); }
  else if (a < 1.5) { let e = a - 1.0; p1 = $P{PSI2}(e); }
  else { p1 = numr__psi_pos_$T(a) + 1.0 / a; }
  // cot(pi r) = -cot(pi x); near |r| = 1/2 as tan(pi (1/2 - |r|)) (exact zero at 1/2)
  let r = a - numr_round_$T(a);
  let ar = numr_abs_$T(r);
  let u = 0.5 - ar;
  var c: $T;
  if (u < 0.25) {
    let t = numr__opq_$T(u * ${PI_H}) + u * ${PI_L};
    c = numr_sin_$T(t) / numr_cos_$T(t);
  } else {
    let t = numr__opq_$T(ar * ${PI_H}) + ar * ${PI_L};
    c = numr_cos_$T(t) / numr_sin_$T(t);
  }
  return p1 + ${PI_T} * numr_copysign_$T(c, r);
}
""")

fn("sp_igam", ["sp_gamma", "log", "log1p", "expm1", "sqrt", "erf"], """
// Gamma(1 + a), a > 0
fn numr__gamma1p_$T(a: $T) -> $T {
  if (a < 0.5) { return numr_exp_$T(numr__lg1_$T(a)); }
  return numr__opq_$T(numr__gamma_pos_$T(a)) * a;
}
// a^a e^-a / Gamma(1 + a), a > 0 finite (Stirling's correction above LG_BIG)
fn numr__igam_g_$T(a: $T) -> $T {
  if (a < ${LG_BIG}) { return numr__opq_$T(numr_pow_$T(a, a) * numr_exp_$T(-a)) / numr__gamma1p_$T(a); }
  let w = 1.0 / a;
  let w2 = w * w;
  return numr_exp_$T(-(w * $P{STIR}(w2))) / (${SQRT_2PI} * numr_sqrt_$T(a));
}
// r - 1 - log(r) for r = x / a > 0, t = r - 1 given exactly where it matters: through
// u = t / (2 + t), D = 2u^2 / (1 - u) - 2u^3 sum_k u^2k / (2k + 3) (no cancellation) for
// -0.6 < t < 1.5, directly outside
fn numr__igam_d_$T(r: $T, t: $T) -> $T {
  if (t <= -0.6 || t >= 1.5) { return t - numr_log_$T(r); }
  let u = t / (2.0 + t);
  let z = u * u;
  var sz: $T = 0.0;
  for (var k = ${IGAM_DN}; k >= 0; k--) { sz = sz * z + 1.0 / $T(2 * k + 3); }
  return 2.0 * z / (1.0 - u) - 2.0 * u * z * sz;
}
// (P, Q) = regularized lower / upper incomplete gamma for a > 0, x > 0 finite:
// x^a e^-x / Gamma(1 + a) = exp(-a D(x / a)) G(a) (no a log x - x cancellation); the power
// series of P below a + 1 for a >= 1 (Q = 1 - P >= 0.13), for a < 1, x < 1.1 both from
// x^a / Gamma(1 + a) (1 + a sum_n>=1 (-x)^n / (n! (a + n))) with 1 - x^a / Gamma(1 + a) by
// expm1, the continued fraction of Q elsewhere (modified Lentz; P = 1 - Q)
fn numr__igam_pq_$T(a: $T, x: $T) -> vec2<$T> {
  if (x < 1.1 && a < 1.0) {
    let lx = numr_log_$T(x);
    var lg: $T;                    // log Gamma(1 + a): the series at 1 or 2 (|e| <= 1/2)
    if (a < 0.5) { lg = numr__lg1_$T(a); } else { lg = numr__lg2_$T(a - 1.0); }
    let q0 = -numr_expm1_$T(a * lx - lg);   // 1 - x^a / Gamma(1 + a)
    var term: $T = 1.0;
    var s: $T = 0.0;
    for (var n = 1; n < 200; n++) {
      term = term * (-x) / $T(n);
      let d = term / (a + $T(n));
      s = s + d;
      if (numr_abs_$T(d) <= numr_abs_$T(s) * ${EPS_HALF}) { break; }
    }
    let f = numr_exp_$T(a * lx - lg);     // x^a / Gamma(1 + a)
    return vec2<$T>(f * (1.0 + a * s), q0 - f * a * s);
  }
  let r = x / a;
  if (numr_is_inf_$T(r)) { return vec2<$T>(1.0, 0.0); }
  let t = (x - a) / a;
  let dd = numr__igam_d_$T(r, t);
  if (a > ${IGAM_TEMME}) {
    // Temme's uniform expansion, leading term (absolute error ~0.002 a^-1.5):
    // Q = erfc(eta sqrt(a/2)) / 2 + e^(-a D) / sqrt(2 pi a) C0(eta), eta^2 / 2 = D
    let eta = numr_copysign_$T(numr_sqrt_$T(2.0 * dd), t);
    var c0: $T;
    if (numr_abs_$T(t) < 0.02) {
      c0 = -0.3333333333333333 + eta * (0.08333333333333333 + eta * (-0.014814814814814815
           + eta * (0.0011574074074074073 + eta * 0.0003527336860670194)));
    } else { c0 = 1.0 / t - 1.0 / eta; }
    let z = eta * numr_sqrt_$T(0.5 * a);
    let rr = numr_exp_$T(-(a * dd)) / (${SQRT_2PI} * numr_sqrt_$T(a)) * c0;
    return vec2<$T>(0.5 * numr_erfc_$T(-z) - rr, 0.5 * numr_erfc_$T(z) + rr);
  }
  let f = numr_exp_$T(-(a * dd)) * numr__igam_g_$T(a);
  if (f == 0.0) { return select(vec2<$T>(1.0, 0.0), vec2<$T>(0.0, 1.0), x < a); }
  if (x < a + 1.0 && a >= 1.0) {   // (a < 1, x >= 1.1: the fraction, Q small or not)
    var ap = a;
    var term: $T = 1.0;
    var s: $T = 1.0;
    for (var n = 0; n < ${IGAM_IT}; n++) {
      ap = ap + 1.0;
      term = term * x / ap;
      s = s + term;
      if (term <= s * ${EPS_HALF}) { break; }
    }
    let p = f * s;
    return vec2<$T>(p, 1.0 - p);
  }
  let tiny = ${MIN_NORMAL} * 16.0;
  var b = x + 1.0 - a;
  var c = 1.0 / tiny;
  var d = 1.0 / b;
  var h = d;
  for (var i = 1; i < ${IGAM_IT}; i++) {
    let an = -$T(i) * ($T(i) - a);
    b = b + 2.0;
    d = an * d + b;
    if (numr_abs_$T(d) < tiny) { d = tiny; }
    c = b + an / c;
    if (numr_abs_$T(c) < tiny) { c = tiny; }
    d = 1.0 / d;
    let del = d * c;
    h = h * del;
    if (numr_abs_$T(del - 1.0) <= 4.0 * ${EPS_HALF}) { break; }   // (2 ulp: del may sit at 1 + ulp)
  }
  let q = f * a * h;
  return vec2<$T>(1.0 - q, q);
}
// (P, Q) with SciPy's special values (NaN for a < 0 or x < 0; a = 0: (1, 0) for x > 0)
fn numr__igam_$T(a: $T, x: $T) -> vec2<$T> {
  let nan = numr_nan_$T();
  if (numr_is_nan_$T(a) || numr_is_nan_$T(x) || a < 0.0 || x < 0.0) { return vec2<$T>(nan); }
  if (a == 0.0) {
    if (x > 0.0) { return vec2<$T>(1.0, 0.0); }
    return vec2<$T>(nan);
  }
  if (x == 0.0) { return vec2<$T>(0.0, 1.0); }
  if (numr_is_inf_$T(a)) {
    if (numr_is_inf_$T(x)) { return vec2<$T>(nan); }
    return vec2<$T>(0.0, 1.0);
  }
  if (numr_is_inf_$T(x)) { return vec2<$T>(1.0, 0.0); }
  return numr__igam_pq_$T(a, x);
}
fn numr_gammainc_$T(a: $T, x: $T) -> $T { return numr__igam_$T(a, x).x; }
fn numr_gammaincc_$T(a: $T, x: $T) -> $T { return numr__igam_$T(a, x).y; }
""")

fn("sp_expint", ["exp", "log"], """
// E1(x), x > 0 finite: -gamma - log x - sum_k (-x)^k / (k k!) up to 1, the continued
// fraction of e^x E1(x) above
fn numr__e1_$T(x: $T) -> $T {
  if (x <= ${E1_SER}) {
    var t: $T = 1.0;
    var s: $T = 0.0;
    for (var k = 1; k < 60; k++) {
      t = -t * x / $T(k);
      let d = t / $T(k);
      s = s + d;
      if (numr_abs_$T(d) <= numr_abs_$T(s) * ${EPS_HALF}) { break; }
    }
    return (-numr_log_$T(x) - 0.5772156649015329) - s;
  }
  // 1 / (x + 1 - 1 / (x + 3 - 4 / (x + 5 - ...))), evaluated from a fixed depth backwards
  // (stable; the forward Lentz product loses ~80 ulp near x = 1)
  let n = i32(${E1_DEPTH0} + ${E1_DEPTH1} / x);
  var t: $T = 0.0;
  for (var i = n; i >= 1; i--) { t = -$T(i * i) / (x + $T(2 * i + 1) + t); }
  return numr_exp_$T(-x) / (x + 1.0 + t);
}
fn numr_exp1_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x) || x < 0.0) { return numr_nan_$T(); }
  if (x == 0.0) { return numr_inf_$T(); }
  if (numr_is_inf_$T(x)) { return 0.0; }
  return numr__e1_$T(x);
}
// Ei(x): -E1(-x) below 0; the Taylor series at the zero x0 near it; gamma + log x +
// sum_k x^k / (k k!) (positive terms) up to EI_ASY; e^x / x sum_k k! / x^k above (e^x
// overflows first, as SciPy's)
fn numr_expi_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x < 0.0) {
    if (numr_is_inf_$T(x)) { return -0.0; }
    return -numr__e1_$T(-x);
  }
  if (x == 0.0) { return -numr_inf_$T(); }
  if (numr_is_inf_$T(x)) { return x; }
  let d = numr__opq_$T(x - ${EI_ROOT_H});
  if (numr_abs_$T(d) < 0.05) { let dd = d - ${EI_ROOT_L}; return dd * $P{EIR}(dd); }
  if (x < ${EI_ASY}) {
    var t: $T = 1.0;
    var s: $T = 0.0;
    for (var k = 1; k < 200; k++) {
      t = t * x / $T(k);
      let dk = t / $T(k);
      s = s + dk;
      if (dk <= s * ${EPS_HALF}) { break; }
    }
    return (numr_log_$T(x) + 0.5772156649015329) + s;
  }
  var t: $T = 1.0;
  var s: $T = 1.0;
  let w = 1.0 / x;
  for (var k = 1; k < 60; k++) {
    let tn = t * $T(k) * w;
    if (tn >= t || tn <= s * ${EPS_HALF}) { break; }
    t = tn;
    s = s + t;
  }
  if (!${I_EXP_SPLIT} || x < ${EXP_SAFE}) { return numr_exp_$T(x) * (s * w); }
  let eh = numr_exp_$T(0.5 * x);   // (float32: finite wherever SciPy's float64 value is)
  return numr__opq_$T(eh * (s * w)) * eh;
}
""")

PUBLIC = {
    "gammaln": "sp_gammaln", "ndtr": "sp_ndtr", "log_ndtr": "sp_log_ndtr",
    "erfcx": "sp_erfcx", "erfinv": "sp_erfinv", "ndtri": "sp_erfinv",
    "gamma": "sp_gamma", "rgamma": "sp_gamma", "gammasgn": "sp_gamma", "loggamma": "sp_gamma",
    "psi": "sp_psi", "gammainc": "sp_igam", "gammaincc": "sp_igam",
    "exp1": "sp_expint", "expi": "sp_expint",
}
