"""Per-device clients: a compute stream every numr kernel runs on, a copy stream for
device-to-host copies that overlap compute (numr's ``copy_from_device_pipelined``)."""

import time

from ..._core.progress import waiting
from .memory import DeviceAllocator

__all__ = ["DeviceClient", "PendingCopy"]


class DeviceClient:
    """The canonical client of one device (one per index, like numr's CudaClient)."""

    def __init__(self, runtime, index):
        cupy = runtime.cupy
        self.runtime = runtime
        self.cupy = cupy
        self.index = index
        with cupy.cuda.Device(index):
            # blocking w.r.t. the legacy default stream: a thread that never made the
            # compute stream current (CuPy's current stream is thread-local) still runs in
            # order with numr's work
            self.compute = cupy.cuda.Stream(non_blocking=False)
            self.copy = cupy.cuda.Stream(non_blocking=True)
            self.allocator = DeviceAllocator(cupy, index, self.compute)
            self.compute.use()
        self._current = cupy.cuda.get_current_stream
        self.capturing = False
        self.sobol_cache = {}

    def bind_thread(self):
        """Make the compute stream CuPy's current stream of this device in this thread.

        Checked rather than remembered: CuPy's current stream is thread-local, and leaving a
        ``with stream:`` block resets it to the stream stack's top (the legacy stream), not
        to the stream ``use()`` had set."""
        if self._current(self.index).ptr != self.compute.ptr:
            with self.cupy.cuda.Device(self.index):
                self.compute.use()

    def synchronize(self):
        bar = waiting("numr cuda: GPU work", unit="s")
        if bar is not None:
            # a stream tells only whether it is done: the bar shows the time waited
            try:
                while not self.compute.done:
                    if bar.due():
                        bar.tick()
                    time.sleep(1e-3)
            finally:
                bar.close()
        self.compute.synchronize()
        self.copy.synchronize()

    def copy_from_device_pipelined(self, data, out=None):
        """Start a device-to-host copy on the copy stream after the compute stream's pending
        work on ``data``; returns a PendingCopy at once (the compute stream keeps going)."""
        cupy = self.cupy
        with cupy.cuda.Device(self.index):
            src = data if data.flags.c_contiguous else cupy.ascontiguousarray(data)
            ready = cupy.cuda.Event(block=False, disable_timing=True)
            ready.record(self.compute)
            self.copy.wait_event(ready)
            if out is None:
                import cupyx
                out = cupyx.empty_pinned(src.shape, dtype=src.dtype)
            src.get(stream=self.copy, out=out, blocking=False)
            done = cupy.cuda.Event(block=False, disable_timing=True)
            done.record(self.copy)
        return PendingCopy(self, src, out, done)


class PendingCopy:
    """A device-to-host copy in flight on the copy stream."""

    __slots__ = ("_client", "_src", "_out", "_done")

    def __init__(self, client, src, out, done):
        self._client = client
        self._src = src
        self._out = out
        self._done = done

    def ready(self):
        return self._done.done

    def wait(self):
        """Block until the copy is complete (only the copy stream is waited on); the host
        NumPy array (pinned memory)."""
        if self._src is not None:
            self._done.synchronize()
            self._src = None
        return self._out

    result = wait

    def __del__(self):
        # dropped unwaited: the copy still writes into ``_out`` (pinned host memory that goes
        # back to CuPy's pinned pool with this object, to be handed to the next host staging
        # copy) and reads ``_src`` (a device block the compute stream may reuse), so both
        # must outlive it: wait for the copy here
        try:
            if self._src is not None:
                self._done.synchronize()
        except Exception:
            pass
