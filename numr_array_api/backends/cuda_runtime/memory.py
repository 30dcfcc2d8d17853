"""numr's CUDA allocator: a bounded, size-bucketed free list over CUDA's stream-ordered pool.

The pool is the one CuPy's ``MemoryAsyncPool`` wraps (the device's current
``cudaMemPool_t``, ``cudaMallocAsync`` / ``cudaFreeAsync``), driven directly because
``MemoryAsyncPool`` treats ``cudaMemPoolAttrReleaseThreshold`` as an *allocation limit*
(its ``malloc`` refuses to grow the pool past it, and its constructor resets it to
UINT64_MAX on every device), whereas numr uses the attribute for what CUDA means by it: how
much freed memory the pool keeps across synchronisations
(``NUMR_CUDA_POOL_RELEASE_THRESHOLD_MB``, default 512).

Freed blocks go to a free list keyed by bucket size (``NUMR_CUDA_FREE_LIST_CAP_MB``, default
1024, bounds its bytes) and are reused without a driver call. Reuse is safe without a sync
because every numr kernel runs on the compute stream, in order. On out-of-memory the free
list is drained, the pool trimmed to zero and the allocation retried once; then numr's
OutOfMemory names the request.

During graph capture allocations come from a capture arena instead (plain ``cudaMalloc``,
allowed in relaxed capture mode): those addresses are baked into the graph, so they are
kept until both the graph and every array using them are gone.
"""

import os

from ..._core.errors import InvalidArgument, OutOfMemory

__all__ = ["DeviceAllocator", "env_mib", "bucket"]

MiB = 1 << 20
ENV_THRESHOLD = "NUMR_CUDA_POOL_RELEASE_THRESHOLD_MB"
ENV_FREE_LIST = "NUMR_CUDA_FREE_LIST_CAP_MB"


def env_mib(name, default_mib):
    """Bytes from an environment variable given in MiB (decimals allowed)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default_mib * MiB
    try:
        mib = float(raw)
    except ValueError:
        raise InvalidArgument(name, f"must be a number of MiB, got {raw!r}") from None
    if not mib >= 0:
        raise InvalidArgument(name, f"must be >= 0 MiB, got {raw!r}")
    return int(mib * MiB)


def bucket(size):
    """The block size serving a request: 512 B steps up to 1 MiB, then 8 steps per power of
    two (at most 12.5% waste) so freed blocks are reusable by nearby sizes."""
    if size <= 512:
        return 512
    if size <= MiB:
        return (size + 511) & ~511
    step = (1 << ((size - 1).bit_length() - 1)) >> 3
    return (size + step - 1) // step * step


_CUDA_ERROR_MEMORY_ALLOCATION = 2  # cudaErrorMemoryAllocation (not exported by CuPy)


def _is_oom(exc, rt=None):
    if isinstance(exc, MemoryError):
        return True
    return getattr(exc, "status", None) == _CUDA_ERROR_MEMORY_ALLOCATION


class _Block:
    """Owner of one free-list-managed allocation; returns it when the last view dies."""

    __slots__ = ("alloc", "ptr", "size")

    def __init__(self, alloc, ptr, size):
        self.alloc = alloc
        self.ptr = ptr
        self.size = size

    def __del__(self):
        try:
            self.alloc._release(self.ptr, self.size)
        except Exception:  # interpreter shutdown or a destroyed context: nothing to return
            pass


class CaptureArena:
    """Memory handed out while a graph is being captured (see the module docstring)."""

    def __init__(self, alloc):
        self.alloc = alloc
        self.ptrs = []
        self.nbytes = 0

    def malloc(self, size):
        a = self.alloc
        n = bucket(size)
        try:
            ptr = a.rt.malloc(n)
        except Exception as e:
            if not _is_oom(e, a.rt):
                raise
            raise OutOfMemory("cuda", size, f"cuda:{a.device_id}: cudaMalloc inside "
                                            f"capture_graph failed ({e})") from None
        self.ptrs.append(ptr)
        self.nbytes += n
        a.graph_bytes += n
        return a._pointer(ptr, n, self)

    def __del__(self):
        try:
            rt = self.alloc.rt
            for p in self.ptrs:
                rt.free(p)
            self.alloc.graph_bytes -= self.nbytes
        except Exception:
            pass


class DeviceAllocator:
    """The allocator of one device (CuPy calls ``malloc`` with that device current)."""

    def __init__(self, cupy, device_id, stream):
        from cupy.cuda import memory as cmem
        self.cupy = cupy
        self.rt = rt = cupy.cuda.runtime
        self.device_id = device_id
        self.stream = stream
        self.stream_ptr = stream.ptr
        self._MemoryPointer = cmem.MemoryPointer
        self._UnownedMemory = cmem.UnownedMemory
        self.pool_handle = rt.deviceGetMemPool(device_id)
        self.release_threshold = env_mib(ENV_THRESHOLD, 512)
        rt.memPoolSetAttribute(self.pool_handle, rt.cudaMemPoolAttrReleaseThreshold,
                               self.release_threshold)
        self.free_list_cap = env_mib(ENV_FREE_LIST, 1024)
        self.limit = None  # numr-side cap on bytes held by live arrays (set_memory_limit)
        self.free = {}
        self.free_bytes = 0
        self.active_bytes = 0
        self.peak_bytes = 0
        self.allocations = 0
        self.reused = 0
        self.oom_retries = 0
        self.graph_bytes = 0
        self.capture = None
        # the driver-level allocation; a separate attribute so tests can make it fail
        self.raw_malloc = self._malloc_async

    def _pointer(self, ptr, size, owner):
        return self._MemoryPointer(self._UnownedMemory(ptr, size, owner, self.device_id), 0)

    def _malloc_async(self, nbytes):
        if self.limit is not None and self.active_bytes + nbytes > self.limit:
            raise MemoryError(f"numr memory limit of {self.limit} bytes reached")
        return self.rt.mallocAsync(nbytes, self.stream_ptr)

    def malloc(self, size):
        arena = self.capture
        if arena is not None:
            return arena.malloc(size)
        n = bucket(size)
        lst = self.free.get(n)
        if lst:
            ptr = lst.pop()
            self.free_bytes -= n
            self.reused += 1
        else:
            ptr = self._fresh(size, n)
        self.allocations += 1
        active = self.active_bytes + n
        self.active_bytes = active
        if active > self.peak_bytes:
            self.peak_bytes = active
        return self._pointer(ptr, n, _Block(self, ptr, n))

    def _fresh(self, size, n):
        try:
            return self.raw_malloc(n)
        except Exception as e:
            if not _is_oom(e, self.rt):
                raise
            first = e
        self.oom_retries += 1
        self.trim()
        try:
            return self.raw_malloc(n)
        except Exception as e:
            if not _is_oom(e, self.rt):
                raise
            try:
                free, total = self.rt.memGetInfo()
                where = f"; the device has {free} of {total} bytes free"
            except Exception:
                where = ""
            raise OutOfMemory("cuda", size, f"cuda:{self.device_id}, after draining numr's "
                                            f"free list and trimming the pool and retrying "
                                            f"once ({first}){where}") from None

    def _release(self, ptr, n):
        self.active_bytes -= n
        if self.free_bytes + n <= self.free_list_cap:
            self.free.setdefault(n, []).append(ptr)
            self.free_bytes += n
        else:
            self.rt.freeAsync(ptr, self.stream_ptr)

    def drain(self):
        """Return every free-list block to the pool (stream-ordered)."""
        free, self.free = self.free, {}
        self.free_bytes = 0
        for lst in free.values():
            for p in lst:
                self.rt.freeAsync(p, self.stream_ptr)

    def trim(self):
        """Drain the free list, wait for the frees and give the pool's unused memory back."""
        self.drain()
        self.stream.synchronize()
        self.rt.memPoolTrimTo(self.pool_handle, 0)

    def stats(self):
        rt = self.rt
        try:
            reserved = rt.memPoolGetAttribute(self.pool_handle, rt.cudaMemPoolAttrReservedMemCurrent)
            used = rt.memPoolGetAttribute(self.pool_handle, rt.cudaMemPoolAttrUsedMemCurrent)
            threshold = rt.memPoolGetAttribute(self.pool_handle,
                                               rt.cudaMemPoolAttrReleaseThreshold)
        except Exception:
            reserved = used = threshold = None
        return {
            "device": f"cuda:{self.device_id}",
            "active_bytes": self.active_bytes,
            "peak_active_bytes": self.peak_bytes,
            "allocations": self.allocations,
            "free_list_reuses": self.reused,
            "free_list_bytes": self.free_bytes,
            "free_list_blocks": sum(len(v) for v in self.free.values()),
            "free_list_cap_bytes": self.free_list_cap,
            "graph_bytes": self.graph_bytes,
            "oom_retries": self.oom_retries,
            "memory_limit_bytes": self.limit,
            "pool_reserved_bytes": reserved,
            "pool_used_bytes": used,
            "pool_release_threshold_bytes": threshold,
        }
