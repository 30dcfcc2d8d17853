"""The runtime's internal API (re-exported lazily by the package ``__init__``).

Every function taking ``client=None`` uses ``get_client()`` (the default adapter, chosen by
``NUMR_WEBGPU_ADAPTER`` / ``NUMR_WEBGPU_POWER_PREFERENCE``). Storages carry their client, so
functions taking a storage need no client. See docs/webgpu-runtime.md for the design.

Kernel families record dispatches through the kernel layer: ``client.kernel(spec)`` for a
``codegen.spec.KernelSpec`` and ``kernel.launch(groups, name=storage, word=value, ...)``
(docs/architecture.md, "The kernel layer").

The functions that touch the runtime hold its lock (runtime/concurrency.py), as the
client's own entry points do: any thread may call them.
"""

from .kernels.cast import cast as _cast
from .kernels.copy import copy as _copy
from .kernels.fill import full as _full
from .runtime.adapters import list_adapters
from .runtime.adapters import native_dtypes as _native_dtypes
from .runtime.client import WgpuClient, get_client
from .runtime.concurrency import locked
from .runtime.custom import custom_kernel as _custom_kernel
from .runtime.errors import WgslCompileError
from .runtime.graph import CapturedGraph
from .storage import WgpuStorage
from .transfer import from_numpy as _from_numpy
from .transfer import to_numpy as _to_numpy

__all__ = [
    "list_adapters", "get_client", "WgpuClient", "WgpuStorage", "CapturedGraph",
    "WgslCompileError", "capabilities", "native_dtypes", "from_numpy", "to_numpy", "empty", "full", "copy",
    "contiguous", "astype", "synchronize", "memory_stats", "empty_cache", "set_memory_limit",
    "runtime_stats", "capture_graph", "custom_kernel", "raw_handle",
]

to_numpy = locked(_to_numpy)


def _c(client):
    return get_client() if client is None else client


def capabilities(client=None):
    return _c(client).capabilities()


def native_dtypes(client=None):
    """numr dtypes kernels compute on for ``client`` (or an adapter index / description)."""
    return _native_dtypes(_c(client))


@locked
def from_numpy(array, client=None):
    return _from_numpy(array, _c(client))


@locked
def empty(shape, dtype, client=None):
    """Uninitialised contiguous storage (pooled memory may hold stale data)."""
    return WgpuStorage.empty(shape, dtype, _c(client))


@locked
def full(shape, value, dtype, client=None):
    return _full(shape, value, dtype, _c(client))


@locked
def copy(storage):
    return _copy(storage)


@locked
def contiguous(storage):
    return storage.contiguous()


@locked
def astype(storage, dtype):
    return _cast(storage, dtype)


def synchronize(client=None):
    _c(client).synchronize()


def memory_stats(client=None):
    return _c(client).memory_stats()


def empty_cache(client=None):
    _c(client).empty_cache()


def set_memory_limit(nbytes, client=None):
    """numr's cap on the bytes ``client``'s buffers hold (None: none; see client.py)."""
    _c(client).memory_limit = nbytes


def runtime_stats(client=None):
    """Counters: memory, pipelines (hits/misses/compile time), bind groups, submission."""
    return _c(client).stats()


@locked
def capture_graph(fn, *example_inputs, client=None):
    """Run ``fn(*inputs)`` once on copies of ``example_inputs`` and record its dispatches.

    Returns a CapturedGraph; ``graph(*new_inputs)`` replays with new input contents (same
    shapes and dtypes) and returns the graph's output storages (overwritten by each replay).
    """
    if client is None:
        from .storage import WgpuStorage as _S
        client = next((x.client for x in example_inputs if isinstance(x, _S)), None)
    return CapturedGraph(_c(client), fn, example_inputs)


@locked
def custom_kernel(wgsl_source, entry_point, inputs, outputs, workgroups, params=None,
                  overrides=None, client=None):
    """Run user WGSL; see runtime/custom.py for the binding convention."""
    if client is None:
        client = next((s.client for s in list(outputs) + list(inputs)), None)
    return _custom_kernel(_c(client), wgsl_source, entry_point, inputs, outputs, workgroups,
                          params, overrides)


def raw_handle(client=None):
    c = _c(client)
    return c.device, c.queue
