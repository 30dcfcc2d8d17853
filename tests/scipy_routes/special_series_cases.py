"""Samplers, condition multipliers and special-value filters of the zeta family, spence,
ellipk / ellipkm1, expn, yn, lpmv and the gamma ratios (betaln, poch, binom) for
test_special_accuracy.py's CASES.

A condition multiplier divides the error in ulps: the amplification of input-sized
relative errors the problem itself has (cancellation in a sum whose terms are given,
kappa = |sum_i x_i d log f / d x_i| for log-gamma ratios), or, for float64 against SciPy,
SciPy's own error where its formula carries a rounding it need not (its reflection
exponent in zeta, exp of lgamma differences in poch / binom / betaln).
"""

import warnings

import numpy as np
import scipy.special as ss


def _pos(rng, n, lo, hi):
    return 10.0 ** rng.uniform(lo, hi, n)


def _ints(rng, n, lo, hi):
    return rng.integers(lo, hi, n).astype(float)


def zeta_x(rng, n):
    # non-integer x > 1 (q > 0) and integer x (also for q < 0)
    return np.concatenate([1 + _pos(rng, n, -8, 1.5), _ints(rng, n, 2, 40)])


def zeta_q(rng, n):
    return np.concatenate([_pos(rng, n, -3, 3), -rng.uniform(0, 30, n)])


def zetac_x(rng, n):
    return np.concatenate([_pos(rng, n, -6, 2.3) * rng.choice([-1.0, 1.0], n),
                           rng.uniform(-40, 40, n)])


def poly_n(rng, n):
    return _ints(rng, 2 * n, 0, 20)


def poly_x(rng, n):
    return np.concatenate([_pos(rng, n, -3, 2), -rng.uniform(0, 20, n)])


def poly_x64(rng, n):
    return _pos(rng, 2 * n, -3, 2.3)   # (float64: SciPy's psi(x < 0) is itself off)


def spence_x(rng, n):
    return np.concatenate([_pos(rng, n, -8, 8), rng.uniform(0, 3, n)])


def ellipk_m(rng, n):
    return np.concatenate([-_pos(rng, n, -8, 8), rng.uniform(-3, 1, n), 1 - _pos(rng, n, -17, 0)])


def ellipkm1_p(rng, n):
    return _pos(rng, 2 * n, -20, 8)


def expn_n(rng, n):
    return np.concatenate([_ints(rng, n, 0, 50), _ints(rng, n // 4, 50, 3000)])


def expn_n64(rng, n):
    return _ints(rng, n, 0, 50)   # (float64: SciPy's expansion past n = 50 is off by ~1e-8)


def expn_x(rng, n):
    return _pos(rng, 2 * n, -6, 2.8)


def yn_n(rng, n):
    return _ints(rng, 2 * n, -60, 60)


def yn_x(rng, n):
    return _pos(rng, 2 * n, -6, 2.6)


def lpmv_m(rng, n):
    return _ints(rng, 2 * n, -5, 6)


def lpmv_v(rng, n):
    return np.concatenate([rng.uniform(-15, 15, n), _ints(rng, n, -15, 15)])


def lpmv_x(rng, n):
    # x >= -0.35: below, specfun's logarithmic series for a non-integer degree cancels
    # (a 1-ulp change of its tan or psi moves SciPy's own float64 result by up to ~1e4
    # ulp): test_special_series.py compares it with mpmath at SciPy's tolerance
    return rng.uniform(-0.35, 1, 2 * n)


def gamma_arg(rng, n):
    return np.concatenate([_pos(rng, n, -6, 3), rng.uniform(-20, 20, n)])


def poch_m(rng, n):
    return np.concatenate([_pos(rng, n, -6, 1.5) * rng.choice([-1.0, 1.0], n),
                           rng.uniform(-20, 20, n)])


def binom_n(rng, n):
    return np.concatenate([_pos(rng, n, -3, 3), _ints(rng, n, 0, 100)])


def binom_k(rng, n):
    return np.concatenate([rng.uniform(-10, 30, n), _ints(rng, n, 0, 60)])


# ---- condition multipliers ------------------------------------------------------------

def _finite(cond):
    # a multiplier is finite and >= 1 (a NaN would silence the comparison)
    def c(args, ref):
        with np.errstate(all="ignore"):
            v = np.asarray(cond(args, ref), dtype=float)
        return np.where(np.isfinite(v), np.maximum(v, 1), 1)
    c.__name__ = cond.__name__
    return c


def _f(args):
    return [a.astype(float) for a in args]


def _ratio(c, ref):
    with np.errstate(all="ignore"):
        return 1 + np.nan_to_num(c / np.abs(ref.astype(float)), posinf=0, nan=0)


def _hurwitz_terms(s, q):
    # sum_k |q + k|^-s for q < 0 (the terms cancel for odd s): zeta(s, f) + zeta(s, 1 - f)
    with np.errstate(all="ignore"):
        f = q - np.floor(q)
        return np.where(q < 0, ss.zeta(s, f) + ss.zeta(s, 1 - f), 0)


@_finite
def cond_zeta(args, ref):
    x, q = _f(args)
    return _ratio(_hurwitz_terms(x, q), ref)


@_finite
def cond_zetac(args, ref):
    # zeta(x) - 1 for x < 0 cancels near zeta(x) = 1
    (x,) = _f(args)
    r = ref.astype(float)
    return _ratio(np.where(x < 0, np.abs(1 + r), 0), ref)


@_finite
def cond_riemann(args, ref):
    # SciPy's reflection rounds (x + g + 1/2) / (2 pi e) before its power (~|x| ulp), its
    # Lanczos sum (~16 ulp near 0) and sin(pi x / 2)'s argument (near the zeros -2, -4, ...)
    (x,) = _f(args)
    with np.errstate(all="ignore"):
        c = 4 + 2 * np.abs(x) + 4 / np.abs(np.sin(np.pi * np.fmod(x, 4) / 2))
    return 1 + np.where(x < 0, c, 0)


@_finite
def cond_zetac64(args, ref):
    return cond_zetac(args, ref) * cond_riemann(args, ref)


@_finite
def cond_polygamma(args, ref):
    n, x = _f(args)
    with np.errstate(all="ignore"):
        big = np.abs(ss.psi(np.where(x < 0, 1 - x, 2.0)))   # psi's reflection (n = 0)
        c = np.where(n == 0, np.where(x < 0, big, 0),
                     ss.gamma(n + 1) * _hurwitz_terms(n + 1, x))
    return _ratio(c, ref)


def _env(x):
    # Bessel Y: absolute accuracy near the zeros, relative to min(1, sqrt(2 / (pi x)))
    x = np.abs(x)
    return np.minimum(1, np.sqrt(2 / (np.pi * np.maximum(x, 1e-300))))


@_finite
def cond_yn(args, ref):
    # (and the recurrence's roundings, ~1/8 ulp a step)
    n, x = _f(args)
    return _ratio(_env(x), ref) * (1 + np.abs(n) / 8)


@_finite
def cond_yn64(args, ref):
    # SciPy's y0 / y1 round their phase x - pi/4 (~x eps); the recurrence carries it
    n, x = _f(args)
    return cond_yn(args, ref) * (1 + np.abs(x) / 4)


@_finite
def cond_lpmv(args, ref):
    # absolute accuracy relative to the function's scale over (-1, 1) (its zeros; the
    # logarithmic series' cancellation near -1)
    m, v, x = _f(args)
    t = np.linspace(-0.99, 0.99, 41)
    with np.errstate(all="ignore"):
        vals = ss.lpmv(m[:, None], v[:, None], t[None, :])
    env = np.max(np.where(np.isfinite(vals), np.abs(vals), 0), axis=1)
    return _ratio(env, ref)


def _lgam_sum(*xs):
    with np.errstate(all="ignore"):
        return sum(np.abs(ss.gammaln(x)) for x in xs)


def _kappa_lbeta(a, b):
    # |a d/da log B| + |b d/db log B|
    with np.errstate(all="ignore"):
        return (np.abs(a * (ss.psi(a) - ss.psi(a + b)))
                + np.abs(b * (ss.psi(b) - ss.psi(a + b))))


def _lbeta_args(args):
    # a non-positive integer argument: Cephes' B(1 - a - b, b) (b the other one)
    a, b = _f(args)
    ai = (a <= 0) & (a == np.floor(a))
    bi = ~ai & (b <= 0) & (b == np.floor(b))
    return np.where(ai | bi, 1 - a - b, a), np.where(ai, b, np.where(bi, a, b))


@_finite
def cond_betaln(args, ref):
    # log B to absolute accuracy (1 + kappa) eps (positive arguments); with a negative
    # argument the lgamma sums of Cephes' (and numr's float32) formula: their magnitudes
    a, b = _lbeta_args(args)
    neg = (a < 0) | (b < 0)
    c = np.where(neg, _lgam_sum(a, b, a + b), 1 + _kappa_lbeta(a, b))
    return _ratio(np.nan_to_num(c, posinf=0), ref)


@_finite
def cond_betaln64(args, ref):
    # (SciPy's Gamma(a + b) also carries the rounding of a + b: |(a + b) psi(a + b)| ulp)
    a, b = _lbeta_args(args)
    with np.errstate(all="ignore"):
        c = _lgam_sum(a, b, a + b) + np.abs((a + b) * ss.psi(a + b))
    return cond_betaln(args, ref) + _ratio(np.nan_to_num(c, posinf=0), ref)


def _kappa_poch(a, m):
    with np.errstate(all="ignore"):
        return (np.abs(a * (ss.psi(a + m) - ss.psi(a))) + np.abs(m * ss.psi(a + m))
                + np.abs(m))   # (|m| factors of the recurrences' product)


@_finite
def cond_poch(args, ref):
    a, m = _f(args)
    c = _kappa_poch(a, m)
    neg = (a < 0) | (a + m < 0)
    c = c + np.where(neg, _lgam_sum(a, a + m), 0)
    return 1 + np.nan_to_num(c, posinf=0, nan=0)


@_finite
def cond_poch64(args, ref):
    a, m = _f(args)
    return cond_poch(args, ref) + np.nan_to_num(_lgam_sum(a, a + m), posinf=0, nan=0)


@_finite
def cond_binom(args, ref):
    # kappa of 1 / ((n + 1) B(n - k + 1, k + 1)) in n and k, plus the lgamma sums where an
    # argument of B is negative (the product of k factors: |k|)
    n, k = _f(args)
    a, b = 1 + n - k, 1 + k
    with np.errstate(all="ignore"):
        c = (np.abs(n * (ss.psi(n + 1) - ss.psi(a))) + np.abs(k * (ss.psi(a) - ss.psi(b)))
             + np.abs(k))
        c = c + np.where((a < 0) | (b < 0), _lgam_sum(a, b, n + 2), 0)
    return 1 + np.nan_to_num(c, posinf=0, nan=0)


@_finite
def cond_binom64(args, ref):
    n, k = _f(args)
    return cond_binom(args, ref) + np.nan_to_num(_lgam_sum(1 + n - k, 1 + k, n + 2),
                                                 posinf=0, nan=0)


# ---- special values left out ----------------------------------------------------------

def keep(name, cols, dtype):
    """Rows of the special-value grid (and samples) compared with SciPy: SciPy's values
    where they are not the function's (a rounded huge phase, its loops' wrapped C ints)
    or not float32's (its float64 intermediates) are left out (docs/scipy-special.md)."""
    ok = np.ones(len(cols[0]), bool)
    if name == "yn":
        n, x = cols
        # y0 / y1's phase of a huge x; a wrapped order (|n| >= 2^31) with a large x runs
        # SciPy's recurrence 2^32 steps (seconds) to another number
        ok &= ~(np.isfinite(x) & (np.abs(x) > 1e4)) & ~((np.abs(n) >= 2 ** 31) & (x > 1e3))
    if name == "expn" and dtype == np.float64:
        # SciPy's float64 expansion past n = 50 is off by ~1e-8 (mpmath): its special
        # values only
        n, x = cols
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")   # (SciPy's: n truncated to an integer)
            r = ss.expn(np.where(n > 50, n, 0), np.where(n > 50, x, 1))
        ok &= ~((n > 50) & np.isfinite(r) & (r != 0))
    if name == "lpmv":
        m, v, x = cols
        ok &= ~(np.abs(v) > 1e4)   # (degree recursion beyond YN_MAX / LP_MAX steps)
        if dtype == np.float32:
            # outside [-1, 1] SciPy's series diverge through float64 values past float32's
            # range; orders past 30 need float64's range for (m!)^2-sized products
            ok &= (np.abs(x) <= 1) & (np.abs(m) <= 30)
    if name == "binom" and dtype == np.float32:
        # k >> n: SciPy's sin(k pi) of a huge k is rounding noise (float32's k and
        # float64's k pi are other numbers)
        n, k = cols
        ok &= ~((np.abs(k) >= 2 ** 24) & (np.abs(k) > 1e8 * np.abs(n)))
    return ok
