"""numr's cuda namespace: the complete array API (2025.12) on NVIDIA GPUs through CuPy,
on numr's CUDA runtime (compute + copy stream per device, bounded free-list allocator over
the stream-ordered pool, CUDA graph capture, custom kernels). See docs/cuda.md.

Importing never fails and imports no CuPy: the namespace is built on first use (any
function, ``_ctx``, ``dir()``), under a lock; the dtypes and constants are there from
import on. Without CuPy, a driver or a device, ``__array_namespace_info__().devices()`` is
empty and creating an array raises BackendUnavailable saying why.
"""

from .._core.namespace import populate_lazily as _populate_lazily


def _create_backend():
    from ..backends.ndlike.cuda import CUDABackend
    return CUDABackend()


_ensure = _populate_lazily(globals(), _create_backend)

# the submodule first: ``from . import runtime`` alone would look for the attribute, which
# builds the namespace
from .runtime import (capture_graph, copy_from_device_pipelined, custom_kernel,  # noqa: E402
                      empty_cache, memory_stats, preload, raw_handle, set_memory_limit,
                      synchronize, warmup_sobol)
from . import runtime  # noqa: E402
from .._core.boundary import wrap_function as _wrap_function  # noqa: E402

# the runtime extras behind the same boundary as the standard functions (numr errors only)
for _name in ("capture_graph", "copy_from_device_pipelined", "custom_kernel", "empty_cache",
              "memory_stats", "preload", "raw_handle", "set_memory_limit", "synchronize",
              "warmup_sobol"):
    globals()[_name] = _wrap_function(None, _name, globals()[_name], False, "cuda")
    setattr(runtime, _name, globals()[_name])  # their __module__: one object in both places
del _name


def _register_ext():
    from .._algorithms import dispatch as _dispatch
    from ..backends.cuda_runtime import kernels as _k

    def sobol(xp, n, skip, v, shift, *, bits, dtype, device):
        ctx = xp._ctx
        dev = ctx.resolve_device(device)
        client = ctx.be.rt.client(dev.index)
        return ctx.wrap(_k.sobol(client, n, skip, v, shift, bits=bits, out_dtype=dtype.np))

    _dispatch.register("sobol", __name__, sobol)

    # GEMM epilogue: cuBLASLt fused epilogues or cuBLAS + one fused elementwise kernel
    # (backends/cuda_runtime/gemm.py). Registering costs no CuPy import: the kernels are
    # built on first use. The plain CuPy namespaces get the same kernels (CuPy arrays in
    # and out, on CuPy's current stream) once this module has been imported.
    from ..backends.cuda_runtime import gemm as _gemm

    fwd, bwd = _gemm.numr_impls()
    _dispatch.register("gemm_epilogue", __name__, fwd)
    _dispatch.register("gemm_epilogue_bwd", __name__, bwd)
    cfwd, cbwd = _gemm.cupy_impls()
    for name in ("cupy", "array_api_compat.cupy"):
        _dispatch.register("gemm_epilogue", name, cfwd)
        _dispatch.register("gemm_epilogue_bwd", name, cbwd)


_register_ext()
del _register_ext
