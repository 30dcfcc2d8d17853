"""Buffer mappings (read-backs, fences), waited on interruptibly.

wgpu-py's ``map_sync`` waits for a promise that a Python callback resolves. Two ways it
failed under repeated Ctrl-C: a KeyboardInterrupt raised while that callback
ran left the promise unresolved, so the next wait blocked for good; and an interrupted
``map_sync`` dropped a promise whose callback the driver could still call.

Here a mapping is started natively with one module-level callback, never freed, that records
the outcome under the mapping's number; its ``onerror`` completes the record when an
interrupt lands inside the callback, and keeps that KeyboardInterrupt for the wait to raise.
The wait polls the device without blocking, between short sleeps, so signal handlers run
at once. A mapping is registered before it starts and stays registered until it is finished
or, if its wait was interrupted, until its outcome arrives (``reap``): only then is its
buffer unmapped and handed back, so a buffer with a pending map is never reused.

Callers hold the runtime lock, and run ``start`` / ``finish`` / ``reap`` inside
``deferred_interrupts()``.
"""

import itertools
import time

import numpy as np
from wgpu.backends.wgpu_native._ffi import ffi, lib

__all__ = ["Mappings"]

_SUCCESS = lib.WGPUMapAsyncStatus_Success
_MAX_SLEEP = 1e-3
_outcome = {}      # mapping number -> (WGPUMapAsyncStatus, message)
_interrupts = []   # KeyboardInterrupts (or SystemExit) raised inside the callback
_numbers = itertools.count(1)


def _number(userdata):
    return int(ffi.cast("uintptr_t", userdata))


def _text(view):
    return ffi.string(view.data, view.length).decode(errors="replace") if view.data else ""


def _on_error(exc_type, exc_value, tb):
    # the callback was interrupted: its frame still holds the arguments
    loc = tb.tb_frame.f_locals if tb is not None else {}
    if "status" in loc and "u1" in loc:
        _outcome.setdefault(_number(loc["u1"]), (int(loc["status"]), ""))
    if exc_type is not None and not issubclass(exc_type, Exception):
        _interrupts.append(exc_value)


@ffi.callback("void(WGPUMapAsyncStatus, WGPUStringView, void *, void *)", onerror=_on_error)
def _on_mapped(status, message, u1, u2):
    _outcome[_number(u1)] = (int(status), "" if status == _SUCCESS else _text(message))


class Mapping:
    __slots__ = ("buffer", "size", "number", "release", "waiting")

    def __init__(self, buffer, size, release):
        self.buffer = buffer
        self.size = size
        self.number = next(_numbers)
        self.release = release
        self.waiting = False


class Mappings:
    """The MAP_READ mappings of one device that are started and not yet finished.

    ``spin_s``: a wait polls without sleeping for this long first (a GPU answers a small
    read in tens of microseconds, and the sleeps' granularity would add more than that);
    0 on CPU adapters, whose work runs on the cores a spinning host would take."""

    def __init__(self, device, spin_s=0.0):
        self.device = device
        self.active = {}  # number -> Mapping
        self.spin_s = spin_s
        self.progress = None  # the recorder's (progress.py): abandoned work, slow waits

    def start(self, buffer, size, release):
        """Map ``buffer[0:size]`` for reading; ``release(buffer, size)`` takes the buffer
        back once it is unmapped again."""
        m = Mapping(buffer, size, release)
        self.active[m.number] = m
        info = ffi.new("WGPUBufferMapCallbackInfo *")
        info.mode = lib.WGPUCallbackMode_AllowProcessEvents
        info.callback = _on_mapped
        info.userdata1 = ffi.cast("void *", m.number)
        lib.wgpuBufferMapAsync(buffer._internal, lib.WGPUMapMode_Read, 0, size, info[0])
        return m

    def busy(self, buffer):
        return any(m.buffer is buffer for m in self.active.values())

    def _poll(self):
        dev = self.device._internal
        if dev:
            lib.wgpuDevicePoll(dev, False, ffi.NULL)

    def wait(self, m):
        """Until ``m``'s outcome arrives. Interruptible: a KeyboardInterrupt leaves ``m``
        registered (``reap`` finishes it later). A failed mapping raises RuntimeError with
        wgpu's message (the caller translates it)."""
        delay = 0.0
        m.waiting = True
        t0 = time.perf_counter()
        spin_until = t0 + self.spin_s if self.spin_s else 0.0
        progress = self.progress
        bar = progress.display() if progress is not None else None
        seen = 0
        try:
            while m.number not in _outcome:
                if spin_until:
                    self._poll()
                    if _interrupts:
                        raise _interrupts.pop()
                    if time.perf_counter() < spin_until:
                        continue
                    spin_until = 0.0
                self._poll()
                if _interrupts:
                    raise _interrupts.pop()
                if m.number in _outcome:
                    break
                if progress is not None and progress.abandoned:
                    progress.slow_wait(t0)
                if bar is not None and bar.due():
                    seen = progress.tick(bar, seen)
                time.sleep(delay)
                delay = min(max(2 * delay, 2e-5), _MAX_SLEEP)
        except BaseException as exc:
            if progress is not None and not isinstance(exc, Exception):
                progress.abandon()
            raise
        finally:
            m.waiting = False
            if bar is not None:
                bar.close()
        status, message = _outcome[m.number]
        if status != _SUCCESS:
            self._forget(m)
            raise RuntimeError(f"mapping a read-back buffer failed (status {status}): {message}")

    def finish(self, m, nbytes):
        """A host copy of the first ``nbytes`` bytes of a mapped ``m``; unmaps it."""
        h = m.buffer._internal
        out = None
        if nbytes:
            ptr = lib.wgpuBufferGetConstMappedRange(h, 0, m.size)
            out = np.frombuffer(ffi.buffer(ptr, nbytes), np.uint8).copy()
        lib.wgpuBufferUnmap(h)
        self._forget(m)
        return out

    def _forget(self, m):
        self.active.pop(m.number, None)
        _outcome.pop(m.number, None)
        m.release(m.buffer, m.size)

    def reap(self):
        """Finish the mappings whose waits were interrupted, once their outcome is in."""
        if not self.active:
            return
        self._poll()
        for m in list(self.active.values()):
            if m.waiting or m.number not in _outcome:
                continue
            if _outcome[m.number][0] == _SUCCESS:
                lib.wgpuBufferUnmap(m.buffer._internal)
            self._forget(m)
