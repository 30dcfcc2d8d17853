"""sawtooth, square, chirp, gausspulse and sweep_poly on webgpu time arrays: elementwise
namespace expressions of ``t`` (the parameters are host numbers)."""

from __future__ import annotations

import math

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from . import _common as C

__all__ = ["sawtooth", "square", "chirp", "gausspulse", "sweep_poly"]


def _time(t, dtype=None):
    xp, like = C.namespace(t)
    t = C.on_device(xp, t, like)
    if dtype is None:   # NumPy's: float32 stays, integers compute in float64
        dtype = t.dtype if t.dtype in (D.float32, D.float64) else D.float64
    return xp, (t if t.dtype == dtype else xp.astype(t, dtype))


def _periodic(t, width, fname):
    """(xp, t mod 2 pi, w broadcast, invalid mask), all float64 as SciPy's."""
    xp, like = C.namespace(t, width)
    t = C.on_device(xp, t, like)
    t = t if t.dtype == D.float64 else xp.astype(t, D.float64)
    w = width if hasattr(width, "_ctx") else float(width) if np.ndim(width) == 0 else \
        C.on_device(xp, width, like)
    if hasattr(w, "_ctx"):
        w = w if w.dtype == D.float64 else xp.astype(w, D.float64)
        t, w = xp.broadcast_arrays(t, w)
    bad = (w > 1) | (w < 0)
    return xp, xp.remainder(t, 2 * math.pi), w, bad


def _as_scipys(xp, y, fname, t, width):
    """``y`` in the dtype the installed SciPy gives (SciPy 1.17: float64; 1.18 keeps a
    float32 ``t`` float32), asked of SciPy on one host element of the same dtypes."""
    import scipy.signal as ss
    probe_t = np.zeros(1, dtype=np.dtype(t.dtype.name)) if hasattr(t, "_ctx") else \
        np.zeros(1)
    probe_w = np.zeros(1, dtype=np.dtype(width.dtype.name)) + 0.5 \
        if hasattr(width, "_ctx") else width
    want = getattr(ss, fname)(probe_t, probe_w).dtype
    return y if y.dtype.name == want.name else xp.astype(y, getattr(xp, want.name))


def sawtooth(t, width=1):
    xp, tmod, w, bad = _periodic(t, width, "sawtooth")
    rising = tmod / (math.pi * w) - 1
    falling = (math.pi * (w + 1) - tmod) / (math.pi * (1 - w))
    y = _invalid_nan(xp, bad, xp.where(tmod < w * 2 * math.pi, rising, falling))
    return _as_scipys(xp, y, "sawtooth", t, width)


def square(t, duty=0.5):
    xp, tmod, w, bad = _periodic(t, duty, "square")
    one = xp.ones_like(tmod)
    y = _invalid_nan(xp, bad, xp.where(tmod < w * 2 * math.pi, one, -one))
    return _as_scipys(xp, y, "square", t, duty)


def _invalid_nan(xp, bad, y):
    """NaN where the width is outside [0, 1] (a bool for a scalar width)."""
    if isinstance(bad, bool):
        return xp.full_like(y, math.nan) if bad else y
    return xp.where(bad, xp.full_like(y, math.nan), y)


def _chirp_phase(xp, t, f0, t1, f1, method, vertex_zero):
    f0, t1, f1 = float(f0), float(t1), float(f1)
    two_pi = 2 * math.pi
    if method in ("linear", "lin", "li"):
        beta = (f1 - f0) / t1
        return two_pi * (f0 * t + 0.5 * beta * t * t)
    if method in ("quadratic", "quad", "q"):
        beta = (f1 - f0) / (t1 ** 2)
        if vertex_zero:
            return two_pi * (f0 * t + beta * t ** 3 / 3)
        return two_pi * (f1 * t + beta * ((t1 - t) ** 3 - t1 ** 3) / 3)
    if method in ("logarithmic", "log", "lo"):
        if f0 * f1 <= 0.0:
            raise InvalidArgument("f0", "chirp: for a logarithmic chirp, f0 and f1 must be "
                                  "nonzero and have the same sign")
        if f0 == f1:
            return two_pi * f0 * t
        beta = t1 / math.log(f1 / f0)
        return two_pi * beta * f0 * (xp.pow(f1 / f0, t / t1) - 1.0)
    if method in ("hyperbolic", "hyp"):
        if f0 == 0 or f1 == 0:
            raise InvalidArgument("f0", "chirp: for a hyperbolic chirp, f0 and f1 must be "
                                  "nonzero")
        if f0 == f1:
            return two_pi * f0 * t
        sing = -f1 * t1 / (f0 - f1)
        return two_pi * (-sing * f0) * xp.log(xp.abs(1 - t / sing))
    raise InvalidArgument("method", "chirp: method must be 'linear', 'quadratic', "
                          f"'logarithmic', or 'hyperbolic', but a value of {method!r} was "
                          "given")


def chirp(t, f0, t1, f1, method="linear", phi=0, vertex_zero=True, *, complex=False):
    xp, t = _time(t)
    # the phase in t's dtype, then float64 as SciPy's (its phi offset is a NumPy float64)
    phase = _chirp_phase(xp, t, f0, t1, f1, method, vertex_zero)
    phase = (phase if phase.dtype == D.float64 else xp.astype(phase, D.float64)) + \
        math.radians(phi)
    if not complex:
        return xp.cos(phase)
    return xp.astype(xp.cos(phase), xp.complex128) + \
        xp.astype(xp.sin(phase), xp.complex128) * 1j


def gausspulse(t, fc=1000, bw=0.5, bwr=-6, tpr=-60, retquad=False, retenv=False):
    if fc < 0:
        raise InvalidArgument("fc", f"gausspulse: center frequency (fc={fc:.2f}) must be >=0")
    if bw <= 0:
        raise InvalidArgument("bw", f"gausspulse: fractional bandwidth (bw={bw:.2f}) must "
                              "be > 0")
    if bwr >= 0:
        raise InvalidArgument("bwr", f"gausspulse: reference level for bandwidth "
                              f"(bwr={bwr:.2f}) must be < 0 dB")
    a = -(math.pi * fc * bw) ** 2 / (4.0 * math.log(10.0 ** (bwr / 20.0)))
    xp, t = _time(t)
    # as SciPy's: the envelope in float64 (its a is a NumPy float64), the carrier's
    # argument in t's own dtype (Python floats)
    t64 = t if t.dtype == D.float64 else xp.astype(t, D.float64)
    yenv = xp.exp(-a * t64 * t64)
    arg = 2 * math.pi * fc * t
    yI = yenv * _f64(xp, xp.cos(arg))
    out = (yI,)
    if retquad:
        out += (yenv * _f64(xp, xp.sin(arg)),)
    if retenv:
        out += (yenv,)
    return out[0] if len(out) == 1 else out


def _f64(xp, v):
    return v if v.dtype == D.float64 else xp.astype(v, D.float64)


def sweep_poly(t, poly, phi=0):
    coef = np.polyint(np.poly1d(C.host_coefficients(poly, "poly"))).coeffs
    xp, t = _time(t, D.float64)          # the float64 coefficients make SciPy's float64
    acc = xp.zeros_like(t) + float(coef[0])
    for c in coef[1:]:                   # Horner, as polyval
        acc = acc * t + float(c)
    return xp.cos(2 * math.pi * acc + phi * math.pi / 180)
