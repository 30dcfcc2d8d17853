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

Threads and interrupts (concurrency.py). ``Block.__del__`` runs wherever the last reference
goes: in any thread, in the cyclic GC, in the middle of another op (even inside this pool's
own methods). It therefore never touches the pool's lists or takes a lock: it appends
``(buffer, size)`` to ``_released``, a deque (one atomic append), which the pool drains
under the runtime lock when it next allocates, reports or empties. Byte counts are derived
from the lists when reported, never kept as running sums an interrupt could skew.

A KeyboardInterrupt can land between taking a buffer from one list and putting it in the
next, or at the entry of a ``__del__`` (which then never runs): that buffer is then in no
list, and ``memory_stats`` counts it as allocated. ``_reclaim`` (run by ``empty_cache`` and
before an out-of-memory retry: it scans the GC's objects once, so not per op) pools every
owned buffer that is in no list and held by no Block. A Block can be mid-``__del__`` in
another thread during that scan (no longer visible to the GC, its entry not yet queued):
its buffer is reclaimed and noted in ``_reclaimed``, and the late entry is skipped, so no
buffer is ever pooled twice or while in use.

Two caps. ``limit`` (``numr_array_api.webgpu.set_memory_limit``, None: none) bounds the
bytes of every buffer the pool holds, lent or free: before a new buffer would pass it,
``make_room`` releases the free buffers, then what the registered caches hold (caches.py),
then raises OutOfMemory naming the limit (the bytes it compares are a running sum, summed
afresh before it raises: an interrupt's skew can only release early, never raise wrongly).
``pool_limit`` bounds the free bytes kept for reuse: past it, the free buffers freed
longest ago are destroyed (down to three quarters of it, so that a loop freeing one buffer
per op does not trim at every op). The free bytes are summed from the lists each time an
eighth of the cap has been freed (no running sum on the allocation path), so the pool may
pass its cap by that much in between. Neither cap waits for the queue: wgpu destroys a
buffer that submitted work still uses once that work is done, and buffers that unsubmitted
work uses are deferred, never destroyed.
"""

import atexit
import collections
import gc

import wgpu

from ...._core.errors import BackendLimitation, OutOfMemory
from .concurrency import deferred_interrupts
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
        try:
            pool = self.pool
            if pool is not None and not _exiting:
                self.pool = None
                pool._released.append((self.buffer, self.size))
        except Exception:  # interpreter shutdown, or an __init__ an interrupt cut short
            pass


_exiting = False


@atexit.register
def _at_exit():
    # blocks dying during interpreter teardown are not recycled (the pools die with them)
    global _exiting
    _exiting = True


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
    def __init__(self, device, max_buffer_size, on_free_buffers=None, on_limit=None):
        self.device = device
        self.max_buffer_size = max_buffer_size
        self.limit = None        # cap on the bytes of every buffer held (module docstring)
        self.pool_limit = 4 * max_buffer_size   # cap on the free bytes (set_limits)
        self.on_limit = on_limit  # releases what numr's caches hold (make_room's last resort)
        self._free = {}      # size class -> [wgpu buffer]
        self._deferred = {}  # same, but still used by unsubmitted work
        self._released = collections.deque()  # (buffer, size) of dead Blocks, unsorted
        self._reclaimed = set()  # id()s _reclaim pooled whose Block's entry may still come
        # id()s of the buffers unsubmitted work uses: the recorder fills and clears it
        self.pending_ids = set()
        self._on_free_buffers = on_free_buffers  # drops bind groups that name destroyed buffers
        self._owned = {}     # id -> every buffer created here and not yet destroyed
        self._lent = 0       # bytes lent out, for peak_bytes (re-derived by stats())
        self._held = 0       # bytes of _owned, for the limit (re-derived by make_room)
        self._freed_since = 0  # bytes pooled since the free bytes were last compared to the cap
        self._over = False     # the last trim left the pool past its cap (deferred buffers)
        self._freed_at = {}  # id -> the frees count when it was last pooled: oldest first
        self.trimmed = 0     # buffers destroyed by pool_limit
        self.peak_bytes = 0
        self.allocations = 0
        self.frees = 0
        self.pool_hits = 0
        self.pool_misses = 0
        self.buffers_created = 0
        self.watch = None    # runtime/recipes.py: sees every allocation of a call it captures

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
        if self._released:
            self._drain()
        free = self._free.get(size)
        if not free and not host_write:
            free = self._deferred.get(size)
        buf = None
        while free:
            buf = free.pop()
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
        self._lent += size
        if self._lent > self.peak_bytes:
            self.peak_bytes = self._lent
        blk = Block(buf, size, self)
        if self.watch is not None:
            self.watch.allocated(blk)
        return blk

    def allocate_class(self, size):
        """``allocate`` for a size class already known to fit one buffer (``size_class`` of
        the request): the launch plans' hot path (kernels/launch_plan.py)."""
        if self._released:
            self._drain()
        free = self._free.get(size) or self._deferred.get(size)
        buf = None
        while free:
            buf = free.pop()
            if buf._internal is not None:  # live()
                break
            self._owned.pop(id(buf), None)
            buf = None
        if buf is not None:
            self.pool_hits += 1
        else:
            self.pool_misses += 1
            buf = self._create(size)
        self.allocations += 1
        self._lent += size
        if self._lent > self.peak_bytes:
            self.peak_bytes = self._lent
        blk = Block(buf, size, self)
        if self.watch is not None:
            self.watch.allocated(blk)
        return blk

    def set_limits(self, limit, pool_limit=None):
        """``limit``: the cap on held bytes (None: none); ``pool_limit``: the cap on free
        bytes (None: a quarter of ``limit``, or four of the largest buffers where there is no
        limit: WebGPU does not report a GPU's memory)."""
        self.limit = limit
        if pool_limit is None:
            pool_limit = limit // 4 if limit is not None else 4 * self.max_buffer_size
        self.pool_limit = pool_limit
        self._check_cap()

    def make_room(self, size):
        """Free what numr caches until ``size`` more bytes fit under ``limit``, else raise
        OutOfMemory (a numr error, a MemoryError)."""
        limit = self.limit
        for release in (self.empty_cache, self.on_limit):
            if release is None:
                continue
            release()
            self._held = sum(b.size for b in self._owned.values())
            if self._held + size <= limit:
                return
        lent = self._held - self._pooled_bytes()
        raise OutOfMemory(BACKEND, size, f"numr's memory limit of {limit} bytes would be "
                          f"passed ({lent} bytes are held by live arrays); raise it with "
                          "numr_array_api.webgpu.set_memory_limit(nbytes) (None removes it) "
                          "or NUMR_WEBGPU_MEMORY_BYTES")

    def _create(self, size):
        if self.limit is not None and self._held + size > self.limit:
            self.make_room(size)
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
        self._held += size
        return buf

    def _drain(self):
        """Sort the buffers of dead Blocks into the free / deferred lists (under the lock)."""
        q = self._released
        pending = self.pending_ids
        free, deferred = self._free, self._deferred
        stamps = self._freed_at
        added = 0
        while q:  # (one buffer per op in a chain: kept free of calls)
            buf, size = q.popleft()
            i = id(buf)
            if self._reclaimed and i in self._reclaimed:
                self._reclaimed.discard(i)  # _reclaim pooled it already
                continue
            self.frees += 1
            self._lent -= size
            if getattr(buf, "_internal", None) is None:  # never hand out a released handle
                self._owned.pop(i, None)
                continue
            (deferred if i in pending else free).setdefault(size, []).append(buf)
            stamps[i] = self.frees
            added += size
        if added:
            self._freed_since += added
            if self._freed_since > self.pool_limit >> 3:
                self._check_cap()

    def _reclaim(self):
        """Pool the buffers an interrupt lost track of (see the module docstring)."""
        self._drain()
        placed = {id(b) for lists in (self._free, self._deferred) for lst in lists.values()
                  for b in lst}
        unplaced = {i: b for i, b in self._owned.items() if i not in placed}
        if not unplaced:
            return
        held = {id(r.buffer) for r in gc.get_referrers(*unplaced.values())
                if isinstance(r, Block)}
        pending = self.pending_ids
        for i, buf in unplaced.items():
            if i in held:
                continue
            self._reclaimed.add(i)  # first: its Block's late entry must find it
            self._lent -= buf.size
            lists = self._deferred if i in pending else self._free
            lists.setdefault(buf.size, []).append(buf)

    def _release(self, buf, size):
        self._released.append((buf, size))
        self._drain()

    def submitted(self):
        """Called after each submit: deferred buffers become free for any use."""
        for size, lst in self._deferred.items():
            if lst:
                self._free.setdefault(size, []).extend(lst)
                lst.clear()
        if self._over:
            self._check_cap()

    def _pooled_bytes(self):
        return sum(size * len(lst) for lists in (self._free, self._deferred)
                   for size, lst in lists.items())

    def _check_cap(self):
        self._freed_since = 0
        self._over = False
        if self._pooled_bytes() > self.pool_limit:
            self._trim()

    def _trim(self):
        """Destroy the free buffers freed longest ago until the pooled bytes are down to
        three quarters of ``pool_limit`` (or no free buffer is left)."""
        with deferred_interrupts():
            stamps = self._freed_at
            order = sorted((stamps.get(id(b), 0), size, id(b), b)
                           for size, lst in self._free.items() for b in lst)
            excess = self._pooled_bytes() - self.pool_limit * 3 // 4
            dead = {}
            for _, size, i, buf in order:
                if excess <= 0:
                    break
                dead[i] = buf
                excess -= size
            for size, lst in self._free.items():
                if any(id(b) in dead for b in lst):
                    lst[:] = [b for b in lst if id(b) not in dead]
            self.trimmed += len(dead)
            self._over = excess > self.pool_limit // 4
            self._destroy(list(dead.values()), wait=False)

    def _destroy(self, dropped, wait):
        """Destroy free buffers the caller took out of the free lists (``wait``: for the
        queue first)."""
        for buf in dropped:
            i = id(buf)
            self._owned.pop(i, None)
            self._reclaimed.discard(i)
            self._freed_at.pop(i, None)
            self._held -= buf.size
        if dropped and self._on_free_buffers is not None:
            self._on_free_buffers(dropped, wait)
        for buf in dropped:
            try:
                buf.destroy()
            except Exception:
                pass

    def empty_cache(self):
        with deferred_interrupts():
            self._reclaim()
            dropped = []
            for lst in self._free.values():
                dropped.extend(lst)
                lst.clear()
            self._destroy(dropped, wait=True)
        return len(dropped)

    def stats(self):
        self._drain()
        pooled = self._pooled_bytes()
        held = sum(b.size for b in self._owned.values())
        allocated = held - pooled
        self._lent, self._held = allocated, held
        return {
            "allocated_bytes": allocated,
            "peak_bytes": max(self.peak_bytes, allocated),
            "pooled_bytes": pooled,
            "reserved_bytes": held,
            "allocations": self.allocations,
            "frees": self.frees,
            "pool_hits": self.pool_hits,
            "pool_misses": self.pool_misses,
            "pool_trimmed": self.trimmed,
            "memory_limit_bytes": self.limit,
            "pool_limit_bytes": self.pool_limit,
        }


class StagingPool:
    """Reusable MAP_READ buffers for read-backs (a fresh one costs ~170 us on lavapipe),
    bounded.

    Reads of at most ``SMALL`` bytes (scalars, ``item()``, small arrays) share one size,
    so every small read reuses the same few buffers, a ring of at most ``RING`` (more
    exist only while interrupted reads still hold their mappings). Larger reads keep at
    most ``PER_CLASS`` free buffers of each size class and ``MAX_FREE_BYTES`` in all; a
    buffer handed back past a bound is destroyed (its read is over: nothing uses it)."""

    SMALL = 4096
    RING = 4
    PER_CLASS = 2
    MAX_FREE_BYTES = 128 << 20

    def __init__(self, device):
        self.device = device
        self._free = {}
        self.hits = 0
        self.misses = 0
        self.destroyed = 0

    def take(self, nbytes):
        size = self.SMALL if nbytes <= self.SMALL else size_class(nbytes)
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
        lst = self._free.setdefault(size, [])
        keep = self.RING if size == self.SMALL else self.PER_CLASS
        if len(lst) < keep and (size == self.SMALL
                                or self.nbytes() + size <= self.MAX_FREE_BYTES):
            lst.append(buf)
            return
        self.destroyed += 1
        _destroy(buf)

    def nbytes(self):
        """Bytes of the free staging buffers (those mapped by a read are not counted)."""
        return sum(size * len(lst) for size, lst in self._free.items())

    def buffers(self):
        """The free staging buffers (tests: the small-read ring is reused)."""
        return [b for lst in self._free.values() for b in lst]

    def empty(self):
        for lst in self._free.values():
            for b in lst:
                _destroy(b)
            lst.clear()


def _destroy(buf):
    try:
        buf.destroy()
    except Exception:
        pass
