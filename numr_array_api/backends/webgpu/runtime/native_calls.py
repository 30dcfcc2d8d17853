"""Counting the calls into wgpu-native: the host cost of a small op is mostly their number.

    from numr_array_api.backends.webgpu.runtime.native_calls import count_native_calls
    with count_native_calls() as calls:
        y = x + 1
        xp.synchronize()
    print(sum(calls.values()), dict(calls))

Every ``wgpu*`` function reached through wgpu-native's cffi library is counted by name:
those numr's runtime calls directly (the recorder's native batches, mappings, queue markers)
and those wgpu-py's objects make for it (``queue.write_buffer``, ``device.create_*``, object
releases). The counting proxy replaces the library references of the modules that hold one
while the context is open, so it is for tests and benchmarks, not for threads that run other
work meanwhile. ``wgpuDevicePoll`` depends on how long the device takes; ``steady(calls)``
leaves it out.
"""

from __future__ import annotations

import collections
import contextlib
import sys

__all__ = ["count_native_calls", "steady", "POLL"]

POLL = "wgpuDevicePoll"


class _Counting:
    """Stands for a cffi library (or wgpu-py's error-capturing copy of it)."""

    def __init__(self, target, counts):
        self._target = target
        self._counts = counts
        self._wrapped = {}

    def __getattr__(self, name):
        fn = getattr(self._target, name)
        if not name.startswith("wgpu") or not callable(fn):
            return fn
        w = self._wrapped.get(name)
        if w is None:
            counts = self._counts

            def w(*args):
                counts[name] += 1
                return fn(*args)
            self._wrapped[name] = w
        return w


@contextlib.contextmanager
def count_native_calls():
    """A Counter of native calls by function name, filled while the context is open."""
    from wgpu.backends.wgpu_native import _api, _ffi
    counts = collections.Counter()
    targets = {id(_ffi.lib): _ffi.lib, id(_api.libf): _api.libf}
    proxies = {k: _Counting(v, counts) for k, v in targets.items()}
    saved = []
    for mod in list(sys.modules.values()):
        name = getattr(mod, "__name__", None) or ""
        if not (name.startswith("numr_array_api") or name.startswith("wgpu.")):
            continue
        d = getattr(mod, "__dict__", None)
        if d is None:
            continue
        for attr, value in list(d.items()):
            if id(value) in targets and value is targets[id(value)]:
                saved.append((d, attr, value))
    try:
        for d, attr, value in saved:
            d[attr] = proxies[id(value)]
        yield counts
    finally:
        for d, attr, value in saved:
            d[attr] = value


def steady(calls):
    """The calls whose number does not depend on the device's timing (all but polls)."""
    return sum(n for name, n in calls.items() if name != POLL)
