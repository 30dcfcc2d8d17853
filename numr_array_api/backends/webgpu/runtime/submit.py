"""Batched submission: one open command encoder + compute pass per batch.

Dispatches are recorded into the open pass and submitted together when the host needs a
result (read-back, ``synchronize``), when a buffer that pending work uses is about to be
overwritten by ``queue.write_buffer``, when the uniform ring is full, or after ``threshold``
dispatches. The recorder remembers which buffers unsubmitted dispatches use, so the pool
keeps them away from host writes until the submit (see allocator.py).
"""

import os

import wgpu

from .errors import translate

DEFAULT_THRESHOLD = int(os.environ.get("NUMR_WEBGPU_BATCH", "128"))
_RING_BYTES = 1 << 18


class Recorder:
    def __init__(self, client, threshold=DEFAULT_THRESHOLD):
        self.client = client
        self.device = client.device
        self.queue = client.device.queue
        self.threshold = max(1, threshold)
        self.encoder = None
        self.cpass = None
        self.pending_ids = set()  # id() of wgpu buffers used by unsubmitted dispatches
        self.recorded = 0
        self.capture = None  # list of dispatch records while a graph is being captured
        self._last_pipe = self._last_bg = None
        self.dispatches = 0
        self.submits = 0
        # uniform ring for per-dispatch params when immediates are unavailable (or too small)
        self.ring_align = max(16, client.limits.get("min-uniform-buffer-offset-alignment", 256))
        self.ring = None
        self._ring_host = None
        self._ring_used = 0
        # a tiny buffer to map: waiting on it waits for the whole queue (in-order execution)
        # created up front: wait() runs inside out-of-memory recovery (empty_cache), where
        # allocating would fail too
        self._fence = self.device.create_buffer(
            size=256, usage=wgpu.BufferUsage.MAP_READ | wgpu.BufferUsage.COPY_DST)
        self._fence_src = self.device.create_buffer(size=256, usage=wgpu.BufferUsage.COPY_SRC)

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
    def dispatch(self, pipe, bind_group, params, workgroups, blocks):
        if pipe.uniform_size:
            roff = self._ring_put(params, pipe.uniform_size)
        if self.cpass is None:
            self.encoder = self.device.create_command_encoder()
            self.cpass = self.encoder.begin_compute_pass()
            self._last_pipe = self._last_bg = None
        cp = self.cpass
        # pass state persists between dispatches: skip re-setting what a chain repeats
        if pipe is not self._last_pipe:
            cp.set_pipeline(pipe.pipeline)
            self._last_pipe = pipe
            self._last_bg = None
        if pipe.uniform_size:
            cp.set_bind_group(0, bind_group, (roff,))
            self._last_bg = None
        else:
            if bind_group is not self._last_bg:
                cp.set_bind_group(0, bind_group)
                self._last_bg = bind_group
            if pipe.imm_size:
                cp.set_immediates(0, params, 0, pipe.imm_size)
        cp.dispatch_workgroups(*workgroups)
        ids = self.pending_ids
        for b in blocks:
            ids.add(id(b.buffer))
        self.recorded += 1
        self.dispatches += 1
        if self.capture is not None:
            self.capture.append((pipe, bind_group, params, workgroups, blocks))
        if self.recorded >= self.threshold:
            self.flush()

    def is_pending(self, buffer):
        return id(buffer) in self.pending_ids

    def flush(self, copies=()):
        """Submit recorded work, plus ``copies`` (src, src_off, dst, dst_off, n) after it."""
        if self.cpass is None and not copies:
            return
        enc, cp = self.encoder, self.cpass
        self.encoder = self.cpass = None
        self.pending_ids = set()
        self.recorded = 0
        ring_used, self._ring_used = self._ring_used, 0
        try:
            if cp is not None:
                cp.end()
            if enc is None:
                enc = self.device.create_command_encoder()
            for src, so, dst, do, n in copies:
                enc.copy_buffer_to_buffer(src, so, dst, do, n)
            cb = enc.finish()
            if ring_used:
                self.queue.write_buffer(self.ring, 0, memoryview(self._ring_host)[:ring_used])
            self.queue.submit([cb])
        except Exception as exc:
            raise translate(exc, "command submission") from exc
        finally:
            self.client.pool.submitted()  # submitted or dropped: nothing pending reads them
        self.submits += 1

    def wait(self):
        """Submit everything and block until the queue is idle."""
        self.flush(copies=((self._fence_src, 0, self._fence, 0, 4),))
        try:
            self._fence.map_sync(wgpu.MapMode.READ, 0, 256)
            self._fence.unmap()
        except Exception as exc:
            raise translate(exc, "synchronize") from exc

    def stats(self):
        return {"dispatches": self.dispatches, "submits": self.submits,
                "recorded_unsubmitted": self.recorded, "batch_threshold": self.threshold}
