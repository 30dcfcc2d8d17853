"""numr's CUDA runtime features on the cuda namespace (also importable as
``numr_array_api.cuda.runtime``). See docs/cuda.md.

All of them raise BackendUnavailable (saying why) where CuPy, a driver or a device is
missing.
"""

from .._core.array import Array
from .._core.device import Device, parse_device
from .._core.errors import InvalidArgument
from ..backends.cuda_runtime import get as _get
from ..backends.cuda_runtime.graphs import CaptureError, CapturedGraph, capture as _capture
from ..backends.cuda_runtime.kernels import CustomKernel, numr_module
from ..backends.cuda_runtime import kernels as _kernels
from ..backends.cuda_runtime.streams import PendingCopy

__all__ = ["memory_stats", "empty_cache", "set_memory_limit", "synchronize", "capture_graph",
           "CapturedGraph", "CaptureError", "custom_kernel", "CustomKernel", "raw_handle",
           "RawHandle", "preload", "copy_from_device_pipelined", "PendingCopy", "warmup_sobol"]


def _client(device=None):
    rt = _get()
    rt.require()
    if device is None:
        return rt.client(None)
    if isinstance(device, int) and not isinstance(device, bool):
        return rt.client(rt.check_index(device))
    d = parse_device(device)
    if d.kind != "cuda":
        raise InvalidArgument("device", f"expected a cuda device, got {d}")
    return rt.client(rt.check_index(d.index))


def _clients(device):
    if device is not None:
        return [_client(device)]
    rt = _get()
    rt.require()
    return [rt.client(i) for i in range(rt.device_count)]


def memory_stats(device=None):
    """numr's allocator and the pool of ``device`` (default: the current device): live bytes,
    peak, free-list bytes and cap, pool reserved / used bytes and release threshold (read
    back from the driver), graph-owned bytes, out-of-memory retries."""
    return _client(device).allocator.stats()


def empty_cache(device=None):
    """Return numr's free-list blocks to the pool and trim the pool to what live arrays
    use (every device when ``device`` is None)."""
    for c in _clients(device):
        c.allocator.trim()


def set_memory_limit(nbytes, device=None):
    """Cap the bytes numr's live arrays may hold on ``device`` (None: no cap). Past it an
    allocation takes the out-of-memory path (drain, trim, retry, then OutOfMemory)."""
    if nbytes is not None and (not isinstance(nbytes, int) or isinstance(nbytes, bool)
                               or nbytes < 0):
        raise InvalidArgument("nbytes", f"must be a non-negative int or None, got {nbytes!r}")
    _client(device).allocator.limit = nbytes


def synchronize(device=None):
    """Wait for the compute and copy streams of ``device`` (every device when None)."""
    for c in _clients(device):
        c.synchronize()


def capture_graph(fn, /, *args, device=None, warmup=True, **kwargs):
    """Capture ``fn(*args, **kwargs)`` into a CUDA graph on ``device``'s compute stream;
    returns a CapturedGraph (``.replay()``, ``.result``). ``warmup`` runs ``fn`` once
    eagerly first so kernels compile outside the capture. See docs/cuda.md for the rules."""
    if not callable(fn):
        raise TypeError(f"capture_graph: 'fn' must be callable, got {type(fn).__name__}")
    if device is None:
        device = _first_device(args, kwargs)
    return _capture(_client(device), fn, args, kwargs, warmup=warmup)


def _first_device(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, Array) and a._ctx.be.name == "cuda":
            return a.device
    return None


def custom_kernel(cuda_source, name, /, *, options=(), backend="nvrtc", name_expressions=None,
                  jitify=False):
    """Compile ``__global__`` function ``name`` from ``cuda_source`` (NVRTC, through
    cupy.RawKernel / RawModule) into a kernel launched on numr arrays:
    ``k(grid, block, (x, y, numpy.int32(n)))``."""
    if not isinstance(cuda_source, str) or not isinstance(name, str):
        raise TypeError("custom_kernel: 'cuda_source' and 'name' must be strings")
    return CustomKernel(_get(), cuda_source, name, options=options, backend=backend,
                        name_expressions=name_expressions, jitify=jitify)


class RawHandle:
    """Escape hatch for code launching its own work in order with numr's (numr's
    CudaRawHandle): the device index, its compute and copy streams (cupy.cuda.Stream and raw
    ``cudaStream_t`` handles) and the device's memory pool handle."""

    __slots__ = ("device", "device_id", "stream", "stream_ptr", "copy_stream",
                 "copy_stream_ptr", "mempool_handle")

    def __init__(self, client):
        self.device = Device("cuda", client.index)
        self.device_id = client.index
        self.stream = client.compute
        self.stream_ptr = client.compute.ptr
        self.copy_stream = client.copy
        self.copy_stream_ptr = client.copy.ptr
        self.mempool_handle = client.allocator.pool_handle

    def __repr__(self):
        return (f"RawHandle(device={self.device}, stream=0x{self.stream_ptr:x}, "
                f"copy_stream=0x{self.copy_stream_ptr:x})")


def raw_handle(device=None):
    """A ``RawHandle`` of ``device`` (default: the current device): its index, compute and
    copy streams and memory pool, for code that launches its own CUDA work in order with
    numr's."""
    return RawHandle(_client(device))


def warmup_sobol(d, /, *, bits=32, device=None):
    """Put the direction numbers of ``d``-dimensional Sobol points on ``device`` once, so
    ``numr_array_api.ext.random.sobol(..., device=...)`` does no host-to-device copy and can
    be captured by capture_graph (unscrambled points; scrambling draws on the host)."""
    from .._algorithms.qmc import directions
    from .._algorithms._namespace import check_int
    d = check_int(d, "d", low=1, high=directions.MAX_DIM)
    bits = check_int(bits, "bits", low=1, high=directions.MAX_BITS)
    _kernels.warmup_sobol(_client(device), d, bits)


def preload(*, device=None, elementwise=False, dtypes=("float32", "float64")):
    """Compile and load numr's CUDA kernels on ``device`` (every device when None) now rather
    than at first use. ``elementwise=True`` also compiles CuPy's elementwise kernels behind
    the namespace's unary and binary functions for ``dtypes`` (True: every op; or a list of
    names). Returns the number of kernels prepared."""
    import numr_array_api.cuda as ns
    from .._api.elementwise import BINARY, UNARY
    count = 0
    for c in _clients(device):
        numr_module(c)
        count += len(_kernels.SOBOL_KERNELS)
        if not elementwise:
            continue
        names = None if elementwise is True else set(elementwise)
        dev = Device("cuda", c.index)
        for dname in dtypes:
            dtype = getattr(ns, dname)
            x = ns.ones((2,), dtype=dtype, device=dev)
            for table, nargs in ((UNARY, 1), (BINARY, 2)):
                for op, (kinds, _) in table.items():
                    if (names is not None and op not in names) or dtype.kind not in kinds:
                        continue
                    try:
                        getattr(ns, op)(*([x] * nargs))
                    except Exception:
                        continue  # ops with no kernel for this dtype are not preloaded
                    count += 1
        c.synchronize()
    return count


def copy_from_device_pipelined(x, /, *, out=None, wait=True):
    """Copy cuda array ``x`` to host memory on the copy stream, after the compute stream's
    pending work on it, without stalling the compute stream (numr's pipelined
    device-to-host copy). Returns a NumPy array in pinned memory (``wait=True``) or a
    PendingCopy (``.wait()`` / ``.ready()``). ``out``: a C-contiguous NumPy array of the
    right shape and dtype, ideally pinned (cupyx.empty_pinned)."""
    if not isinstance(x, Array) or x._ctx.be.name != "cuda":
        raise TypeError(f"copy_from_device_pipelined: 'x' must be a numr cuda array, got "
                        f"{type(x).__name__}")
    if not isinstance(wait, bool):
        # checked before the copy starts: an error after it would drop a copy in flight
        raise TypeError(f"copy_from_device_pipelined: 'wait' must be a bool, got "
                        f"{type(wait).__name__}")
    data = x._data
    if out is not None:
        import numpy as np
        if not isinstance(out, np.ndarray) or out.shape != data.shape or \
                out.dtype != data.dtype or not out.flags.c_contiguous:
            raise InvalidArgument("out", f"must be a C-contiguous NumPy array of shape "
                                         f"{data.shape} and dtype {data.dtype}")
    pending = _client(data.device.id).copy_from_device_pipelined(data, out=out)
    return pending.wait() if wait else pending
