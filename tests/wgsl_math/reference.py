"""Reference values and ulp errors.

f64 results are compared with x87 long double (64-bit mantissa) NumPy/libm evaluations,
or mpmath where NumPy has no long double version; f32 results with float64 evaluations.
Either reference is far more accurate than the target type, so errors are against the
exact value (a correctly rounded result scores <= 0.5 ulp).
"""
import math

import numpy as np

LD = np.longdouble
P = {"f32": 24, "f64": 53}
EMIN = {"f32": -126, "f64": -1022}


def ulp_error(got, ref, ft):
    """|got - ref| in ulps of the target type at ref; NaN/inf must match exactly (else inf)."""
    got = np.asarray(got).astype(LD)
    ref = np.asarray(ref, dtype=LD)
    err = np.zeros(ref.shape, dtype=np.float64)
    fin = np.isfinite(ref)
    # a finite reference beyond the type's range must come back as inf
    fmax = LD(np.finfo(np.float32 if ft == "f32" else np.float64).max)
    big = fin & (np.abs(ref) >= fmax * (1 + LD(2.0) ** -P[ft]))  # rounds to inf
    ok_nan = np.isnan(ref) & np.isnan(got)
    ok_inf = (~fin & ~np.isnan(ref) & (got == ref)) | (big & np.isinf(got) & (np.sign(got) == np.sign(ref)))
    bad = ~fin & ~ok_nan & ~ok_inf
    bad |= big & ~ok_inf
    m = fin & ~big
    _, e = np.frexp(np.minimum(np.abs(ref[m]), fmax))
    e = np.maximum(e.astype(np.int64) - P[ft], EMIN[ft] - P[ft] + 1)
    with np.errstate(invalid="ignore", over="ignore"):
        err[m] = np.abs((got[m] - ref[m]) / np.ldexp(LD(1), e)).astype(np.float64)
    err[m & ~np.isfinite(got)] = np.inf
    err[bad] = np.inf
    return err


def _mp_vec(f, x):
    import mpmath as mp
    mp.mp.prec = 80
    out = np.empty(len(x), dtype=LD)
    for i, v in enumerate(x):
        v = float(v)
        # mpmath's erfc overflows internally for huge arguments; the limits are exact there
        r = f(mp.mpf(max(min(v, 1e5), -1e5))) if np.isfinite(v) else f(mp.mpf(v))
        out[i] = LD(mp.nstr(r, 25)) if mp.isfinite(r) else LD(float(r))
    return out


def ref_unary(fn, x, ft):
    t = LD if ft == "f64" else np.float64
    xv = np.asarray(x).astype(t)
    with np.errstate(all="ignore"):
        if fn in ("erf", "erfc"):
            if ft == "f32":
                f = math.erf if fn == "erf" else math.erfc
                return np.array([f(float(v)) for v in xv])
            import mpmath as mp
            return _mp_vec(mp.erf if fn == "erf" else mp.erfc, xv)
        table = {
            "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log, "log2": np.log2,
            "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt, "cbrt": np.cbrt, "sin": np.sin,
            "cos": np.cos, "tan": np.tan, "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan,
            "sinh": np.sinh, "cosh": np.cosh, "tanh": np.tanh, "asinh": np.arcsinh,
            "acosh": np.arccosh, "atanh": np.arctanh, "trunc": np.trunc, "floor": np.floor,
            "ceil": np.ceil, "round": np.round, "abs": np.abs,
        }
        return table[fn](xv)


def ref_binary(fn, x, y, ft):
    t = LD if ft == "f64" else np.float64
    xv, yv = np.asarray(x).astype(t), np.asarray(y).astype(t)
    with np.errstate(all="ignore"):
        table = {"atan2": np.arctan2, "hypot": np.hypot, "pow": np.power, "logaddexp": np.logaddexp,
                 "copysign": np.copysign, "maximum": np.maximum, "minimum": np.minimum}
        if fn == "nextafter":
            d = np.float32 if ft == "f32" else np.float64
            return np.nextafter(np.asarray(x, d), np.asarray(y, d))
        return table[fn](xv, yv)
