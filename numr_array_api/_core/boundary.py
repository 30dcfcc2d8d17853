"""The namespace boundary: what every public function (but the elementwise fast paths, which
check their operands inline) does before and after its body, once for every backend.

* Errors: a built-in TypeError / ValueError / IndexError / OverflowError / MemoryError that
  escapes a function (raised by NumPy's allocator, a conversion, a wrapped library) leaves
  as the numr error of the same built-in class (errors.from_builtin), so callers can rely on
  "every error numr raises is a NumrError".
* One device rule: a function taking several arrays checks, before touching any data, that
  they are arrays of this namespace on one device; otherwise DeviceMismatch names both
  devices (NamespaceMismatch for an array of another numr namespace).

The wrappers take the wrapped function's own parameters (source made from its signature, as
runtime/concurrency.locked does): a call pays one frame, no argument packing.
"""

import functools
import inspect

import numpy as np

from .array import Array
from .errors import DeviceMismatch, InvalidType, NamespaceMismatch, NumrError, from_builtin
from .generated import compile_source

__all__ = ["MULTI_ARRAY", "wrap_namespace", "device_checker"]

_BUILTINS = (TypeError, ValueError, IndexError, OverflowError, MemoryError)

# Parameters the standard types ``bool`` (``Optional[bool]`` where the default is None):
# anything else ('abc', a list, NaN, 1) is refused rather than taken as truthy. NumPy's
# bool scalars count as bools.
FLAGS = frozenset({"keepdims", "copy", "descending", "stable", "include_initial", "invert",
                   "endpoint", "upper", "full_matrices", "hermitian", "sparse"})
_BOOLS = (bool, np.bool_)


def bad_flag(fname, argname, value, none_ok):
    allowed = "True, False or None" if none_ok else "True or False"
    return InvalidType(f"{fname}: '{argname}' must be {allowed}, got {value!r} of type "
                       f"{type(value).__name__}")

# Functions that can receive more than one array (directly, in a sequence, or as an
# optional keyword): the ones the device rule guards. Single-array functions need no device
# check; an array of another namespace is refused by their require_array. The elementwise
# binary functions check inline (_api/_fastpath.py) and in their slow path.
MULTI_ARRAY = frozenset({
    "where", "clip", "concat", "stack", "broadcast_arrays", "meshgrid", "matmul", "tensordot",
    "vecdot", "searchsorted", "isin", "take", "take_along_axis", "diff", "repeat",
    # linalg
    "cross", "outer", "solve", "matrix_rank", "pinv",
})


def device_checker(ctx, fname, names):
    """check(*values): raise DeviceMismatch unless every numr array among ``values`` (the
    parameters ``names``; lists / tuples looked into) is of this namespace on one device."""
    A = ctx.ArrayT
    device_of = ctx.be.device_of

    def check(*values):
        first = None
        for name, v in zip(names, values):
            if v.__class__ is A:
                items = ((name, v),)
            elif type(v) in (list, tuple):
                items = ((f"{name}[{i}]", b) for i, b in enumerate(v))
            elif isinstance(v, Array):
                items = ((name, v),)
            else:
                continue
            for n, b in items:
                if b.__class__ is not A:
                    if isinstance(b, Array):
                        raise namespace_mismatch(ctx, fname, n, b)
                    continue
                d = device_of(b._data)
                if first is None:
                    first = (n, d)
                elif d is not first[1] and d != first[1]:
                    raise device_mismatch(fname, first[0], first[1], n, d)

    return check


def device_mismatch(fname, n1, d1, n2, d2):
    return DeviceMismatch(f"{fname}: arrays are on different devices: '{n1}' is on {d1}, "
                          f"'{n2}' on {d2}; move one with x.to_device(...) first (numr never "
                          f"moves data implicitly)", (d1, d2))


def namespace_mismatch(ctx, fname, argname, x):
    dev = x.device
    return NamespaceMismatch(f"{fname}: '{argname}' is an array of {x._ctx.module.__name__} "
                             f"(device {dev}), not of {ctx.module.__name__}; move it with "
                             f"asarray(x, device=...) first", (dev,))


def _source(fn, fname, guarded, scope):
    """The wrapper's source (None: the signature cannot be reproduced)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None, None
    P = inspect.Parameter
    head, args, names = [], [], []
    for i, p in enumerate(params):
        if p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD) or p.name.startswith("_nb_"):
            return None, None
        if p.kind is P.KEYWORD_ONLY and "*" not in head:
            head.append("*")
        default = ""
        if p.default is not P.empty:
            scope[f"_nb_d{i}"] = p.default
            default = f"=_nb_d{i}"
        head.append(p.name + default)
        args.append(f"{p.name}={p.name}" if p.kind is P.KEYWORD_ONLY else p.name)
        names.append(p.name)
        if p.kind is P.POSITIONAL_ONLY and (i + 1 == len(params)
                                            or params[i + 1].kind is not P.POSITIONAL_ONLY):
            head.append("/")
    check = f"    _nb_check({', '.join(names)})\n" if guarded and names else ""
    for p in params:
        if p.name in FLAGS:
            none_ok = p.default is None
            cond = f"{p.name}.__class__ not in _nb_bools"
            if none_ok:
                cond += f" and {p.name} is not None"
            check += (f"    if {cond}:\n        raise _nb_bad_flag(_nb_name, {p.name!r}, "
                      f"{p.name}, {none_ok})\n")
    # a numr error is raised again from here with its traceback cut: the user's traceback
    # ends in this frame, named after the public function, not in numr's internals
    defname = fname.rsplit(".", 1)[-1]
    defname = defname if defname.isidentifier() and not defname.startswith("_nb") else "call"
    return (f"def {defname}({', '.join(head)}):\n{check}    try:\n"
            f"        return _nb_fn({', '.join(args)})\n"
            f"    except _nb_numr as e:\n        raise e.with_traceback(None)\n"
            f"    except _nb_builtins as e:\n"
            f"        raise _nb_translate(e, _nb_name, _nb_backend) from e\n"
            f"_nb_entry = {defname}\n"), names


def wrap_function(ctx, fname, fn, guarded, backend=None):
    """``fn`` behind the boundary (see the module docstring); ``ctx`` None: errors only
    (functions taking arrays of any library, numr_array_api.ext), in the errors of
    ``backend`` (a lazy namespace's runtime extras, wrapped before its backend exists)."""
    if backend is None:
        backend = ctx.be.name if ctx is not None else "numr"
    scope = {"_nb_fn": fn, "_nb_numr": NumrError, "_nb_builtins": _BUILTINS,
             "_nb_bools": _BOOLS, "_nb_bad_flag": bad_flag,
             "_nb_translate": from_builtin, "_nb_name": fname, "_nb_backend": backend}
    src, names = _source(fn, fname, guarded, scope)
    if src is not None:
        if guarded:
            scope["_nb_check"] = device_checker(ctx, fname, names)
        exec(compile_source(src, "boundary", fname, public=f"numr_array_api.{backend}.{fname}"),
             scope)
        call = scope["_nb_entry"]
    else:  # *args: broadcast_arrays(*arrays), meshgrid(*arrays, indexing=...)
        def call(*args, **kwargs):
            if guarded:
                device_checker(ctx, fname, ("arrays",) + tuple(kwargs))(args, *kwargs.values())
            try:
                return fn(*args, **kwargs)
            except NumrError as e:
                raise e.with_traceback(None)
            except _BUILTINS as e:
                raise from_builtin(e, fname, backend) from e
    functools.update_wrapper(call, fn)
    return call


def wrap_namespace(ctx, ns, skip, memo=None):
    """Put every function of ``ns`` (a dict, changed in place) but ``skip`` behind the
    boundary; MULTI_ARRAY ones also get the device check unless the namespace has a single
    device (then each function's require_array refuses other namespaces' arrays). ``memo``
    (original id -> wrapper, shared between calls) keeps one function one object, e.g.
    ``linalg.matmul is matmul``."""
    multi = frozenset() if ctx.single_device else MULTI_ARRAY
    memo = {} if memo is None else memo
    for name, obj in list(ns.items()):
        if name in skip or name.startswith("_") or not inspect.isfunction(obj):
            continue
        w = memo.get(id(obj))
        if w is None:
            w = memo[id(obj)] = wrap_function(ctx, name, obj, name in multi)
        ns[name] = w
