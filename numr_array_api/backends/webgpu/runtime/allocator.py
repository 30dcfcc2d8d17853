"""Size-class buffer pool.

A ``Block`` owns one pooled wgpu buffer; storages and views hold it, and the buffer returns
to the pool when the last of them dies. If recorded-but-unsubmitted dispatches still use the
buffer it goes to a *deferred* list instead, which only kernel outputs may draw from before
the next submit: a later dispatch in the same stream is ordered after the earlier reader
(wgpu inserts the barriers), but ``queue.write_buffer`` executes at the next submit *before*
that submit's command buffers, so a host write into a recycled buffer could clobber data an
unsubmitted dispatch has yet to read. Host writes therefore get fresh or fully free buffers,
and ``WgpuClient.write`` flushes first if its target is still pending anyway.

Ownership: the pool keeps a strong reference to every buffer it created (``_owned``) until
``empty_cache`` destroys it. A Block only borrows its buffer. This matters when a Block dies
inside a reference cycle: CPython's cyclic GC finalizes *every* object of the unreachable set,
and if the Block held the only reference, the wgpu ``GPUBuffer`` would be in that set too; its
``__del__`` releases the native handle (``_internal = None``) while ``Block.__del__``
resurrects the Python object into the free list. The next bind group naming it passed a NULL
buffer to ``wgpuDeviceCreateBindGroup``, which panics (process abort). With ``_owned`` the
buffer stays reachable from the client, its finalizer never runs while pooled, and ``id()`` of
a pooled buffer is never reused while the pool holds it (the recorder's pending set and the
bind group cache rely on that). ``live()`` is the last line of defence before native calls.
"""

import wgpu

from ...._core.errors import BackendLimitation, OutOfMemory
from .errors import BACKEND, translate

MIN_BLOCK = 256
# INDIRECT: any pooled buffer can hold the workgroup counts of an indirect dispatch
_STORAGE_USAGE = (wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
                  | wgpu.BufferUsage.COPY_DST | wgpu.BufferUsage.INDIRECT)


def live(buf):
    """True if ``buf`` still has its native handle (passing a released one to wgpu-native is
    a NULL handle: some entry points panic, which aborts the process)."""
    return getattr(buf, "_internal", None) is not None


def size_class(nbytes):
    """Power-of-two classes up to 1 MiB, then four classes per octave (<= 25% waste)."""
    if nbytes <= MIN_BLOCK:
        return MIN_BLOCK
    p = 1 << (nbytes - 1).bit_length()
    if p <= 1 << 20:
        return p
    step = p >> 3
    return -(-nbytes // step) * step


class Block:
    """One pooled device buffer; returned to its pool when garbage."""

    __slots__ = ("buffer", "size", "pool", "__weakref__")

    def __init__(self, buffer, size, pool):
        self.buffer = buffer
        self.size = size
        self.pool = pool

    def __del__(self):
        pool = self.pool
        if pool is not None:
            self.pool = None
            try:
                pool._release(self.buffer, self.size)
            except Exception:  # interpreter shutdown: nothing left to return to
                pass


class SegmentedBlock:
    """The memory of an array larger than one buffer: equal segments of ``seg_bytes`` (the
    last may be shorter), each a pooled Block. Byte offsets of views are global; a kernel
    binds a window inside one segment (``WgpuStorage.binding``), so kernels that run over
    big data split their work at segment boundaries (primitives/slabs.py)."""

    __slots__ = ("segments", "seg_bytes", "size", "__weakref__")

    def __init__(self, segments, seg_bytes, size):
        self.segments = segments
        self.seg_bytes = seg_bytes
        self.size = size

    def segment_of(self, lo, hi):
        """(Block, byte base) of the segment holding bytes [lo, hi), or None if they span two."""
        i = lo // self.seg_bytes
        if hi > lo and (hi - 1) // self.seg_bytes != i:
            return None
        return self.segments[i], i * self.seg_bytes


class BufferPool:
    def __init__(self, device, max_buffer_size, on_free_buffers=None, is_pending=None):
        self.device = device
        self.max_buffer_size = max_buffer_size
        self._free = {}      # size class -> [wgpu buffer]
        self._deferred = {}  # same, but still used by unsubmitted work
        self._is_pending = is_pending or (lambda buf: False)
        self._on_free_buffers = on_free_buffers  # drops bind groups that name destroyed buffers
        self._owned = {}     # id -> every buffer created here and not yet destroyed
        self.allocated_bytes = 0
        self.peak_bytes = 0
        self.pooled_bytes = 0
        self.allocations = 0
        self.frees = 0
        self.pool_hits = 0
        self.pool_misses = 0
        self.buffers_created = 0

    def allocate(self, nbytes, host_write=False):
        nbytes = max(int(nbytes), 0)
        size = size_class(nbytes)
        if size > self.max_buffer_size:
            # a request that fits exactly is still allowed; only the class overshoots
            size = -(-nbytes // 16) * 16
            if size > self.max_buffer_size:
                raise BackendLimitation(
                    BACKEND, f"allocating {nbytes} bytes",
                    f"the adapter's max-buffer-size is {self.max_buffer_size} bytes")
        free = self._free.get(size)
        if not free and not host_write:
            free = self._deferred.get(size)
        buf = None
        while free:
            buf = free.pop()
            self.pooled_bytes -= size
            if live(buf):
                break
            self._owned.pop(id(buf), None)  # cannot happen while _owned holds it; never bind it
            buf = None
        if buf is not None:
            self.pool_hits += 1
        else:
            self.pool_misses += 1
            buf = self._create(size)
        self.allocations += 1
        self.allocated_bytes += size
        if self.allocated_bytes > self.peak_bytes:
            self.peak_bytes = self.allocated_bytes
        return Block(buf, size, self)

    def _create(self, size):
        try:
            buf = self.device.create_buffer(size=size, usage=_STORAGE_USAGE)
        except Exception as exc:
            err = translate(exc, "buffer allocation", size)
            if not isinstance(err, OutOfMemory):
                raise err from exc
            self.empty_cache()
            try:
                buf = self.device.create_buffer(size=size, usage=_STORAGE_USAGE)
            except Exception as exc2:
                err = translate(exc2, "buffer allocation (after emptying the cache)", size)
                raise err from exc2
        self.buffers_created += 1
        self._owned[id(buf)] = buf
        return buf

    def _release(self, buf, size):
        self.frees += 1
        self.allocated_bytes -= size
        if not live(buf):  # defensive: a released handle must never be handed out again
            self._owned.pop(id(buf), None)
            return
        self.pooled_bytes += size
        lists = self._deferred if self._is_pending(buf) else self._free
        lists.setdefault(size, []).append(buf)

    def submitted(self):
        """Called after each submit: deferred buffers become free for any use."""
        for size, lst in self._deferred.items():
            if lst:
                self._free.setdefault(size, []).extend(lst)
                lst.clear()

    def empty_cache(self):
        dropped = []
        for lst in self._free.values():
            dropped.extend(lst)
            lst.clear()
        self.pooled_bytes = sum(k * len(v) for k, v in self._deferred.items())
        if dropped and self._on_free_buffers is not None:
            self._on_free_buffers(dropped)
        for buf in dropped:
            self._owned.pop(id(buf), None)
            try:
                buf.destroy()
            except Exception:
                pass
        return len(dropped)

    def stats(self):
        return {
            "allocated_bytes": self.allocated_bytes,
            "peak_bytes": self.peak_bytes,
            "pooled_bytes": self.pooled_bytes,
            "allocations": self.allocations,
            "frees": self.frees,
            "pool_hits": self.pool_hits,
            "pool_misses": self.pool_misses,
        }


class StagingPool:
    """Reusable MAP_READ buffers for read-backs (a fresh one costs ~170 us on lavapipe)."""

    def __init__(self, device):
        self.device = device
        self._free = {}
        self.hits = 0
        self.misses = 0

    def take(self, nbytes):
        size = size_class(nbytes)
        free = self._free.get(size)
        if free:
            self.hits += 1
            return free.pop(), size
        self.misses += 1
        try:
            buf = self.device.create_buffer(
                size=size, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST)
        except Exception as exc:
            raise translate(exc, "staging buffer allocation", size) from exc
        return buf, size

    def give(self, buf, size):
        self._free.setdefault(size, []).append(buf)

    def empty(self):
        for lst in self._free.values():
            for b in lst:
                try:
                    b.destroy()
                except Exception:
                    pass
            lst.clear()
