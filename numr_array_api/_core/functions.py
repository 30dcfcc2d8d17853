"""The standard's elementwise functions: accepted dtype kinds and result-dtype rules.

Defined once, below the front-end and the backends: the front-end validates with it and a
backend whose kernels pick their own output dtype (webgpu) reads the same rules.
"""

from . import dtypes as dt

__all__ = ["UNARY", "BINARY", "result_dtype"]

# name: (accepted kinds, result rule). Result rules: same | bool | real (complex -> its
# real dtype) | float (integers -> the default real floating dtype).
UNARY = {
    "abs": ("iufc", "real"), "acos": ("fc", "same"), "acosh": ("fc", "same"),
    "asin": ("fc", "same"), "asinh": ("fc", "same"), "atan": ("fc", "same"),
    "atanh": ("fc", "same"), "bitwise_invert": ("biu", "same"), "ceil": ("iuf", "same"),
    "conj": ("iufc", "same"), "cos": ("fc", "same"), "cosh": ("fc", "same"),
    "exp": ("fc", "same"), "expm1": ("fc", "same"), "floor": ("iuf", "same"),
    "imag": ("c", "real"), "isfinite": ("iufc", "bool"), "isinf": ("iufc", "bool"),
    "isnan": ("iufc", "bool"), "log": ("fc", "same"), "log1p": ("fc", "same"),
    "log2": ("fc", "same"), "log10": ("fc", "same"), "logical_not": ("b", "bool"),
    "negative": ("iufc", "same"), "positive": ("iufc", "same"), "real": ("iufc", "real"),
    "reciprocal": ("fc", "same"), "round": ("iufc", "same"), "sign": ("iufc", "same"),
    "signbit": ("f", "bool"), "sin": ("fc", "same"), "sinh": ("fc", "same"),
    "sqrt": ("fc", "same"), "square": ("iufc", "same"), "tan": ("fc", "same"),
    "tanh": ("fc", "same"), "trunc": ("iuf", "same"),
}

BINARY = {
    "add": ("iufc", "same"), "atan2": ("f", "same"), "bitwise_and": ("biu", "same"),
    "bitwise_left_shift": ("iu", "same"), "bitwise_or": ("biu", "same"),
    "bitwise_right_shift": ("iu", "same"), "bitwise_xor": ("biu", "same"),
    "copysign": ("f", "same"), "divide": ("iufc", "float"), "equal": ("biufc", "bool"),
    "floor_divide": ("iuf", "same"), "greater": ("iuf", "bool"),
    "greater_equal": ("iuf", "bool"), "hypot": ("f", "same"), "less": ("iuf", "bool"),
    "less_equal": ("iuf", "bool"), "logaddexp": ("f", "same"), "logical_and": ("b", "bool"),
    "logical_or": ("b", "bool"), "logical_xor": ("b", "bool"), "maximum": ("iuf", "same"),
    "minimum": ("iuf", "same"), "multiply": ("iufc", "same"), "nextafter": ("f", "same"),
    "not_equal": ("biufc", "bool"), "pow": ("iufc", "same"), "remainder": ("iuf", "same"),
    "subtract": ("iufc", "same"),
}


def result_dtype(rule, t, default_float):
    """The result dtype of a function with ``rule`` on operands of (promoted) dtype ``t``."""
    if rule == "same":
        return t
    if rule == "bool":
        return dt.bool_
    if rule == "real":
        return dt.REAL_FLOAT_OF_COMPLEX.get(t, t)
    if rule == "float":
        return t if t.kind in "fc" else default_float
    raise AssertionError(rule)
