"""GPU time per kernel, from timestamp queries: where a multi-dispatch op spends its time.

    from numr_array_api.backends.webgpu.runtime.profile import profile
    with profile() as p:
        xp.linalg.qr(a)
    print(p.report())

While a profile is open, every dispatch the recorder records gets a compute pass of its own
whose beginning and end write timestamps (WebGPU ``timestamp-query``); the query results
are resolved into a buffer at each submit and read back when the profile closes. A pass per
dispatch changes the schedule a little (no two dispatches of one pass overlap anyway: wgpu
puts a barrier between dependent ones), so totals are for finding where time goes, not for
benchmark tables. Graph replays (``Recorder.replay``) and recipe replays
(``runtime/recipes.py``) are timed per dispatch too.

wgpu-native resolves raw ticks unless the instance asked for normalisation, so stamps are
scaled by ``wgpuQueueGetTimestampPeriod`` (1.0 on lavapipe and NVIDIA, not everywhere).

``NUMR_WEBGPU_PROFILE=1`` profiles the whole process instead and prints the report to
stderr at exit (``NUMR_WEBGPU_PROFILE=label``: by full label); every submit's stamps stay
on the device until then, 16 bytes a dispatch.

Off (the default) it costs the recorder one attribute test per dispatch.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import struct
import sys
import time
import warnings

import wgpu
from wgpu.backends.wgpu_native._ffi import lib as _lib

from ...._core.errors import BackendLimitation

PAIRS = 2048   # dispatches per query set; a full one is resolved and a fresh one taken


class Profiler:
    def __init__(self, client):
        if "timestamp-query" not in client.device.features:
            raise BackendLimitation("webgpu", "profile",
                                    "the device was not granted 'timestamp-query'")
        self.client = client
        self.period = float(_lib.wgpuQueueGetTimestampPeriod(client.queue._internal)) or 1.0
        self.qs = self._query_set()
        self.n = 0            # query pairs written in the open batch
        self.labels = []      # labels of the open batch's dispatches
        self.batches = []     # (resolve buffer, labels, query set) per resolved batch
        self.wall_s = 0.0

    def _query_set(self):
        return self.client.device.create_query_set(type=wgpu.QueryType.timestamp,
                                                   count=2 * PAIRS)

    # ---- the recorder's hooks -----------------------------------------------------------
    def split(self, rec, pipe):
        """Before ``pipe``'s dispatch: close the open pass, open one with timestamps."""
        if rec.raw_batch and rec.cpass is not None:
            rec.flush()   # a batch on native handles (opened before the profile) goes first
        enc = rec.encoder
        if rec.cpass is not None:
            rec.cpass.end()
            rec.cpass = None
        if enc is None:
            enc = rec.device.create_command_encoder()
        if self.n == PAIRS:
            # resolved here and continued in a fresh set, not submitted: a submit would
            # recycle the uniform ring under the params this dispatch already put there
            self.resolve(enc)
            self.qs = self._query_set()
        cp = enc.begin_compute_pass(timestamp_writes={
            "query_set": self.qs, "beginning_of_pass_write_index": 2 * self.n,
            "end_of_pass_write_index": 2 * self.n + 1})
        rec.encoder, rec.cpass, rec._cp_handle = enc, cp, cp._internal
        rec.raw_batch = False
        rec._last_pipe = rec._last_bg = None
        self.labels.append(getattr(pipe, "label", None) or "?")
        self.n += 1

    def resolve(self, enc):
        """Before the batch's encoder finishes: its timestamps into a readable buffer."""
        if not self.n:
            return
        buf = self.client.device.create_buffer(
            size=16 * self.n, usage=wgpu.BufferUsage.QUERY_RESOLVE | wgpu.BufferUsage.COPY_SRC)
        enc.resolve_query_set(self.qs, 0, 2 * self.n, buf, 0)
        self.batches.append((buf, self.labels, self.qs))   # the set lives until submitted
        self.labels = []
        self.n = 0

    # ---- results ------------------------------------------------------------------------
    def entries(self):
        """(label, start ns, end ns) of every profiled dispatch, in recording order; ns
        from the profile's first stamp (a tick count times a period is not exact)."""
        q = self.client.device.queue
        raw = []
        for buf, labels, _ in self.batches:
            ts = struct.unpack(f"<{2 * len(labels)}Q", bytes(q.read_buffer(buf)))
            raw += [(lab, ts[2 * i], ts[2 * i + 1]) for i, lab in enumerate(labels)]
        if not raw:
            return []
        base, per = min(e[1] for e in raw), self.period
        return [(lab, round((t0 - base) * per), round((t1 - base) * per))
                for lab, t0, t1 in raw]

    def totals(self, key=None):
        """{kernel: [count, total ns]}; ``key(label)`` groups labels (default: the spec
        class, the label up to its first '_')."""
        key = key or (lambda lab: lab.split("_", 1)[0].split(":", 1)[0])
        agg = collections.defaultdict(lambda: [0, 0])
        for lab, t0, t1 in self.entries():
            a = agg[key(lab)]
            a[0] += 1
            a[1] += max(0, t1 - t0)
        return dict(agg)

    def report(self, key=None, top=25):
        ent = self.entries()
        tot = self.totals(key)
        busy = sum(v[1] for v in tot.values())
        span = (max(e[2] for e in ent) - min(e[1] for e in ent)) if ent else 0
        wall = self.wall_s * 1e9
        lines = [f"{len(ent)} dispatches; GPU busy {busy / 1e6:.3f} ms; first start to last "
                 f"end {span / 1e6:.3f} ms (gaps {(span - busy) / 1e6:.3f} ms)",
                 f"host wall {wall / 1e6:.3f} ms (GPU not busy {(wall - busy) / 1e6:.3f} ms of "
                 f"it: recording, submits, waits, gaps)",
                 f"{'kernel':64s} {'count':>6s} {'total ms':>9s} {'mean us':>8s} {'share':>6s}"]
        for k, (c, t) in sorted(tot.items(), key=lambda kv: -kv[1][1])[:top]:
            lines.append(f"{k[:64]:64s} {c:6d} {t / 1e6:9.3f} {t / c / 1e3:8.1f} "
                         f"{t / max(busy, 1):6.1%}")
        return "\n".join(lines)


@contextlib.contextmanager
def profile(client=None):
    """Time every dispatch recorded inside the block (see the module docstring)."""
    if client is None:
        from .. import get_client
        client = get_client()
    rec = client.recorder
    if rec.prof is not None:
        raise BackendLimitation("webgpu", "profile", "a profile is already open")
    client.synchronize()
    p = Profiler(client)
    rec.prof = p
    t = time.perf_counter()
    try:
        yield p
    finally:
        try:
            client.synchronize()
        finally:
            rec.prof = None
            p.wall_s = time.perf_counter() - t


def profile_process(client, mode):
    """``NUMR_WEBGPU_PROFILE`` (client.py): profile from here to the process's exit."""
    if "timestamp-query" not in client.device.features:
        warnings.warn("NUMR_WEBGPU_PROFILE: the device was not granted 'timestamp-query'")
        return
    p = client.recorder.prof = Profiler(client)
    t = time.perf_counter()

    def report():
        # registered after allocator.py's handler, so it runs first (atexit is LIFO),
        # while the pools still recycle
        if client.recorder.prof is not p or client.lost:
            return
        client.synchronize()
        client.recorder.prof = None
        p.wall_s = time.perf_counter() - t
        if not p.batches:   # a client the process made but never ran work on
            return
        print(f"[numr webgpu profile] {client!r}\n" + p.report(key=(lambda lab: lab) if mode == "label"
                                                     else None), file=sys.stderr)
    atexit.register(report)
