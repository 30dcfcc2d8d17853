"""Host round trips: functions without a GPU kernel yet run the cpu backend's kernel.

Each copies its WgpuStorage arguments to the host, calls the same method of ``CPUBackend``
(numr's NumPy backend, which already follows the standard), and uploads the results to the
adapter of the first storage argument. A host round trip inside a GPU function is a defect
unless listed: every name in FALLBACK_METHODS is listed in docs/webgpu.md ("Host round
trips") and warns with HostFallbackWarning once per function name per process.

GPU mixins placed before HostFallbackMixin in WebGPUBackend's bases override these methods
one by one (see backend.py).
"""

import inspect
import warnings

import numpy as np

from ...._core.device import Device
from ...interface import Backend
from ..storage import WgpuStorage


class HostFallbackWarning(UserWarning):
    """A webgpu function ran on the host (device -> host -> device copies)."""


class HostReadWarning(UserWarning):
    """A webgpu function ran on the GPU but read a few bytes back to size its output.

    Functions whose output shape depends on the data (``x[mask]``, ``nonzero``, the
    ``unique_*`` family, ``repeat`` with array repeats) read one count (or the repeats) to
    the host before allocating the result: a synchronisation, not a host computation.
    Deliberately not a HostFallbackWarning, so code that makes host round trips an error
    can still use them; filter this class too to catch every host synchronisation.
    """


_warned = set()


def warn_fallback(name):
    if name in _warned:
        return
    _warned.add(name)
    warnings.warn(f"numr webgpu: {name} has no GPU kernel yet; it runs on the host (copies "
                  f"to and from the device). See docs/webgpu.md, 'Host round trips'.",
                  HostFallbackWarning, stacklevel=4)


# backend methods served by the cpu backend for now (the front-end's full interface minus
# what ops/ implements on the GPU)
FALLBACK_METHODS = (
    # empty: every family has its GPU mixin
)


def _to_host(obj):
    if isinstance(obj, WgpuStorage):
        from ..transfer import to_numpy
        return to_numpy(obj)
    if isinstance(obj, (tuple, list)):
        return type(obj)(_to_host(o) for o in obj)
    data = getattr(obj, "_data", None)
    if isinstance(data, WgpuStorage):  # numr arrays inside index keys
        from ..transfer import to_numpy
        return to_numpy(data)
    if isinstance(obj, Device) and obj.kind == "webgpu":
        return Device("cpu", 0)
    return obj


def _first_client(objs):
    for o in objs:
        if isinstance(o, WgpuStorage):
            return o.client
        if isinstance(o, (tuple, list)):
            c = _first_client(o)
            if c is not None:
                return c
    return None


def _to_device(obj, client):
    if isinstance(obj, (np.ndarray, np.generic)):
        from ..transfer import from_numpy
        return from_numpy(np.asarray(obj), client)
    if isinstance(obj, (tuple, list)):
        return type(obj)(_to_device(o, client) for o in obj)
    return obj


def _make(name):
    def method(self, *args, **kwargs):
        warn_fallback(name)
        client = _first_client(args) or _first_client(list(kwargs.values()))
        if client is None:  # creation-like: the device argument says where
            dev = next((a for a in list(args) + list(kwargs.values())
                        if isinstance(a, Device)), None)
            client = self._client(dev if dev is not None else self.default_device())
        hargs = [_to_host(a) for a in args]
        hkw = {k: _to_host(v) for k, v in kwargs.items()}
        with np.errstate(all="ignore"):
            r = getattr(self._cpu, name)(*hargs, **hkw)
        return _to_device(r, client)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"{name}: host round trip through the cpu backend (warns once)."
    method.__signature__ = inspect.signature(getattr(Backend, name))
    return method


class HostFallbackMixin:
    """One method per FALLBACK_METHODS name, each a host round trip."""

    def setitem(self, data, key, value):
        """Basic keys write through a GPU scatter; array keys round-trip through the host."""
        if all(k is None or k is Ellipsis or type(k) in (int, slice) for k in key):
            view = data[key]
            v = value if isinstance(value, WgpuStorage) else \
                self.scalar_operand(value, data.dtype)
            if v.client is not data.client:
                v = self.to_device(v, self.device_of(data))
            try:
                self.store(view, v)
            except ValueError as e:  # broadcast failure: the front-end reports a ShapeMismatch
                raise ValueError(str(e)) from None
            return
        warn_fallback("setitem (array index)")
        host = _to_host(data)
        hv = _to_host(value)
        self._cpu.setitem(host, tuple(_to_host(k) for k in key), hv)
        from ..transfer import from_numpy
        self.store(data, from_numpy(host, data.client))


for _name in FALLBACK_METHODS:
    setattr(HostFallbackMixin, _name, _make(_name))
