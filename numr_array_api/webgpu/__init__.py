"""numr's webgpu namespace: the complete array API (2025.12) on WebGPU buffers (wgpu-py).

Devices are the WebGPU adapters (``webgpu:0``, ...). Elementwise functions and creation
run as WGSL kernels; functions without a GPU kernel yet run on the host and warn once
(HostFallbackWarning; docs/webgpu.md lists them). Runtime extras: synchronize,
memory_stats, empty_cache, capture_graph, custom_kernel, raw_handle, capabilities.
"""

from .._core.namespace import populate as _populate
from ..backends.webgpu.backend import WebGPUBackend as _WebGPUBackend
from ..backends.webgpu.ops.host_fallback import HostFallbackWarning

_populate(globals(), _WebGPUBackend())


def _runtime():
    from ..backends.webgpu import api
    return api


def _client(device):
    return _backend._client(_ctx.resolve_device(device))


def synchronize(device=None):
    """Submit all recorded work and wait for the adapter to finish it."""
    _client(device).synchronize()


def memory_stats(device=None):
    return _client(device).memory_stats()


def empty_cache(device=None):
    _client(device).empty_cache()


def capabilities(device=None):
    """The adapter's features, limits and natively supported dtypes."""
    return _client(device).capabilities()


def raw_handle(device=None):
    """(wgpu.GPUDevice, wgpu.GPUQueue) of the adapter, for interop with other wgpu code."""
    return _runtime().raw_handle(_client(device))


def capture_graph(fn, *example_inputs, device=None):
    """Record ``fn``'s dispatches once; the returned graph replays them (see the runtime)."""
    return _runtime().capture_graph(fn, *example_inputs, client=_client(device))


def custom_kernel(wgsl_source, entry_point, inputs, outputs, workgroups, params=None,
                  overrides=None, device=None):
    """Run user WGSL on storages (see backends/webgpu/runtime/custom.py)."""
    return _runtime().custom_kernel(wgsl_source, entry_point, inputs, outputs, workgroups,
                                    params, overrides, client=_client(device))

from ..backends.webgpu.ext_kernels import register as _reg_ext; _reg_ext(__name__); del _reg_ext  # noqa: E402,E702
