"""Per-float-type constants and literal formatting for the WGSL math templates."""
from fractions import Fraction
from math import factorial

import numpy as np

from . import _coeffs as C


def lit(v, ft):
    """A WGSL literal that denotes exactly the float value `v` rounded to `ft`."""
    if ft == "f32":
        v = float(np.float32(v))
        s = repr(np.float32(v).item()) if False else np.format_float_scientific(np.float32(v), unique=True)
    else:
        s = np.format_float_scientific(np.float64(v), unique=True)
    # numpy prints '1.e+00' style; WGSL needs a digit after the dot
    s = s.replace(".e", ".0e")
    return s + ("f" if ft == "f32" else "lf")


def horner(coeffs, var, ft):
    """WGSL Horner form of sum_k coeffs[k] var^k, every coefficient a literal of ``ft``."""
    expr = lit(coeffs[-1], ft)
    for c in reversed(coeffs[:-1]):
        expr = f"({lit(c, ft)} + {var} * {expr})"
    return expr


def unit_registry():
    """A unit module's table of templates and the ``fn(name, deps, src)`` that fills it."""
    funcs = {}

    def fn(name, deps, src):
        funcs[name] = (tuple(deps), src)
    return funcs, fn


def rounded(series, ft):
    """The coefficient lists of ``series`` rounded to float32 for ``ft`` "f32"."""
    if ft != "f32":
        return series
    return {k: [float(np.float32(c)) for c in v] for k, v in series.items()}


def _taylor(terms):
    return [float(Fraction(n, d)) for n, d in terms]


def _inv_fact(ns, sign=False):
    return [(-1) ** i * 1.0 / factorial(n) if sign else 1.0 / factorial(n) for i, n in enumerate(ns)]


# Series whose coefficients are exact rationals (Taylor); the fitted ones live in _coeffs.py.
def _series(ft):
    f64 = ft == "f64"
    s = {}
    # exp(r) - 1 - r = r^2 * Q(r): Q = sum r^(n-2)/n!
    s["EXPQ"] = [1.0 / factorial(n) for n in range(2, 14 if f64 else 8)]
    # exp(t) for the small |t| of a split square's low part (< 2^-14 in float64, < 0.1 in
    # float32; see erf): the Taylor series to below half an ulp
    s["EXPS"] = [1.0 / factorial(n) for n in range(0, 6 if f64 else 8)]
    # 2^r - 1 = r * Q2(r), Q2 coefficient n: ln2^n / n!
    ln2 = 0.6931471805599453094172321214581765680755
    s["EXP2Q"] = [ln2 ** n / factorial(n) for n in range(1, 14 if f64 else 8)]
    # log1p(f) = f - s*(f - R), R = z*sum_{n>=1} 2 z^(n-1)/(2n+1), s = f/(2+f), z = s^2
    s["LOGR"] = [2.0 / (2 * n + 1) for n in range(1, 12 if f64 else 6)]
    # tail of 2*atanh(s) beyond 2s + 2s^3/3, divided by s^5: sum 2 z^(n-2)/(2n+1), n >= 2
    s["LOGT"] = [2.0 / (2 * n + 1) for n in range(2, 14 if f64 else 9)]
    # sin(r) = r + r*z*S(z); cos(r) = 1 - z/2 + z^2*C(z)
    s["SIN"] = [(-1) ** n / factorial(2 * n + 1) for n in range(1, 10 if f64 else 5)]
    s["COS"] = [(-1) ** n / factorial(2 * n) for n in range(2, 11 if f64 else 6)]
    # sinh(x) = x + x*z*SH(z), |x| < 1
    s["SINH"] = [1.0 / factorial(2 * n + 1) for n in range(1, 10 if f64 else 6)]
    for k in ("ATAN", "ASIN", "ERF", "ERFCH"):
        s[k] = getattr(C, f"{k}_{ft}")
    if not f64:
        s["ERFCT"] = C.ERFCT_f32
    return rounded(s, ft)


def _bits_f32(v):
    return int(np.array(v, dtype=np.float32).view(np.uint32))


def consts(ft):
    f64 = ft == "f64"
    L = lambda v: lit(v, ft)
    d = {}
    if f64:
        d.update(
            U="u64", W="64", MB="52u", MBI="52", BIAS="1023", P="53", EMAX="1023", EMIN="-1022",
            SIGN="0x8000000000000000lu", ABS="0x7fffffffffffffffllu".replace("ll", "l"),
            EXPM="0x7ff0000000000000lu", MANT="0x000fffffffffffffllu".replace("ll", "l"),
            EXPF="0x7fflu", QNAN="0x7ff8000000000000lu", UZERO="0lu", UONE="1lu",
            HALFEXP="0x3fe0000000000000lu", SPLIT="0xfffffffff8000000lu", BARRIER="0x7ff4dead0000beeflu",
            HALFW="32u", LOWMASK="0xfffffffflu",
        )
        tiny_exp, eps = -27, 2.0 ** -53
    else:
        d.update(
            U="u32", W="32", MB="23u", MBI="23", BIAS="127", P="24", EMAX="127", EMIN="-126",
            SIGN="0x80000000u", ABS="0x7fffffffu", EXPM="0x7f800000u", MANT="0x007fffffu",
            EXPF="0xffu", QNAN="0x7fc00000u", UZERO="0u", UONE="1u",
            HALFEXP="0x3f000000u", SPLIT="0xfffff000u", BARRIER="0x7fa0deadu",
            HALFW="16u", LOWMASK="0xffffu",
        )
        tiny_exp, eps = -13, 2.0 ** -24
    d["T"] = ft
    for name in ("LN2", "PIO2_CW", "LOG10_2"):
        for i, v in enumerate(getattr(C, f"{name}_{ft}")):
            d[f"{name}_{i}"] = L(v)
    for name in ("PI", "PIO2", "PIO4", "LN2", "INV_LN2", "TWO_THIRDS", "ATAN_HALF", "ATAN_ONE", "ATAN_1P5", "PI3O4"):
        h, l = getattr(C, f"{name}_DD_{ft}")
        d[f"{name}_H"], d[f"{name}_L"] = L(h), L(l)
    d["INV_LN10"] = L(0.43429448190325182765112891891660508)
    d["SQRT2"] = L(1.4142135623730951)
    d["TWO_OPI"] = L(0.63661977236758134307553505349005745)
    d["TWO_OSQRTPI"] = L(1.1283791670955125738961589031215452)
    d["TINY"] = L(2.0 ** tiny_exp)        # below this, f(x) = x (+ x*c) to within rounding
    d["TINY1"] = L(eps / 2)               # below this, f(x) = x when f(x) = x + O(x^2)
    d["EPS_HALF"] = L(eps)                # 2^-P
    d["MIN_NORMAL"] = L(2.0 ** (-1022 if f64 else -126))
    d["MAX"] = L(np.finfo(np.float64 if f64 else np.float32).max)
    # exp family thresholds (the scaling helper handles the exact overflow / underflow)
    d["EXP_HI"] = L(709.8 if f64 else 88.8)
    d["EXP_LO"] = L(-746.0 if f64 else -104.0)
    d["EXP2_HI"] = L(1024.5 if f64 else 128.5)
    d["EXP2_LO"] = L(-1080.0 if f64 else -152.0)
    d["EXPM1_LO"] = L(-38.0 if f64 else -18.0)
    d["EXPM1_K"] = "56" if f64 else "26"
    d["HALF_LN2"] = L(0.34657359027997264)
    d["HYP_BIG"] = L(22.0 if f64 else 9.1)       # tanh(x) rounds to 1, sinh ~ exp/2
    d["EXP_SAFE"] = L(709.0 if f64 else 88.0)
    d["BIG_ARG"] = L(2.0 ** 28 if f64 else 2.0 ** 12)
    d["CW_MAX"] = L(1.6e6 if f64 else 400.0)   # Cody-Waite while n < 2^20 (f64) / 2^8 (f32)
    d["ATAN_BIG"] = L(2.0 ** 66 if f64 else 2.0 ** 26)
    d["ERF_ONE"] = L(6.0 if f64 else 4.0)       # erf(x) rounds to 1 beyond
    d["ERFC_ZERO"] = L(27.3 if f64 else 10.1)
    d["PH_WORDS"] = "6" if f64 else "4"
    d["INT_ALL"] = L(2.0 ** 52 if f64 else 2.0 ** 23)   # every float >= this is an integer
    d["EVEN_ALL"] = L(2.0 ** 53 if f64 else 2.0 ** 24)
    d["CSQRT_SMALL"] = L(2.0 ** (-1000 if f64 else -100))
    d["CSQRT_UP"] = L(2.0 ** (56 if f64 else 26))
    d["CSQRT_DOWN"] = L(2.0 ** (-28 if f64 else -13))
    d["CATANH_BIG"] = L(2.0 ** (500 if f64 else 60))
    d["DIV_BIG"] = L(2.0 ** (1000 if f64 else 120))
    d["DIV_SCALE"] = L(2.0 ** -64)
    d["CBRT_ITERS"] = "5" if f64 else "4"
    return d


SERIES = {ft: _series(ft) for ft in ("f32", "f64")}
CONSTS = {ft: consts(ft) for ft in ("f32", "f64")}
