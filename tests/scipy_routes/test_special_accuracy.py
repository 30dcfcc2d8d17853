"""numr_array_api.scipy.special on every backend against SciPy on NumPy: random inputs over
each function's domain (tails, poles, negative arguments, huge values) and a grid of special
values (NaN, +-inf, +-0, poles, tiny, huge) whose NaN / inf / zero-sign results must match
SciPy's exactly. webgpu runs numr's WGSL kernels under the "raise" host-conversion policy.

Errors are in ulps of the result's dtype, against SciPy's value (float32: SciPy's float32
loop, which computes in float64; float64: SciPy's float64). The bounds are the measured
maxima (docs/scipy-special.md) with a margin; where SciPy's float64 value is itself less
accurate (cancellation in its formula) the domain here avoids that region and
test_special_reference.py checks numr against mpmath there.
"""

import warnings

import numpy as np
import pytest


ss = pytest.importorskip("scipy.special")
special = pytest.importorskip("numr_array_api.scipy.special")
from numr_array_api.backends.webgpu.scipy.special import FUNCTIONS as WEBGPU  # noqa: E402
from . import special_series_cases as SR  # noqa: E402


pytestmark = pytest.mark.usefixtures("no_host_copies")


def host(a):
    return np.asarray(a.to_device("cpu"))


def backend(xp):
    return xp.__name__.rsplit(".", 1)[-1]


def has_f64(xp):
    return xp.float64 in xp.__array_namespace_info__().dtypes().values()


# ---- inputs ---------------------------------------------------------------------------

def _real(rng, n, lo=-6.0, hi=3.0):
    mag = 10.0 ** rng.uniform(lo, hi, n)
    return np.concatenate([mag * rng.choice([-1.0, 1.0], n), rng.uniform(-10, 10, n)])


def _pos(rng, n, lo=-6.0, hi=3.0):
    return np.abs(_real(rng, n, lo, hi))


def _unit(rng, n):
    return np.concatenate([rng.uniform(0, 1, n), 10.0 ** rng.uniform(-30, 0, n),
                           1 - 10.0 ** rng.uniform(-15, -0.3, n)])


# float64 regions where SciPy's own value is off by more than a few ulps (measured against
# mpmath): they are left out here and checked against mpmath in test_special_reference.py
def _erfcx_dom(rng, n):
    x = _real(rng, n, -6, 3)
    return x[x > -5]   # exp(x^2) loses ~x^2 / 2 ulp


def _deg_dom(rng, n):
    x = _real(rng, n, -6, 1.9)
    r = np.abs(x) % 180
    return x[(r > 1) & (np.abs(r - 90) > 1)]    # near the poles / zeros of cot, tan


# |l log x| (boxcox), |log1p(l y) / l| (inv_boxcox): the exponent whose rounding any
# implementation (SciPy's included) carries into the result
def _cond_boxcox(args, ref):
    x, lm = args[0].astype(float), args[1].astype(float)
    with np.errstate(all="ignore"):
        return 1 + np.nan_to_num(np.abs(lm * np.log(x)), posinf=0, nan=0)


def _cond_boxcox1p(args, ref):
    x, lm = args[0].astype(float), args[1].astype(float)
    with np.errstate(all="ignore"):
        return 1 + np.nan_to_num(np.abs(lm * np.log1p(x)), posinf=0, nan=0)


def _cond_inv_boxcox(args, ref):
    y, lm = args[0].astype(float), args[1].astype(float)
    with np.errstate(all="ignore"):
        return 1 + np.nan_to_num(np.abs(np.log1p(lm * y) / lm), posinf=0, nan=0)


def _cond_kl(args, ref):
    # float64: SciPy's x log(x / y) - x + y cancels where x ~ y
    x, y = args[0].astype(float), args[1].astype(float)
    with np.errstate(all="ignore"):
        return 1 + np.nan_to_num((np.abs(x) + np.abs(y)) / np.abs(ref.astype(float)),
                                 posinf=0, nan=0)


# SciPy's float64 errors where its formulas lose accuracy, as multipliers of the bound (the
# float32 reference is SciPy's float64 computation, accurate there): exp(-x^2) unsplit in the
# erfc family, absolute (not relative) accuracy near zeros of gammaln and cos(x) - 1,
# the cotangent's reduction near its poles
def _x2(args, ref):
    return 1 + args[0].astype(float) ** 2


def _abs(args, ref):
    with np.errstate(all="ignore"):
        return 1 + np.nan_to_num(1 / np.abs(ref.astype(float)), posinf=0)


def _rel(args, ref):
    return 1 + np.nan_to_num(np.abs(ref.astype(float)), posinf=0)


def _env_abs(args, ref):
    # Bessel J, Y: absolute accuracy near the zeros, relative to the envelope sqrt(2 / (pi x))
    x = np.abs(args[0].astype(float))
    env = np.minimum(1, np.sqrt(2 / (np.pi * np.maximum(x, 1e-300))))
    with np.errstate(all="ignore"):
        return 1 + np.nan_to_num(env / np.abs(ref.astype(float)), posinf=0)


def _env_phase(args, ref):
    # float64: SciPy's phase x - pi/4 is rounded (~x eps): its own error grows with x
    return _env_abs(args, ref) * (1 + np.abs(args[0].astype(float)) / 4)


SCIPY64 = {"j0": _env_phase, "j1": _env_phase, "y0": _env_phase, "y1": _env_phase,
           "erfc": _x2, "ndtr": _x2, "log_ndtr": _x2, "erfcx": _x2, "gammaln": _abs,
           "loggamma": _abs, "cosm1": _abs, "cotdg": _rel, "tandg": _rel, "expi": _abs}
SCIPY64.update({"zetac": SR.cond_zetac64, "yn": SR.cond_yn64, "betaln": SR.cond_betaln64,
                "poch": SR.cond_poch64, "binom": SR.cond_binom64})


def _neg_gamma_dom(rng, n):
    x = _real(rng, n, -6, 2.3)
    return x[(x > -170) | (x < -171.7)]   # SciPy's float64 rgamma overflows early there


def _psi_dom(rng, n):
    x = _real(rng, n, -6, 3)
    return x[x > 0]   # negative x: SciPy's float64 reflection loses ~|x| cot'(pi x) ulp


def _cond_tail(args, ref):
    # exp(-a D(x / a)) carries the rounding of its exponent, |log(result)|
    with np.errstate(all="ignore"):
        return 1 + np.nan_to_num(np.abs(np.log(np.abs(ref.astype(float)))), posinf=0)


def _shape(rng, n):
    return np.concatenate([_pos(rng, n, -3, 3), rng.uniform(0, 3, n)])


def _expi_dom(rng, n):
    x = _real(rng, n, -6, 2.85)
    return x[x < 20]   # above, SciPy's float64 expi is off by 10 to ~180 ulp (mpmath)


DOMAIN64 = {"psi": [_psi_dom], "expi": [_expi_dom]}   # where SciPy's own value is the limit
DOMAIN64.update({"polygamma": [SR.poly_n, SR.poly_x64], "expn": [SR.expn_n64, SR.expn_x]})
# the shape argument of the incomplete gamma functions
_IGAM = {"gammainc": 0, "gammaincc": 0, "chdtr": 0, "chdtrc": 0, "gdtr": 1, "gdtrc": 1,
         "gammaincinv": 0, "gammainccinv": 0, "chdtri": 0}


def _cond_psi(args, ref):
    # near psi's negative zeros the reflection psi(1 - x) + pi cot(pi x) cancels
    x = args[0].astype(float)
    with np.errstate(all="ignore"):
        big = np.abs(ss.psi(np.where(x < 0, 1 - x, 2.0)))
        return 1 + np.where(x < 0, np.nan_to_num(big / np.abs(ref.astype(float)), posinf=0), 0)

def _count(rng, n):
    return np.concatenate([np.floor(10.0 ** rng.uniform(0, 3, n)), rng.uniform(0, 30, n)])


def _lbeta(a, b):
    with np.errstate(all="ignore"):
        return np.abs(ss.gammaln(a)) + np.abs(ss.gammaln(b)) + np.abs(ss.gammaln(a + b))


def _cond_ibeta_of(a, b, x):
    # the prefactor x^a (1 - x)^b / B(a, b), one exp: its exponent's rounding (also SciPy's)
    with np.errstate(all="ignore"):
        c = np.abs(a * np.log(x)) + np.abs(b * np.log1p(-x)) + _lbeta(a, b)
        return 1 + np.nan_to_num(c, posinf=0, nan=0)


def _cond_ibeta(args, ref):
    # (and the smaller of I, 1 - I is formed as 1 - the larger where a or b is small and
    # the power series gives the larger: absolute accuracy there)
    r = np.abs(ref.astype(float))
    with np.errstate(all="ignore"):
        c = np.nan_to_num(np.maximum(r, np.abs(1 - r)) / r, posinf=0, nan=0)
    return _cond_ibeta_of(*[v.astype(float) for v in args]) * np.maximum(c, 1)


def _cond_std(args, ref):
    df, t = args[0].astype(float), args[1].astype(float)
    with np.errstate(all="ignore"):
        return _cond_ibeta_of(df / 2, 0.5, df / (df + t * t))


def _cond_bin(args, ref):
    # I_(1-p)(n - k, k + 1) or I_p(n, k + 1): both shapes are below |n| + |k| + 2
    k, n, p = (v.astype(float) for v in args)
    s = np.abs(n) + np.abs(k) + 2
    with np.errstate(all="ignore"):
        c = s * (np.abs(np.log(p)) + np.abs(np.log1p(-p))) + _lbeta(np.abs(n) + 1, np.abs(k) + 1)
        return 1 + np.nan_to_num(c, posinf=0, nan=0)


# the inverses x = F^-1(p): F's own error (in ulps of the smaller tail, which grows with the
# rounding of its exponent, as for the forward functions; a subnormal tail has fewer bits)
# times min(p, 1 - p) / (x F'(x)), over both x and 1 - x where the result is a probability
# or a ratio of the two
def _cond_inv(tail, logdens, fwd, dtype):
    with np.errstate(all="ignore"):
        c = tail / np.exp(logdens) * np.maximum(1, np.finfo(dtype).tiny / tail)
        return 1 + np.nan_to_num(c * fwd, posinf=0, nan=0)


def _cond_igami(a, x, t, dt):
    # log(x P'(x)) = a log x - x - lgamma(a); t = min(P, Q) at the root
    with np.errstate(all="ignore"):
        return _cond_inv(t, a * np.log(x) - x - ss.gammaln(a), 1 + np.abs(np.log(t)), dt)


def _cond_gammaincinv(args, ref):
    a, p = (v.astype(float) for v in args)
    return _cond_igami(a, ref.astype(float), np.minimum(p, 1 - p), ref.dtype)


def _cond_gammainccinv(args, ref):
    a, q = (v.astype(float) for v in args)
    return _cond_igami(a, ref.astype(float), np.minimum(q, 1 - q), ref.dtype)


def _cond_chdtri(args, ref):
    df, q = (v.astype(float) for v in args)
    return _cond_igami(df / 2, ref.astype(float) / 2, np.minimum(q, 1 - q), ref.dtype)


def _cond_pdtri(args, ref):
    k, q = (v.astype(float) for v in args)
    return _cond_igami(np.floor(np.abs(k)) + 1, ref.astype(float), np.minimum(q, 1 - q),
                       ref.dtype)


def _cond_ibetai(a, b, x, xc, p, dt):
    # log(x (1 - x) I'(x)) = a log x + b log(1 - x) - log B(a, b), xc = 1 - x
    t = np.minimum(p, 1 - p)   # (p as given: its complement is exact where it is the smaller)
    with np.errstate(all="ignore"):
        ld = a * np.log(x) + b * np.log(xc) - ss.betaln(a, b)
        return _cond_inv(t, ld, _cond_ibeta_of(a, b, x), dt)


def _cond_betaincinv(args, ref):
    a, b, p = (v.astype(float) for v in args)
    return _cond_ibetai(a, b, ref.astype(float), 1 - ref.astype(float), p, ref.dtype)


def _cond_fdtri(args, ref):
    a, b, p = (v.astype(float) for v in args)
    f = ref.astype(float)
    with np.errstate(all="ignore"):
        return _cond_ibetai(a / 2, b / 2, a * f / (b + a * f), b / (b + a * f), p, ref.dtype)


def _cond_stdtrit(args, ref):
    df, p = (v.astype(float) for v in args)
    t = ref.astype(float)
    with np.errstate(all="ignore"):
        return _cond_ibetai(df / 2, 0.5, df / (df + t * t), t * t / (df + t * t),
                            2 * np.minimum(p, 1 - p), ref.dtype)


def _cond_bdtri(args, ref):
    k, n, y = (v.astype(float) for v in args)
    k = np.floor(k)
    return _cond_ibetai(np.trunc(n) - k, k + 1, 1 - ref.astype(float), ref.astype(float), y,
                        ref.dtype)


def _cond_nbdtri(args, ref):
    k, n, y = (v.astype(float) for v in args)
    return _cond_ibetai(np.trunc(n), np.trunc(k) + 1, ref.astype(float), 1 - ref.astype(float), y,
                        ref.dtype)


def _cond_fdtr(args, ref):
    a, b, x = (v.astype(float) for v in args)
    r = np.abs(ref.astype(float))
    with np.errstate(all="ignore"):
        c = np.nan_to_num(np.maximum(r, np.abs(1 - r)) / r, posinf=0, nan=0)
        return _cond_ibeta_of(a / 2, b / 2, a * x / (b + a * x)) * np.maximum(c, 1)


# name -> (samplers per argument, max ulp float32, max ulp float64[, condition multiplier])
R, P, U = _real, _pos, _unit
CASES = {
    "erf": ([R], 3, 3), "erfc": ([lambda r, n: _real(r, n, -6, 1.0)], 5, 5),
    "ndtr": ([lambda r, n: _real(r, n, -6, 1.1)], 5, 5),
    "log_ndtr": ([lambda r, n: _real(r, n, -6, 1.1)], 6, 6),
    "gammaln": ([lambda r, n: _pos(r, n, -30, 30)], 6, 6),
    "erfcx": ([_erfcx_dom], 6, 8),
    "erfinv": ([lambda r, n: np.concatenate([-_unit(r, n), _unit(r, n)])], 6, 6),
    "ndtri": ([U], 6, 6),
    "i0": ([lambda r, n: _real(r, n, -6, 2.8)], 5, 8), "i0e": ([R], 5, 10),
    "i1": ([lambda r, n: _real(r, n, -6, 2.8)], 5, 16), "i1e": ([R], 5, 12),
    "exp2": ([lambda r, n: _real(r, n, -6, 2.9)], 2, 2),
    "exp10": ([lambda r, n: _real(r, n, -6, 2.4)], 2, 3), "cbrt": ([R], 1, 1),
    "expit": ([R], 4, 4), "logit": ([U], 4, 4),
    "xlogy": ([R, P], 3, 3), "xlog1py": ([R, P], 3, 3), "entr": ([P], 3, 3),
    "rel_entr": ([P, P], 4, 4), "kl_div": ([lambda r, n: _pos(r, n, -2, 2)] * 2, 20, 16, _cond_kl),
    "huber": ([P, R], 2, 2), "pseudo_huber": ([P, R], 5, 64), "sinc": ([R], 3, 3),
    "radian": ([lambda r, n: _pos(r, n, 0, 2)] * 3, 6, 2),
    "sindg": ([R], 2, 2), "cosdg": ([R], 2, 2), "tandg": ([_deg_dom], 3, 5),
    "cotdg": ([_deg_dom], 4, 4),
    "cosm1": ([lambda r, n: _real(r, n, -6, 0.45)], 4, 4),
    "boxcox": ([P, lambda r, n: _real(r, n, -6, 0.5)], 8, 8, _cond_boxcox),
    "boxcox1p": ([P, lambda r, n: _real(r, n, -6, 0.5)], 8, 8, _cond_boxcox1p),
    "inv_boxcox": ([lambda r, n: _real(r, n, -6, 0.5), lambda r, n: _real(r, n, -6, 0)], 4, 4,
                   _cond_inv_boxcox),
    "inv_boxcox1p": ([lambda r, n: _real(r, n, -6, 0.5), lambda r, n: _real(r, n, -6, 0)], 4, 4,
                     _cond_inv_boxcox),
    "exprel": ([lambda r, n: _real(r, n, -9, 1.8)], 3, 3),
    "gamma": ([lambda r, n: _real(r, n, -6, 2.3)], 6, 10),
    "rgamma": ([_neg_gamma_dom], 6, 10), "gammasgn": ([R], 0, 0),
    "loggamma": ([lambda r, n: _real(r, n, -30, 30)], 6, 6),
    # float32 4.41 ulp on an NVIDIA H200 (near a negative zero, x = -9.6988), 4 on lavapipe
    "psi": ([R], 5, 4, _cond_psi),
    "j0": ([lambda r, n: _real(r, n, -6, 2.6)], 12, 8, _env_abs),
    "j1": ([lambda r, n: _real(r, n, -6, 2.6)], 12, 8, _env_abs),
    "y0": ([lambda r, n: _pos(r, n, -6, 2.6)], 12, 8, _env_abs),
    "y1": ([lambda r, n: _pos(r, n, -6, 2.6)], 12, 8, _env_abs),
    "exp1": ([lambda r, n: _pos(r, n, -6, 2.85)], 4, 24),   # (float64: SciPy's ~18 near 1)
    "expi": ([lambda r, n: _real(r, n, -6, 2.85)], 8, 12),
    "k0": ([lambda r, n: _pos(r, n, -6, 2.85)], 8, 20), "k1": ([P], 8, 20),
    "k0e": ([P], 8, 20), "k1e": ([P], 8, 20),
    # (float64: SciPy's incomplete gamma is itself off by up to ~400 ulp here, against
    # mpmath, where numr's is within a few: test_special_reference.py)
    "gammainc": ([_shape, _shape], 8, 512, _cond_tail),
    "gammaincc": ([_shape, _shape], 10, 512, _cond_tail),
    "chdtr": ([_shape, _shape], 8, 512, _cond_tail),
    "chdtrc": ([_shape, _shape], 8, 512, _cond_tail),
    "gdtr": ([_shape, _shape, _shape], 8, 512, _cond_tail),
    "gdtrc": ([_shape, _shape, _shape], 8, 512, _cond_tail),
    "pdtr": ([_shape, _shape], 8, 512, _cond_tail),
    "pdtrc": ([_shape, _shape], 8, 512, _cond_tail),
    "betainc": ([_shape, _shape, U], 6, 6, _cond_ibeta),
    "betaincc": ([_shape, _shape, U], 6, 6, _cond_ibeta),
    "stdtr": ([_shape, R], 4, 8, _cond_std),
    "bdtr": ([_count, _count, U], 4, 4, _cond_bin),
    "bdtrc": ([_count, _count, U], 4, 4, _cond_bin),
    "nbdtr": ([_count, _count, U], 4, 4, _cond_bin),
    "nbdtrc": ([_count, _count, U], 4, 4, _cond_bin),
    # the inverses' float64 bounds are SciPy's own errors (numr's within 2 ulp of mpmath at
    # the worst points: test_special_inverse.py); float32 is numr's against SciPy's float64
    "gammaincinv": ([_shape, U], 6, 24, _cond_gammaincinv),
    "gammainccinv": ([_shape, U], 6, 32, _cond_gammainccinv),
    "chdtri": ([_shape, U], 6, 96, _cond_chdtri),
    "pdtri": ([_count, U], 4, 24, _cond_pdtri),
    "betaincinv": ([_shape, _shape, U], 32, 48, _cond_betaincinv),
    "fdtri": ([_shape, _shape, U], 256, 384, _cond_fdtri),   # (float32: dfd << 1)
    "stdtrit": ([_shape, U], 24, 1400, _cond_stdtrit),
    "bdtri": ([_count, _count, U], 2, 6000, _cond_bdtri),
    "nbdtri": ([_count, _count, U], 2, 700, _cond_nbdtri),
    "fdtr": ([_shape, _shape, P], 4, 5, _cond_fdtr),
    "fdtrc": ([_shape, _shape, P], 6, 6, _cond_fdtr),
    "zeta": ([SR.zeta_x, SR.zeta_q], 6, 12, SR.cond_zeta),
    "zetac": ([SR.zetac_x], 6, 10, SR.cond_zetac),
    "polygamma": ([SR.poly_n, SR.poly_x], 12, 16, SR.cond_polygamma),
    "spence": ([SR.spence_x], 4, 24),
    "ellipk": ([SR.ellipk_m], 4, 6), "ellipkm1": ([SR.ellipkm1_p], 4, 6),
    "expn": ([SR.expn_n, SR.expn_x], 8, 16),
    "yn": ([SR.yn_n, SR.yn_x], 12, 12, SR.cond_yn),
    "lpmv": ([SR.lpmv_m, SR.lpmv_v, SR.lpmv_x], 16, 8, SR.cond_lpmv),
    "betaln": ([SR.gamma_arg, SR.gamma_arg], 8, 8, SR.cond_betaln),
    "poch": ([SR.gamma_arg, SR.poch_m], 8, 16, SR.cond_poch),
    "binom": ([SR.binom_n, SR.binom_k], 8, 8, SR.cond_binom),
}

# special values; every function sees every one (and, for two or three arguments, all pairs)
EDGES = np.array([np.nan, -np.inf, np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0,
                  -3.0, 90.0, -90.0, 180.0, 270.0, 360.0, 1e-300, 5e-324, 1e-30, -1e-30,
                  1e30, -1e30, 1e300, -1e300, 100.0, 800.0, -800.0, 0.25, 0.75, 1.5])


def ulp_errors(got, ref, dtype):
    got = got.astype(np.float64)
    ref = ref.astype(np.float64)
    fin = np.isfinite(ref) & np.isfinite(got)
    scale = np.maximum(np.spacing(np.abs(ref).astype(dtype)).astype(np.float64),
                       np.finfo(dtype).tiny)
    err = np.zeros(ref.shape)
    err[fin] = np.abs(got[fin] - ref[fin]) / scale[fin]
    return err


_SCIPY_VERSION = tuple(int(p) for p in __import__("scipy").__version__.split(".")[:2])


def assert_matches(got, ref, dtype, max_ulp, args, name, cond=None):
    assert got.dtype == ref.dtype, (name, got.dtype, ref.dtype)
    nan_bad = np.isnan(got) != np.isnan(ref)
    inf_bad = (np.isinf(ref) | np.isinf(got)) & ~(got == ref) & ~np.isnan(ref)
    # (SciPy's float64 gives 0 for some results below the normal range: a subnormal is fine)
    zero_bad = (ref == 0) & ((np.abs(got) >= np.finfo(dtype).tiny)
                             | (np.signbit(got) != np.signbit(ref)))
    if name == "sindg" and _SCIPY_VERSION < (1, 18):
        # SciPy 1.17 gives sindg(-0.0) = +0.0; 1.18 (and numr) -0.0
        zero_bad &= ~((args[0] == 0) & np.signbit(args[0]))
    bad = nan_bad | inf_bad | zero_bad
    if bad.any():
        i = np.flatnonzero(bad)[:5]
        raise AssertionError(f"{name}: special values differ at {[tuple(a[i]) for a in args]}: "
                             f"got {got[i]}, SciPy {ref[i]}")
    err = ulp_errors(got, ref, dtype)
    err[ref == 0] = 0
    if cond is not None:
        err = err / cond(args, ref)
    if err.max() > max_ulp:
        i = int(np.argmax(err))
        raise AssertionError(f"{name} {np.dtype(dtype).name}: {err.max():.3g} ulp (bound "
                             f"{max_ulp}) at {[a[i] for a in args]}: got {got[i]!r}, "
                             f"SciPy {ref[i]!r}")


def inputs(name, dtype, n=3000, seed=0):
    rng = np.random.default_rng(seed)
    samplers = CASES[name][0]
    if dtype == np.float64:
        samplers = DOMAIN64.get(name, samplers)
    k = len(samplers)
    cols = [s(rng, n) for s in samplers]
    m = min(len(c) for c in cols)
    cols = [rng.permutation(c)[:m] for c in cols]
    edges = EDGES if k < 3 else EDGES[::2]   # (three arguments: 16^3 combinations)
    if name in ("j0", "j1", "y0", "y1"):
        # SciPy's cos(x - pi/4) of a huge x is not the value's (test_special_reference.py)
        edges = edges[~(np.isfinite(edges) & (np.abs(edges) > 1e4))]
    if name.startswith("inv_boxcox") and dtype == np.float32:
        # l y = -1 exactly in float32 but not in SciPy's float64 product of the same inputs
        edges = edges[np.abs(np.abs(np.log10(np.abs(edges) + 1e-300)) - 30) > 1]
    grid = [edges] * k
    if name in ("gdtr", "gdtrc") and dtype == np.float32:
        # a x below float32's range: SciPy's float64 product stays positive, numr's float32
        # one is replaced by the smallest subnormal (same limits, other values)
        grid[0] = grid[2] = edges[~((np.abs(edges) < 1e-20) & (edges != 0))]
    if name in _IGAM and dtype == np.float64:
        # shapes below ~1e-290: SciPy's float64 P(a, x) is 0 or inexact there, numr's the
        # limit 1 (P(0, x) = 1 is SciPy's own value)
        grid[_IGAM[name]] = edges[~((np.abs(edges) < 1e-290) & (edges != 0))]
    if name in ("betainc", "betaincc") and dtype == np.float64:
        # SciPy (Boost) returns NaN for b = 1e300, b x = 1 (numr: the limit P(a, b x))
        grid[1] = edges[~(np.abs(edges) == 1e300)]
    if name in _BOOST_INV:
        # shapes past 1e+-20: Boost's ibeta / ibeta_inv return NaN, the smallest normal
        # number, or an end point by branch there; numr's the limits of its own iteration
        for i in _BOOST_INV[name]:
            grid[i] = grid[i][~((np.abs(grid[i]) > 1e20) | ((np.abs(grid[i]) < 1e-20)
                                                          & (grid[i] != 0)))]
    if name == "stdtrit" and dtype == np.float64:
        # p < 1e-290: SciPy (Boost) returns +inf for most df there (an overflow it reports)
        grid[1] = grid[1][~((grid[1] > 0) & (grid[1] < 1e-290))]
    if name in ("gammaincinv", "gammainccinv", "chdtri"):
        # p outside [0, 1] or a negative shape: SciPy's igami reports a domain error, then
        # runs its iteration anyway (0 or a number for some arguments); numr returns NaN
        grid[1] = edges[~((edges < 0) | (edges > 1))]
        grid[0] = grid[0][~(grid[0] < 0)]
    grid = np.meshgrid(*grid, indexing="ij")
    cols = [np.concatenate([c, g.ravel()]) for c, g in zip(cols, grid)]
    cols = [c.astype(dtype) for c in cols]
    ok = SR.keep(name, cols, dtype)   # (where SciPy's value is not the function's)
    cols = [c[ok] for c in cols]
    if name in _BOOST_INV:
        # Boost's ibeta_inv fails (NaN) at some valid arguments (a ~ 1 with p < 1e-16):
        # those rows are left out (numr's value there is checked in test_special_inverse.py)
        valid = np.ones(len(cols[0]), bool)
        for i in _BOOST_INV[name]:
            valid &= cols[i] > 0
        valid &= (cols[-1] >= 0) & (cols[-1] <= 1) if name != "fdtr" and name != "fdtrc" \
            else cols[-1] >= 0
        # (and returns 2^-56 for some a > 1, b < 1, p < 1e-20 whose x is larger)
        keep = ~(valid & (np.isnan(reference(name, cols)) | _boost_floor(name, cols)))
        cols = [c[keep] for c in cols]
    return cols


def _boost_floor(name, cols):
    a, b, p = [c.astype(float) for c in cols] if len(cols) == 3 else \
        [cols[0].astype(float), 1.0, cols[1].astype(float)]
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if name == "betaincinv":
            x = ss.betaincinv(a, b, p)
        elif name == "fdtri":
            x = ss.betaincinv(a / 2, b / 2, p)
        elif name == "stdtrit":
            x = ss.betaincinv(a / 2, 0.5, 2 * np.minimum(p, 1 - p))
        else:
            return np.zeros(len(a), bool)
    return np.abs(x / 2.0 ** -56 - 1) < 1e-12


# the functions on Boost's incomplete beta and its inverse: their shape arguments
_BOOST_INV = {"betaincinv": (0, 1), "fdtri": (0, 1), "stdtrit": (0,), "fdtr": (0, 1),
              "fdtrc": (0, 1)}


# SciPy's float32 loops of these compute in float32 (Boost), flushing small results to 0:
# the float32 reference is SciPy's float64 value rounded
_REF64 = {"betainc", "betaincc", "stdtr", "bdtr", "bdtrc", "nbdtr", "nbdtrc", "fdtr", "fdtrc",
          "fdtri", "betaincinv", "stdtrit"}


def reference(name, args, own_loop=False):
    """SciPy's value (own_loop: its own float32 loop also for _REF64)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        if name in _REF64 and args[0].dtype == np.float32 and not own_loop:
            wide = [a.astype(np.float64) for a in args]
            return np.asarray(getattr(special, name)(*wide)).astype(np.float32)
        ref = np.asarray(getattr(special, name)(*args))   # NumPy arguments: SciPy itself
        if name in _INCBI and not own_loop:
            # SciPy's bdtri / nbdtri (Cephes' incbi) miss the root for ~5% of the test
            # inputs (small y or y near 1 with shapes past ~100): where their own round
            # trip through bdtr / nbdtr fails, the reference is SciPy's Boost inverse of the
            # same equation (rounded from float64; elsewhere Cephes' is the closer one)
            wide = [a.astype(np.float64) for a in args]
            fwd, fwdc, inv = _INCBI[name]
            y = wide[-1]
            x = ref.astype(np.float64)
            miss = ~((np.abs(fwd(wide[0], wide[1], x) / y - 1) < 1e-10)
                     & (np.abs(fwdc(wide[0], wide[1], x) / (1 - y) - 1) < 1e-10))
            alt = inv(*wide).astype(ref.dtype)
            use = miss & np.isfinite(ref) & np.isfinite(alt) & (y > 0) & (y < 1)
            ref = np.where(use, alt, ref)
        return ref


def _bdtri_boost(k, n, y):
    k = np.floor(k)
    return ss.betainccinv(k + 1, np.trunc(n) - k, y)


def _nbdtri_boost(k, n, y):
    return ss.betaincinv(np.trunc(n), np.trunc(k) + 1, y)


_INCBI = {"bdtri": (ss.bdtr, ss.bdtrc, _bdtri_boost),
          "nbdtri": (ss.nbdtr, ss.nbdtrc, _nbdtri_boost)}


# run in CI (each function and dtype compiles one shader, ~0.5-1.5 s on lavapipe): the
# functions whose speed matters and one of each family; the others are marked slow
CI = ("erf", "erfc", "ndtr", "gammaln", "i0", "ndtri", "xlogy", "boxcox", "sindg", "gamma",
      "psi", "gammainc", "pseudo_huber", "zeta", "poch")


def _params():
    return [name if name in CI else pytest.param(name, marks=pytest.mark.slow)
            for name in sorted(CASES)]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", _params())
def test_matches_scipy(xp, name, dtype):
    b = backend(xp)
    if not special.implemented(name, b):
        pytest.skip(f"{name} has no {b} implementation")
    if dtype == np.float64 and not has_f64(xp):
        pytest.skip("no float64 on this device")
    args = inputs(name, dtype)
    ref = reference(name, args, own_loop=b == "cpu")
    got = host(getattr(special, name)(*[xp.asarray(a) for a in args]))
    bound = CASES[name][1 if dtype == np.float32 else 2]
    if b == "cpu":
        bound = 0   # SciPy itself
    cond = CASES[name][3] if len(CASES[name]) > 3 else None
    if dtype == np.float64 and name in SCIPY64:
        cond = SCIPY64[name]
    assert_matches(got, ref, dtype, bound, args, name, cond)


def test_incomplete_beta_float32(xp):
    # the incomplete beta family in CI: float32 only, fewer random points (its float64 and
    # the distributions on it are compiled and run under the slow marker)
    b = backend(xp)
    if not special.implemented("betainc", b):
        pytest.skip(f"betainc has no {b} implementation")
    args = inputs("betainc", np.float32, n=200)
    ref = reference("betainc", args, own_loop=b == "cpu")
    got = host(special.betainc(*[xp.asarray(a) for a in args]))
    assert_matches(got, ref, np.float32, 0 if b == "cpu" else CASES["betainc"][1], args,
                   "betainc", _cond_ibeta)


def test_every_webgpu_function_is_tested():
    # (multigammaln(a, d) takes a host integer d: test_special_series.py)
    assert set(CASES) | {"multigammaln"} >= set(WEBGPU)
