"""WebGPU backend: runtime (adapters, client, pool, batching, graphs), storage, kernels.

api.py          the runtime's internal API, re-exported lazily here (listed below)
backend.py      WebGPUBackend: the mixins of ops/ composed into the backend object behind
                ``numr_array_api.webgpu``, its calls under the runtime lock (``create()``)
storage.py      WgpuStorage: the webgpu payload of an Array (pooled block, offset, shape,
                strides, dtype, client); views share the block
transfer.py     host transfers as plain byte copies: ``from_numpy``, ``to_numpy``
ext_kernels.py  kernels registered in numr_array_api._algorithms.dispatch: the GEMM with
                fused epilogues (``gemm_epilogue``, ``gemm_epilogue_bwd``) and ``sobol``
runtime/        adapters, the per-adapter client, buffer pool, pipeline cache, batched
                submission, graphs, recipes, profiling
codegen/        WGSL code generation: kernel specs, caps, layouts, templates, dtype storage
                and conversions, workgroup memory
kernels/        the kernels the runtime itself needs: the N-ary template, copy, cast, fill
primitives/     building blocks shared by kernel families: slabs, scan, compaction,
                gather / scatter, sort keys, radix and row sorts
ops/            the namespace's backend, one mixin module or subpackage per family
fusion/         lazy elementwise fusion: pending expressions compiled into one kernel
scipy/          numr's kernels for SciPy's special, ndimage and signal functions (the
                webgpu side of numr_array_api.scipy)
wgsl/           the WGSL math library the kernels call (pure Python, no wgpu)

The internal API the ``numr_array_api.webgpu`` front-end calls lives in ``api.py`` and is
re-exported here lazily, so importing a subpackage (e.g. the pure-Python ``wgsl`` math
library) never requires wgpu:

    list_adapters() -> [dict]                 every adapter: index, name, backend, type, ...
    get_client(index=None) -> WgpuClient      one per adapter per process
    capabilities(client=None) -> dict         features granted, limits, native dtypes
    native_dtypes(client=None) -> (DType,...) dtypes kernels compute on (client, adapter
                                              index or description: no device needed)
    from_numpy(ndarray, client=None) -> WgpuStorage
    to_numpy(storage) -> ndarray              flushes pending work; one submit, one map
    empty(shape, dtype, client=None) / full(shape, value, dtype, client=None)
    copy(storage) / contiguous(storage) / astype(storage, dtype)
    synchronize(client=None)                  submit everything and wait for the device
    memory_stats(client=None) / empty_cache(client=None) / runtime_stats(client=None)
    set_memory_limit(nbytes, client=None)     numr's cap on the bytes the client holds
    capture_graph(fn, *example_inputs, client=None) -> CapturedGraph (call it to replay)
    custom_kernel(wgsl_source, entry_point, inputs, outputs, workgroups, params=None,
                  overrides=None, client=None) -> outputs
    raw_handle(client=None) -> (wgpu.GPUDevice, wgpu.GPUQueue)
    WgpuStorage, WgpuClient, CapturedGraph, WgslCompileError

A missing wgpu package surfaces as ``BackendUnavailable`` on first use.
"""

__all__ = [
    "list_adapters", "get_client", "WgpuClient", "WgpuStorage", "CapturedGraph",
    "WgslCompileError", "capabilities", "native_dtypes", "from_numpy", "to_numpy", "empty",
    "full", "copy", "contiguous", "astype", "synchronize", "memory_stats", "empty_cache",
    "set_memory_limit", "runtime_stats",
    "capture_graph", "custom_kernel", "raw_handle",
]


def __getattr__(name):
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        from . import api
    except ImportError as exc:
        from ..._core.errors import BackendUnavailable
        raise BackendUnavailable("webgpu", f"cannot import the WebGPU runtime: {exc}") from exc
    value = getattr(api, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
