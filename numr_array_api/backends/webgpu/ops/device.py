"""Adapters as devices, dtype support, and the no-adapter state.

Devices are ``Device("webgpu", i)`` for every adapter index of ``list_adapters()``; the
default is the runtime's selection (``NUMR_WEBGPU_ADAPTER`` / power preference). The
namespace is built from the selected adapter's *features* (no device is created at import);
clients are created on first use. Without wgpu or an adapter the namespace still imports:
``devices()`` is empty and anything touching a device raises BackendUnavailable.
"""

from ...._core import dtypes as dt
from ...._core.device import Device
from ...._core.errors import BackendLimitation, BackendUnavailable, InvalidArgument

# dtypes a kernel can compute on, by the adapter feature they need (float16 is computed in
# f32 and converted in software, so it needs nothing)
_NEEDS = {dt.float64: ("shader-f64", "shader-int64"), dt.complex128: ("shader-f64",
                                                                     "shader-int64"),
          dt.int64: ("shader-int64",), dt.uint64: ("shader-int64",)}


def probe():
    """(default index, adapter descriptions, None) or (None, [], why unavailable)."""
    try:
        from .. import api
        adapters = api.list_adapters()
        from ..runtime.adapters import select_index
        return select_index(), adapters, None
    except Exception as exc:  # missing wgpu, no adapter, NUMR_WEBGPU_ADAPTER matching nothing
        return None, [], f"{type(exc).__name__}: {exc}"


class DeviceMixin:
    def _init_devices(self):
        idx, adapters, why = probe()
        self._unavailable = why
        self._adapters = adapters
        if why is None:
            self._devices = tuple(Device("webgpu", a["index"]) for a in adapters)
            self._default = self._devices[idx]
            feats = set(adapters[idx]["features"])
        else:
            self._devices = ()
            self._default = Device("webgpu", 0)
            feats = set()
        self.native_dtypes = frozenset(d for d in dt.ALL_DTYPES
                                       if all(f in feats for f in _NEEDS.get(d, ())))
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
            _pin_pool_buffers(c.pool)
        return c

    def device_of(self, data):
        return self._devices[data.client.index]

    def default_device(self):
        return self._default

    def devices(self):
        return self._devices

    def check_device(self, device, argname="device"):
        if self._unavailable is not None:
            raise BackendUnavailable("webgpu", self._unavailable)
        if device.kind != "webgpu" or not 0 <= device.index < len(self._devices):
            raise InvalidArgument(argname, f"the webgpu namespace has devices "
                                           f"{', '.join(map(str, self._devices))}; got "
                                           f"{device}; use x.to_device(...) to move arrays")
        return self._devices[device.index]

    def check_stream(self, stream):
        raise InvalidArgument("stream", f"webgpu arrays take no stream, got {stream!r}")

    def check_dtype_supported(self, dtype):
        if dtype not in self.native_dtypes:
            raise BackendLimitation("webgpu", f"arrays of {dtype.name}",
                                    f"the adapter lacks {' and '.join(_NEEDS[dtype])}")
        return dtype

    def extra_capabilities(self):
        return {}


def _pin_pool_buffers(pool):
    """Keep every pooled wgpu buffer strongly reachable (workaround, reported upstream).

    A Block caught in a reference cycle (exception tracebacks make them often) is finalized
    by the cyclic GC together with its wgpu buffer: Block.__del__ returns the buffer to the
    pool, but wgpu-py's GPUBuffer.__del__ has already released the handle, and the next
    allocation that reuses it fails ("WGPUBufferImpl ... not NoneType"). Buffers referenced
    from here are never part of a garbage cycle. Destroyed buffers are pruned as they go.
    """
    if getattr(pool, "_numr_pinned", None) is not None:
        return
    live = pool._numr_pinned = set()
    create = pool._create

    def _create(size):
        buf = create(size)
        if len(live) > 4096:
            live.difference_update([b for b in live if getattr(b, "_internal", 1) is None])
        live.add(buf)
        return buf

    pool._create = _create
    for lists in (pool._free, pool._deferred):
        for lst in lists.values():
            live.update(lst)
