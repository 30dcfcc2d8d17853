"""Feedback on long waits: an opt-in progress bar (tqdm) while the host waits for a device.

GPU work runs asynchronously: a 10M-element sort on a CPU adapter or a large factorisation
returns at once and the time shows up where the host first needs a result (a read,
``synchronize()``). Off by default (a library should not write to stderr unasked); on, a
wait that has lasted ``delay`` seconds draws a bar with the device's progress through the
work queued before it, submissions done out of submissions queued on webgpu, elapsed time on
cuda (a CUDA stream reports no progress within it), and closes it when the wait ends.

    numr_array_api.show_progress()              # from now on (NUMR_PROGRESS=1: from the start)
    with numr_array_api.progress(delay=0.0):    # for a block
        x = xp.sort(big); xp.synchronize()

Scale-out computations have their own bar: Cubed's ``TqdmProgressBar`` callback
(docs/scale-out.md).
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any, Iterator

from . import environment
from .errors import InvalidArgument

__all__ = ["show_progress", "progress", "enabled", "waiting", "Wait"]

_lock = threading.Lock()
_state: dict[str, Any] = {"on": None, "delay": 0.5}   # on: None until the environment is read
_TICK_S = 0.1   # the bar is redrawn (and the device asked) at most this often


def _tqdm():
    try:
        from tqdm.auto import tqdm
    except ImportError:
        raise ImportError("numr's progress display draws with tqdm, which is not installed: "
                          "pip install tqdm") from None
    return tqdm


def enabled() -> bool:
    """Whether waits draw a bar (one dict read once the environment was read)."""
    on = _state["on"]
    if on is None:
        with _lock:
            text = environment.get("NUMR_PROGRESS").lower()
            on = text in ("1", "true", "yes", "on")
            if on:
                _tqdm()
            _state["on"] = on
    return on


def _check_delay(delay: float) -> float:
    try:
        d = float(delay)
    except (TypeError, ValueError):
        d = -1.0
    if not d >= 0.0:    # also NaN
        raise InvalidArgument("delay", f"must be a number of seconds >= 0, got {delay!r}")
    return d


def show_progress(enabled: bool = True, *, delay: float = 0.5) -> None:
    """Draw a progress bar (tqdm) for every wait on a device that lasts ``delay`` seconds
    (process-wide; ``show_progress(False)`` turns it off). Needs tqdm."""
    d = _check_delay(delay)
    if enabled:
        _tqdm()
    with _lock:
        _state["on"], _state["delay"] = bool(enabled), d


@contextlib.contextmanager
def progress(delay: float = 0.5) -> Iterator[None]:
    """``with progress(): ...``: the bar for the block's waits, the previous setting after."""
    d = _check_delay(delay)
    _tqdm()
    was = (enabled(), _state["delay"])
    with _lock:
        _state["on"], _state["delay"] = True, d
    try:
        yield
    finally:
        with _lock:
            _state["on"], _state["delay"] = was


class Wait:
    """One wait's bar, drawn once the wait has lasted the delay. ``tick(done, total)`` from
    the waiting loop (cheap between redraws); ``close()`` when the wait ends."""

    __slots__ = ("label", "unit", "t0", "next", "bar", "delay")

    def __init__(self, label: str, unit: str):
        self.label, self.unit = label, unit
        self.t0 = time.perf_counter()
        self.delay = _state["delay"]
        self.next = self.t0 + self.delay
        self.bar = None

    def due(self) -> bool:
        """Whether a redraw is due (the caller then asks the device and calls tick)."""
        return time.perf_counter() >= self.next

    def tick(self, done: int | None = None, total: int | None = None) -> None:
        now = time.perf_counter()
        self.next = now + _TICK_S
        if self.bar is None:
            self.bar = _tqdm()(desc=self.label, unit=self.unit, total=total, leave=False,
                               initial=done or 0, mininterval=_TICK_S)
        bar = self.bar
        if total is not None and total != bar.total:
            bar.total = total
        if done is not None and done > bar.n:
            bar.update(done - bar.n)
        else:
            bar.refresh()

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def waiting(label: str, unit: str = "submission") -> Wait | None:
    """A Wait for a loop that is about to wait on a device, or None when the display is off
    (the hot path: one dict read)."""
    return Wait(label, unit) if (_state["on"] or (_state["on"] is None and enabled())) else None
