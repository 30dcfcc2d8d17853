"""numr's CUDA allocator: a bounded, size-bucketed free list over CUDA's stream-ordered pool.

The pool is the one CuPy's ``MemoryAsyncPool`` wraps (the device's current
``cudaMemPool_t``, ``cudaMallocAsync`` / ``cudaFreeAsync``), driven directly because
``MemoryAsyncPool`` treats ``cudaMemPoolAttrReleaseThreshold`` as an *allocation limit*
(its ``malloc`` refuses to grow the pool past it, and its constructor resets it to
UINT64_MAX on every device), whereas numr uses the attribute for what CUDA means by it: how
much freed memory the pool keeps across synchronisations
(``NUMR_CUDA_POOL_RELEASE_THRESHOLD_MB``, default 512).

Threads: CuPy may free a block (``NumrMemory.__del__``) in any thread while another
allocates; the free list's operations are single list/dict calls (atomic under the GIL), a
lost race is an empty-list ``pop`` (then a fresh block), and ``free_bytes`` is re-derived by
``stats``.

Freed blocks go to a free list keyed by bucket size (``NUMR_CUDA_FREE_LIST_CAP_MB``, default
1024, bounds its bytes) and are reused without a driver call. Reuse is safe without a sync
because every numr kernel runs on the compute stream, in order. On out-of-memory the free
list is drained, the pool trimmed to zero and the allocation retried once; then numr's
OutOfMemory names the request.

During graph capture allocations come from a capture arena instead (plain ``cudaMalloc``,
allowed in relaxed capture mode): those addresses are baked into the graph, so they are
kept until both the graph and every array using them are gone.
"""

from ..._core import environment
from ..._core.errors import InvalidArgument, OutOfMemory

__all__ = ["DeviceAllocator", "env_mib", "bucket"]

MiB = 1 << 20
ENV_THRESHOLD = "NUMR_CUDA_POOL_RELEASE_THRESHOLD_MB"
ENV_FREE_LIST = "NUMR_CUDA_FREE_LIST_CAP_MB"


def env_mib(name, default_mib):
    """Bytes from an environment variable given in MiB (decimals allowed)."""
    raw = environment.get(name)
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
        self.oom_retries = 0
        self.graph_bytes = 0
        self.capture = None
        # the driver-level allocation; a separate attribute so tests can make it fail
        self.raw_malloc = self._malloc_async
        self._Memory = self._memory_class(cmem.BaseMemory)
        self.malloc = self._make_malloc()

    def _memory_class(self, BaseMemory):
        """A BaseMemory subclass whose deallocation hands the block back to this allocator.

        One object per allocation (CuPy's MemoryPointer holds it): the cheapest way to run
        Python code when CuPy drops an allocation. The hot paths keep no counters: live
        bytes are the pool's used bytes (from the driver) minus the free list's."""
        alloc = self
        free = self.free
        free_async = self.rt.freeAsync
        stream_ptr = self.stream_ptr
        cap = self.free_list_cap

        class NumrMemory(BaseMemory):
            __slots__ = ()

            def __del__(m):
                try:
                    n = m.size
                    fb = alloc.free_bytes + n
                    if fb <= cap:
                        lst = free.get(n)
                        if lst is None:  # (setdefault: another thread may add it meanwhile)
                            lst = free.setdefault(n, [])
                        lst.append(m.ptr)
                        alloc.free_bytes = fb
                    else:
                        free_async(m.ptr, stream_ptr)
                except Exception:  # interpreter shutdown or a destroyed context
                    pass

        return NumrMemory

    def _make_malloc(self):
        alloc = self
        free = self.free
        Mem = self._Memory
        MP = self._MemoryPointer
        dev = self.device_id
        fresh = self._fresh

        def malloc(size):
            """CuPy's allocator entry for this device: a MemoryPointer of >= size bytes."""
            if alloc.capture is not None:
                return alloc.capture.malloc(size)
            n = 512 if size <= 512 else (size + 511) & ~511 if size <= MiB else bucket(size)
            lst = free.get(n)
            try:
                ptr = lst.pop()  # another thread may have taken the last block meanwhile
            except (AttributeError, IndexError):
                ptr = fresh(size, n)
            else:
                alloc.free_bytes -= n
            m = Mem()
            m.ptr = ptr
            m.size = n
            m.device_id = dev
            return MP(m, 0)

        return malloc

    def _pointer(self, ptr, size, owner):
        return self._MemoryPointer(self._UnownedMemory(ptr, size, owner, self.device_id), 0)

    def _pool_used(self):
        rt = self.rt
        return rt.memPoolGetAttribute(self.pool_handle, rt.cudaMemPoolAttrUsedMemCurrent)

    def _malloc_async(self, nbytes):
        # the limit counts what numr holds in the pool: live arrays and the free list
        if self.limit is not None and self._pool_used() + nbytes > self.limit:
            raise MemoryError(f"numr memory limit of {self.limit} bytes reached")
        return self.rt.mallocAsync(nbytes, self.stream_ptr)

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

    def drain(self):
        """Return every free-list block to the pool (stream-ordered)."""
        free = self.free
        self.free_bytes = 0
        while free:  # emptied in place: the memory class and malloc hold this dict
            _, lst = free.popitem()
            for p in lst:
                self.rt.freeAsync(p, self.stream_ptr)

    def trim(self):
        """Drain the free list, wait for the frees and give the pool's unused memory back."""
        self.drain()
        self.stream.synchronize()
        self.rt.memPoolTrimTo(self.pool_handle, 0)

    def stats(self):
        # re-derived: threads freeing and allocating at once can skew the running count
        self.free_bytes = sum(k * len(v) for k, v in list(self.free.items()))
        rt = self.rt
        pool = self.pool_handle
        get = rt.memPoolGetAttribute
        used = get(pool, rt.cudaMemPoolAttrUsedMemCurrent)
        return {
            "device": f"cuda:{self.device_id}",
            # blocks held by live arrays (numr's and CuPy's in this process)
            "active_bytes": used - self.free_bytes,
            "free_list_bytes": self.free_bytes,
            "free_list_blocks": sum(len(v) for v in self.free.values()),
            "free_list_cap_bytes": self.free_list_cap,
            "graph_bytes": self.graph_bytes,
            "oom_retries": self.oom_retries,
            "memory_limit_bytes": self.limit,
            "pool_used_bytes": used,
            "pool_used_peak_bytes": get(pool, rt.cudaMemPoolAttrUsedMemHigh),
            "pool_reserved_bytes": get(pool, rt.cudaMemPoolAttrReservedMemCurrent),
            "pool_release_threshold_bytes": get(pool, rt.cudaMemPoolAttrReleaseThreshold),
        }
