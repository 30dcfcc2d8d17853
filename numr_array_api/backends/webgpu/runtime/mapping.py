"""Buffer mappings (read-backs) and queue markers (synchronize), waited on interruptibly.

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
buffer unmapped and handed back, so a buffer with a pending map is never reused. A queue
marker (``mark``: wgpuQueueOnSubmittedWorkDone) is the same record without a buffer.

Callers hold the runtime lock, and run ``start`` / ``finish`` / ``reap`` inside
``deferred_interrupts()``.
"""

import itertools
import os
import time

import numpy as np
from wgpu.backends.wgpu_native._ffi import ffi, lib

__all__ = ["Mappings"]

_SUCCESS = lib.WGPUMapAsyncStatus_Success
_MAX_SLEEP = 1e-3
_outcome = {}      # mapping number -> (WGPUMapAsyncStatus, message)
_interrupts = []   # KeyboardInterrupts (or SystemExit) raised inside the callback
_numbers = itertools.count(1)
_sched_yield = getattr(os, "sched_yield", lambda: time.sleep(0))


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


_DONE = lib.WGPUQueueWorkDoneStatus_Success   # (1, as _SUCCESS: _on_error records either)


@ffi.callback("void(WGPUQueueWorkDoneStatus, WGPUStringView, void *, void *)", onerror=_on_error)
def _on_done(status, message, u1, u2):
    # a marker's outcome in a mapping's terms: the waits compare outcomes with _SUCCESS
    _outcome[_number(u1)] = (_SUCCESS, "") if status == _DONE else (int(status), _text(message))


def _keep(buffer, size):
    """A marker has no buffer to hand back."""


class Mapping:
    __slots__ = ("buffer", "size", "number", "release", "waiting")

    def __init__(self, buffer, size, release):
        self.buffer = buffer
        self.size = size
        self.number = next(_numbers)
        self.release = release
        self.waiting = False


class Mappings:
    """The MAP_READ mappings (and queue markers) of one device that are started and not
    yet finished.

    How a wait polls (``poll_wait``, the MAP_WAIT knob), for its first ``spin_s``:
    ``spin`` polls without pausing (a GPU answers a small read in tens of microseconds,
    and a sleep's granularity, ~60 us past its request with Linux's default timer slack,
    would add more than that); ``yield`` gives the core away between polls
    (``sched_yield``: a CPU adapter's work runs on the cores a spinning host would take,
    and a sleep would overshoot); ``block`` makes one blocking device poll, which returns
    when the queue is idle: no polling cost, but no Ctrl-C until the work is done, so no
    table picks it. After ``spin_s`` a wait polls between sleeps growing to 1 ms."""

    def __init__(self, device, spin_s=0.0):
        self.device = device
        self.active = {}  # number -> Mapping
        self.spin_s = spin_s
        self.poll_wait = "spin"
        self.progress = None  # the recorder's (progress.py): abandoned work, slow waits
        # callback descriptors reused by every start / mark (both calls copy them)
        self._map_info = ffi.new("WGPUBufferMapCallbackInfo *")
        self._map_info.mode = lib.WGPUCallbackMode_AllowProcessEvents
        self._map_info.callback = _on_mapped
        self._done_info = ffi.new("WGPUQueueWorkDoneCallbackInfo *")
        self._done_info.mode = lib.WGPUCallbackMode_AllowProcessEvents
        self._done_info.callback = _on_done

    def start(self, buffer, size, release):
        """Map ``buffer[0:size]`` for reading; ``release(buffer, size)`` takes the buffer
        back once it is unmapped again."""
        m = Mapping(buffer, size, release)
        self.active[m.number] = m
        info = self._map_info
        info.userdata1 = ffi.cast("void *", m.number)
        lib.wgpuBufferMapAsync(buffer._internal, lib.WGPUMapMode_Read, 0, size, info[0])
        return m

    def mark(self, queue):
        """A marker that completes once everything submitted to ``queue`` so far has run;
        waited for and finished like a mapping (``finish(m, 0)``). Cheaper than mapping a
        fence buffer: no copy command in the batch, no map or unmap call."""
        m = Mapping(None, 0, _keep)
        self.active[m.number] = m
        info = self._done_info
        info.userdata1 = ffi.cast("void *", m.number)
        lib.wgpuQueueOnSubmittedWorkDone(queue._internal, info[0])
        return m

    def _poll(self):
        dev = self.device._internal
        if dev:
            lib.wgpuDevicePoll(dev, False, ffi.NULL)

    def wait(self, m):
        """Until ``m``'s outcome arrives. Interruptible (but see ``block``): a
        KeyboardInterrupt leaves ``m`` registered (``reap`` finishes it later). A failed
        mapping raises RuntimeError with wgpu's message (the caller translates it)."""
        number = m.number
        m.waiting = True
        try:
            if number not in _outcome:
                self._poll()
                if _interrupts:
                    raise _interrupts.pop()
                if number not in _outcome:
                    self._wait_long(m)
        except BaseException as exc:
            progress = self.progress
            if progress is not None and not isinstance(exc, Exception):
                progress.abandon()
            raise
        finally:
            m.waiting = False
        status, message = _outcome[number]
        if status != _SUCCESS:
            self._forget(m)
            what = "mapping a read-back buffer" if m.buffer is not None else \
                "waiting for the queue"
            raise RuntimeError(f"{what} failed (status {status}): {message}")

    def _wait_long(self, m):
        """wait's loop, once the first poll found ``m`` incomplete."""
        number = m.number
        t0 = time.perf_counter()
        spin_until = t0 + self.spin_s if self.spin_s else 0.0
        progress = self.progress
        mode = self.poll_wait
        dev = self.device._internal
        if mode == "block" and spin_until and dev:
            while number not in _outcome:
                lib.wgpuDevicePoll(dev, True, ffi.NULL)
                if _interrupts:
                    raise _interrupts.pop()
            return
        pause = _sched_yield if mode == "yield" else None
        bar = progress.display() if progress is not None else None
        seen = 0
        delay = 0.0
        try:
            while number not in _outcome:
                if spin_until:
                    self._poll()
                    if _interrupts:
                        raise _interrupts.pop()
                    if time.perf_counter() < spin_until:
                        if pause is not None and number not in _outcome:
                            pause()
                        continue
                    spin_until = 0.0
                self._poll()
                if _interrupts:
                    raise _interrupts.pop()
                if number in _outcome:
                    break
                if progress is not None and progress.abandoned:
                    progress.slow_wait(t0)
                if bar is not None and bar.due():
                    seen = progress.tick(bar, seen)
                time.sleep(delay)
                delay = min(max(2 * delay, 2e-5), _MAX_SLEEP)
        finally:
            if bar is not None:
                bar.close()

    def finish(self, m, nbytes):
        """A host copy of the first ``nbytes`` bytes of a mapped ``m``; unmaps it (a marker:
        only forgets it)."""
        out = None
        if m.buffer is not None:
            h = m.buffer._internal
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
            if _outcome[m.number][0] == _SUCCESS and m.buffer is not None:
                lib.wgpuBufferUnmap(m.buffer._internal)
            self._forget(m)
