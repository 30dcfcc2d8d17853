"""Between numr arrays and the SciPy-like libraries that run on their memory.

A numr cpu array's payload is a NumPy array and a numr cuda array's is a CuPy array, so SciPy
(cpu) and ``cupyx.scipy`` (cuda) run on the same memory: no copy in, a wrap out, and an
``output=`` array is written where the caller holds it. webgpu arrays have no such library;
their implementations are numr's own kernels (``backends/webgpu/scipy``).
"""

from __future__ import annotations

import functools
import importlib
import inspect

from .._core.array import Array
from .._core.errors import BackendLimitation, DeviceMismatch

__all__ = ["backend_of", "numr_arrays", "call_native", "native_function", "unwrap", "wrap_like"]

BACKENDS = ("cpu", "cuda", "webgpu")


def _backend_name(x):
    return x._ctx.module.__name__.rsplit(".", 1)[-1]


def numr_arrays(obj, found=None):
    """Every numr array in ``obj`` (lists, tuples and dict values are searched)."""
    found = [] if found is None else found
    if isinstance(obj, Array):
        found.append(obj)
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            numr_arrays(o, found)
    elif isinstance(obj, dict):
        for o in obj.values():
            numr_arrays(o, found)
    return found


def backend_of(args, kwargs=None):
    """'cpu', 'cuda' or 'webgpu' for the numr arrays among the arguments, None without any.

    Arrays of two namespaces or two devices are refused, as every numr function does.
    """
    arrays = numr_arrays(args)
    if kwargs:
        numr_arrays(kwargs, arrays)
    if not arrays:
        return None
    first = arrays[0]
    for a in arrays[1:]:
        if a._ctx is not first._ctx:
            raise DeviceMismatch(f"arrays of two namespaces: {first._ctx.module.__name__} "
                                 f"and {a._ctx.module.__name__}")
        if a.device != first.device:
            raise DeviceMismatch(f"arrays on two devices: {first.device} and {a.device}")
    return _backend_name(first)


def unwrap(obj):
    """Payloads for numr arrays (NumPy for cpu, CuPy for cuda), recursively."""
    if isinstance(obj, Array):
        return obj._data
    if isinstance(obj, tuple) and not hasattr(obj, "_fields"):
        return tuple(unwrap(o) for o in obj)
    if isinstance(obj, list):
        return [unwrap(o) for o in obj]
    if isinstance(obj, dict):
        return {k: unwrap(v) for k, v in obj.items()}
    return obj


def wrap_like(result, ctx):
    """numr arrays of ``ctx``'s namespace for the payload-type arrays in ``result``."""
    P = ctx.be.payload_type
    if isinstance(result, P):
        return ctx.wrap(result)
    if isinstance(result, tuple):
        items = [wrap_like(r, ctx) for r in result]
        return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
    if isinstance(result, list):
        return [wrap_like(r, ctx) for r in result]
    if isinstance(result, dict):
        return {k: wrap_like(v, ctx) for k, v in result.items()}
    return result


_LIBRARY = {"cpu": "scipy.{}", "cuda": "cupyx.scipy.{}"}


def native_function(module, name, backend):
    """SciPy's (cpu) or cupyx.scipy's (cuda) function ``module.name``, None where that
    library has none (or for webgpu, which has no such library)."""
    pattern = _LIBRARY.get(backend)
    if pattern is None:
        return None
    try:
        mod = importlib.import_module(pattern.format(module))
    except ImportError:
        return None
    return getattr(mod, name, None)


# Parameters SciPy takes as array-likes (host data: weights, footprints, coefficients) that
# cupyx.scipy wants as CuPy arrays.
_ARRAY_PARAMS = frozenset({"weights", "footprint", "structure", "b", "a", "sos", "zi", "x",
                           "in1", "in2", "h", "window", "input", "mask", "labels", "index",
                           "coordinates", "matrix", "offset", "kernel", "volume", "ba"})


def _to_cupy(args, kwargs, module, name):
    """NumPy arrays, and array-likes where SciPy takes an array, as CuPy arrays (cupyx.scipy
    refuses host data; SciPy accepts it); a list of axes as a tuple."""
    import numpy as np
    import cupy
    sig = _signature(module, name)
    bound = None
    if sig is not None:
        try:
            bound = sig.bind_partial(*args, **kwargs)
        except TypeError:
            bound = None

    def conv(key, v):
        if isinstance(v, np.ndarray):
            return cupy.asarray(v)
        if key == "axes" and isinstance(v, list):   # CuPy's axis normalisation takes tuples
            return tuple(v)
        if key in _ARRAY_PARAMS and isinstance(v, (list, tuple)) and v and \
                not any(isinstance(e, (Array, str)) for e in v):
            try:
                return cupy.asarray(np.asarray(v))
            except (TypeError, ValueError):
                return v
        return v

    if bound is None:
        return [conv(None, v) for v in args], {k: conv(k, v) for k, v in kwargs.items()}
    for k, v in list(bound.arguments.items()):
        bound.arguments[k] = conv(k, v)
    return list(bound.args), dict(bound.kwargs)


@functools.lru_cache(maxsize=None)
def _signature(module, name):
    f = native_function(module, name, "cpu")
    try:
        return inspect.signature(f) if f is not None else None
    except (TypeError, ValueError):
        return None


def call_native(module, name, args, kwargs, f=None):
    """Run ``module.name`` of SciPy (cpu arrays) or cupyx.scipy (cuda arrays) on the arrays'
    own memory and return numr arrays of the same namespace (``f``: that function where the
    caller resolved it, e.g. under another name in cupyx.scipy). Host arrays where SciPy
    takes array-likes become CuPy arrays for cupyx.scipy. A case cupyx.scipy does not
    support (its NotImplementedError, or its "not supported" errors) is numr's
    BackendLimitation, so the routing runs SciPy's own code instead."""
    backend = backend_of(args, kwargs)
    if f is None:
        f = native_function(module, name, backend)
    if f is None:
        raise BackendLimitation(str(backend), f"scipy.{module}.{name}",
                                "no implementation for numr arrays of this backend")
    ctx = numr_arrays((args, kwargs))[0]._ctx
    args, kwargs = unwrap(args), unwrap(kwargs)
    if backend != "cuda":
        return wrap_like(f(*args, **kwargs), ctx)
    args, kwargs = _to_cupy(args, kwargs, module, name)
    try:
        result = f(*args, **kwargs)
    except NotImplementedError as e:
        raise BackendLimitation("cuda", f"cupyx.scipy.{module}.{name}", str(e)) from e
    except (RuntimeError, ValueError, TypeError) as e:
        if "not supported" in str(e) or "supported currently" in str(e):
            raise BackendLimitation("cuda", f"cupyx.scipy.{module}.{name}", str(e)) from e
        raise
    return wrap_like(result, ctx)
