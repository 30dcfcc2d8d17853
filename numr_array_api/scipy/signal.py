"""scipy.signal for numr arrays, on their own device.

Every function of ``scipy.signal`` under its SciPy name and signature:

- numr cpu arrays: SciPy's function on the NumPy payload (no copy);
- numr cuda arrays: ``cupyx.scipy.signal``'s on the CuPy payload (SciPy's own refusals to
  delegate, ``CUPY_BLACKLIST``, and its renames, ``CUPY_RENAMES``, apply);
- numr webgpu arrays: numr's kernels (``backends/webgpu/scipy/signal``) for the functions in
  ``WEBGPU``; the others raise BackendLimitation (no silent host copy here; the routing
  layer, ``numr_array_api.scipy.enable()``, runs SciPy's own code for them instead).

``implemented(name, backend)`` says which of these holds. Filter coefficients (``b``,
``a``, ``sos``) of the webgpu recursive filters are small host arrays, as SciPy's filter
design returns them; the data never leaves the device. docs/scipy-signal.md lists each
function's support and measured accuracy.
"""

from __future__ import annotations

import functools
import importlib
import inspect

import scipy.signal as _sps

from .._core.errors import BackendLimitation
from . import _bridge

# cupyx.scipy.signal functions SciPy itself refuses to delegate to (incompatible results),
# and its renames (SciPy 1.17 / 1.18, scipy/signal/_support_alternative_backends.py)
CUPY_BLACKLIST = ("lfilter_zi", "sosfilt_zi", "get_window", "besselap", "envelope", "remez",
                  "bessel")
CUPY_RENAMES = {"freqz_sos": "sosfreqz"}

# computed by numr's own kernels on webgpu arrays
WEBGPU = ("convolve", "correlate", "fftconvolve", "oaconvolve", "convolve2d", "correlate2d",
          "choose_conv_method", "lfilter", "sosfilt", "lfilter_zi", "sosfilt_zi", "filtfilt",
          "sosfiltfilt", "detrend", "hilbert", "upfirdn", "resample_poly", "decimate",
          "resample", "wiener", "savgol_filter", "medfilt", "medfilt2d", "order_filter",
          "hilbert2", "csd", "welch", "periodogram", "coherence", "spectrogram", "stft",
          "istft", "deconvolve", "sawtooth", "square", "chirp", "gausspulse", "sweep_poly",
          "lfiltic", "vectorstrength")


def _functions():
    names = []
    for name in getattr(_sps, "__all__", ()):
        obj = getattr(_sps, name, None)
        if callable(obj) and not inspect.isclass(obj) and not inspect.ismodule(obj):
            names.append(name)
    return tuple(sorted(names))


_NAMES = _functions()
__all__ = list(_NAMES) + ["implemented", "WEBGPU"]


def _original(f):
    """The function itself, not numr's routing wrapper around it (which would come back
    here for a numr array)."""
    return getattr(f, "__numr_routed__", f)


def _native(name, backend):
    if backend == "cuda":
        if name in CUPY_BLACKLIST:
            return None
        name = CUPY_RENAMES.get(name, name)
    f = _bridge.native_function("signal", name, backend)
    return None if f is None else _original(f)


@functools.lru_cache(maxsize=None)
def _webgpu_impl(name):
    mod = importlib.import_module("numr_array_api.backends.webgpu.scipy.signal")
    return mod.FUNCTIONS.get(name)


def implemented(name: str, backend: str) -> bool:
    """Whether ``name`` runs here on arrays of ``backend`` ('cpu', 'cuda' or 'webgpu')."""
    if name not in _NAMES:
        return False
    if backend == "webgpu":
        return name in WEBGPU
    if backend in ("cpu", "cuda"):
        return _native(name, backend) is not None
    return False


def _make(name):
    original = _original(getattr(_sps, name))

    @functools.wraps(original)
    def function(*args, **kwargs):
        backend = _bridge.backend_of(args, kwargs)
        if backend is None:                        # no numr array: SciPy as it is
            return original(*args, **kwargs)
        if backend == "webgpu":
            impl = _webgpu_impl(name) if name in WEBGPU else None
            if impl is None:
                raise BackendLimitation(
                    "webgpu", f"scipy.signal.{name}",
                    "numr has no webgpu kernel for it; with numr_array_api.scipy.enable() "
                    "SciPy's own code runs it (on a host copy, under the host-conversion "
                    "policy)")
            return impl(*args, **kwargs)
        f = _native(name, backend)
        if f is None:
            raise BackendLimitation(backend, f"scipy.signal.{name}",
                                    "the backend's SciPy-like library lacks it"
                                    + (" (SciPy refuses to delegate it to CuPy)"
                                       if name in CUPY_BLACKLIST else ""))
        if backend == "cuda":
            kwargs.pop("xp", None)
        return _bridge.call_native("signal", name, args, kwargs, f)

    function.__module__ = __name__
    function.__qualname__ = name
    return function


for _name in _NAMES:
    globals()[_name] = _make(_name)
del _name
