"""Activation functions and their derivatives, written once for any array namespace.

Each formula uses only operators and functions of the array API standard, so the portable
implementation runs them on whole arrays and the NumPy implementation runs the very same
code on cache-sized blocks (``xp`` is then ``numpy``). Formulas are chosen to stay accurate
over the whole real line: sigmoid never evaluates ``exp`` of a large positive argument, and
GELU keeps numr's tanh-approximation constants exactly.
"""

import math

__all__ = ["ACTIVATIONS", "forward", "grad_pre", "erf", "GELU_C", "GELU_A"]

ACTIVATIONS = ("none", "relu", "gelu", "gelu_erf", "silu", "sigmoid", "tanh")

# numr's constants (sqrt(2/pi) truncated to 10 digits, and the cubic coefficient): kept
# verbatim so results match numr's kernels rather than the exact sqrt(2/pi).
GELU_C = 0.7978845608
GELU_A = 0.044715

_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _is_numpy(xp):
    return getattr(xp, "__name__", "") == "numpy"


def _series_terms(zmax, eps):
    z, term, s, k = zmax, zmax, zmax, 0
    while term >= 0.25 * eps * s:
        k += 1
        term *= 2.0 * z * z / (2 * k + 1)
        s += term
    return k


# Beyond these |z| erf rounds to +-1 in the dtype, so clamping loses nothing.
_ERF_CLAMP = {"float64": (6.0, _series_terms(6.0, 2.0**-53)),
              "float32": (4.0, _series_terms(4.0, 2.0**-24))}


def _series_erf(xp, z):
    # The array API has no erf. This Maclaurin form, erf(z) = 2/sqrt(pi) exp(-z^2)
    # sum_k (2 z^2)^k z / (1*3*...*(2k+1)), has only positive terms (no cancellation),
    # so its relative error stays within a few ulp after clamping |z|.
    key = "float32" if z.dtype == getattr(xp, "float32", None) else "float64"
    zmax, terms = _ERF_CLAMP[key]
    z = xp.clip(z, -zmax, zmax)
    z2x2 = 2.0 * (z * z)
    term = z
    s = z
    for k in range(1, terms + 1):
        term = term * z2x2 * (1.0 / (2 * k + 1))
        s = s + term
    return _TWO_OVER_SQRT_PI * xp.exp(-(z * z)) * s


def erf(xp, z):
    """Error function on ``xp`` (SciPy's ufunc for NumPy when SciPy is installed)."""
    if _is_numpy(xp):
        try:
            from scipy.special import erf as sp_erf
        except ImportError:  # pragma: no cover - scipy is optional at run time
            pass
        else:
            return sp_erf(z)
    return _series_erf(xp, z)


def _sigmoid(xp, x):
    e = xp.exp(-xp.abs(x))
    r = 1.0 / (1.0 + e)
    return xp.where(x >= 0, r, e * r)


def _zeros(xp, x):
    return xp.zeros_like(x)


def forward(name, xp, x):
    """act(x) for activation ``name``."""
    if name == "none":
        return x
    if name == "relu":
        # x < 0 (not x > 0) so NaN propagates instead of becoming 0
        return xp.where(x < 0, _zeros(xp, x), x)
    if name == "gelu":
        t = xp.tanh(GELU_C * (x + GELU_A * (x * x * x)))
        return (0.5 * x) * (1.0 + t)
    if name == "gelu_erf":
        return (0.5 * x) * (1.0 + erf(xp, x * _INV_SQRT2))
    if name == "silu":
        return x * _sigmoid(xp, x)
    if name == "sigmoid":
        return _sigmoid(xp, x)
    if name == "tanh":
        return xp.tanh(x)
    raise ValueError(name)  # validated by the caller


def derivative(name, xp, x):
    """act'(x); None for the identity (callers skip the multiply)."""
    if name == "none":
        return None
    if name == "relu":
        return xp.astype(x > 0, x.dtype)
    if name == "gelu":
        x2 = x * x
        t = xp.tanh(GELU_C * (x + GELU_A * (x2 * x)))
        return 0.5 * (1.0 + t) + (0.5 * x) * (1.0 - t * t) * (GELU_C * (1.0 + (3.0 * GELU_A) * x2))
    if name == "gelu_erf":
        cdf = 0.5 * (1.0 + erf(xp, x * _INV_SQRT2))
        return cdf + x * (_INV_SQRT_2PI * xp.exp(-0.5 * (x * x)))
    if name == "silu":
        s = _sigmoid(xp, x)
        return s * (1.0 + x * (1.0 - s))
    if name == "sigmoid":
        s = _sigmoid(xp, x)
        return s * (1.0 - s)
    if name == "tanh":
        t = xp.tanh(x)
        return 1.0 - t * t
    raise ValueError(name)


def grad_pre(name, xp, x, grad):
    """grad * act'(x): the gradient with respect to the pre-activation ``x``."""
    d = derivative(name, xp, x)
    return grad if d is None else grad * d
