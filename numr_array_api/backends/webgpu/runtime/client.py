"""One client (device + queue + pools + caches) per adapter per process.

wgpu-py leaks device objects, so a client is never created twice for an adapter.

Threads: ``lock`` (the runtime's one re-entrant lock, shared by all clients: see
concurrency.py) is held by every backend call; the client's own entry points that users
reach directly (synchronize, flush, memory and runtime statistics, empty_cache) take it too.

Memory: ``memory_limit`` caps the bytes numr's buffers hold (set_memory_limit; initially
NUMR_WEBGPU_MEMORY_BYTES, else the host's memory on CPU adapters, else none: WebGPU does
not report a GPU's); the pool keeps at most NUMR_WEBGPU_POOL_BYTES free (allocator.py).
The compiled kernels, like the pipelines and shader modules (pipelines.py), are kept
least recently used first out, KERNEL_CACHE_SIZE of each (tuning knob): plans and recipes
hold their own kernels, so an eviction never breaks one, it only costs a later recompile.
"""

import collections
import os
import threading

import numpy as np

from .adapters import is_cpu
from ...._core import dtypes as D
from ...._core import environment
from ...._core.errors import BackendUnavailable, DeviceLost, InvalidArgument, OutOfMemory
from ....tuning.registry import epoch as tuning_epoch
from ....tuning.registry import get as tuned
from . import adapters, caches
from .allocator import BufferPool, SegmentedBlock, StagingPool, live
from .concurrency import LOCK, deferred_interrupts, locked
from .errors import BACKEND, translate
from .mapping import Mappings
from .pipelines import BindGroupCache, PipelineCache
from .recipes import Recipes
from .submit import Recorder

_clients = {}
_lock = threading.Lock()


def get_client(index=None):
    """The process-wide client of adapter ``index`` (default: see adapters.select_index)."""
    idx = adapters.select_index(index)
    c = _clients.get(idx)
    if c is None:
        with _lock:
            c = _clients.get(idx)
            if c is None:
                c = _clients[idx] = WgpuClient(idx)
    return c


def _bytes_variable(name):
    """A byte count from the environment (None where unset)."""
    text = environment.get(name)
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise InvalidArgument(name, f"must be a non-negative number of bytes, got {text!r}")
    return value


def _memory_limit(info):
    """The initial memory limit: NUMR_WEBGPU_MEMORY_BYTES, else the adapter's capacity."""
    env = _bytes_variable("NUMR_WEBGPU_MEMORY_BYTES")
    return _capacity(info) if env is None else env


def _capacity(info):
    """What the adapter can hold, where known: the host's physical memory for CPU adapters
    (lavapipe: a larger request would be granted lazily and end in the OOM killer); None
    for GPUs (WebGPU does not report it: the driver's out-of-memory error decides, and
    OutOfMemory reports it)."""
    if is_cpu(info):
        try:
            return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            return None
    return None


class WgpuClient:
    lock = LOCK

    def __init__(self, index):
        self.index = index
        self.adapter = adapters.adapter(index)
        self.info = adapters.list_adapters()[index]
        # wgpu builds its indirect-dispatch validation pipelines with the device; NVIDIA's
        # OpenGL ES adapter cannot, and says so on fd 2 (adapters.quiet_driver drops it)
        with adapters.quiet_driver():
            self.device = self._request_device()
        self.queue = self.device.queue
        self.features = frozenset(self.device.features)
        self.limits = dict(self.device.limits)
        # WG_STORAGE lowers the workgroup memory kernels are planned for (and the pipeline
        # cache enforces): lavapipe runs then show what a smaller adapter (WebGPU's 16 KiB
        # minimum) would get, the class of bug that hung NVIDIA
        wg_storage = tuned("WG_STORAGE", self)
        if wg_storage:
            key = "max-compute-workgroup-storage-size"
            self.limits[key] = min(self.limits.get(key, 16384), wg_storage)
        self.max_buffer = self.limits["max-buffer-size"]
        self.max_binding = self.limits["max-storage-buffer-binding-size"]
        # arrays larger than this are stored in several buffers (SegmentedBlock); a power
        # of two, so no element of any dtype straddles two segments.
        # SEGMENT_BYTES lowers it (tests exercise multi-buffer storage cheaply)
        seg = 1 << (self.max_buffer.bit_length() - 1)
        want = tuned("SEGMENT_BYTES", self)
        if want:
            if want < 4096 or want & (want - 1):
                raise InvalidArgument("SEGMENT_BYTES", f"{want} is not a power of two >= 4096")
            seg = min(seg, want)
        self.segment_bytes = seg
        self.single_buffer_max = seg if want else self.max_buffer
        self.storage_align = self.limits["min-storage-buffer-offset-alignment"]
        self.max_groups = self.limits["max-compute-workgroups-per-dimension"]
        self.max_immediate = (self.limits.get("max-immediate-size", 0)
                              if "immediates" in self.features else 0)
        if tuned("PARAMS", self) == "uniform":
            self.max_immediate = 0  # exercise the uniform-ring path on adapters with immediates
        self.lost = False
        self.bindgroups = BindGroupCache(self.device)
        self.pool = BufferPool(self.device, self.max_buffer, self._before_destroy,
                               self._release_caches)
        self.pool.set_limits(_memory_limit(self.info),
                             _bytes_variable("NUMR_WEBGPU_POOL_BYTES"))
        self.pipelines = PipelineCache(
            self.device, self.limits.get("max-compute-workgroup-storage-size"),
            self._cache_size)
        self.staging = StagingPool(self.device)
        self.maps = Mappings(self.device)
        self._waits_epoch = None
        self._tune_waits()
        self.recorder = Recorder(self)
        # KernelSpec -> Kernel (codegen/spec.py), least recently used first
        self._kernels = collections.OrderedDict()
        # called with the client after every host read and synchronize (deferred error
        # checks: primitives/gather.py's lazy index check)
        self.read_hooks = []
        self.transfers = 0  # host reads and writes (runtime/recipes.py: a call without any)
        self.recipes = Recipes(self)
        prof = environment.get("NUMR_WEBGPU_PROFILE").lower()
        if prof not in ("", "0", "off", "false", "no"):
            from .profile import profile_process
            profile_process(self, prof)

    def _request_device(self):
        """The adapter's own limits and optional features, else the WebGPU defaults (some
        OpenGL adapters refuse their own limits); an adapter that grants no device at all is
        unavailable, with wgpu's reason (it never had a device to lose)."""
        feats = [f for f in adapters.OPTIONAL_FEATURES if f in self.adapter.features]
        label = f"numr webgpu {self.index}"
        try:
            return self.adapter.request_device_sync(label=label, required_features=feats,
                                                    required_limits=dict(self.adapter.limits))
        except Exception as first:
            try:
                return self.adapter.request_device_sync(label=label)
            except Exception:
                raise BackendUnavailable(
                    "webgpu", f"adapter {self.index} ({self.info['name']}, "
                    f"{self.info['backend']}) grants no device: {first}") from first

    def __repr__(self):
        return f"<WgpuClient {self.index}: {self.info['name']} ({self.info['backend']})>"

    # ---- capabilities -------------------------------------------------------------------
    def has(self, feature):
        return feature in self.features

    def native(self, dtype):
        return all(f in self.features for f in adapters.DTYPE_FEATURES.get(dtype, ()))

    def native_dtypes(self):
        """numr dtypes kernels compute on here (see adapters.native_dtypes)."""
        return adapters.native_dtypes(self)

    def capabilities(self):
        return {
            "adapter": {k: self.info[k] for k in ("index", "name", "vendor", "backend", "type")},
            "features": {f: f in self.features for f in adapters.OPTIONAL_FEATURES},
            "limits": dict(self.limits),
            "native_dtypes": [d.name for d in self.native_dtypes()],
            # every dtype can be stored, copied and read back: sub-word and 8/16-byte
            # elements are moved as u32 words, whatever the shader features
            "storable_dtypes": [d.name for d in D.ALL_DTYPES],
            "params": "immediates" if self.max_immediate else "uniform",
            "max_storage_binding_bytes": self.max_binding,
            "max_buffer_bytes": self.max_buffer,
        }

    # ---- dispatch -------------------------------------------------------------------------
    def check(self):
        if self.lost:
            raise DeviceLost(f"{BACKEND}: adapter {self.index} was lost; its arrays are unusable")

    def launch(self, pipe, bindings, params, workgroups):
        """Record one dispatch of ``pipe``.

        ``bindings``: (Block, byte offset, byte size) per storage binding of ``pipe``, in
        binding order; ``params``: bytes for the immediates / uniform slot (``b''`` if none);
        ``workgroups``: (x, y, z) within the adapter's limits (custom_kernel checks them).
        """
        if len(bindings) != pipe.n_storage:
            raise InvalidArgument("bindings", f"{pipe.label} takes {pipe.n_storage} bindings")
        entries = tuple([(b.buffer, o, s) for b, o, s in bindings])
        if len({id(e[0]) for e in entries}) != len(entries):
            self._check_aliasing(pipe, entries)
        if pipe.uniform_size:
            entries += ((self.recorder.ring_buffer(), 0, pipe.uniform_size),)
        self.launch_raw(pipe, self.bindgroups.get(pipe.bgl, entries), params, workgroups,
                        [b for b, _, _ in bindings])

    @staticmethod
    def _check_aliasing(pipe, entries):
        writes = {id(e[0]) for e, k in zip(entries, pipe.bindings) if k == "rw"}
        for e, k in zip(entries, pipe.bindings):
            if k == "read" and id(e[0]) in writes:
                raise InvalidArgument(pipe.label, "a buffer cannot be bound read-only and "
                                      "writable in one dispatch; copy the input first")

    def kernel(self, spec):
        """The compiled ``Kernel`` of ``spec`` on this adapter (cached per spec)."""
        kernels = self._kernels
        k = kernels.get(spec)
        if k is not None:
            self.pipelines.hits += 1
            kernels.move_to_end(spec)
        else:
            from ..codegen.spec import Kernel
            k = Kernel(self, spec)
            cap = self._cache_size()
            while len(kernels) >= cap:
                kernels.popitem(last=False)
            kernels[spec] = k
        return k

    def _cache_size(self):
        return tuned("KERNEL_CACHE_SIZE", self)

    def _tune_waits(self):
        """How host waits poll (MAP_SPIN_US, MAP_WAIT), re-read after any knob changed."""
        e = tuning_epoch()
        if e != self._waits_epoch:
            self._waits_epoch = e
            self.maps.spin_s = tuned("MAP_SPIN_US", self) * 1e-6
            self.maps.poll_wait = tuned("MAP_WAIT", self)

    def launch_indirect(self, pipe, bindings, params, indirect):
        """Like ``launch``, the workgroup counts read by the GPU from ``indirect``: a storage
        whose three u32 at its byte offset (a multiple of 4) were written by earlier work."""
        if len(bindings) != pipe.n_storage:
            raise InvalidArgument("bindings", f"{pipe.label} takes {pipe.n_storage} bindings")
        if indirect.offset % 4 or indirect.nbytes < 12:
            raise InvalidArgument("indirect", "needs three u32 at a 4-byte-aligned offset")
        entries = tuple([(b.buffer, o, s) for b, o, s in bindings])
        if len({id(e[0]) for e in entries}) != len(entries):
            self._check_aliasing(pipe, entries)
        if pipe.uniform_size:
            entries += ((self.recorder.ring_buffer(), 0, pipe.uniform_size),)
        self.check()
        blk = indirect.block  # a small args array: never a multi-buffer block
        try:
            self.recorder.dispatch(pipe, self.bindgroups.get(pipe.bgl, entries), params,
                                   None, [b for b, _, _ in bindings] + [blk],
                                   indirect=(blk.buffer, indirect.offset))
        except DeviceLost:
            self.lost = True
            raise

    def launch_raw(self, pipe, bind_group, params, workgroups, blocks):
        self.check()
        try:
            self.recorder.dispatch(pipe, bind_group, params, workgroups, blocks)
        except DeviceLost:
            self.lost = True
            raise

    @locked
    def flush(self):
        self.check()
        try:
            self.recorder.flush()
        except DeviceLost:
            self.lost = True
            raise

    @locked
    def synchronize(self):
        self.check()
        self._tune_waits()
        try:
            self.recorder.wait()
        except DeviceLost:
            self.lost = True
            raise
        self._run_read_hooks()

    def _run_read_hooks(self):
        for hook in self.read_hooks:
            hook(self)

    # ---- host transfer primitives --------------------------------------------------------
    def write(self, block, offset, data):
        """Copy host bytes (offset and length multiples of 4) into ``block`` at ``offset``."""
        self.check()
        self.transfers += 1
        if isinstance(block, SegmentedBlock):
            data = memoryview(data).cast("B")
            pos, end = offset, offset + len(data)
            while pos < end:
                seg, base = block.segment_of(pos, pos + 1)
                stop = min(end, base + block.seg_bytes)
                self._write_one(seg, pos - base, data[pos - offset:stop - offset])
                pos = stop
            return
        self._write_one(block, offset, data)

    def _write_one(self, block, offset, data):
        self._check_live(block)
        if self.recorder.is_pending(block.buffer):
            self.flush()  # the write would otherwise land before unsubmitted reads of block
        try:
            self.queue.write_buffer(block.buffer, offset, data)
        except Exception as exc:
            err = translate(exc, "host-to-device write", len(data))
            self.lost = self.lost or isinstance(err, DeviceLost)
            raise err from exc

    # read-backs go through staging buffers of at most this size (bounded host mappings)
    READ_CHUNK = 64 << 20

    def read(self, block, offset, nbytes):
        """Host bytes of ``block[offset:offset+nbytes]`` after all recorded work."""
        self.check()
        self.transfers += 1
        if nbytes <= self.READ_CHUNK and not isinstance(block, SegmentedBlock):
            out = self._read_one(block, offset, nbytes)
            if self.read_hooks:
                self._run_read_hooks()
            return out
        out = np.empty(nbytes, np.uint8)
        pos, end = offset, offset + nbytes
        while pos < end:
            stop = min(end, pos + self.READ_CHUNK)
            blk, base = block, 0
            if isinstance(block, SegmentedBlock):
                blk, base = block.segment_of(pos, pos + 1)
                stop = min(stop, base + block.seg_bytes)
            out[pos - offset:stop - offset] = self._read_one(blk, pos - base, stop - pos)
            pos = stop
        if self.read_hooks:
            self._run_read_hooks()
        return out

    def _read_one(self, block, offset, nbytes):
        self._check_live(block)
        self._tune_waits()
        lo = offset - offset % 4
        hi = -(-(offset + nbytes) // 4) * 4
        n = max(hi - lo, 4)
        maps = self.maps
        try:
            self.recorder.before_submit()
            with deferred_interrupts():
                if maps.active:
                    maps.reap()
                staging, size = self.staging.take(n)
                self.recorder.flush(copies=((block.buffer, lo, staging, 0, n),))
                m = maps.start(staging, size, self.staging.give)
            maps.wait(m)  # interruptible; an interrupted mapping is reaped later
            self.recorder.idle()
            with deferred_interrupts():
                raw = maps.finish(m, n)
        except Exception as exc:
            err = translate(exc, "device-to-host read", nbytes)
            self.lost = self.lost or isinstance(err, DeviceLost)
            raise err from exc
        return raw[offset - lo: offset - lo + nbytes]

    @staticmethod
    def _check_live(block):
        # wgpu-native dereferences handles unchecked (a NULL one panics or segfaults)
        if not live(block.buffer):
            raise DeviceLost(f"{BACKEND}: this storage's wgpu buffer was released")

    # ---- memory ---------------------------------------------------------------------------
    def allocate(self, nbytes, host_write=False):
        """A Block of at least ``nbytes`` (a SegmentedBlock beyond one buffer);
        ``host_write``: it will be filled by write()."""
        self.check()
        if nbytes <= self.single_buffer_max:
            return self.pool.allocate(nbytes, host_write)
        limit = self.pool.limit
        if limit is not None and nbytes > limit:
            raise OutOfMemory(BACKEND, nbytes, f"more than numr's memory limit of {limit} "
                              "bytes; raise it with numr_array_api.webgpu.set_memory_limit"
                              "(nbytes) (None removes it) or NUMR_WEBGPU_MEMORY_BYTES")
        seg = self.segment_bytes
        n = -(-nbytes // seg)
        parts = []
        try:
            for i in range(n):
                parts.append(self.pool.allocate(seg if i < n - 1 else nbytes - seg * (n - 1),
                                                host_write))
        except OutOfMemory as exc:
            # the request, not its failed segment, is what the user asked for; the segments
            # taken so far go back to the driver, not to the pool's cache
            got = len(parts)
            parts.clear()
            self.pool.empty_cache()
            raise OutOfMemory(BACKEND, nbytes, f"segment {got + 1} of {n} ({seg} bytes each) "
                              f"failed: {exc}") from exc
        return SegmentedBlock(parts, seg, nbytes)

    def _before_destroy(self, buffers, wait=True):
        self.bindgroups.forget_buffers(buffers)
        if wait and not self.lost:
            # submitted work may still use these pooled buffers: empty_cache lets it finish
            # (the pool's caps do not wait: wgpu frees a buffer once the work using it is done)
            self.recorder.wait()

    def _release_caches(self, mid_call=True):
        """What the caches hold back to the driver (``mid_call``: the memory limit's last
        resort, inside an allocation: see caches.py)."""
        with deferred_interrupts():
            self.recipes.clear()  # they keep plan tables alive
            caches.clear_all(self, mid_call)  # plans hold buffers: release them first
            self.pool.empty_cache()

    @property
    def memory_limit(self):
        """numr's cap on the bytes this client's buffers hold (None: none)."""
        return self.pool.limit

    @memory_limit.setter
    @locked
    def memory_limit(self, nbytes):
        # None removes numr's cap, not the adapter's capacity (a CPU adapter's host memory)
        if nbytes is None:
            nbytes = _capacity(self.info)
        self.pool.set_limits(nbytes, _bytes_variable("NUMR_WEBGPU_POOL_BYTES"))

    @locked
    def memory_stats(self):
        stats = self.pool.stats()
        stats["staging_bytes"] = self.staging.nbytes()
        return stats

    @locked
    def empty_cache(self):
        # buffers used by unsubmitted work sit in the deferred lists, which are never destroyed;
        # the queue is drained first, where a Ctrl-C can stop the wait (_before_destroy's
        # own wait then returns at once)
        if not self.lost:
            self.recorder.wait()
        self._release_caches(mid_call=False)
        with deferred_interrupts():
            self.maps.reap()
            self.staging.empty()

    @locked
    def stats(self):
        return {"memory": self.pool.stats(), "pipelines": self.pipelines.stats(),
                "bind_groups": self.bindgroups.stats(), "submission": self.recorder.stats(),
                "staging": {"hits": self.staging.hits, "misses": self.staging.misses,
                            "destroyed": self.staging.destroyed}}
