"""Elementwise kernels over a NumPy-like module, with the standard's corrections.

Most names map straight onto a ufunc. The functions below fix the places where NumPy
and CuPy depart from the array API (listed in docs/deviations.md).
"""

import numpy as np


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
    _isinf = xp.isinf

    def isinf(v):
        # a Python int is never infinite (and may not fit any dtype: isinf(2**64) raises)
        return False if type(v) is int else _isinf(v)

    def any_inf(v):
        return False if type(v) is int else _isinf(v).any()

    def floor_divide(a, b, out=None):
        r = fdiv(a, b)
        # NumPy computes inf // finite as NaN and finite // inf as 0 or -1 (Python's
        # semantics); the standard defines both through floor(a / b).
        if r.dtype.kind == "f" and (any_inf(a) or any_inf(b)):
            with np.errstate(all="ignore"):
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
    if xp.__name__ != "numpy":
        _add_special_case_fixes(xp, unary, binary)
    return unary, binary


def _as_array(xp, v, dtype):
    return v if isinstance(v, xp.ndarray) else xp.asarray(v, dtype=dtype)


def _with_out(r, out):
    if out is None:
        return r
    out[...] = r
    return out


def _add_special_case_fixes(xp, unary, binary):
    """Special cases CuPy's loops get wrong (NumPy's are right), fixed on the device.

    Each wrapper computes the library's result, then overwrites the special-case elements
    with ``where``: no host round trip, a few extra elementwise passes only on the dtypes
    concerned.
    """
    rem = binary["remainder"]

    def remainder(a, b, out=None):
        r = rem(a, b)
        if r.dtype.kind != "f":
            return _with_out(r, out)
        a, b = _as_array(xp, a, r.dtype), _as_array(xp, b, r.dtype)
        # a zero result (x1 = +-0, or an exact multiple) takes the sign of x2
        zero = (r == 0) & (b != 0) & ~xp.isnan(b)
        r = xp.where(zero, xp.copysign(xp.zeros_like(r), b), r)
        # finite nonzero x1, infinite x2: x1 when the signs agree, else x2 (floor semantics)
        inf = xp.isfinite(a) & (a != 0) & xp.isinf(b)
        r = xp.where(xp.isfinite(a) & (a == 0) & xp.isinf(b), xp.copysign(xp.zeros_like(r), b), r)
        r = xp.where(inf, xp.where((a > 0) == (b > 0), a, b), r)
        return _with_out(r, out)

    binary["remainder"] = remainder

    def complex_fix(name, fix):
        base = unary[name]

        def fn(x, out=None):
            r = base(x)
            if x.dtype.kind == "c":
                r = fix(x, r, xp.real(x), xp.imag(x))
            return _with_out(r, out)

        unary[name] = fn

    def cplx(re, im, like):
        out = xp.empty(like.shape, dtype=like.dtype)
        out.real = re
        out.imag = im
        return out

    def log_fix(x, r, re, im):
        # (+-inf, NaN) and (NaN, +-inf) -> +inf + NaN j
        m = (xp.isinf(re) & xp.isnan(im)) | (xp.isnan(re) & xp.isinf(im))
        return xp.where(m, cplx(xp.inf, xp.nan, r), r)

    def acosh_fix(x, r, re, im):
        # (+-0, NaN) -> NaN + pi/2 j
        m = (re == 0) & xp.isnan(im)
        return xp.where(m, cplx(xp.nan, xp.pi / 2, r), r)

    def tanh_fix(x, r, re, im):
        # (+-0, inf or NaN) -> +-0 + NaN j
        m = (re == 0) & ~xp.isfinite(im)
        return xp.where(m, cplx(re, xp.nan, r), r)

    complex_fix("log", log_fix)
    complex_fix("log1p", log_fix)
    complex_fix("acosh", acosh_fix)
    complex_fix("tanh", tanh_fix)



def _complex_expm1(xp, z):
    """expm1 for complex input with the standard's special cases (C99 cexp-based)."""
    with np.errstate(all="ignore"):
        x, y = xp.real(z), xp.imag(z)
        em1 = xp.expm1(x)
        # exp(x)cos(y) - 1 written so that small |z| keeps full relative precision
        re = em1 * xp.cos(y) - 2 * xp.sin(y / 2) ** 2
        im = xp.exp(x) * xp.sin(y)
        zero_im = y == 0
        # + 0.0 turns expm1(-0) = -0 into the +0 the standard asks for (-0 + 0j -> 0 + 0j)
        re = xp.where(zero_im, em1 + 0.0, re)
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
