"""Routing SciPy's special, ndimage and signal functions to numr's implementations.

``scipy.fft`` has a public backend protocol: ``enable()`` registers ``numr_array_api.scipy.fft``
and makes SciPy's own backend the last one tried, so numr arrays reach numr's transforms
(DCT / DST included) and every other array SciPy's.

SciPy decides where the other functions run in three places, none of them public:

- ``scipy.special``: each elementwise function's wrapper asks
  ``_support_alternative_backends.scipy_namespace_for(xp)`` for a SciPy-like namespace
  (``cupyx.scipy`` for CuPy) and takes ``namespace.special.<name>`` when it exists. numr
  answers for its namespaces with ``numr_array_api.scipy``'s functions for the arrays'
  backend.
- ``scipy.ndimage`` / ``scipy.signal``: each public function is a wrapper
  (``delegate_xp``) that knows only CuPy and JAX. numr wraps it once more: a call whose arrays
  are numr arrays goes to numr's function when it covers the arrays' backend, to SciPy's
  otherwise.

Where SciPy's own code runs on a numr device array, it works on a host copy. An array given
as ``output=`` would then never be written (SciPy writes the host copy): such a call is
computed into a fresh array of the output's dtype and copied into the device array; an
output argument that cannot be handled so (``distances=``, ``indices=``, ``out=``) is refused.

The patch is version-checked: SciPy releases whose dispatch was read are ``SUPPORTED``, and
``check_dispatch`` verifies the structures it relies on before anything is changed.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import threading
import types

from .._core.array import Array
from .._core.errors import BackendLimitation, BackendUnavailable
from . import _bridge

__all__ = ["enable", "disable", "enabled", "check_dispatch", "SUPPORTED"]

SUPPORTED = ("1.17", "1.18")
ROUTED_MODULES = ("ndimage", "signal")

_lock = threading.Lock()
_state = {"enabled": False, "saved": []}

# Arguments SciPy writes into. ``output`` of ndimage also takes a dtype, so a device array
# there can be replaced by its dtype and the result copied in; the others cannot.
_OUTPUT_ARGS = ("output",)
_REFUSED_OUTPUT_ARGS = ("out", "distances", "indices")
# functions whose output= takes an array only (no dtype): SciPy computes in its own result
# dtype, cast into the device array afterwards
_OUTPUT_ARRAY_ONLY = ("vectorized_filter",)


def _version():
    import scipy
    return ".".join(scipy.__version__.split(".")[:2])


def _sab(module):
    return importlib.import_module(f"scipy.{module}._support_alternative_backends")


def check_dispatch():
    """Raise BackendUnavailable unless the installed SciPy has the dispatch the routing
    patches (its version in SUPPORTED, and every structure used present)."""
    version = _version()
    if version not in SUPPORTED:
        raise BackendUnavailable(
            "scipy", f"numr_array_api.scipy.enable() supports SciPy {', '.join(SUPPORTED)}: it "
            f"routes through their private dispatch, which other releases may change; "
            f"installed: SciPy {version}")
    problems = []
    sp = _sab("special")
    for name in ("scipy_namespace_for", "_FuncInfo", "_special_funcs", "_get_native_func"):
        if not hasattr(sp, name):
            problems.append(f"scipy.special._support_alternative_backends.{name}")
    info = getattr(sp, "_FuncInfo", None)
    if info is not None and not hasattr(getattr(info, "_wrapper_for", None), "cache_clear"):
        problems.append("scipy.special._support_alternative_backends._FuncInfo._wrapper_for "
                        "(an lru_cache)")
    for module in ROUTED_MODULES:
        m = _sab(module)
        api = getattr(m, f"_{module}_api", None)
        if api is None or not hasattr(api, "__all__"):
            problems.append(f"scipy.{module}._support_alternative_backends._{module}_api")
            continue
        public = importlib.import_module(f"scipy.{module}")
        for name in api.__all__:
            f = getattr(public, name, None)
            if isinstance(f, types.ModuleType):   # scipy.signal.windows
                continue
            if f is None or not callable(f):
                problems.append(f"scipy.{module}.{name}")
    if problems:
        raise BackendUnavailable("scipy", "SciPy's dispatch changed; numr_array_api.scipy."
                                 "enable() cannot route: missing " + ", ".join(problems))


def _require_array_api():
    from scipy._lib._array_api import SCIPY_ARRAY_API
    if not SCIPY_ARRAY_API:
        raise BackendUnavailable(
            "scipy", "numr_array_api.scipy.enable() needs SciPy's array API support: set the "
            "environment variable SCIPY_ARRAY_API=1 before SciPy is imported (without it "
            "SciPy converts every argument to NumPy)")


# ---- special: a SciPy-like namespace for numr namespaces ---------------------------------

class _SpecialFor:
    """``namespace.special`` for one numr backend: the functions it covers, nothing else
    (SciPy takes an attribute that exists as the implementation)."""

    def __init__(self, backend):
        self._backend = backend

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        mod = importlib.import_module("numr_array_api.scipy.special")
        if mod.implemented(name, self._backend):
            return getattr(mod, name)
        raise AttributeError(name)


_namespaces = {b: types.SimpleNamespace(special=_SpecialFor(b)) for b in _bridge.BACKENDS}


def _numr_backend_of_namespace(xp):
    name = getattr(xp, "__name__", "")
    if name.startswith("numr_array_api."):
        b = name.rsplit(".", 1)[-1]
        if b in _namespaces:
            return b
    return None


def _route_special(sp):
    original = sp.scipy_namespace_for

    def scipy_namespace_for(xp):
        b = _numr_backend_of_namespace(xp)
        if b is not None:
            return _namespaces[b]
        return original(xp)

    scipy_namespace_for.__wrapped__ = original
    sp.scipy_namespace_for = scipy_namespace_for
    sp._FuncInfo._wrapper_for.cache_clear()
    return [(sp, "scipy_namespace_for", original)]


# ---- ndimage / signal: one more wrapper per public function ------------------------------

def _bound(sig, args, kwargs):
    if sig is None:
        return None
    try:
        return sig.bind_partial(*args, **kwargs)
    except TypeError:
        return None


def _device_output(bound):
    """(name, array) of an output argument holding a numr device array, else None."""
    if bound is None:
        return None
    for name in _OUTPUT_ARGS + _REFUSED_OUTPUT_ARGS:
        v = bound.arguments.get(name)
        if isinstance(v, Array) and _bridge._backend_name(v) != "cpu":
            return name, v
    return None


def _numpy_dtype(dtype):
    import numpy as np
    return np.dtype(dtype.name)


def _write_back(module, name, original, bound, out):
    """SciPy's code on a host copy, the result copied into the device array ``out``."""
    bound.arguments["output"] = None if name in _OUTPUT_ARRAY_ONLY else _numpy_dtype(out.dtype)
    result = original(*bound.args, **bound.kwargs)
    first = result[0] if isinstance(result, tuple) else result
    if not isinstance(first, Array) or first.shape != out.shape:
        raise BackendLimitation(
            str(out.device), f"scipy.{module}.{name} with output= a numr device array",
            "numr has no implementation of this call for it and SciPy's result could not be "
            "copied into it; pass output=None and use the returned array")
    xp = out.__array_namespace__()
    out[...] = xp.astype(first, out.dtype) if first.dtype != out.dtype else first
    if isinstance(result, tuple):   # label: (labels, count) -> count, as with an array
        rest = result[1:]
        return rest[0] if len(rest) == 1 else rest
    return out


def _route_function(module, name, original, impl_module):
    try:
        sig = inspect.signature(original)
    except (TypeError, ValueError):
        sig = None

    @functools.wraps(original)
    def routed(*args, **kwargs):
        backend = _bridge.backend_of(args, kwargs)
        if backend is None:
            return original(*args, **kwargs)
        if impl_module.implemented(name, backend):
            if backend == "cuda":
                kwargs.pop("xp", None)   # as SciPy does for cupyx
            try:
                return getattr(impl_module, name)(*args, **kwargs)
            except BackendLimitation:
                # an argument combination numr's kernels do not cover (checked before any
                # work): SciPy's own code runs, as for a function numr does not have
                pass
        bound = _bound(sig, args, kwargs)
        found = _device_output(bound)
        if found is None:
            return original(*args, **kwargs)
        arg, out = found
        if arg in _REFUSED_OUTPUT_ARGS:
            raise BackendLimitation(
                backend, f"scipy.{module}.{name} with {arg}= a numr {out.device} array",
                "SciPy would fill a host copy and leave the array unchanged, and numr has no "
                f"implementation of this call: pass {arg}=None and use the result")
        return _write_back(module, name, original, bound, out)

    routed.__numr_routed__ = original
    return routed


def _route_module(module):
    impl = importlib.import_module(f"numr_array_api.scipy.{module}")
    sab = _sab(module)
    public = importlib.import_module(f"scipy.{module}")
    api = getattr(sab, f"_{module}_api")
    saved = []
    for name in api.__all__:
        original = getattr(public, name)
        if isinstance(original, types.ModuleType) or hasattr(original, "__numr_routed__"):
            continue
        routed = _route_function(module, name, original, impl)
        for target in (public, sab):
            if getattr(target, name, None) is original:
                saved.append((target, name, original))
                setattr(target, name, routed)
        # SciPy's tests look a function's capabilities up by the function object
        table = _capabilities_table()
        if original in table:
            table[routed] = table[original]
            saved.append((table, routed, _DROP))
    return saved


_DROP = object()


def _capabilities_table():
    from scipy._lib import _array_api
    return getattr(_array_api, "xp_capabilities_table", {})


def enable():
    """Route SciPy's special, ndimage and signal functions to numr for numr arrays.

    Off by default. Needs ``SCIPY_ARRAY_API=1`` and a SciPy release in ``SUPPORTED``; raises
    BackendUnavailable otherwise. Idempotent; ``disable()`` undoes it.
    """
    with _lock:
        if _state["enabled"]:
            return
        _require_array_api()
        check_dispatch()
        saved = _route_special(_sab("special"))
        try:
            for module in ROUTED_MODULES:
                saved += _route_module(module)
            _route_fft()
        except BaseException:
            _restore(saved)
            _unroute_fft()
            raise
        _state["saved"] = saved
        _state["enabled"] = True


_fft_registered = []


def _route_fft():
    import scipy.fft as sfft
    from . import fft as nfft
    if not _fft_registered:
        sfft.register_backend(nfft)   # uarray keeps it for the process; it declines others
        _fft_registered.append(nfft)
    sfft.set_global_backend("scipy", try_last=True)


def _unroute_fft():
    import scipy.fft as sfft
    sfft.set_global_backend("scipy")   # SciPy's default: its backend first, and only


def _restore(saved):
    for target, name, original in reversed(saved):
        if original is _DROP:
            target.pop(name, None)
        else:
            setattr(target, name, original)
    sp = _sab("special")
    sp._FuncInfo._wrapper_for.cache_clear()


def disable():
    """Undo ``enable()``: SciPy's own dispatch again."""
    with _lock:
        if not _state["enabled"]:
            return
        _restore(_state["saved"])
        _unroute_fft()
        _state["saved"] = []
        _state["enabled"] = False


def enabled():
    return _state["enabled"]
