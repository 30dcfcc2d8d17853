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
        r = fdiv(a, b, out=out)
        # NumPy computes inf // finite as NaN and finite // inf as 0 or -1 (Python's
        # semantics); the standard defines both through floor(a / b).
        if r.dtype.kind == "f" and (isinf(a).any() or isinf(b).any()):
            with _ignore(xp):
                q = xp.floor(xp.true_divide(a, b))
            mask = isinf(a) | isinf(b)
            r = xp.where(mask, q, r) if out is None else xp.copyto(out, q, where=mask) or out
        return r

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
