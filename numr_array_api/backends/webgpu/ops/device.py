"""Adapters as devices, dtype support, and the no-adapter state.

Devices are ``Device("webgpu", i)`` for the adapter indices of ``list_adapters()`` that can
hold arrays (see ``devices``); the default is the runtime's selection
(``NUMR_WEBGPU_ADAPTER`` / power preference). The namespace is built, on its first use (the
import probes nothing), from the selected adapter's *features*; a wgpu device (a client) is
created when an array first needs one. Without wgpu or an adapter the namespace still
imports: ``devices()`` is empty and anything touching a device raises BackendUnavailable.
"""

import warnings

from ...._core import dtypes as dt
from ...._core.device import Device
from ...._core.errors import BackendLimitation, BackendUnavailable, InvalidArgument

# dtypes a kernel can compute on, by the adapter features they need: the runtime's table
from ..runtime.dtypes import DTYPE_FEATURES as _NEEDS
from ..runtime.adapters import native_dtypes as _native_dtypes


def probe():
    """(default index, adapter descriptions, None) or (None, [], why unavailable)."""
    try:
        from .. import api
        adapters = api.list_adapters()
        from ..runtime.adapters import select_index
        return select_index(), adapters, None
    except BackendUnavailable as exc:   # no adapter: its reason once, not the whole message
        return None, [], exc.reason
    except ImportError as exc:
        return None, [], f"wgpu cannot be imported ({exc}): pip install wgpu"
    except Exception as exc:  # NUMR_WEBGPU_ADAPTER matching nothing, a failing driver
        return None, [], f"{type(exc).__name__}: {exc}"


_NATIVE = ("vulkan", "metal", "d3d12")


class AdapterWarning(UserWarning):
    """The default adapter is a fallback (OpenGL) that gives other dtypes than a native one."""


def _warn_fallback(desc, native):
    """Once, at the namespace's construction: the default adapter is not Vulkan / Metal /
    D3D12 (no native adapter at all), and what that changes for the user."""
    lacking = [d.name for d in dt.ALL_DTYPES if d not in native]
    what = (f"it lacks {', '.join(lacking)} (the default float is "
            f"{'float64' if dt.float64 in native else 'float32'})" if lacking else
            "it is slower and less tested than a native one")
    warnings.warn(f"numr_array_api.webgpu: no Vulkan / Metal / D3D12 adapter, using the "
                  f"{desc['backend']} adapter '{desc['name']}': {what}. Install your GPU's "
                  "Vulkan driver, or Mesa's (Debian / Ubuntu: apt install "
                  "mesa-vulkan-drivers) to run on the CPU with every dtype.", AdapterWarning,
                  stacklevel=2)


class DeviceMixin:
    def _init_devices(self):
        idx, adapters, why = probe()
        self._unavailable = why
        self._adapters = adapters
        if why is None:
            self._all_devices = tuple(Device("webgpu", a["index"]) for a in adapters)
            self._devices = None  # decided on first use: see devices()
            self._default = self._all_devices[idx]
            feats = set(adapters[idx]["features"])
        else:
            self._devices = self._all_devices = ()
            self._default = Device("webgpu", 0)
            feats = set()
        self.native_dtypes = frozenset(_native_dtypes(feats))
        # an OpenGL default where a native adapter exists was asked for (NUMR_WEBGPU_ADAPTER)
        if why is None and not any(a["backend"].lower() in _NATIVE for a in adapters):
            _warn_fallback(adapters[idx], self.native_dtypes)
        # per adapter, for __array_namespace_info__().dtypes(device=...)
        self._device_dtypes = {a["index"]: frozenset(_native_dtypes(a)) for a in adapters}
        if why is not None:
            self.native_dtypes = frozenset(dt.ALL_DTYPES)  # unknown: every call raises anyway
        wide_f = dt.float64 in self.native_dtypes
        wide_i = dt.int64 in self.native_dtypes
        self.default_float = dt.float64 if wide_f else dt.float32
        self.default_int = dt.int64 if wide_i else dt.int32
        self.default_index = self.default_int
        self._clients = {}

    def _client(self, device):
        c = self._clients.get(device.index)
        if c is None:
            if self._unavailable is not None:
                raise BackendUnavailable("webgpu", self._unavailable)
            from ..runtime.client import get_client
            c = self._clients[device.index] = get_client(device.index)
        return c

    def device_native_dtypes(self, device):
        """dtypes kernels compute on for ``device`` (its adapter's features)."""
        return self._device_dtypes.get(device.index, self.native_dtypes)

    def device_of(self, data):
        return self._all_devices[data.client.index]

    def default_device(self):
        return self._default

    def devices(self):
        """Every adapter that can hold arrays. Native (Vulkan / Metal / D3D12) adapters are
        listed as they are; an OpenGL adapter only once it has granted a device (its client
        is created here and kept): headless, wgpu's OpenGL adapter often grants none (seen
        on an H100: "Parent device is lost"), and a listed device must work."""
        if self._devices is None:
            listed = []
            for a in self._adapters:
                if a["backend"].lower() not in _NATIVE:
                    try:
                        self._client(self._all_devices[a["index"]])
                    except BackendUnavailable:
                        continue
                listed.append(self._all_devices[a["index"]])
            self._devices = tuple(listed)
        return self._devices

    def check_device(self, device, argname="device"):
        if self._unavailable is not None:
            raise BackendUnavailable("webgpu", self._unavailable)
        if device.kind != "webgpu" or not 0 <= device.index < len(self._all_devices):
            raise InvalidArgument(argname, f"the webgpu namespace has devices "
                                           f"{', '.join(map(str, self._all_devices))}; got "
                                           f"{device}; use x.to_device(...) to move arrays")
        return self._all_devices[device.index]

    def check_stream(self, stream):
        raise InvalidArgument("stream", f"webgpu arrays take no stream, got {stream!r}")

    def check_dtype_supported(self, dtype):
        if dtype not in self.native_dtypes:
            raise BackendLimitation("webgpu", f"arrays of {dtype.name}",
                                    f"the adapter lacks {' and '.join(_NEEDS[dtype])}")
        return dtype

    def extra_capabilities(self):
        return {}
