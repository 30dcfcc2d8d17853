"""WGSL templates of scipy.special's zeta family and other series: zeta (Riemann and
Hurwitz), zetac, polygamma, spence, ellipk / ellipkm1, expn.

Same template syntax and rules as _real.py (barriers on every rounding that matters, bit
tests for NaN / Inf, no fma); the gamma and psi units are _special.py's. Special values
follow SciPy's (Cephes) results, including its quirks (zetac(x) = 0 from x = 127; the
two-argument zeta is inf at x = 1 whatever q, NaN for x < 1 even at q = 1, NaN where q^-x
underflows with x past 2.5e13).

* Hurwitz zeta(x, q), q > 0: sum_k (q + k)^-x up to a >= max(ZT_A0, 2x) (stopped early
  once the rest a^(1-x) / (x - 1) is below the rounding; q + k's rounding corrected to
  first order), then Euler-Maclaurin at a:
  a^(1-x) [1/(x - 1) + 1/(2a) + sum_j B_2j / (2j)! x (x + 1)...(x + 2j - 2) a^-2j], its
  terms unrolled. x - 1 is passed exactly beside x (the reflection needs zeta(1 + y) for
  tiny y). q < 0 (integer x only, as SciPy): with q = f - J, 0 < f < 1,
  sum_{j=1..J} (f - j)^-x = (-1)^x (zeta(x, 1 - f) - zeta(x, J + 1 - f)), all exact shifts.
* Riemann zeta: the Laurent series at 1 (Stieltjes constants) for -0.01 < x <= 2, zetac(x)
  = zeta(x, 2) above; below, the reflection
  zeta(-y) = -2 sin(pi y / 2) Gamma(1 + y) / (2 pi)^(1 + y) zeta(1 + y), the middle factor
  by Stirling as (y / (2 pi e))^(y + 1/2) sqrt(e) e^S(y) (squared halves, the base an exact
  product, the small factors first) so it overflows only where the value does.
* polygamma(n, x) = (-1)^(n + 1) Gamma(n + 1) zeta(n + 1, x), psi(x) for n = 0 (SciPy's
  formula and its special values).
* spence(x) = Li2(1 - x): Li2(z) = sum_n B_n u^(n+1) / (n + 1)!, u = -log(1 - z), for
  |u| <= log 2 (x in [1/2, 2]: u = -log x), the reflection below 1/2 and the inversion
  above 2 (Li2(z) = -pi^2/6 - log^2(-z) / 2 - Li2(1/z)).
* ellipk / ellipkm1: K = pi / (2 AGM(1, sqrt(p))), p = 1 - m (quadratic convergence; the
  last arithmetic mean after the means agree to half the precision); log(4 / sqrt(p))
  below the rounding (SciPy's form).
* expn: the uniform asymptotic expansion in 1 / (n (1 + x/n)^2) for n > 50 (polynomials
  A_k of DLMF 8.20.3, derived here), the continued fraction evaluated backwards from a
  fixed depth for x > 1, the power series (with psi(n)) below.
"""

from fractions import Fraction
from math import factorial

from ._special import _bernoulli
from ._types import horner, lit, rounded, unit_registry

FUNCS, fn = unit_registry()


_B = _bernoulli(40)
# zeta(1 + t) - 1/t = sum_n (-1)^n gamma_n t^n / n!, gamma_n the Stieltjes constants (mpmath)
_LAURENT = [
    0.5772156649015329, 0.07281584548367673, -0.00484518159643616, -0.00034230573671722433,
    9.689041939447084e-05, -6.6110318108421895e-06, -3.316240908752772e-07,
    1.0462094584479188e-07, -8.733218100273798e-09, 9.47827778276236e-11,
    5.658421927608708e-11, -6.768689863513697e-12, 3.4921159366720317e-13,
    4.4104247417577536e-15, -2.3997862217709992e-15, 2.1677312200726828e-16,
    -9.544466076366965e-18]


def _expn_poly(k):
    """A_k(l) of E_n(x) ~ e^-x / (x + n) sum_k A_k(l) / (n (1 + l)^2)^k, l = x / n (DLMF
    8.20.3: A_0 = A_1 = 1, A_(k+1) = (1 - 2k l) A_k + l (l + 1) A_k'), lowest order first."""
    a = [Fraction(1)]
    for j in range(1, k):
        d = [i * c for i, c in enumerate(a)][1:] + [Fraction(0)]
        nxt = [Fraction(0)] * (len(a) + 2)
        for i, c in enumerate(a):
            nxt[i] += c
            nxt[i + 1] -= 2 * j * c
        for i, c in enumerate(d):   # l (l + 1) A' = (l + l^2) A'
            nxt[i + 1] += c
            nxt[i + 2] += c
        while len(nxt) > 1 and nxt[-1] == 0:
            nxt.pop()
        a = nxt
    return [float(c) for c in a]


def _em_code(ft, m):
    """Statements leaving h = c_1 + (x + 1)(x + 2) w (c_2 + (x + 3)(x + 4) w (...)),
    c_j = B_2j / (2j)!, w = 1 / a^2."""
    c = [float(_B[2 * j] / factorial(2 * j)) for j in range(m + 1)]
    lines = [f"var h: $T = {lit(c[m], ft)};"]
    for j in range(m - 1, 0, -1):
        lines.append(f"h = {lit(c[j], ft)} + (x + {lit(2 * j - 1, ft)}) * (x + "
                     f"{lit(2 * j, ft)}) * w * h;")
    return "\n  ".join(lines)


def _expn_asy_code(ft, kmax):
    """Statements leaving r = sum_k A_k(l) mu^k (Horner in mu)."""
    lines = [f"var r: $T = {horner(_expn_poly(kmax), 'l', ft)};"]
    for k in range(kmax - 1, -1, -1):
        lines.append(f"r = {horner(_expn_poly(k) if k else [1.0], 'l', ft)} + mu * r;")
    return "\n  ".join(lines)


def _series(ft):
    f64 = ft == "f64"
    s = {
        # zeta(1 + t) = 1/t + ZETAL(t), zeta(1 + t) - 1 = 1/t + ZETALC(t), |t| <= 1.01
        "ZETAL": _LAURENT[:17 if f64 else 8],
        "ZETALC": [-0.42278433509846713] + _LAURENT[1:17 if f64 else 8],
        # Li2(z) = u - u^2/4 + u v P(v), v = u^2: B_2k / (2k + 1)!
        "LI2": [float(_B[2 * k] / factorial(2 * k + 1)) for k in range(1, 11 if f64 else 5)],
    }
    return rounded(s, ft)


def _consts(ft):
    f64 = ft == "f64"
    L = lambda v: lit(v, ft)
    # 1 / (2 pi e), pi^2 / 6 as hi + lo (mpmath)
    ce = (0.05854983152431916, -4.121231590292303e-19) if f64 else \
        (0.05854983255267143, -1.0283522922094335e-09)
    p6 = (1.6449340668482264, 3.040672350398476e-17) if f64 else \
        (1.644934058189392, 8.658834538266547e-09)
    return {
        "ZT_A0": L(8.0 if f64 else 4.0),
        "ZT_EM": _em_code(ft, 14 if f64 else 5),
        # SciPy's zeta(x, q) is NaN where q^-x underflows and its Euler-Maclaurin
        # product x (x + 1)...(x + 22) overflows (0 * inf), 0 below
        "ZT_XNAN": L(2.5249e13),
        "ZT_CE_H": L(ce[0]), "ZT_CE_L": L(ce[1]),
        "ZT_SQRT_E": L(1.6487212707001282),
        # 2 pi = hi (1 + rel)
        "ZT_2PI_H": L(6.283185307179586), "ZT_2PI_REL": L(3.8981718325193755e-17),
        "ZT_PI2_6_H": L(p6[0]), "ZT_PI2_6_L": L(p6[1]),
        # zetac(x) = 0 from here (SciPy: its first term 2^-x is dropped)
        "ZT_ZEROC": L(127.0),
        "ZT_LN4": L(1.3862943611198906),
        "ZT_AGM_TOL": L(2.0 ** (-26 if f64 else -12)),
        "EN_ASY": _expn_asy_code(ft, 12 if f64 else 5),
        "EN_MAXLOG": L(709.782712893384),
        "EN_DEPTH0": L(20.0 if f64 else 10.0), "EN_DEPTH1": L(300.0 if f64 else 60.0),
    }


SERIES = {ft: _series(ft) for ft in ("f32", "f64")}
CONSTS = {ft: _consts(ft) for ft in ("f32", "f64")}

fn("sp_hurwitz", ["pow", "rounding", "dd"], """
// zeta(x, q) for q > 0 finite, x = 1 + xm1 (xm1 exact, x its rounded value), x > 0 finite
// and x != 1 (x < 1 only for the Riemann function, q = 2)
fn numr__hz_$T(x: $T, xm1: $T, q: $T) -> $T {
  let wide = numr__opq_$T(x - 1.0) != xm1;   // x = 1 + xm1 was rounded: a^-x = a^-xm1 / a
  let ex = select(x, xm1, wide);
  var s: $T = 0.0;
  var a = q;
  var ae: $T = 0.0;   // q + k = a + ae exactly: (a + ae)^-x = a^-x (1 - x ae / a)
  var k: $T = 0.0;
  loop {
    if (a >= ${ZT_A0} && a >= 2.0 * x) { break; }
    var t = numr_pow_$T(a, -ex) * (1.0 - x * (ae / a));
    if (wide) { t = t / a; }
    s = s + t;
    // the rest is below a^(1-x) / (x - 1) = t a / (x - 1)
    if (xm1 > 0.0 && t * (1.0 + a / xm1) <= s * ${EPS_HALF}) { return s; }
    k = k + 1.0;
    let qk = numr__two_sum_$T(q, k);
    a = qk.x;
    ae = qk.y;
  }
  let u = numr_pow_$T(a, -xm1) * (1.0 - xm1 * (ae / a));
  let w = 1.0 / (a * a);
  ${ZT_EM}
  return s + u * (1.0 / xm1 + (0.5 / a + x * w * h));
}
""")

fn("sp_zeta", ["sp_hurwitz", "sp_gamma", "sin", "exp", "log", "sqrt", "dd"], """
// sin(pi t) for t >= 0 finite: exact reduction to [-1/2, 1/2]
fn numr__zt_sinpi_$T(t: $T) -> $T {
  let r = t - 2.0 * numr_round_$T(0.5 * t);   // in [-1, 1], exact
  var u = r;
  if (r > 0.5) { u = 1.0 - r; } else if (r < -0.5) { u = -1.0 - r; }
  return numr_sin_$T(numr__opq_$T(u * ${PI_H}) + u * ${PI_L});
}
// k Gamma(1 + y) / (2 pi)^(1 + y), y > 0 finite, k multiplied in before the last factor
// (the product overflows only where the value does)
fn numr__zt_refl_$T(y: $T, k: $T) -> $T {
  if (y < ${LG_BIG}) {
    let p = numr_pow_$T(${ZT_2PI_H}, y) * (1.0 + y * ${ZT_2PI_REL});
    return k * (numr__opq_$T(numr__gamma_pos_$T(y) * y) / (numr__opq_$T(p) * ${ZT_2PI_H}));
  }
  // (y / (2 pi e))^(y + 1/2) sqrt(e) e^S(y); y c = z + dz exactly to first order
  let pr = numr__two_prod_$T(y, ${ZT_CE_H});
  let z = pr.x;
  let dz = pr.y + y * ${ZT_CE_L};
  let half = numr_pow_$T(z, 0.5 * y) * numr_sqrt_$T(numr_sqrt_$T(z))
             * (1.0 + 0.5 * (y + 0.5) * (dz / z));
  let w = 1.0 / y;
  let w2 = w * w;
  let c = numr_exp_$T(w * $P{STIR}(w2)) * ${ZT_SQRT_E};
  return numr__opq_$T(numr__opq_$T(k * c) * half) * half;
}
// Riemann zeta(x) - 1, x > 2 (SciPy: 0 from 127 on)
fn numr__zetac_pos_$T(x: $T) -> $T {
  if (x >= ${ZT_ZEROC}) { return 0.0; }
  return numr__hz_$T(x, x - 1.0, 2.0);
}
// Riemann zeta(1 + y) for y > 0, y exact: the Laurent series up to 1, zeta(1 + y, 2) + 1
// above
fn numr__zeta1p_$T(y: $T) -> $T {
  if (y <= 1.0) { return 1.0 / y + $P{ZETAL}(y); }
  return 1.0 + numr__hz_$T(1.0 + y, y, 2.0);
}
// Riemann zeta(x), x <= -0.01 finite: the reflection
fn numr__zeta_neg_$T(x: $T) -> $T {
  let y = -x;
  let h = 0.5 * y;
  if (numr_trunc_$T(h) == h) { return 0.0; }   // the trivial zeros (SciPy: +0)
  let s = numr__zt_sinpi_$T(h);
  return numr__zt_refl_$T(y, -2.0 * s * numr__zeta1p_$T(y));
}
// SciPy's riemann_zeta (the one-argument zeta): NaN at -inf, 1 from 127 on; the Laurent
// series at 1 for -0.01 < x <= 2 (t = x - 1)
fn numr__riemann_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x == 1.0) { return numr_inf_$T(); }
  if (x <= -0.01) {
    if (numr_is_inf_$T(x)) { return numr_nan_$T(); }
    return numr__zeta_neg_$T(x);
  }
  if (x <= 2.0) { let t = x - 1.0; return 1.0 / t + $P{ZETAL}(t); }
  return 1.0 + numr__zetac_pos_$T(x);
}
fn numr_zetac_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x == 1.0) { return numr_inf_$T(); }
  if (x <= -0.01) {
    if (numr_is_inf_$T(x)) { return numr_nan_$T(); }
    return numr__zeta_neg_$T(x) - 1.0;
  }
  if (x <= 2.0) { let t = x - 1.0; return 1.0 / t + $P{ZETALC}(t); }
  return numr__zetac_pos_$T(x);
}
// SciPy's zeta(x, q) (Cephes'; no Riemann shortcut at q = 1): inf at x = 1 (any q) and at
// the poles q = 0, -1, ...; NaN for x < 1 and for q < 0 with a non-integer x
fn numr_zeta_$T(x: $T, q: $T) -> $T {
  if (x == 1.0) { return numr_inf_$T(); }
  if (x < 1.0) { return numr_nan_$T(); }
  if (q <= 0.0) {
    if (numr_floor_$T(q) == q) { return numr_inf_$T(); }
    if (!(numr_floor_$T(x) == x)) { return numr_nan_$T(); }
  }
  if (numr_is_nan_$T(x) || numr_is_nan_$T(q)) { return numr_nan_$T(); }
  if (q > 0.0) {
    if (q > 1.0 && q <= 1e8 && x >= ${ZT_XNAN} && numr_pow_$T(q, -x) == 0.0) {
      return numr_nan_$T();
    }
    if (numr_is_inf_$T(x)) {   // q^-inf: inf below 1, 1 at 1, 0 above
      if (q < 1.0) { return numr_inf_$T(); }
      if (q == 1.0) { return 1.0; }
      return 0.0;
    }
    if (numr_is_inf_$T(q)) { return 0.0; }
    return numr__hz_$T(x, x - 1.0, q);
  }
  if (numr_is_inf_$T(x)) { return numr_inf_$T(); }   // (a term (q + k)^-inf = inf)
  // q = f - J, 0 < f < 1: zeta(x, f) + (-1)^x (zeta(x, 1 - f) - zeta(x, J + 1 - f)), f and
  // 1 - f exact (for J = 1 when q + 1 is); the first two are bitwise equal for f = 1/2, so
  // an odd x cancels them exactly as the terms do
  let jj = -numr_floor_$T(q);
  let f = numr__opq_$T(q + jj);
  let xm1 = x - 1.0;
  if (numr__opq_$T(f - jj) != q) { return numr_pow_$T(q, -x) + numr__hz_$T(x, xm1, f); }
  let odd = numr_trunc_$T(0.5 * x) != 0.5 * x;
  let sg = select($T(1.0), $T(-1.0), odd);
  let half = f == 0.5;   // (1 - f = f: the two merge; also where each overflows)
  var acc: $T = 0.0;
  for (var t = 0; t < 3; t++) {
    let qq = select(select(jj + (1.0 - f), 1.0 - f, t == 1), f, t == 0);
    var c = select(select(-sg, sg, t == 1), $T(1.0), t == 0);
    if (half && t < 2) { c = select($T(0.0), 1.0 + sg, t == 0); }
    if (c != 0.0) { acc = acc + c * numr__hz_$T(x, xm1, qq); }
  }
  return acc;
}
fn numr_riemann_zeta_$T(x: $T) -> $T { return numr__riemann_$T(x); }
""")

fn("sp_polygamma", ["sp_zeta", "sp_psi"], """
// SciPy's where(n == 0, psi(x), (-1)^(n+1) gamma(n + 1) zeta(n + 1, x))
fn numr_polygamma_$T(n: $T, x: $T) -> $T {
  if (n == 0.0) { return numr_psi_$T(x); }
  let m = n + 1.0;
  // (-1)^m as NumPy's power: +-1 for an integer (or infinite) m, NaN otherwise
  var sg: $T = 1.0;
  if (numr_is_nan_$T(m) || (numr_is_finite_$T(m) && numr_trunc_$T(m) != m)) {
    sg = numr_nan_$T();
  } else if (numr_is_finite_$T(m) && numr_trunc_$T(0.5 * m) != 0.5 * m) { sg = -1.0; }
  return (sg * numr_gamma_$T(m)) * numr_zeta_$T(m, x);
}
""")

fn("sp_spence", ["log", "log1p"], """
// Li2(z) for u = -log(1 - z), |u| <= log 2
fn numr__li2u_$T(u: $T) -> $T {
  let v = u * u;
  return u + u * (v * $P{LI2}(v) - 0.25 * u);
}
fn numr_spence_$T(x: $T) -> $T {
  if (numr_is_nan_$T(x)) { return x; }
  if (x < 0.0) { return numr_nan_$T(); }
  if (x == 1.0) { return 0.0; }
  if (x == 0.0) { return ${ZT_PI2_6_H}; }
  if (x < 0.5) {   // Li2(1 - x) = pi^2/6 - log(x) log(1 - x) - Li2(x)
    let l1 = numr_log1p_$T(-x);
    return ((${ZT_PI2_6_H} - numr_log_$T(x) * l1) - numr__li2u_$T(-l1)) + ${ZT_PI2_6_L};
  }
  if (x <= 2.0) { return numr__li2u_$T(-numr_log1p_$T(x - 1.0)); }
  if (numr_is_inf_$T(x)) { return numr_nan_$T(); }   // (SciPy: -inf * 0 in its reflection)
  // Li2(1 - x) = -pi^2/6 - log^2(x - 1) / 2 - Li2(1 / (1 - x)), x - 1 exact
  let lm = numr_log_$T(x - 1.0);
  return ((-${ZT_PI2_6_H} - 0.5 * lm * lm) - numr__li2u_$T(numr_log1p_$T(-1.0 / x)))
         - ${ZT_PI2_6_L};
}
""")

fn("sp_ellipk", ["log", "sqrt"], """
// K(1 - p) for p >= 0 (Cephes' ellpk): pi / (2 AGM(1, sqrt(p)))
fn numr__ellpk_$T(p: $T) -> $T {
  if (numr_is_nan_$T(p)) { return p; }
  if (p < 0.0) { return numr_nan_$T(); }
  if (p == 0.0) { return numr_inf_$T(); }
  if (numr_is_inf_$T(p)) { return 0.0; }
  if (p <= ${EPS_HALF}) { return ${ZT_LN4} - 0.5 * numr_log_$T(p); }
  if (p * ${EPS_HALF} >= 1.0) { return (${ZT_LN4} + 0.5 * numr_log_$T(p)) / numr_sqrt_$T(p); }
  var a: $T = 1.0;
  var b = numr_sqrt_$T(p);
  for (var i = 0; i < 12; i++) {
    if (numr_abs_$T(a - b) <= a * ${ZT_AGM_TOL}) { break; }
    let an = 0.5 * (a + b);
    b = numr_sqrt_$T(a * b);
    a = an;
  }
  return ${PI_T} / (a + b);
}
fn numr_ellipkm1_$T(p: $T) -> $T { return numr__ellpk_$T(p); }
fn numr_ellipk_$T(m: $T) -> $T { return numr__ellpk_$T(1.0 - m); }
""")

fn("sp_expn", ["sp_expint", "rounding", "pow"], """
// E_n(x) for an integer n >= 1 (as a float), x > 0 finite
fn numr__expn_$T(n: $T, x: $T) -> $T {
  if (n > 50.0) {
    // uniform expansion: e^-x / (x + n) sum_k A_k(l) / (n (1 + l)^2)^k, l = x / n
    let l = x / n;
    let ef = numr_exp_$T(-x) / (l + 1.0) / n;
    if (ef == 0.0) { return 0.0; }
    let mu = 1.0 / (n * (l + 1.0) * (l + 1.0));
    ${EN_ASY}
    return ef * r;
  }
  if (n == 1.0) { return numr__e1_$T(x); }
  if (x > 1.0) {
    // e^-x / (x + n - n / (x + n + 2 - 2 (n + 1) / (x + n + 4 - ...))) from a fixed depth
    let d = i32(${EN_DEPTH0} + ${EN_DEPTH1} / x);
    var t: $T = 0.0;
    for (var i = d; i >= 1; i--) {
      let fi = $T(i);
      t = -(fi * (n + fi - 1.0)) / (x + n + 2.0 * fi + t);
    }
    return numr_exp_$T(-x) / (x + n + t);
  }
  // (-x)^(n-1) / (n-1)! (psi(n) - log x) - sum_(k != n-1) (-x)^k / ((k - n + 1) k!)
  var psi: $T = -0.5772156649015329 - numr_log_$T(x);
  var fact: $T = 1.0;   // (n - 1)!
  for (var i: $T = 1.0; i < n; i += 1.0) { psi = psi + 1.0 / i; fact = fact * i; }
  var term: $T = 1.0;
  var s: $T = -1.0 / (1.0 - n);
  for (var k = 1; k < 80; k++) {
    term = term * (-x) / $T(k);
    let pk = $T(k) + 1.0 - n;
    if (pk != 0.0) {
      let d = term / pk;
      s = s - d;
      if (numr_abs_$T(d) <= numr_abs_$T(s) * ${EPS_HALF}) { break; }
    }
  }
  return numr_pow_$T(-x, n - 1.0) / fact * psi + s;
}
// SciPy's expn(n, x): n truncated to an integer (NaN stays NaN; |n| >= 2^31 is negative
// there: NaN)
fn numr_expn_$T(n0: $T, x: $T) -> $T {
  if (numr_is_nan_$T(n0) || numr_is_nan_$T(x)) { return numr_nan_$T(); }
  let n = numr_trunc_$T(n0);
  if (n < 0.0 || !(numr_abs_$T(n) < 2147483648.0) || x < 0.0) { return numr_nan_$T(); }
  if (x > ${EN_MAXLOG}) { return 0.0; }
  if (x == 0.0) {
    if (n < 2.0) { return numr_inf_$T(); }
    return 1.0 / (n - 1.0);
  }
  if (n == 0.0) { return numr_exp_$T(-x) / x; }
  return numr__expn_$T(n, x);
}
""")

PUBLIC = {
    "zeta": "sp_zeta", "riemann_zeta": "sp_zeta", "zetac": "sp_zeta", "polygamma": "sp_polygamma",
    "spence": "sp_spence", "ellipk": "sp_ellipk", "ellipkm1": "sp_ellipk", "expn": "sp_expn",
}
