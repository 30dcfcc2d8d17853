"""Elementwise functions and the Array operators.

Each function has a fast path (arrays of this namespace, equal accepted dtypes: one kernel
call and a wrap) and a slow path that validates, applies the standard's promotion rules
(Python scalars included), broadcasts and raises numr's errors naming the argument.
"""

import numpy as np

from .._core import dtypes as dt
from .._core.array import Array
from .._core.errors import DTypeMismatch, InvalidType, ShapeMismatch, from_builtin
from .._core.promotion import TABLE
from .._core.shapes import MAX_ELEMENTS, broadcast_named, broadcast_shapes, check_addressable
from .._core.functions import BINARY, UNARY, result_dtype
from ._fastpath import render
from .._core.semantics import strict
from ._common import (PY_SCALARS, py_scalar, check_py_scalar, kind_word, promote_arrays,
                      readonly_error, require_array, require_kind, require_same_device,
                      scalar_promote)

_BUILTIN_ERRORS = (TypeError, ValueError, IndexError, OverflowError, MemoryError)

# operator name -> function name (reflected and in-place forms are derived)
BINARY_OPERATORS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "divide",
    "floordiv": "floor_divide", "mod": "remainder", "pow": "pow", "and": "bitwise_and",
    "or": "bitwise_or", "xor": "bitwise_xor", "lshift": "bitwise_left_shift",
    "rshift": "bitwise_right_shift",
}
COMPARISONS = {"eq": "equal", "ne": "not_equal", "lt": "less", "le": "less_equal",
               "gt": "greater", "ge": "greater_equal"}
UNARY_OPERATORS = {"neg": "negative", "pos": "positive", "abs": "abs", "invert": "bitwise_invert"}


def _result_dtype(ctx, rule, t):
    return result_dtype(rule, t, ctx.default_float)


def build(ctx):
    be = ctx.be
    A = ctx.ArrayT
    wrap = ctx.wrap
    is_ro = be.is_readonly
    supported = [d for d in dt.ALL_DTYPES if d in be.native_dtypes]
    supported_set = frozenset(supported)
    P = be.payload_type
    fix = be.fix_result
    DT = be.dtype_table
    scalars_native = be.scalars_native
    # a backend whose kernels are known to return the standard's result dtypes (checked by
    # tests/test_result_dtypes.py) lets the front-end stamp the dtype without asking
    stamp = be.trusted_result_dtypes
    _KINDS = {k: frozenset(d for d in dt.ALL_DTYPES if d.kind in k) for k in ("iufc", "fc", "c")}
    ns = {}

    def make_unary(name, kinds, rule):
        kernel = be.unary_kernel(name)
        ok = frozenset(d for d in supported if d.kind in kinds)
        # NumPy's reciprocal of an integer is integral (1 // x): refused rather than
        # answered differently
        floating_fn = set(kinds) <= set("fc") and name != "reciprocal"

        def slow(x):
            require_array(ctx, x, name)
            if floating_fn:
                x = ctx.floating(x, kinds, name)
            else:
                require_kind(x, kinds, name)
            try:
                return wrap(kernel(x._data))
            except _BUILTIN_ERRORS as e:  # the wrapped library's own: numr's class
                raise from_builtin(e, name, be.name) from e

        res = {t: _result_dtype(ctx, rule, t) for t in ok}
        return render("unary", name, stamp, rule == "same", supported_set, A=A, ok=ok,
                      kernel=kernel, P=P,
                      fix=fix, res=res, DT=DT, slow=slow)

    def make_binary(name, kinds, rule):
        kernel = be.binary_kernel(name)
        ok = frozenset(d for d in supported if d.kind in kinds)
        floating_fn = set(kinds) <= set("fc") or rule == "float"

        def prepare(x1, x2):
            """Validate; return (operand1, operand2, compute dtype) as payloads/scalars."""
            a1 = x1.__class__ is A
            a2 = x2.__class__ is A
            if not a1:
                x1 = py_scalar(x1)
            if not a2:
                x2 = py_scalar(x2)
            if a1 and a2:
                require_same_device(ctx, name, x1, x2)
                t1, t2 = x1._dtype, x2._dtype
                t = promote_arrays(ctx, name, x1, x2)
                if t not in ok:
                    t = floating_result(t, x1)
                if t not in ok:
                    raise DTypeMismatch(f"{name}: accepts only {kind_word(kinds)} dtypes, got "
                                        f"{t1.name} ('x1') and {t2.name} ('x2')", t1, t2)
                shape = broadcast_named(name, x1=x1._data.shape, x2=x2._data.shape)
                check_addressable(be, name, shape)
                d1 = x1._data if t1 is t else be.astype(x1._data, t)
                d2 = x2._data if t2 is t else be.astype(x2._data, t)
                return d1, d2, t
            if a1 and type(x2) in PY_SCALARS:
                d, s, t = with_scalar(x1, x2, "x1", "x2")
                return d, s, t
            if a2 and type(x1) in PY_SCALARS:
                d, s, t = with_scalar(x2, x1, "x2", "x1")
                return s, d, t
            if not a1 and type(x1) not in PY_SCALARS:
                require_array(ctx, x1, name, "x1")
            if not a2 and type(x2) not in PY_SCALARS:
                require_array(ctx, x2, name, "x2")
            raise InvalidType(f"{name}: at least one of 'x1' and 'x2' must be an array")

        def wide_int(x1, x2):
            """NumPy 2's answer where a Python int beyond an integer array's range meets it
            in a comparison (every element compares alike) or a true division (computed in
            the result's floating dtype); None for every other call."""
            a1 = x1.__class__ is A
            x, v = (x1, x2) if a1 else (x2, x1)
            if x.__class__ is not A or type(v) is not int or x._dtype.kind not in "iu":
                return None
            ii = np.iinfo(x._dtype.np)
            if ii.min <= v <= ii.max:
                return None
            require_kind(x, kinds, name)
            be_ = ctx.be
            dev = be_.device_of(x._data)
            if name == "divide":
                t = _result_dtype(ctx, rule, x._dtype)
                d = be_.astype(x._data, t)
                f = be_.full((), float(v), t, dev)
                return wrap(kernel(d, f) if a1 else kernel(f, d))
            above = v > ii.max  # the int is above every element (else below every one)
            left = {"less": True, "less_equal": True, "greater": False,
                    "greater_equal": False, "equal": False, "not_equal": True}[name]
            # x op v, with v above every x: less / not_equal hold; mirrored below / swapped
            value = left if name in ("equal", "not_equal") else \
                left == (above == a1)
            return wrap(be_.full(x._data.shape, value, dt.bool_, dev))

        def floating_result(t, x):
            """A floating function's compute dtype for integer / bool operands in the
            compatible semantics (the default float, as ``divide`` of integers); ``t``
            unchanged otherwise, for the caller to refuse."""
            if floating_fn and t.kind in "biu" and not strict():
                return ctx.defaults_for(be.device_of(x._data))[0]
            return t

        def with_scalar(x, scalar, xname, sname):
            """(array payload, scalar operand, compute dtype) for an array and a scalar."""
            d, t = x._data, x._dtype
            if type(scalar) is complex and t.kind == "f":
                # 2024.12: a Python complex meets a real floating array as a 0-d array of
                # the complex dtype of the same precision
                t = dt.COMPLEX_OF_REAL_FLOAT[t]
                if t not in ok:
                    raise DTypeMismatch(f"{name}: a Python complex ('{sname}') promotes "
                                        f"'{xname}' to {t.name}, which {name} does not accept", t)
            else:
                t = scalar_promote(ctx, scalar, t, name, sname, be.device_of(d))
                if t not in ok:
                    t = floating_result(t, x)
            if t not in ok:
                require_kind(x, kinds, name, xname)
                raise DTypeMismatch(f"{name}: a Python {type(scalar).__name__} ('{sname}') "
                                    f"promotes '{xname}' to {t.name}, which {name} does not "
                                    f"accept", x._dtype, t)
            check_py_scalar(scalar, t, name, sname)
            if t is not x._dtype:
                d = be.astype(d, t)
            return d, be.scalar_operand(scalar, t), t

        def slow(x1, x2):
            if name in _WIDE_INT_OK:
                out = wide_int(x1, x2)
                if out is not None:
                    return out
            d1, d2, _ = prepare(x1, x2)
            try:
                return wrap(kernel(d1, d2))
            except _BUILTIN_ERRORS as e:  # e.g. NumPy's int ** negative int: numr's class
                raise from_builtin(e, name, be.name) from e

        # Python scalar type -> array dtypes it may meet without validation (NEP 50 makes
        # the wrapped module keep the array's dtype and reject out-of-range ints itself).
        # Without native scalars the fast path takes the same 0-d operand ``with_scalar``
        # makes (be.scalar_operand), for pairs check_py_scalar passes unconditionally: ints
        # meeting integer arrays need its range check, so they keep the slow path
        if scalars_native:
            scalar_ok = {bool: ok, int: ok & _KINDS["iufc"], float: ok & _KINDS["fc"],
                         complex: ok & _KINDS["c"]}
            extra = {}
        else:
            scalar_ok = {bool: ok, int: ok & _KINDS["fc"], float: ok & _KINDS["fc"],
                         complex: ok & _KINDS["c"]}
            extra = {"sop": be.scalar_operand}
        res = {t: _result_dtype(ctx, rule, t) for t in ok}
        fn = render("binary", name, stamp, rule == "same", supported_set,
                    single_device=ctx.single_device,
                    size_guard=getattr(be, "wrapping_byte_counts", False),
                    MAX_ELEMENTS=MAX_ELEMENTS, dev=be.device_of, A=A, ok=ok,
                    kernel=kernel, P=P,
                    fix=fix, res=res, DT=DT, slow=slow, scalar_ok=scalar_ok, **extra)

        def inplace(x1, x2):
            d1, d2, t = prepare(x1, x2)
            if is_ro(d1):
                raise readonly_error(f"in-place {name}", "x1")
            rt = _result_dtype(ctx, rule, t)
            if rt is not x1._dtype:
                raise DTypeMismatch(f"in-place {name}: the result dtype {rt.name} differs from "
                                    f"the dtype {x1._dtype.name} of the left operand",
                                    x1._dtype, rt)
            if x2.__class__ is A:
                shape = broadcast_named(name, x1=x1._data.shape, x2=x2._data.shape)
                if shape != x1._data.shape:
                    raise ShapeMismatch(f"in-place {name}: operand of shape {x2._data.shape} "
                                        f"would broadcast the left operand "
                                        f"{x1._data.shape} to {shape}", x1._data.shape, shape)
            try:
                be.inplace(kernel, d1, d2)
            except _BUILTIN_ERRORS as e:
                raise from_builtin(e, f"in-place {name}", be.name) from e
            return x1

        fn.inplace = inplace
        return fn

    for name, (kinds, rule) in UNARY.items():
        ns[name] = make_unary(name, kinds, rule)
    for name, (kinds, rule) in BINARY.items():
        ns[name] = make_binary(name, kinds, rule)
    ns["clip"] = _make_clip(ctx, ns)
    _attach_operators(ctx, ns)
    return ns


# binary functions whose NumPy 2 result is defined for a Python int beyond the array's range
_WIDE_INT_OK = frozenset({"divide", "equal", "not_equal", "less", "less_equal", "greater",
                          "greater_equal"})


def _make_clip(ctx, ns):
    be = ctx.be
    maximum, minimum = ns["maximum"], ns["minimum"]

    def clip(x, /, min=None, max=None):
        require_array(ctx, x, "clip")
        require_kind(x, "iuf", "clip")
        x0 = x
        if x._dtype.kind in "iu" and not strict():
            # NumPy 2: a floating bound of an integer array gives a floating result (the
            # standard leaves bounds of another kind unspecified)
            t = x._dtype
            for b in (py_scalar(min), py_scalar(max)):
                if b.__class__ is ctx.ArrayT and b._dtype.kind == "f":
                    t = ctx.promote(t, b._dtype, be.device_of(x._data))
                elif type(b) is float:
                    t = ctx.promote(t, ctx.defaults_for(be.device_of(x._data))[0],
                                    be.device_of(x._data))
            if t is not x._dtype:
                x = ctx.wrap(be.astype(x._data, t))
        out = x
        for bound, argname, op in ((min, "min", maximum), (max, "max", minimum)):
            if bound is None:
                continue
            bound = py_scalar(bound)
            if bound.__class__ is ctx.ArrayT:
                if bound._dtype.kind not in "iuf" or TABLE.get((x._dtype, bound._dtype)) is None:
                    raise DTypeMismatch(f"clip: '{argname}' has dtype {bound._dtype.name}, "
                                        f"which does not promote with {x._dtype.name}",
                                        x._dtype, bound._dtype)
                if bound._dtype is not x._dtype:
                    bound = ctx.api.astype(bound, x._dtype)
            elif type(bound) in PY_SCALARS:
                if type(bound) is float and x._dtype.kind in "iu":
                    raise DTypeMismatch(f"clip: a Python float '{argname}' cannot clip an "
                                        f"integer array", x._dtype, None)
                if type(bound) is complex:
                    raise DTypeMismatch(f"clip: '{argname}' cannot be complex", x._dtype, None)
                if x._dtype.kind in "iu":
                    ii = np.iinfo(x._dtype.np)
                    lo, hi = int(ii.min), int(ii.max)
                    # an out-of-range bound clips nothing (or everything) on that side
                    bound = int(bound)
                    if bound < lo or bound > hi:
                        if (argname == "min" and bound < lo) or (argname == "max" and bound > hi):
                            continue
                        bound = lo if bound < lo else hi
            else:
                require_array(ctx, bound, "clip", argname)
            out = op(out, bound)
        if out is x:
            return ctx.wrap(be.copy(x._data)) if x is x0 else x
        return out

    return clip


def _attach_operators(ctx, ns):
    A = ctx.ArrayT
    NI = NotImplemented
    PY_SCALARS_SET = frozenset(PY_SCALARS)

    def operand(other):
        """``other`` as an operand (NumPy scalars as Python scalars), or None if foreign."""
        if other.__class__ is A or other.__class__ in PY_SCALARS_SET:
            return other
        other = py_scalar(other)
        return other if type(other) in PY_SCALARS else None

    def binop(fn):
        def op(self, other, /):
            if other.__class__ is A or other.__class__ in PY_SCALARS_SET:
                return fn(self, other)
            if isinstance(other, Array):  # another numr namespace: an error, not False
                require_array(ctx, other, fn.__name__, "x2")
            other = operand(other)
            return NI if other is None else fn(self, other)

        def rop(self, other, /):
            other = operand(other)
            if other is None or other.__class__ is A:
                return NI
            return fn(other, self)

        def iop(self, other, /):
            if isinstance(other, Array) and other.__class__ is not A:
                require_array(ctx, other, fn.__name__, "x2")
            other = operand(other)
            if other is None:
                return NI
            return fn.inplace(self, other)

        return op, rop, iop

    for opname, fname in BINARY_OPERATORS.items():
        op, rop, iop = binop(ns[fname])
        # the function itself: it has the fast path, and raises TypeError for foreign
        # operands just as returning NotImplemented would end
        setattr(A, f"__{opname}__", ns[fname])
        setattr(A, f"__r{opname}__", rop)
        setattr(A, f"__i{opname}__", iop)
    _pow, _mul = ns["pow"], ns["multiply"]

    def __pow__(self, other, /):
        # NumPy's operator squares for the exponent 2 (ndarray.__pow__'s fast path) and
        # consumers count on it: SciPy's kruskal expects an exact 0.0 that a pow() one ulp
        # off a square (CUDA's) misses. x * x keeps every special case of pow(x, 2).
        if (type(other) in (int, float) and other == 2 and self.__class__ is A
                and self._dtype.kind in "fc"):
            return _mul(self, self)
        return _pow(self, other)

    A.__pow__ = __pow__
    for opname, fname in COMPARISONS.items():
        # == and != must answer foreign objects (x == None) with NotImplemented -> False
        setattr(A, f"__{opname}__", binop(ns[fname])[0] if opname in ("eq", "ne")
                else ns[fname])
    for opname, fname in UNARY_OPERATORS.items():
        fn = ns[fname]
        setattr(A, f"__{opname}__", (lambda f: lambda self: f(self))(fn))
    A.__array_ufunc__ = _make_array_ufunc(A, ns)


# NumPy ufunc name -> namespace function: what a NumPy scalar's operator calls
# (np.float64(1.5) + x runs np.add(np.float64(1.5), x), which lands in __array_ufunc__)
_UFUNC_OPERATORS = {
    "add": "add", "subtract": "subtract", "multiply": "multiply", "true_divide": "divide",
    "divide": "divide", "floor_divide": "floor_divide", "remainder": "remainder",
    "power": "pow", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor", "left_shift": "bitwise_left_shift",
    "right_shift": "bitwise_right_shift", "equal": "equal", "not_equal": "not_equal",
    "less": "less", "less_equal": "less_equal", "greater": "greater",
    "greater_equal": "greater_equal",
}


# NumPy ufuncs that are one of the namespace's elementwise functions (NEP 13, as CuPy
# serves them): np.abs(x) of a device numr array runs numr's abs on its device. xarray
# applies NumPy ufuncs to its data this way (``np.abs(da)``). On cpu NumPy's ufuncs keep
# returning NumPy arrays (zero-copy, as for array-api-strict): NumPy code calls ndarray
# methods on the result (SciPy's ``np.abs(z).max()``)
_UFUNC_FUNCTIONS = {
    "absolute": "abs", "negative": "negative", "positive": "positive", "exp": "exp",
    "expm1": "expm1", "log": "log", "log1p": "log1p", "log2": "log2", "log10": "log10",
    "sqrt": "sqrt", "square": "square", "sin": "sin", "cos": "cos", "tan": "tan",
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "sinh": "sinh", "cosh": "cosh",
    "tanh": "tanh", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
    "floor": "floor", "ceil": "ceil", "trunc": "trunc", "rint": "round", "sign": "sign",
    "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite", "signbit": "signbit",
    "logical_not": "logical_not", "invert": "bitwise_invert", "conjugate": "conj",
    "arctan2": "atan2", "hypot": "hypot", "logaddexp": "logaddexp", "copysign": "copysign",
    "nextafter": "nextafter", "maximum": "maximum", "minimum": "minimum",
    "logical_and": "logical_and", "logical_or": "logical_or", "logical_xor": "logical_xor",
}


def _make_array_ufunc(A, ns):
    from .._core.array import Array

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """A NumPy ufunc that is a namespace function (np.abs, np.exp, np.maximum, ...) of
        device numr arrays (and Python scalars) runs that function; NumPy scalar (op) numr array
        stays in numr (the namespace's operator, with the NumPy scalar taken as a Python
        scalar of its kind); any other NumPy ufunc call sees
        numr arrays as host arrays, as it sees array-api-strict's (np.isfinite(x) returns
        a NumPy array) on the cpu namespace; on device namespaces that is a TypeError (no
        implicit host round trip: use x.to_device("cpu") or np.asarray(x) explicitly)."""
        if method == "__call__" and not kwargs and 1 <= len(inputs) <= 2 and \
                not self._ctx.be.host_native and \
                ufunc.nin == len(inputs) and ufunc.__name__ in _UFUNC_FUNCTIONS and \
                all(i.__class__ is A or type(i) in PY_SCALARS for i in inputs):
            return ns[_UFUNC_FUNCTIONS[ufunc.__name__]](*inputs)
        if method == "__call__" and not kwargs and len(inputs) == 2:
            fname = _UFUNC_OPERATORS.get(ufunc.__name__)
            # NumPy hands a scalar operand over as a 0-d ndarray (np.float64(x) == a): the
            # same value, so the same rule
            inputs = tuple(i[()] if isinstance(i, np.ndarray) and i.ndim == 0 else i
                           for i in inputs)
            if fname is not None and all(
                    i.__class__ is A or type(i) in PY_SCALARS or isinstance(i, np.generic)
                    for i in inputs):
                return ns[fname](*(i if i.__class__ is A else py_scalar(i) for i in inputs))
        if any(i.__class__ is np.ndarray and i.ndim for i in inputs):
            # ndarray (op) numr array: refused in both orders, on every backend, as
            # numr array (op) ndarray is (no silent host result, no implicit upload)
            raise InvalidType(f"{ufunc.__name__}: a NumPy array cannot be combined with a "
                              f"numr array of {self._ctx.module.__name__}; convert it first "
                              f"with {self._ctx.module.__name__}.asarray(a)")
        if not self._ctx.be.host_native:
            return NotImplemented  # device memory: no implicit trip through NumPy (TypeError)
        out = kwargs.get("out")
        if out is not None and any(isinstance(o, Array) for o in
                                   (out if isinstance(out, tuple) else (out,))):
            return NotImplemented  # NumPy cannot write into a numr array
        host = [np.asarray(i) if isinstance(i, Array) else i for i in inputs]
        return getattr(ufunc, method)(*host, **kwargs)

    __array_ufunc__.__qualname__ = "Array.__array_ufunc__"
    return __array_ufunc__
