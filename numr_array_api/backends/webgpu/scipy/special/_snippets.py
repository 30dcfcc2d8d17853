"""Per-element WGSL of scipy.special's functions: ``name -> (arity, body, lib, helpers)``.

``body`` is the body of ``fn op(a: $R[, b: $R[, c: $R]], e: u32) -> $R`` ($R: f32 or f64,
the result's float type; every operand is converted to it first, as SciPy's ufunc loops
do), ``lib`` the math-library functions it calls (wgsl/math.py, wgsl/_special.py),
``helpers`` extra sources below (rendered with $R). Special values follow SciPy's results
(NaN / inf / signed zeros probed on SciPy 1.17), including its quirks: gammaln(-inf) = -inf,
i0(inf) = nan, sindg(180) = -0, tandg(-90) = +inf, kl_div's -inf for an underflowing ratio.
"""

from ...ops._exprs import fmod_source


def _lib(fn):
    return (1, f"return numr_{fn}_$R(a);", (fn,), ())


SNIPPETS = {n: _lib(n) for n in ("erf", "erfc", "ndtr", "log_ndtr", "gammaln", "erfcx",
                                  "erfinv", "ndtri", "i0", "i0e", "i1", "i1e", "exp2",
                                  "cbrt", "gamma", "rgamma", "gammasgn", "loggamma",
                                  "psi", "k0", "k0e", "k1", "k1e", "j0", "j1", "y0",
                                  "y1", "exp1", "expi")}

SNIPPETS.update({
    "gammainc": (2, "return numr_gammainc_$R(a, b);", ("gammainc",), ()),
    "gammaincc": (2, "return numr_gammaincc_$R(a, b);", ("gammaincc",), ()),
    # chi-square, gamma and Poisson distributions through the incomplete gamma (SciPy's
    # definitions, its NaN for negative arguments)
    "chdtr": (2, "return numr_gammainc_$R($R(0.5) * a, $R(0.5) * b);", ("gammainc",), ()),
    "chdtrc": (2, "return numr_gammaincc_$R($R(0.5) * a, $R(0.5) * b);", ("gammaincc",), ()),
    "gdtr": (3, """
  if (c < $R(0.0)) { return numr_nan_$R(); }
  return numr_gammainc_$R(b, sp_scaled_$R(a, c));""", ("gammainc",), ("scaled",)),
    "gdtrc": (3, """
  if (c < $R(0.0)) { return numr_nan_$R(); }
  return numr_gammaincc_$R(b, sp_scaled_$R(a, c));""", ("gammaincc",), ("scaled",)),
    "pdtr": (2, """
  if (a < $R(0.0) || b < $R(0.0)) { return numr_nan_$R(); }
  if (b == $R(0.0)) { return $R(1.0); }
  return numr_gammaincc_$R(numr_floor_$R(a) + $R(1.0), b);""", ("gammaincc", "floor"), ()),
    "pdtrc": (2, """
  if (a < $R(0.0) || b < $R(0.0)) { return numr_nan_$R(); }
  if (b == $R(0.0)) { return $R(0.0); }
  return numr_gammainc_$R(numr_floor_$R(a) + $R(1.0), b);""", ("gammainc", "floor"), ()),
    "exp10": (1, "return numr_pow_$R($R(10.0), a);", ("pow",), ()),
    # SciPy's form: 0 (not the subnormal e^x) once exp(-x) overflows
    "expit": (1, "return $R(1.0) / ($R(1.0) + numr_exp_$R(-a));", ("exp",), ()),
    # log(p / (1 - p)); near 1/2 as log1p of an exact 2p - 1
    "logit": (1, """
  if (numr_is_nan_$R(a) || a < $R(0.0) || a > $R(1.0)) { return numr_nan_$R(); }
  if (a == $R(1.0)) { return numr_inf_$R(); }
  if (a < $R(0.3) || a > $R(0.7)) { return numr_log_$R(a / ($R(1.0) - a)); }
  return numr_log1p_$R(($R(2.0) * a - $R(1.0)) / ($R(1.0) - a));""", ("log", "log1p"), ()),
    "xlogy": (2, """
  if (a == $R(0.0) && !numr_is_nan_$R(b)) { return $R(0.0); }
  return a * numr_log_$R(b);""", ("log",), ()),
    "xlog1py": (2, """
  if (a == $R(0.0) && !numr_is_nan_$R(b)) { return $R(0.0); }
  return a * numr_log1p_$R(b);""", ("log1p",), ()),
    "entr": (1, """
  if (numr_is_nan_$R(a)) { return a; }
  if (a > $R(0.0)) { return -(a * numr_log_$R(a)); }
  if (a == $R(0.0)) { return $R(0.0); }
  return -numr_inf_$R();""", ("log",), ()),
    # x log(x / y); x log1p((x - y) / y) near x = y (x - y exact there), two logarithms
    # where the ratio leaves the normal range
    "rel_entr": (2, """
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b)) { return numr_nan_$R(); }
  if (a > $R(0.0) && b > $R(0.0)) {
    let r = a / b;
    if (r > $R(0.5) && r < $R(2.0)) { return a * numr_log1p_$R((a - b) / b); }
    if (numr_is_finite_$R(r) && r > $R(1e-30)) { return a * numr_log_$R(r); }
    return a * (numr_log_$R(a) - numr_log_$R(b));
  }
  if (a == $R(0.0) && b >= $R(0.0)) { return $R(0.0); }
  return numr_inf_$R();""", ("log", "log1p"), ()),
    # x log(x / y) - x + y = y h(t), t = (x - y) / y, h(t) = (1 + t) log1p(t) - t; h by its
    # series sum_k>=2 (-1)^k t^k / (k (k - 1)) for |t| < 1/2 (the two terms cancel there)
    "kl_div": (2, """
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b)) { return numr_nan_$R(); }
  if (a > $R(0.0) && b > $R(0.0)) {
    let r = a / b;
    let t = (a - b) / b;
    if (numr_abs_$R(t) < $R(0.5)) {
      var h: $R = $R(0.0);
      for (var k = $KLN; k >= 2; k--) { h = h * (-t) + $R(1.0) / $R(k * (k - 1)); }
      return b * (h * t * t);
    }
    if (r > $R(0.5) && r < $R(2.0)) { return b * (($R(1.0) + t) * numr_log1p_$R(t) - t); }
    if ($KLQ) { return (a * (numr_log_$R(a) - numr_log_$R(b)) - a) + b; }
    return (a * numr_log_$R(r) - a) + b;
  }
  if (a == $R(0.0) && b >= $R(0.0)) { return b; }
  return numr_inf_$R();""", ("log", "log1p"), ()),
    "huber": (2, """
  if (a < $R(0.0)) { return numr_inf_$R(); }
  let r = numr_abs_$R(b);
  if (r <= a) { return $R(0.5) * b * b; }
  return a * (r - $R(0.5) * a);""", (), ()),
    # delta^2 (sqrt(1 + t^2) - 1), t = r / delta, without cancellation or overflow of t^2
    # (float64: SciPy's values where t^2 or delta^2 overflows or t^2 underflows)
    "pseudo_huber": (2, """
  if (a < $R(0.0)) { return numr_inf_$R(); }
  if (a == $R(0.0) || b == $R(0.0)) { return $R(0.0); }
  if (numr_is_inf_$R(a)) { return numr_nan_$R(); }
  let t = b / a;
  if ($PHQ) {   // SciPy's float64 formula where t^2 or delta^2 overflows (barrier: as written)
    return numr__opq_$R(a * a) * numr_expm1_$R($R(0.5) * numr_log1p_$R(t * t));
  }
  if (numr_abs_$R(t) <= $R(1.0)) { return b * (b / (numr_hypot_$R($R(1.0), t) + $R(1.0))); }
  return a * (numr_hypot_$R(a, b) - a);""", ("hypot", "expm1", "log1p"), ()),
    "sinc": (1, """
  if (a == $R(0.0)) { return $R(1.0); }
  let y = $R(3.141592653589793) * a;
  return numr_sin_$R(y) / y;""", ("sin",), ()),
    # (arc seconds) * pi / 648000 in SciPy's order of operations (float64); float32 sums in
    # degrees, which does not overflow where SciPy's float64 arc seconds do not
    "radian": (3, "return $RADIAN;", (), ()),
    "sindg": (1, """
  if (numr_is_nan_$R(a)) { return a; }
  if (a == $R(0.0)) { return a; }   // the zero's sign, as SciPy (NVIDIA's sin(+0) path lost it)
  let x = numr_abs_$R(a);
  if (x > $R(1e14)) { return $R(0.0); }
  let s = sp_dg_sincos_$R(x).x;
  if (a < $R(0.0)) { return -s; }
  return s;""", ("sin", "cos", "round"), ("dg",)),
    "cosdg": (1, """
  if (numr_is_nan_$R(a)) { return a; }
  let x = numr_abs_$R(a);
  if (x > $R(1e14)) { return $R(0.0); }
  return sp_dg_sincos_$R(x).y;""", ("sin", "cos", "round"), ("dg",)),
    "tandg": (1, """
  if (numr_is_nan_$R(a)) { return a; }
  let x = numr_abs_$R(a);
  if (x > $R(1e14)) { return $R(0.0); }
  let r = fmod_$R(x, $R(180.0));
  if (r == $R(90.0)) { return numr_inf_$R(); }
  if (r == $R(0.0)) { return $R(0.0); }
  let v = sp_dg_sincos_$R(x);
  let t = v.x / v.y;
  if (a < $R(0.0)) { return -t; }
  return t;""", ("sin", "cos", "round"), ("dg",)),
    "cotdg": (1, """
  if (numr_is_nan_$R(a)) { return a; }
  let x = numr_abs_$R(a);
  if (x > $R(1e14)) { return $R(0.0); }
  let r = fmod_$R(x, $R(180.0));
  if (r < $R(1e-14)) { return numr_inf_$R(); }   // SciPy's pole (it returns inf below ~1e-15)
  if (r == $R(90.0)) { return $R(0.0); }
  let v = sp_dg_sincos_$R(x);
  let t = v.y / v.x;
  if (a < $R(0.0)) { return -t; }
  return t;""", ("sin", "cos", "round"), ("dg",)),
    # cos(x) - 1 = -2 sin^2(x / 2): no cancellation anywhere (x / 2 is exact)
    "cosm1": (1, """
  if (a == $R(0.0)) { return $R(0.0); }
  let s = numr_sin_$R($R(0.5) * a);
  let r = $R(-2.0) * s * s;
  return $COSM1Z;""", ("sin",), ()),
    # (x^l - 1) / l: expm1(l log x) / l where x^l is near 1, else through the library's
    # pow (double-word log, ~1 ulp) so that |l log x| does not scale the error; boxcox1p
    # corrects pow(1 + x) for the rounding of 1 + x (x^l (1 + l c), c = that error / (1 + x))
    "boxcox": (2, """
  if (a < $R(0.0)) { return numr_nan_$R(); }   // log(x < 0): explicit, not left to a NaN's path
  // inf * log(1) = inf * 0: NaN, explicit (NVIDIA's compiler returned a zero there)
  if (a == $R(1.0) && numr_is_inf_$R(b)) { return numr_nan_$R(); }
  if (numr_abs_$R(b) < $R(1e-19)) { return numr_log_$R(a); }
  let y = b * numr_log_$R(a);
  if (numr_abs_$R(y) < $R(0.5) || !numr_is_finite_$R(y)) { return sp_expm1_over_$R(y, b); }
  let p = numr_pow_$R(a, b);
  if (numr_is_inf_$R(p)) { return sp_pow_over_$R(a, b); }
  return (p - $R(1.0)) / b;""", ("log", "expm1", "exp", "pow"), ("expm1q",)),
    "boxcox1p": (2, """
  if (numr_abs_$R(b) < $R(1e-19)) { return numr_log1p_$R(a); }
  let y = b * numr_log1p_$R(a);
  if (numr_abs_$R(y) < $R(0.5) || !numr_is_finite_$R(y)) { return sp_expm1_over_$R(y, b); }
  let u = numr__opq_$R($R(1.0) + a);
  var c = a - numr__opq_$R(u - $R(1.0));
  if (u > $R(2.0)) { c = $R(1.0) - numr__opq_$R(u - a); }
  let k = b * (c / u);
  if (numr_abs_$R(k) > $R(1e-4)) { return sp_expm1_over_$R(y, b); }
  var p = numr_pow_$R(u, b);
  if (numr_is_inf_$R(p)) { return sp_pow_over_$R(u, b) * ($R(1.0) + k); }
  p = p + p * k;
  return (p - $R(1.0)) / b;""", ("log1p", "expm1", "exp", "pow"), ("expm1q",)),
    # exp(log1p(l y) / l) (expm1 for inv_boxcox1p); SciPy's special cases: y itself (not
    # expm1(y)) where |l y| < 1e-154 for inv_boxcox1p, log(l) + log(y) where l y overflows
    "inv_boxcox": (2, """
  if (b == $R(0.0)) { return numr_exp_$R(a); }
  return numr_exp_$R(sp_log1p_prod_$R(a, b) / b);""", ("exp", "log", "log1p"), ("prod",)),
    "inv_boxcox1p": (2, """
  if (b == $R(0.0)) { return numr_expm1_$R(a); }
  if (sp_tiny_prod_$R(a, b)) { return a; }
  return numr_expm1_$R(sp_log1p_prod_$R(a, b) / b);""", ("expm1", "log", "log1p"), ("prod",)),
    "exprel": (1, """
  if (numr_abs_$R(a) < $TINYREL) { return $R(1.0); }
  if (numr_is_inf_$R(a) && a > $R(0.0)) { return a; }
  return $EXPREL;""", ("expm1", "exp"), ("expm1q",)),
})

# the incomplete beta (wgsl/_beta.py) and the distributions on it: they pass I_x(a, b)
# both x and 1 - x as exact values, and take a complement from the pair (never 1 - I)
_IB = ("betainc",)
SNIPPETS.update({
    "betainc": (3, "return numr_betainc_$R(a, b, c);", _IB, ()),
    "betaincc": (3, "return numr_betaincc_$R(a, b, c);", _IB, ()),
    # Student's t: I_z(df/2, 1/2) / 2 at z = df / (df + t^2) (log z from the logarithms
    # where t^2 overflows; the normal limit for huge df, 1/2 where df/2 underflows)
    "stdtr": (2, """
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b) || a <= $R(0.0)) { return numr_nan_$R(); }
  if (a > $STD_NORMAL) { return numr_ndtr_$R(b); }
  if (numr_is_inf_$R(b)) { return select($R(0.0), $R(1.0), b > $R(0.0)); }
  if (b == $R(0.0) || $R(0.5) * a == $R(0.0)) { return $R(0.5); }
  let t = numr_abs_$R(b);
  let t2 = t * t;
  var pq: vec2<$R>;
  if (numr_is_inf_$R(t2 + a)) {
    if ($STDQ) { return select($R(0.0), $R(1.0), b > $R(0.0)); }   // (SciPy's float64)
    let x = (a / t) / t;
    let lx = (numr_log_$R(a) - numr_log_$R(t)) - numr_log_$R(t);
    pq = numr__ibeta_pql_$R($R(0.5) * a, $R(0.5), x, $R(1.0), lx, -x);
  } else {
    let d = a + t2;
    pq = numr__ibeta_pq_$R($R(0.5) * a, $R(0.5), a / d, t2 / d);
  }
  let p = $R(0.5) * pq.x;
  if (b < $R(0.0)) { return p; }
  return $R(1.0) - p;""", _IB + ("ndtr",), ()),
    # binomial: I_(1-p)(n - k, k + 1), k = floor(k), n truncated to a 32-bit integer as
    # SciPy's loop does (NaN past it, for k < 0 or n < k); k = 0 as Cephes: powers
    "bdtr": (3, """
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b) || numr_is_nan_$R(c)) { return numr_nan_$R(); }
  if (c < $R(0.0) || c > $R(1.0) || !(numr_abs_$R(b) < $R(2147483648.0))) {
    return numr_nan_$R();
  }
  let n = numr_trunc_$R(b);
  let k = numr_floor_$R(a);
  if (k < $R(0.0) || n < k) { return numr_nan_$R(); }
  if (k == n) { return $R(1.0); }
  if (k == $R(0.0)) { return numr_pow_$R($R(1.0) - c, n); }
  return numr__ibeta_$R(n - k, k + $R(1.0), $R(1.0) - c, c).x;""",
             _IB + ("floor", "trunc", "pow"), ()),
    "bdtrc": (3, """
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b) || numr_is_nan_$R(c)) { return numr_nan_$R(); }
  if (c < $R(0.0) || c > $R(1.0) || !(numr_abs_$R(b) < $R(2147483648.0))) {
    return numr_nan_$R();
  }
  let n = numr_trunc_$R(b);
  let k = numr_floor_$R(a);
  if (n < k) { return numr_nan_$R(); }
  if (k < $R(0.0)) { return $R(1.0); }
  if (k == n) { return $R(0.0); }
  let dn = n - k;
  if (a == $R(0.0)) {
    if (c < $R(0.01)) { return -numr_expm1_$R(dn * numr_log1p_$R(-c)); }
    return $R(1.0) - numr_pow_$R($R(1.0) - c, dn);
  }
  return numr__ibeta_$R(k + $R(1.0), dn, c, $R(1.0) - c).x;""",
              _IB + ("floor", "trunc", "pow", "expm1", "log1p"), ()),
    # negative binomial: I_p(n, k + 1), k and n truncated to 32-bit integers (SciPy's
    # integer loop; NaN past them, for k < 0, n <= 0)
    "nbdtr": (3, """
  let pq = sp_nbdtr_$R(a, b, c);
  return pq.x;""", _IB + ("trunc",), ("nbin",)),
    "nbdtrc": (3, """
  let pq = sp_nbdtr_$R(a, b, c);
  return pq.y;""", _IB + ("trunc",), ("nbin",)),
})

_NBIN = """
fn sp_nbdtr_$R(a: $R, b: $R, c: $R) -> vec2<$R> {
  let nan = vec2<$R>(numr_nan_$R());
  if (numr_is_nan_$R(a) || numr_is_nan_$R(b) || numr_is_nan_$R(c)) { return nan; }
  if (!(numr_abs_$R(a) < $R(2147483647.0)) || !(numr_abs_$R(b) < $R(2147483647.0))) {
    return nan;
  }
  let k = numr_trunc_$R(a);
  let n = numr_trunc_$R(b);
  if (c < $R(0.0) || c > $R(1.0) || k < $R(0.0) || n <= $R(0.0)) { return nan; }
  return numr__ibeta_$R(n, k + $R(1.0), c, $R(1.0) - c);
}
"""

# (sin, cos) of x degrees, x >= 0 finite: x mod 360 is exact, the quadrant is taken out
# exactly (|d| <= 45), and d * pi/180 is formed as an exact product plus the constant's tail
_DG = """
fn sp_dg_sincos_$R(x: $R) -> vec2<$R> {
  let r = fmod_$R(x, $R(360.0));
  let n = numr_round_$R(r / $R(90.0));
  let d = r - $R(90.0) * n;
  let p = numr__two_prod_$R(d, $PIH);
  let l = p.y + d * $PIL;
  let sh = numr_sin_$R(p.x);
  let ch = numr_cos_$R(p.x);
  let s = sh + ch * l;
  let c = ch - sh * l;
  switch (i32(n) & 3) {
    case 1: { return vec2<$R>(c, -s); }
    case 2: { return vec2<$R>(-s, -c); }
    case 3: { return vec2<$R>(-c, s); }
    default: { return vec2<$R>(s, c); }
  }
}
"""

# expm1(y) / d, also where expm1(y) overflows but the quotient does not
_EXPM1Q = """
fn sp_expm1_over_$R(y: $R, d: $R) -> $R {
  let m = numr_expm1_$R(y);
  if (!numr_is_inf_$R(m) || !numr_is_finite_$R(d) || numr_is_inf_$R(y)) { return m / d; }
  let h = numr_exp_$R($R(0.5) * y);
  return numr__opq_$R(h / d) * h;
}
"""

# x^l / l where x^l overflows: (x^(l/2) / l) x^(l/2)
_POWQ = """
fn sp_pow_over_$R(x: $R, l: $R) -> $R {
  let h = numr_pow_$R(x, $R(0.5) * l);
  return numr__opq_$R(h / l) * h;
}
"""

# (float != is an ordered comparison in naga: NaN tests are written !(y == 0))
# a x; float32: where it underflows to zero the smallest subnormal of its sign, where it
# overflows the largest finite value (SciPy's float32 gdtr computes a x in float64; its
# float64 one uses the rounded product)
_SCALED = """
fn sp_scaled_$R(a: $R, x: $R) -> $R {
  let y = a * x;
  if (!$F32 || !numr_is_finite_$R(a) || !numr_is_finite_$R(x)) { return y; }
  if (numr_is_inf_$R(y)) { return numr_copysign_$R($R(3.4028234663852886e38), y); }
  if (!(y == $R(0.0)) || a == $R(0.0) || x == $R(0.0)) { return y; }   // (NaN: y)
  return numr_copysign_$R($R(1e-45), a) * numr_copysign_$R($R(1.0), x);
}
"""

# |a b| < 1e-154 (exactly, also where the product underflows); log1p(a b), also where the
# product overflows (then a and b have one sign and it is log|a| + log|b|)
_PROD = """
fn sp_tiny_prod_$R(a: $R, b: $R) -> bool {
  let w = a * b;
  if (!(w == $R(0.0)) || a == $R(0.0) || b == $R(0.0)) { return numr_abs_$R(w) < $R(1e-154); }
  return numr_log_$R(numr_abs_$R(a)) + numr_log_$R(numr_abs_$R(b)) < $R(-354.6);
}
fn sp_log1p_prod_$R(a: $R, b: $R) -> $R {
  let w = a * b;
  if (numr_is_inf_$R(w) && numr_is_finite_$R(a) && numr_is_finite_$R(b) && w > $R(0.0)) {
    return numr_log_$R(numr_abs_$R(a)) + numr_log_$R(numr_abs_$R(b));
  }
  return numr_log1p_$R(w);
}
"""

_PI180 = {"f32": ("1.7453292e-02f", "1.351996e-10f"),   # pi/180 rounded, and the rest
          "f64": ("1.7453292519943295e-02lf", "2.9486522708701687e-19lf")}


# per-type tokens of the bodies: the series length of kl_div; exprel overflows with expm1 in
# float64 as SciPy's does, while SciPy's float32 loop (computed in float64) stays finite
# (and where x / y leaves float32's range, SciPy's float32 kl_div -- computed in float64 --
# is finite, its float64 one -inf); cosm1's underflow: -0 in float32 (the float64 value's
# sign), +0 in float64 (also for a subnormal, which SciPy's float64 loses)
TOKENS = {"f32": {"$KLN": "22", "$STD_NORMAL": "1e10f", "$STDQ": "false",
                  "$EXPREL": "sp_expm1_over_f32(a, a)",
                  "$KLQ": "r < 1e-30f || r > 1e30f",
                  "$TINYREL": "1.1102230246251565e-16f", "$PHQ": "false", "$COSM1Z": "r",
                  "$RADIAN": "(a + (b + c / 60.0f) / 60.0f) * 0.017453292519943295f"},
          "f64": {"$KLN": "50", "$STD_NORMAL": "1e20lf", "$STDQ": "true",
                  "$EXPREL": "numr_expm1_f64(a) / a", "$KLQ": "false",
                  "$TINYREL": "1.1102230246251565e-16lf",
                  "$PHQ": "numr_is_inf_f64(t * t) || numr_is_inf_f64(a * a)"
                          " || numr__opq_f64(0.5lf * (t * t)) == 0.0lf"
                          " || a * a == 0.0lf",
                  "$COSM1Z": "select(r, 0.0lf, r > -2.2250738585072014e-308lf)",
                  "$RADIAN": "((a * 60.0lf + b) * 60.0lf + c) * 4.84813681109535993590e-6lf"}}


def helper_source(name, R):
    if name == "expm1q":
        return (_EXPM1Q + _POWQ).replace("$R", R)
    if name == "scaled":
        return _SCALED.replace("$F32", "true" if R == "f32" else "false").replace("$R", R)
    if name == "prod":
        return _PROD.replace("$R", R)
    if name == "nbin":
        return _NBIN.replace("$R", R)
    if name == "dg":
        h, l = _PI180[R]
        return fmod_source(R) + _DG.replace("$PIH", h).replace("$PIL", l).replace("$R", R)
    raise KeyError(name)


HELPER_LIB = {"dg": ("hypot", "round"), "expm1q": ("exp", "expm1", "pow"),
              "prod": ("log", "log1p"), "scaled": (),
              "nbin": ("betainc", "trunc")}   # hypot: pulls in the two-product unit

from ._snippets_inverse import INVERSE_SNIPPETS  # noqa: E402  (the inverses, the F distribution)
SNIPPETS.update(INVERSE_SNIPPETS)
from ._snippets_series import SERIES_SNIPPETS  # noqa: E402  (zeta family, gamma ratios, yn, lpmv)
SNIPPETS.update(SERIES_SNIPPETS)
