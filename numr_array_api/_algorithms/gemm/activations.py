"""Activation functions and their derivatives, written once for any array namespace.

Each formula uses only operators and functions of the array API standard, so the portable
implementation runs them on whole arrays and the NumPy implementation runs the very same
code on cache-sized blocks (``xp`` is then ``numpy``). GELU keeps numr's tanh-approximation
constants exactly. Formulas may overflow intermediates to inf where the limit is right
(sigmoid of a large negative number); the NumPy implementation silences those warnings.
"""

import math

__all__ = ["ACTIVATIONS", "forward", "forward_inplace_numpy", "derivative", "grad_pre", "erf",
           "GELU_C", "GELU_A"]

ACTIVATIONS = ("none", "relu", "gelu", "gelu_erf", "silu", "sigmoid", "tanh")

# numr's constants (sqrt(2/pi) truncated to 10 digits, and the cubic coefficient): kept
# verbatim so results match numr's kernels rather than the exact sqrt(2/pi).
GELU_C = 0.7978845608
GELU_A = 0.044715

_INV_SQRT2 = 1.0 / math.sqrt(2.0)
_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _is_numpy(xp):
    # namespaces whose arrays are NumPy ndarrays, so SciPy's ufuncs apply
    return getattr(xp, "__name__", "") in ("numpy", "array_api_compat.numpy")


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
    # so its absolute error stays below 2e-15 in float64 (measured on [-8, 8]).
    key = "float32" if z.dtype == getattr(xp, "float32", None) else "float64"
    zmax, terms = _ERF_CLAMP[key]
    z = xp.clip(z, -zmax, zmax)
    z2x2 = 2.0 * (z * z)
    term = z
    s = z
    for k in range(1, terms + 1):
        term = term * z2x2 * (1.0 / (2 * k + 1))
        s = s + term
    # rounding can push the sum a few ulp past 1 near the clamp; erf never exceeds 1
    return xp.clip(_TWO_OVER_SQRT_PI * xp.exp(-(z * z)) * s, -1.0, 1.0)


_SP_ERF = []  # [scipy.special.erf or None], looked up once


def erf(xp, z):
    """Error function on ``xp`` (SciPy's ufunc for NumPy arrays when SciPy is installed)."""
    if _is_numpy(xp):
        if not _SP_ERF:
            try:
                from scipy.special import erf as sp_erf
            except ImportError:  # pragma: no cover - scipy is optional at run time
                sp_erf = None
            _SP_ERF.append(sp_erf)
        if _SP_ERF[0] is not None:
            return _SP_ERF[0](z)
    return _series_erf(xp, z)


def _sigmoid(xp, x):
    # exp(-x) overflows to inf for very negative x and 1 / (1 + inf) = 0: the correctly
    # signed limit, reached only where the true value is below the smallest normal.
    # Cheaper than a branch on the sign (one exp, one add, one divide), and exp is the
    # SIMD-vectorised path in NumPy.
    return 1.0 / (1.0 + xp.exp(-x))


def forward(name, xp, x):
    """act(x) for activation ``name``."""
    if name == "none":
        return x
    if name == "relu":
        # maximum propagates NaN (a where() on x > 0 would turn NaN into 0)
        return xp.maximum(x, 0.0)
    if name == "gelu":
        t = xp.tanh(GELU_C * (x + GELU_A * (x * x * x)))
        return (0.5 * x) * (1.0 + t)
    if name == "gelu_erf":
        return (0.5 * x) * (1.0 + erf(xp, x * _INV_SQRT2))
    if name == "silu":
        return x / (1.0 + xp.exp(-x))
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


def forward_inplace_numpy(name, x):
    """``x[...] = forward(name, numpy, x)`` for a NumPy block, with at most one block-sized
    temporary. The same operations in the same order as :func:`forward`, so the results are
    bit-identical (tests check it); it exists because the epilogue of cheap activations is
    memory-bound and a result temporary plus a copy-back would cost as much as the
    activation itself."""
    import numpy as np

    if name == "none":
        return
    if name == "relu":
        np.maximum(x, 0.0, out=x)
    elif name == "tanh":
        np.tanh(x, out=x)
    elif name == "sigmoid":
        np.negative(x, out=x)
        np.exp(x, out=x)
        x += 1.0
        np.divide(1.0, x, out=x)
    elif name == "silu":
        t = np.negative(x)
        np.exp(t, out=t)
        t += 1.0
        x /= t
    elif name == "gelu":
        t = x * x
        t *= x
        t *= GELU_A
        t += x
        t *= GELU_C
        np.tanh(t, out=t)
        t += 1.0
        x *= 0.5
        x *= t
    else:
        x[...] = forward(name, np, x)
