"""How far the queue has got, interruptible waits for it, and paced long operations.

A dispatch that has started cannot be cancelled (WebGPU has no such call), so what a Ctrl-C
can stop is what has not been submitted yet. Three things keep that small and every wait
interruptible:

- ``Progress`` places markers (``wgpuQueueOnSubmittedWorkDone``) and waits for them by
  polling between short sleeps, so a SIGINT is raised at once. On a CPU adapter (lavapipe)
  ``wgpuQueueSubmit`` itself blocks until the work submitted before has run (Mesa runs a
  submission in the submitting thread once the previous one is done), where no signal
  handler can run: the recorder waits here first (``Recorder.flush``).
- ``paced`` runs an operation made of many independent steps (the boxes of a reduction or
  an elementwise op over more than one binding) one submission a step, with at most
  ``depth`` steps queued: an interrupt abandons at most that much work, and the recorded,
  unsubmitted rest is dropped (``Recorder.discard``).
- Work abandoned by an interrupt is remembered (``abandon``): a later wait that spends more
  than ``WARN_S`` on it warns, naming the cause, instead of stalling silently.
"""

import collections
import itertools
import time
import warnings

from wgpu.backends.wgpu_native._ffi import ffi, lib

from ...._core.progress import waiting
from .concurrency import deferred_interrupts
# one list for every callback of the runtime: a device poll runs mapping and marker callbacks
# alike, and whichever wait polled raises what an interrupt left there
from .mapping import _interrupts

__all__ = ["Progress", "paced", "WARN_S"]

WARN_S = 1.0       # a wait on abandoned work longer than this warns (once per abandonment)
_MAX_SLEEP = 1e-3
_done = set()      # marker tokens whose work has completed (or whose queue went away)
_tokens = itertools.count(1)


def _on_error(exc_type, exc_value, tb):
    loc = tb.tb_frame.f_locals if tb is not None else {}
    if "u1" in loc:
        _done.add(int(ffi.cast("uintptr_t", loc["u1"])))
    if exc_type is not None and not issubclass(exc_type, Exception):
        _interrupts.append(exc_value)


@ffi.callback("void(WGPUQueueWorkDoneStatus, WGPUStringView, void *, void *)", onerror=_on_error)
def _on_done(status, message, u1, u2):
    _done.add(int(ffi.cast("uintptr_t", u1)))


class Progress:
    """The markers of one device's queue. Callers hold the runtime lock."""

    def __init__(self, device, queue):
        self.device = device
        self.queue = queue
        self.marks = collections.deque()  # tokens not yet seen done, oldest first
        self.abandoned = 0  # the marker after work an interrupt abandoned; 0: none
        self.weights = {}   # marker -> dispatches before it (while the progress bar is on)
        self.warned = False
        self._info = ffi.new("WGPUQueueWorkDoneCallbackInfo *")
        self._info.mode = lib.WGPUCallbackMode_AllowProcessEvents
        self._info.callback = _on_done

    def mark(self, dispatches=0):
        """A marker after everything submitted so far; its token (tracked once registered:
        an interrupt between the two leaves nothing to wait for). ``dispatches``: how many
        the submission it follows holds (the progress bar counts them)."""
        tok = next(_tokens)
        self._info.userdata1 = ffi.cast("void *", tok)
        lib.wgpuQueueOnSubmittedWorkDone(self.queue._internal, self._info[0])
        self.marks.append(tok)
        if dispatches:
            self.weights[tok] = dispatches
        return tok

    def _poll(self):
        dev = self.device._internal
        # wgpuDevicePoll answers whether the queue is empty (a C bool: its low byte); an
        # empty queue has run every marker's work, even one whose callback an interrupt
        # lost (a SIGINT inside the callback's error path), so no wait can outlast the work
        empty = bool(lib.wgpuDevicePoll(dev, False, ffi.NULL) & 0xFF) if dev else False
        if _interrupts:
            raise _interrupts.pop()
        marks, weights = self.marks, self.weights
        while marks and marks[0] in _done:  # the queue runs in order
            tok = marks.popleft()
            _done.discard(tok)
            weights.pop(tok, None)
        if empty and marks:
            marks.clear()
            weights.clear()
        if self.abandoned and (not marks or marks[0] > self.abandoned):
            self.abandoned, self.warned = 0, False

    def display(self):
        """A progress bar for a wait about to start (None while the display is off): ``bar``
        for ``tick`` below."""
        return waiting("numr webgpu: GPU work", unit="dispatch")

    def tick(self, bar, seen):
        """Redraws ``bar`` with the dispatches done since the wait began (every submission
        is marked with its count while the display is on); returns the most seen queued."""
        self._poll()
        weights = self.weights
        left = sum(weights.get(t, 0) for t in self.marks)
        seen = max(seen, left)
        bar.tick(seen - left, seen)
        return seen

    def busy(self):
        """Whether a marked submission has not completed yet."""
        if self.marks:
            self._poll()
        return bool(self.marks)

    def wait(self, tok=None):
        """Until the marker ``tok`` (default: the newest) is reached. Interruptible: the
        interrupt records the queued work as abandoned."""
        if not self.marks:
            return
        tok = self.marks[-1] if tok is None else tok
        t0 = time.perf_counter()
        delay = 0.0
        bar, seen = self.display(), 0
        try:
            while True:
                self._poll()
                if not self.marks or self.marks[0] > tok:
                    return
                self.slow_wait(t0)
                if bar is not None and bar.due():
                    seen = self.tick(bar, seen)
                time.sleep(delay)
                delay = min(max(2 * delay, 2e-5), _MAX_SLEEP)
        except BaseException as exc:
            if not isinstance(exc, Exception):
                self.abandon()
            raise
        finally:
            if bar is not None:
                bar.close()

    def abandon(self):
        """An interrupt left the work submitted so far to run on without a caller."""
        with deferred_interrupts():
            if self.device._internal:
                self.abandoned = self.mark()

    def slow_wait(self, t0):
        """Called by waiting loops: warns once when a wait started at ``t0`` has spent more
        than WARN_S on work an interrupt abandoned."""
        if self.abandoned and not self.warned and time.perf_counter() - t0 > WARN_S:
            self.warned = True
            warnings.warn(
                "numr_array_api.webgpu: waiting for GPU work that a KeyboardInterrupt "
                "abandoned (a dispatch that has started runs to its end; Ctrl-C again "
                "stops this wait)", RuntimeWarning, stacklevel=4)


class _Paced:
    __slots__ = ("rec", "on", "steps")

    def __init__(self, rec):
        self.rec = rec

    def __enter__(self):
        rec = self.rec
        # a captured graph replays the whole call; a profile times each dispatch
        self.on = rec.capture is None and rec.prof is None and not rec.hold
        if self.on:
            if rec.watch is not None and not rec.watch.bad:
                rec.watch.bad = "a paced operation"  # a replay would not pace it

            rec.flush()  # the steps' batches then hold this operation's work only
            self.steps = collections.deque()
        return self

    def step(self):
        """The work recorded since the last step is one step: submitted now; waits
        (interruptibly) while more than the adapter's ``pace_depth`` steps are queued."""
        if not self.on:
            return
        rec = self.rec
        rec.flush()
        self.steps.append(rec.progress.mark())
        while len(self.steps) >= rec.pace_depth:
            rec.progress.wait(self.steps.popleft())

    def __exit__(self, exc_type, exc, tb):
        if self.on and exc_type is not None:
            self.rec.discard()
            if not issubclass(exc_type, Exception):
                self.rec.progress.abandon()
        return False


def paced(rec):
    """``with paced(recorder) as p:`` ... ``p.step()`` after each step's dispatches."""
    return _Paced(rec)
