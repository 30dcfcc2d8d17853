"""numr's webgpu namespace: the complete array API (2025.12) on WebGPU buffers (wgpu-py).

Devices are the WebGPU adapters (``webgpu:0``, ...). Every function runs as WGSL kernels
on the adapter; the few whose output size or value depends on the data (``x[mask]``,
``nonzero``, the ``unique_*`` family, ...) read a count or a value back to the host first
and warn HostReadWarning (docs/webgpu.md lists them). Runtime extras: synchronize,
memory_stats, empty_cache, set_memory_limit, capture_graph, custom_kernel, raw_handle,
capabilities, set_fusion / get_fusion / fusion / fusion_stats (lazy elementwise fusion).

Importing loads neither wgpu nor the backend and probes no adapter: the namespace is built
on first use (any function, ``_ctx``, ``dir()``), under a lock. The dtypes and constants
are there from import on. Without wgpu or an adapter, ``__array_namespace_info__()
.devices()`` is empty and creating an array raises BackendUnavailable saying why.
"""

import builtins as _builtins

from .._core import errors as _errors
from .._core.boundary import wrap_function as _wrap_function
from .._core.namespace import populate_lazily as _populate_lazily


def _create_backend():
    from ..backends.webgpu.backend import create
    return create()


def _finish(ctx):
    from ..backends.webgpu.ext_kernels import register
    from ..backends.webgpu.ops.host_fallback import HostFallbackWarning, HostReadWarning
    from ..backends.webgpu.runtime import caches
    globals().update(HostFallbackWarning=HostFallbackWarning, HostReadWarning=HostReadWarning)
    be = ctx.be

    def clear_namespace_caches():
        # the backend's cached scalar operands and item()'s recent read-backs hold buffers
        be._scalar_cache.clear()
        be._mirrors.clear()

    caches.register("webgpu namespace scalars and item() read-backs", clear_namespace_caches)
    register(__name__)


_ensure = _populate_lazily(globals(), _create_backend, _finish)


def _runtime():
    from ..backends.webgpu import api
    return api


def _client(device):
    ctx = _ensure()
    return ctx.be._client(ctx.resolve_device(device))


def _flush_fusion():
    """Compute pending fused expressions (before a wait, a replay, or user WGSL that may
    write arrays they read)."""
    from ..backends.webgpu.fusion import graph
    graph.flush_all()


def synchronize(device=None):
    """Submit all recorded work (pending fused expressions included) and wait for the
    adapter to finish it."""
    _flush_fusion()
    _client(device).synchronize()


def set_fusion(enabled=True, **limits):
    """Turn lazy elementwise fusion on (True) or off (False, the default), process-wide:
    with it on, chains of elementwise operations run as one generated kernel when a result
    is needed, bit-identical to the eager path. Limits (keywords): max_nodes, max_inputs,
    max_scalar_words, max_library_ops, max_pending, max_held_bytes. Initially
    NUMR_WEBGPU_FUSION (1: on).
    See docs/webgpu-kernels.md, "Lazy elementwise fusion"."""
    from ..backends.webgpu import fusion as _f
    _f.set_fusion(enabled, **limits)


def get_fusion():
    """The fusion settings (``enabled`` and the limits) as a dict."""
    from ..backends.webgpu import fusion as _f
    return _f.get_fusion()


def fusion(enabled=True, **limits):
    """Context manager: ``with xp.fusion(): ...`` runs the block with fusion on (off with
    ``fusion(False)``), restoring the previous settings after."""
    from ..backends.webgpu import fusion as _f
    return _f.fusion(enabled, **limits)


def fusion_stats(reset=False):
    """Fusion counters: kernels (fused kernels run), nodes (elementwise calls they
    covered), deferred, dropped (collected unread), pending, held_bytes."""
    from ..backends.webgpu import fusion as _f
    return _f.fusion_stats(reset)


def memory_stats(device=None):
    """The allocator pool of ``device`` (default: the default adapter) as a dict: allocated
    (live arrays and numr's caches), peak, pooled (free) and reserved (both) bytes,
    allocation / free counts, pool hits and misses, the memory limit and the pool's cap.
    See docs/webgpu-runtime.md, "Pooling"."""
    return _client(device).memory_stats()


def empty_cache(device=None):
    """Release numr's caches of ``device`` (default: the default adapter) that hold buffers
    (plans, tables, recipes), then the pooled (free) and staging buffers, back to the
    driver; live arrays are untouched. Compiled kernels stay."""
    _client(device).empty_cache()


def set_memory_limit(nbytes, device=None):
    """Cap the bytes numr's buffers may hold on ``device`` (None: no cap beyond the
    adapter's capacity, which is known for CPU adapters only: the host's memory). An
    allocation past it first releases the pool's free buffers and numr's caches, then
    raises OutOfMemory (a MemoryError) naming the limit. Initially NUMR_WEBGPU_MEMORY_BYTES,
    else the adapter's capacity."""
    b = _builtins  # (``int`` and ``bool`` are dtypes here)
    if nbytes is not None and (not isinstance(nbytes, b.int) or isinstance(nbytes, b.bool)
                               or nbytes < 0):
        raise _errors.InvalidArgument("nbytes", f"must be a non-negative int or None, got "
                                      f"{nbytes!r}")
    _client(device).memory_limit = nbytes


def capabilities(device=None):
    """The adapter's features, limits and natively supported dtypes."""
    return _client(device).capabilities()


def raw_handle(device=None):
    """(wgpu.GPUDevice, wgpu.GPUQueue) of the adapter, for interop with other wgpu code."""
    return _runtime().raw_handle(_client(device))


def capture_graph(fn, *example_inputs, device=None):
    """Record the dispatches of ``fn`` once; calling the returned graph replays them.

    ``fn`` takes webgpu arrays (shaped like ``example_inputs``) and returns an array or a
    tuple of arrays. A replay copies its arguments (webgpu arrays or NumPy arrays of the
    captured shapes and dtypes) into the graph's inputs and re-issues the recorded
    dispatches with no Python-level kernel work. Shapes, dtypes, Python control flow and
    scalars baked into the kernels are fixed at capture; each replay overwrites the same
    output buffers (copy a result that must outlive the next replay). See
    docs/webgpu-runtime.md.
    """
    ctx = _ensure()
    A = ctx.ArrayT
    if device is None:
        device = next((ctx.be.device_of(x._data) for x in example_inputs
                       if x.__class__ is A), None)
    _flush_fusion()

    def on_storages(*storages):
        from ..backends.webgpu import fusion as _f
        with _f.fusion(False):  # the recorded dispatches must run inside fn
            out = fn(*(ctx.wrap(s) for s in storages))
        if isinstance(out, (tuple, list)):
            return tuple(o._data for o in out)
        return out._data

    graph = _runtime().capture_graph(on_storages, *(x._data if x.__class__ is A else x
                                                    for x in example_inputs),
                                     client=_client(device))
    return ArrayGraph(graph)


class ArrayGraph:
    """A captured graph of webgpu array operations (see capture_graph)."""

    def __init__(self, graph):
        self.graph = graph

    @property
    def num_dispatches(self):
        return self.graph.num_dispatches

    def __call__(self, *inputs):
        ctx = _ensure()
        A = ctx.ArrayT
        _flush_fusion()  # a replay rewrites buffers pending expressions may read
        out = self.graph.replay(*(x._data if x.__class__ is A else x for x in inputs))
        if isinstance(out, tuple):
            return tuple(ctx.wrap(o) for o in out)
        return ctx.wrap(out)


def custom_kernel(wgsl_source, entry_point, inputs, outputs, workgroups, params=None,
                  overrides=None, device=None):
    """Run user WGSL on storages (see backends/webgpu/runtime/custom.py)."""
    storage = _ensure().be.payload_type
    for argname, seq in (("inputs", inputs), ("outputs", outputs)):
        if not isinstance(seq, (list, tuple)) or not _builtins.all(  # (``all`` is xp.all)
                isinstance(s, storage) for s in seq):
            raise _errors.InvalidType(f"custom_kernel: '{argname}' must be a list of webgpu "
                                      f"storages (x._data), got {seq!r}")
    for argname, v in (("wgsl_source", wgsl_source), ("entry_point", entry_point)):
        if not isinstance(v, str):
            raise _errors.InvalidType(f"custom_kernel: '{argname}' must be a str, got "
                                      f"{type(v).__name__}")
    _flush_fusion()  # the outputs may be buffers pending expressions read
    return _runtime().custom_kernel(wgsl_source, entry_point, inputs, outputs, workgroups,
                                    params, overrides, client=_client(device))

# the runtime extras behind the same boundary as the standard functions (numr errors only)
for _name in ("synchronize", "memory_stats", "empty_cache", "set_memory_limit", "capabilities",
              "raw_handle", "capture_graph", "custom_kernel", "set_fusion", "get_fusion",
              "fusion", "fusion_stats"):
    globals()[_name] = _wrap_function(None, _name, globals()[_name], False, "webgpu")
del _name
