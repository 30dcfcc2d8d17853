"""Batched submission: one open command encoder + compute pass per batch.

Dispatches are recorded into the open pass and submitted together when the host needs a
result (read-back, ``synchronize``), when a buffer that pending work uses is about to be
overwritten by ``queue.write_buffer``, when the uniform ring is full, or after ``threshold``
dispatches. The recorder remembers which buffers unsubmitted dispatches use, so the pool
keeps them away from host writes until the submit (see allocator.py).

Interrupts (concurrency.py): recording is ordered so that a KeyboardInterrupt between any
two steps is harmless. Buffers join the pending set *before* their dispatch is recorded (an
interrupted op's output, recorded but never returned, would otherwise go back to the pool
as not pending and could take a host write that the later submit then clobbers), and the
remembered pass state (``_last_pipe`` / ``_last_bg``) is cleared before the native call that
changes it and set after, so it never claims state the pass does not have. Ending and
submitting a batch together with its bookkeeping runs with interrupts deferred.
"""

import wgpu
from wgpu.backends.wgpu_native._api import libf as _libf
from wgpu.backends.wgpu_native._ffi import ffi as _ffi, lib as _lib

from ....tuning.registry import epoch as _tuning_epoch, get as tuned
from .adapters import is_cpu
from .concurrency import deferred_interrupts
from .errors import translate
from ...._core.progress import enabled as _display_on
from .progress import Progress

# A GPU adapter also submits once the unsubmitted dispatches bind SUBMIT_BYTES (a knob;
# NUMR_WEBGPU_SUBMIT_BYTES overrides it): recording a batch of large dispatches (ten
# 32 MiB ffts) and submitting it at the next read leaves the GPU idle while the host
# records, then the host idle while the GPU runs; submitted early, the two overlap. But a
# submit costs the host 40-70 us on the H100 (pass end, encoder finish, the native submit
# ~20 us, a new pass): at 64 MiB a queued 256 MiB sum submitted every call and the host,
# not the GPU, set its pace (0.80 of CuPy's throughput); at 1 GiB it reached 0.84,
# max(axis=1) 0.80 -> 0.88, var(axis=0) 2.07 -> 2.85, batched fft 0.38 -> 0.51 of cuFFT's
# (H100, 2026-11-26, both thresholds interleaved in one process). A fixed large threshold
# delays the GPU's start after the host waited, though (ten queued sums: 0.66): the
# threshold starts at SUBMIT_FIRST whenever the host has waited for the queue (a
# read-back, synchronize) and doubles at each early submit up to the maximum, so the GPU
# starts at once and a long stream of work is submitted in large batches. 0 turns it off
# (the CPU adapters' table: lavapipe runs on the host's cores).
_RING_BYTES = 1 << 18


class Recorder:
    def __init__(self, client, threshold=None):
        self.client = client
        self.device = client.device
        self.queue = client.device.queue
        self._threshold = threshold
        self.threshold = 1
        self.encoder = None
        self.cpass = None
        # id() of wgpu buffers used by unsubmitted dispatches (the pool's set: it keeps them
        # away from host writes); cleared, never replaced, at each submit
        self.pending_ids = client.pool.pending_ids
        self.recorded = 0
        self.capture = None  # list of dispatch records while a graph is being captured
        self.watch = None    # runtime/recipes.py: sees every dispatch of a call it captures
        self.prof = None     # runtime/profile.py: a timestamped pass per dispatch
        self._cp_handle = None
        self._dyn_offset = _ffi.new("uint32_t[1]")
        # zeroed descriptors (no label) of the native batch path (_open_pass)
        self._enc_desc = _ffi.new("WGPUCommandEncoderDescriptor *")
        self._pass_desc = _ffi.new("WGPUComputePassDescriptor *")
        self._cb_desc = _ffi.new("WGPUCommandBufferDescriptor *")
        self._cbs = _ffi.new("WGPUCommandBuffer[1]")
        self.raw_batch = False
        cpu = is_cpu(client.info)
        # Ctrl-C (progress.py): a CPU adapter's submit blocks until the queue is free, so the
        # host waits for it first, interruptibly; paced operations keep at most this many
        # steps queued (a GPU gets the next ones queued while the host waits on one)
        self.progress = Progress(self.device, self.queue)
        client.maps.progress = self.progress
        self.submit_blocks = cpu
        self.pace_depth = 1 if cpu else 3
        self._tuned_at = None
        self.retune()
        self.pending_bytes = 0
        self._last_pipe = self._last_bg = None
        self.dispatches = 0
        self._marked_at = 0   # self.dispatches at the last submit (the progress bar's counts)
        self.submits = 0
        # self.submits when the host last saw the queue drained (a completed mapping
        # copied after every submission): wait() then has nothing to wait for
        self.drained_at = -1
        self.skipped_waits = 0
        self.hold = 0   # > 0: no early submit by bytes (``held``)
        # uniform ring for per-dispatch params when immediates are unavailable (or too small)
        self.ring_align = max(16, client.limits.get("min-uniform-buffer-offset-alignment", 256))
        self.ring = None
        self._ring_host = None
        self._ring_used = 0

    def retune(self):
        """Read the knobs (runtime family) the recorder runs with: at creation and after
        a host wait once a knob changed (tuning.override / force in benchmarks)."""
        client = self.client
        self._tuned_at = _tuning_epoch()
        self.threshold = max(1, self._threshold or tuned("BATCH", client))
        # replays are submitted in chunks so a GPU starts while the host records
        self.replay_chunk = tuned("REPLAY_CHUNK", client)
        sb = tuned("SUBMIT_BYTES", client)
        self.submit_bytes = sb if sb > 0 else 1 << 62
        # the early-submit threshold is min(ramp, submit_bytes); ramp restarts at
        # ramp_first after each wait of the host (``idle``)
        self.ramp_first = min(tuned("SUBMIT_FIRST", client), self.submit_bytes) \
            if sb > 0 else 1 << 62
        self.ramp = self.ramp_first

    # ---- uniform ring -------------------------------------------------------------------
    def ring_buffer(self):
        if self.ring is None:
            self.ring = self.device.create_buffer(
                size=_RING_BYTES, usage=wgpu.BufferUsage.UNIFORM | wgpu.BufferUsage.COPY_DST)
            self._ring_host = bytearray(_RING_BYTES)
        return self.ring

    def _ring_put(self, data, span):
        off = self._ring_used
        if off + span > _RING_BYTES:
            self.flush()
            off = 0
        self._ring_host[off:off + len(data)] = data
        self._ring_used = off + -(-span // self.ring_align) * self.ring_align
        return off

    # ---- recording ----------------------------------------------------------------------
    def _open_pass(self):
        """Open the batch's encoder and compute pass; returns the pass's native handle.

        Native handles (``raw_batch``): wgpu-py's encoder, pass and command buffer objects
        cost the host ~18 us a batch (descriptor structs, object bookkeeping, releases in
        __del__; 54 -> 36 us an empty batch on the CI machine), a large share of a small
        stacked call's ~0.2 ms. Errors still raise: the calls that report them (encoder
        finish, submit) go through wgpu-py's error-capturing ``libf``. A profile
        (profile.py) records through wgpu-py's objects."""
        self._last_pipe = self._last_bg = None
        if self.prof is not None:
            enc = self.device.create_command_encoder()
            cp = enc.begin_compute_pass()
            self.raw_batch = False
            self._cp_handle = cp._internal
            self.encoder = enc
        else:
            self.raw_batch = True
            self.encoder = self._raw_encoder()   # flush releases it, pass or not
            cp = _lib.wgpuCommandEncoderBeginComputePass(self.encoder, self._pass_desc)
            self._cp_handle = cp
        self.cpass = cp  # last: the batch exists once its pass does
        return self._cp_handle

    def _raw_encoder(self):
        enc = _lib.wgpuDeviceCreateCommandEncoder(self.device._internal, self._enc_desc)
        if enc == _ffi.NULL:
            raise RuntimeError("wgpuDeviceCreateCommandEncoder returned NULL")
        return enc

    def dispatch(self, pipe, bind_group, params, workgroups, blocks, indirect=None):
        if indirect is not None and self.capture is not None:
            from ...._core.errors import BackendLimitation
            raise BackendLimitation("webgpu", "graph capture of an indirect dispatch",
                                    "captured graphs replay direct dispatches only")
        if pipe.uniform_size:
            roff = self._ring_put(params, pipe.uniform_size)
        if self.prof is not None:
            self.prof.split(self, pipe)
        ids = self.pending_ids
        nbytes = 0
        # a buffer bound several times (views of one workspace) is touched once
        for b in (blocks if len(blocks) < 4 else {id(b.buffer): b for b in blocks}.values()):
            ids.add(id(b.buffer))
            nbytes += b.size
        cp = self._cp_handle if self.cpass is not None else self._open_pass()
        # pass state persists between dispatches: skip re-setting what a chain repeats.
        # Raw wgpu-native calls: a pass command reports its validation errors when the pass
        # ends (WebGPU's deferred encoder errors), so wgpu-py's per-call error capture only
        # costs time here (about 5 us a call); end() and finish() keep it.
        if pipe is not self._last_pipe:
            # a bind group stays bound across setPipeline (WebGPU; wgpu re-binds it where
            # the backend needs): kept when the new pipeline has the same group layout
            last, self._last_pipe = self._last_pipe, None
            if last is None or last.bgl is not pipe.bgl:
                self._last_bg = None
            _lib.wgpuComputePassEncoderSetPipeline(cp, pipe.pipeline._internal)
            self._last_pipe = pipe
        if pipe.uniform_size:
            self._last_bg = None
            self._dyn_offset[0] = roff
            _lib.wgpuComputePassEncoderSetBindGroup(cp, 0, bind_group._internal, 1,
                                                    self._dyn_offset)
        else:
            if bind_group is not self._last_bg:
                self._last_bg = None
                _lib.wgpuComputePassEncoderSetBindGroup(cp, 0, bind_group._internal, 0,
                                                        _ffi.NULL)
                self._last_bg = bind_group
            if pipe.imm_size:
                # cffi passes a bytes object's own buffer to a void * parameter (no copy,
                # no from_buffer object per dispatch); other buffer types need from_buffer
                _lib.wgpuComputePassEncoderSetImmediates(
                    cp, 0, params if params.__class__ is bytes else _ffi.from_buffer(params),
                    pipe.imm_size)
        if indirect is None:
            x, y, z = workgroups
            _lib.wgpuComputePassEncoderDispatchWorkgroups(cp, x, y, z)
        else:
            _lib.wgpuComputePassEncoderDispatchWorkgroupsIndirect(cp, indirect[0]._internal,
                                                                  indirect[1])
        self.recorded += 1
        self.dispatches += 1
        if self.capture is not None:
            self.capture.append((pipe, bind_group, params, workgroups, blocks))
        if self.watch is not None:
            self.watch.dispatch(pipe, bind_group, params, workgroups, blocks, indirect)
        pb = self.pending_bytes = self.pending_bytes + nbytes
        if (pb >= self.ramp or pb >= self.submit_bytes) and not self.hold:
            self._submit_early()
        elif self.recorded >= self.threshold:
            self.flush()

    def _submit_early(self):
        """Submit because the unsubmitted dispatches bind enough bytes; the next early
        submit waits for twice as many (up to submit_bytes)."""
        self.flush()
        if self.ramp < self.submit_bytes:
            self.ramp *= 2

    def held(self):
        """A context in which bound bytes trigger no early submit: for a few dispatches
        that the caller reads back at once (a stacked linalg call and its status word),
        where an early submit only adds a second submit (~40 us of host time on an H100)
        to the read's own."""
        return _Held(self)

    def replay(self, raw, groups, ids, nbytes=0):
        """Re-record prepared dispatches (``raw``: tuples from ``prepare``, each naming its
        bind group by index into ``groups``) straight into the open pass: the per-dispatch
        Python work is four native calls. ``ids``: the id()s of every buffer they touch
        (kept pending until the submit). Submitted in chunks of ``replay_chunk`` dispatches
        (the REPLAY_CHUNK knob; 64 on GPUs, whole on CPU adapters), so a GPU
        starts on the first chunk while the host records the next; none while ``held``.
        ``nbytes``: the bytes the dispatches bind, which count towards the early submit as
        a dispatch's do (a queued stream of one-dispatch replays of a 256 MiB reduction was
        submitted only every REPLAY_CHUNK calls, the GPU idle while the host recorded)."""
        chunk = self.replay_chunk
        bgs = [(bg, bg._internal) for bg in groups]
        for i in range(0, len(raw), chunk):
            self.pending_ids |= ids  # before recording, as in dispatch
            cp = self._cp_handle if self.cpass is not None else self._open_pass()
            last_pipe, last_bg = self._last_pipe, self._last_bg
            self._last_pipe = self._last_bg = None  # unknown until the chunk is recorded
            part = raw[i:i + chunk]
            prof = self.prof
            for pipe, pipe_h, gi, imm, imm_size, x, y, z in part:
                if prof is not None:   # a timestamped pass of its own (profile.py)
                    prof.split(self, pipe)
                    self.pending_ids |= ids   # (cheap insurance should split ever submit)
                    cp, last_pipe, last_bg = self._cp_handle, None, None
                if pipe is not last_pipe:
                    _lib.wgpuComputePassEncoderSetPipeline(cp, pipe_h)
                    if last_pipe is None or last_pipe.bgl is not pipe.bgl:
                        last_bg = None   # else still bound (as in dispatch)
                    last_pipe = pipe
                bg, bg_h = bgs[gi]
                if bg is not last_bg:
                    _lib.wgpuComputePassEncoderSetBindGroup(cp, 0, bg_h, 0, _ffi.NULL)
                    last_bg = bg
                if imm_size:
                    _lib.wgpuComputePassEncoderSetImmediates(cp, 0, imm, imm_size)
                _lib.wgpuComputePassEncoderDispatchWorkgroups(cp, x, y, z)
            self._last_pipe, self._last_bg = last_pipe, last_bg
            self.recorded += len(part)
            self.dispatches += len(part)
            if self.recorded >= chunk and not self.hold:
                self.flush()
        if nbytes and not self.hold:
            pb = self.pending_bytes = self.pending_bytes + nbytes
            if (pb >= self.ramp or pb >= self.submit_bytes) and self.cpass is not None:
                self._submit_early()

    @staticmethod
    def prepare(steps):
        """``replay``'s tuples of (pipe, bind group index, params bytes, workgroups) steps;
        the caller keeps the params bytes alive (the immediates pointers read them)."""
        return [(pipe, pipe.pipeline._internal, gi,
                 _ffi.from_buffer(params) if pipe.imm_size else _ffi.NULL, pipe.imm_size,
                 x, y, z) for pipe, gi, params, (x, y, z) in steps]

    @staticmethod
    def raw_records(records):
        """(prepared steps, bind groups) of captured dispatch records for ``replay``, or
        None when one takes its params through the uniform ring (which needs a slot per
        dispatch)."""
        groups, index, steps = [], {}, []
        for pipe, bg, params, wg, _ in records:
            if pipe.uniform_size:
                return None
            gi = index.get(id(bg))
            if gi is None:
                gi = index[id(bg)] = len(groups)
                groups.append(bg)
            steps.append((pipe, gi, params, wg))
        return Recorder.prepare(steps), groups

    def is_pending(self, buffer):
        return id(buffer) in self.pending_ids

    def flush(self, copies=()):
        """Submit recorded work, plus ``copies`` (src, src_off, dst, dst_off, n) after it."""
        if self.cpass is None and not copies:
            if self.encoder is not None and self.raw_batch:
                self._drop_stray_encoder()
            return
        if self.submit_blocks:
            self.before_submit()
        with deferred_interrupts():
            cp = self.cpass
            # an encoder without its pass is one an interrupt stopped _open_pass in: empty
            if cp is None and self.encoder is not None and self.raw_batch:
                self._drop_stray_encoder()
            enc = self.encoder if cp is not None else None
            self.encoder = self.cpass = None
            self.pending_ids.clear()
            self.recorded = 0
            self.pending_bytes = 0
            ring_used, self._ring_used = self._ring_used, 0
            raw = self.raw_batch if enc is not None else self.prof is None
            try:
                if raw:
                    self._flush_raw(cp, enc, copies, ring_used)
                else:
                    if cp is not None:
                        cp.end()
                    if enc is None:
                        enc = self.device.create_command_encoder()
                    if self.prof is not None:
                        self.prof.resolve(enc)
                    for src, so, dst, do, n in copies:
                        enc.copy_buffer_to_buffer(src, so, dst, do, n)
                    cb = enc.finish()
                    self._ring_upload(ring_used)
                    self.queue.submit([cb])
            except Exception as exc:
                raise translate(exc, "command submission") from exc
            finally:
                self.client.pool.submitted()  # submitted or dropped: nothing pending reads them
            self.submits += 1
            # marked: the waits' order on a blocking adapter; the bar's count with it on
            if self.submit_blocks or _display_on():
                self.progress.mark(self.dispatches - self._marked_at)
            self._marked_at = self.dispatches

    def before_submit(self):
        """On an adapter whose submit blocks while the queue is busy: wait for the queue
        here, where a Ctrl-C is raised at once. Callers that submit inside a
        ``deferred_interrupts`` section call it before entering."""
        if self.submit_blocks and self.progress.marks:
            self.progress.wait()

    def discard(self):
        """Drop the recorded, unsubmitted work: the rest of an interrupted paced operation
        (progress.py), whose outputs nothing else can see."""
        if self.cpass is None:
            if self.encoder is not None and self.raw_batch:
                self._drop_stray_encoder()
            return
        with deferred_interrupts():
            cp, enc = self.cpass, self.encoder
            raw = self.raw_batch
            self.encoder = self.cpass = None
            self._last_pipe = self._last_bg = None
            self.pending_ids.clear()
            self.recorded = 0
            self.pending_bytes = 0
            self._ring_used = 0
            try:
                if raw:
                    _lib.wgpuComputePassEncoderEnd(cp)
                    _lib.wgpuComputePassEncoderRelease(cp)
                    _lib.wgpuCommandEncoderRelease(enc)
                else:
                    cp.end()
                    enc.finish()  # a command buffer never submitted
            finally:
                self.client.pool.submitted()

    def _drop_stray_encoder(self):
        with deferred_interrupts():
            enc, self.encoder = self.encoder, None
            _lib.wgpuCommandEncoderRelease(enc)

    def _ring_upload(self, ring_used):
        if ring_used:
            self.queue.write_buffer(self.ring, 0, memoryview(self._ring_host)[:ring_used])

    def _flush_raw(self, cp, enc, copies, ring_used):
        """flush's work on native handles (``_open_pass``); every handle is released, also
        when a call raises. wgpu defers an encoder's errors (its passes' commands, its
        copies) to finish, so only finish and submit go through the error-capturing
        ``libf`` (tests/webgpu_runtime/test_native_batch.py and test_latency_path.py raise
        both kinds there)."""
        cb = None
        try:
            if cp is not None:
                _lib.wgpuComputePassEncoderEnd(cp)
            if enc is None:
                enc = self._raw_encoder()
            for src, so, dst, do, n in copies:
                _lib.wgpuCommandEncoderCopyBufferToBuffer(enc, src._internal, so,
                                                          dst._internal, do, n)
            cb = _libf.wgpuCommandEncoderFinish(enc, self._cb_desc)
            self._ring_upload(ring_used)
            self._cbs[0] = cb
            _libf.wgpuQueueSubmit(self.queue._internal, 1, self._cbs)
        finally:
            if cb is not None:
                self._cbs[0] = _ffi.NULL
                _lib.wgpuCommandBufferRelease(cb)
            if cp is not None:
                _lib.wgpuComputePassEncoderRelease(cp)
            if enc is not None:
                _lib.wgpuCommandEncoderRelease(enc)

    def idle(self):
        """The host waited for the queue (a mapping copied after every submission has
        completed): the next early submit comes soon again, and until the next submit a
        wait() returns at once."""
        if self._tuned_at != _tuning_epoch():
            self.retune()
        self.ramp = self.ramp_first
        self.drained_at = self.submits

    def wait(self):
        """Submit everything and wait (interruptibly) until the queue is idle.

        The wait is a queue marker (``Mappings.mark``), not a mapped fence buffer: no copy
        command and no map / unmap calls, and nothing to submit when no dispatch is
        recorded (work submitted early is already on the queue)."""
        client = self.client
        maps = client.maps
        if self.cpass is None and self.drained_at == self.submits and not maps.active:
            # a read just waited for everything (e.g. a linalg call's status word): a second
            # round trip would only add the fence's latency (~50 us on an H100)
            self.skipped_waits += 1
            return
        try:
            self.before_submit()
            with deferred_interrupts():
                if maps.active:
                    maps.reap()
                self.flush()
                m = maps.mark(self.queue)
            maps.wait(m)
            self.idle()
            maps.finish(m, 0)   # a marker only forgets itself: no interrupt-unsafe step
        except Exception as exc:
            raise translate(exc, "synchronize") from exc

    def stats(self):
        return {"dispatches": self.dispatches, "submits": self.submits,
                "skipped_waits": self.skipped_waits,
                "recorded_unsubmitted": self.recorded, "batch_threshold": self.threshold,
                "pending_bytes": self.pending_bytes}


class _Held:
    __slots__ = ("rec",)

    def __init__(self, rec):
        self.rec = rec

    def __enter__(self):
        self.rec.hold += 1

    def __exit__(self, *exc):
        self.rec.hold -= 1

