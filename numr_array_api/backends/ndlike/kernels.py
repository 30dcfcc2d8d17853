"""Elementwise kernels over a NumPy-like module, with the standard's corrections.

Most names map straight onto a ufunc. The functions below fix the places where NumPy
and CuPy depart from the array API (listed in docs/deviations.md).
"""


def elementwise_tables(xp):
    """(unary, binary) dicts of name -> callable(data..., out=None)."""
    unary = {
        "abs": xp.abs, "acos": xp.arccos, "acosh": xp.arccosh, "asin": xp.arcsin,
        "asinh": xp.arcsinh, "atan": xp.arctan, "atanh": xp.arctanh,
        "bitwise_invert": xp.invert, "ceil": xp.ceil, "conj": xp.conjugate, "cos": xp.cos,
        "cosh": xp.cosh, "exp": xp.exp, "expm1": xp.expm1, "floor": xp.floor,
        "isfinite": xp.isfinite, "isinf": xp.isinf, "isnan": xp.isnan, "log": xp.log,
        "log1p": xp.log1p, "log2": xp.log2, "log10": xp.log10, "logical_not": xp.logical_not,
        "negative": xp.negative, "positive": xp.positive, "reciprocal": xp.reciprocal,
        "sign": xp.sign, "signbit": xp.signbit, "sin": xp.sin, "sinh": xp.sinh,
        "sqrt": xp.sqrt, "square": xp.square, "tan": xp.tan, "tanh": xp.tanh,
        "trunc": xp.trunc,
    }

    def real(x, out=None):
        # xp.real returns a view (or x itself): results must never alias their input
        return xp.real(x).copy()

    def imag(x, out=None):
        return xp.imag(x).copy()

    def round_(x, out=None):
        return xp.round(x, out=out)

    unary.update(real=real, imag=imag, round=round_)

    binary = {
        "add": xp.add, "atan2": xp.arctan2, "bitwise_and": xp.bitwise_and,
        "bitwise_left_shift": xp.left_shift, "bitwise_or": xp.bitwise_or,
        "bitwise_right_shift": xp.right_shift, "bitwise_xor": xp.bitwise_xor,
        "copysign": xp.copysign, "divide": xp.true_divide, "equal": xp.equal,
        "greater": xp.greater, "greater_equal": xp.greater_equal, "hypot": xp.hypot,
        "less": xp.less, "less_equal": xp.less_equal, "logaddexp": xp.logaddexp,
        "logical_and": xp.logical_and, "logical_or": xp.logical_or,
        "logical_xor": xp.logical_xor, "maximum": xp.maximum, "minimum": xp.minimum,
        "multiply": xp.multiply, "nextafter": xp.nextafter, "not_equal": xp.not_equal,
        "pow": xp.power, "remainder": xp.remainder, "subtract": xp.subtract,
    }

    fdiv = xp.floor_divide
    isinf = xp.isinf

    def floor_divide(a, b, out=None):
        r = fdiv(a, b)
        # NumPy computes inf // finite as NaN and finite // inf as 0 or -1 (Python's
        # semantics); the standard defines both through floor(a / b).
        if r.dtype.kind == "f" and (isinf(a).any() or isinf(b).any()):
            with _ignore(xp):
                q = xp.floor(xp.true_divide(a, b))
            r = xp.where(isinf(a) | isinf(b), q, r)
        if out is None:
            return r
        out[...] = r
        return out

    np_expm1 = xp.expm1

    def expm1(x, out=None):
        if x.dtype.kind != "c":
            return np_expm1(x, out=out)
        r = _complex_expm1(xp, x)
        if out is None:
            return r
        out[...] = r
        return out

    unary["expm1"] = expm1
    np_tanh = xp.tanh

    def tanh(x, out=None):
        if x.dtype.kind != "c":
            return np_tanh(x, out=out)
        r = np_tanh(x)
        # tanh(+-inf + iy), y finite: +-1 + 0j with the sign of y (NumPy may give -0 or
        # NaN imaginary parts from sin(2y))
        re, im = xp.real(x), xp.imag(x)
        m = xp.isinf(re) & xp.isfinite(im)
        if m.any():
            fixed = xp.sign(re) + 1j * xp.copysign(xp.zeros_like(im), im)
            r = xp.where(m, fixed.astype(r.dtype), r)
        if out is None:
            return r
        out[...] = r
        return out

    unary["tanh"] = tanh

    binary["floor_divide"] = floor_divide
    return unary, binary


class _ignore:
    def __init__(self, xp):
        self.xp = xp

    def __enter__(self):
        import numpy as np
        self.state = np.seterr(all="ignore")

    def __exit__(self, *exc):
        import numpy as np
        np.seterr(**self.state)


def _complex_expm1(xp, z):
    """expm1 for complex input with the standard's special cases (C99 cexp-based)."""
    with _ignore(xp):
        x, y = xp.real(z), xp.imag(z)
        em1 = xp.expm1(x)
        # exp(x)cos(y) - 1 written so that small |z| keeps full relative precision
        re = em1 * xp.cos(y) - 2 * xp.sin(y / 2) ** 2
        im = xp.exp(x) * xp.sin(y)
        zero_im = y == 0
        re = xp.where(zero_im, em1, re)
        im = xp.where(zero_im, y, im)
        neg_inf = xp.isneginf(x)
        re = xp.where(neg_inf, -1.0, re)
        im = xp.where(neg_inf & ~xp.isfinite(y), 0.0, xp.where(neg_inf, 0.0 * xp.sin(y), im))
        pos_inf_bad = xp.isposinf(x) & ~xp.isfinite(y)
        re = xp.where(pos_inf_bad, xp.inf, re)
        im = xp.where(pos_inf_bad, xp.nan, im)
        out = xp.empty(z.shape, dtype=z.dtype)
        out.real = re
        out.imag = im
    return out
