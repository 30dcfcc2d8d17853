"""WGSL math library for the WebGPU backend's elementwise kernels.

    from numr_array_api.backends.webgpu.wgsl import math_library
    src = math_library(["exp", "log1p"], "f64")   # defines numr_exp_f64, numr_log1p_f64, ...

Every public function is `numr_<name>_<f32|f64>`; complex helpers (`"cmul"`, `"csqrt"`, ...)
are `numr_<name>_<f32|f64>` on `vec2<T>` (real, imag). Only the requested functions and
their dependencies are emitted. f64 sources need the device features `shader-f64` and
`shader-int64` (bit manipulation goes through u64); f32 sources need nothing.
"""
import math
import re

from . import _coeffs as C
from ._real import FUNCS as _REAL_FUNCS, PUBLIC as _REAL_PUBLIC
from ._types import CONSTS, SERIES, horner, lit

FUNCS = dict(_REAL_FUNCS)
PUBLIC = dict(_REAL_PUBLIC)
try:
    from ._complex import FUNCS as _CFUNCS, PUBLIC as _CPUBLIC
    FUNCS.update(_CFUNCS)
    PUBLIC.update(_CPUBLIC)
except ImportError:  # pragma: no cover
    pass
# scipy.special's functions (_special.py, _bessel.py, _beta.py): their own series and
# constants per float type
from . import _bessel, _beta, _gamma_ratio, _inverse, _recurrence, _special, _zeta
for _mod in (_special, _bessel, _beta, _inverse, _zeta, _gamma_ratio, _recurrence):
    FUNCS.update(_mod.FUNCS)
    PUBLIC.update(_mod.PUBLIC)
    for _ft in ("f32", "f64"):
        SERIES[_ft].update(_mod.SERIES[_ft])
        CONSTS[_ft].update(_mod.CONSTS[_ft])

FLOAT_TYPES = ("f32", "f64")
REQUIRED_FEATURES = {"f32": (), "f64": ("shader-f64", "shader-int64")}


def available_functions():
    return sorted(PUBLIC)


def _special_tokens(src, ft):
    d = CONSTS[ft]
    if "@TWO_OVER_PI_WORDS@" in src:
        src = src.replace("@TWO_OVER_PI_WORDS@", ", ".join(f"{w}u" for w in C.TWO_OVER_PI_WORDS))
    if ft == "f64":
        src = src.replace("${UMASK32}", "0xfffffffflu").replace("${SHIFT32}", "32u")
    else:  # the whole 24-bit mantissa fits the low word
        src = src.replace("u32(mant & ${UMASK32})", "mant").replace("u32(mant >> ${SHIFT32})", "0u")
    if "@ERFC_EVAL_ALL@" in src:
        src = src.replace("@ERFC_EVAL_ALL@", _erfc_eval_all(ft))
    if "@ERFC_EVAL@" in src:
        src = src.replace("@ERFC_EVAL@", _erfc_eval(ft))
    return src


def _erfc_eval_all(ft):
    """``r`` = exp(x^2) erfc(x) for x in [1/2, last finite erfc): float32 through one
    polynomial in t = (x - 2) / (x + 2) over the whole range (ERFCT); float64 through its
    pieces and tail (``_erfc_eval``), as one evaluation with selected coefficients."""
    if ft == "f32":
        # (t's rounding barely moves the flat T; 1 / (1 + 2x) is refined to ~1/2 ulp, as
        # WGSL's division is only within 2.5 ulp)
        return ("let tt = (x - 2.0) / (x + 2.0);\n"
                "  let dd = numr__fast_two_sum_$T(2.0 * x, 1.0);\n"
                "  let q0 = 1.0 / dd.x;\n"
                "  let pq = numr__two_prod_$T(dd.x, q0);\n"
                "  let q = q0 + q0 * ((numr__opq_$T(1.0 - pq.x) - pq.y) - dd.y * q0);\n"
                "  let r = $P{ERFCT}(tt) * q;")
    return _erfc_eval(ft, tail=True) + "\n  let r = select(g, g / x, x >= 4.0);"


def _erfc_eval(ft, tail=False):
    """G(x) of erfc's middle pieces, ``g``, for x in [1/2, 4): every coefficient picked by a
    chain of ``select`` on the piece (a runtime index into a const array makes naga copy the
    whole table into per-invocation memory at every use), then Horner in u = (x - mid) /
    half as a product by the exact reciprocal (half is a power of two; WGSL's division is
    only within 2.5 ulp). ``tail``: also H(w), w = 1/x^2, for x >= 4 (the tail's
    coefficients and variable selected too; shorter polynomials padded with leading zeros,
    which leave Horner's result unchanged)."""
    edges = getattr(C, f"ERFC_EDGES_{ft}")
    co = getattr(C, f"ERFC_{ft}")
    npieces = len(edges) - 1
    stride = len(co) // npieces
    conds = [f"x >= {lit(edges[k], ft)}" for k in range(1, npieces)]
    tail_co = SERIES[ft]["ERFCH"] if tail else []
    deg = max(stride, len(tail_co))

    def pick(values, tail_value=None):
        e = lit(values[0], ft)
        for k in range(1, npieces):
            e = f"select({e}, {lit(values[k], ft)}, q{k})"
        if tail:
            e = f"select({e}, {lit(tail_value, ft)}, qt)"
        return e

    def coeff(j):
        piece = [co[k * stride + j] if j < stride else 0.0 for k in range(npieces)]
        return pick(piece, tail_co[j] if j < len(tail_co) else 0.0)
    halves = [(edges[k + 1] - edges[k]) / 2 for k in range(npieces)]
    if any(math.frexp(h)[0] != 0.5 for h in halves):
        raise AssertionError("erfc pieces must have power-of-two half widths")
    lines = [f"let q{k + 1} = {c};" for k, c in enumerate(conds)]
    mids = [(edges[k] + edges[k + 1]) / 2 for k in range(npieces)]
    if tail:
        lines.append("let qt = x >= 4.0;")
        lines.append(f"let mid: $T = {pick(mids, 0.0)};")
        lines.append(f"let ihalf: $T = {pick([1.0 / h for h in halves], 0.0)};")
        lines.append("let u = select((x - mid) * ihalf, 1.0 / (x * x), qt);")
    else:
        lines.append(f"let mid: $T = {pick(mids)};")
        lines.append(f"let ihalf: $T = {pick([1.0 / h for h in halves])};")
        lines.append("let u = (x - mid) * ihalf;")
    lines.append(f"var g: $T = {coeff(deg - 1)};")
    for j in range(deg - 2, -1, -1):
        lines.append(f"g = g * u + {coeff(j)};")
    return "\n  ".join(lines)


def _expand(src, ft):
    d = CONSTS[ft]
    src = _special_tokens(src, ft)
    src = re.sub(r"\$P\{(\w+)\}\((\w+)\)", lambda m: horner(SERIES[ft][m.group(1)], m.group(2), ft), src)
    src = re.sub(r"\$\{(\w+)\}", lambda m: d[m.group(1)], src)
    src = src.replace("$T", ft).replace("$U", d["U"])
    if "$" in src or "@" in src.replace("@group", "").replace("@binding", ""):
        raise AssertionError("unexpanded template token")
    return src


def _units_for(functions):
    order, seen = [], set()

    def visit(unit):
        if unit in seen:
            return
        seen.add(unit)
        for dep in FUNCS[unit][0]:
            visit(dep)
        order.append(unit)

    for name in functions:
        if name not in PUBLIC:
            raise KeyError(f"unknown WGSL math function {name!r}; available: {available_functions()}")
        visit(PUBLIC[name])
    return order


# Real functions whose f32 version may be evaluated through the f64 one (f32_via_f64=True).
VIA_F64_UNARY = ("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "cbrt", "sin", "cos",
                 "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh",
                 "erf", "erfc")
VIA_F64_BINARY = ("atan2", "pow", "hypot", "logaddexp")


def math_library(functions, ftype, *, f32_via_f64=False):
    """WGSL source defining `numr_<fn>_<ftype>` for each requested function (plus helpers).

    f32_via_f64: for ftype "f32" only, define the transcendental f32 functions as
    `f32(numr_<fn>_f64(f64(x)))` (within ~0.5 ulp, but needs shader-f64 + shader-int64 and
    is slow on consumer GPUs, whose f64 rate is 1/32..1/64 of f32). The default f32 path is
    pure f32. Functions that are exact anyway (sqrt, rounding, bit helpers) stay native.
    """
    if ftype not in FLOAT_TYPES:
        raise ValueError(f"ftype must be one of {FLOAT_TYPES}, got {ftype!r}")
    functions = list(functions)
    if f32_via_f64 and ftype == "f32":
        wide = [f for f in functions if f in VIA_F64_UNARY + VIA_F64_BINARY]
        native = [f for f in functions if f not in wide]
        parts = [math_library(wide, "f64")] if wide else []
        if native:
            parts.append(math_library(native, "f32"))
        for f in wide:
            if f in VIA_F64_UNARY:
                parts.append(f"fn numr_{f}_f32(x: f32) -> f32 {{ return f32(numr_{f}_f64(f64(x))); }}")
            else:
                parts.append(f"fn numr_{f}_f32(x: f32, y: f32) -> f32 {{ return f32(numr_{f}_f64(f64(x), f64(y))); }}")
        return "\n".join(parts)
    units = _units_for(functions)
    return "\n".join(_expand(FUNCS[u][1], ftype) for u in units)
