"""Interrupts: a KeyboardInterrupt at any point leaves the namespace
usable, never hangs, never corrupts state; waits on the GPU are interruptible."""

import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import numr_array_api

from .conftest import require_webgpu, sized

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

# The child runs reproducer 2's loop. Its SIGINT handler raises KeyboardInterrupt (as
# Python's default one does) while an iteration runs, and ignores the signals that land in
# the harness's own bookkeeping between iterations: every interrupt inside numr counts.
_CHILD = r"""
import gc, signal, sys, time, warnings, numpy as np
warnings.simplefilter("ignore")
import numr_array_api
import numr_array_api.webgpu as xp
numr_array_api.set_host_conversion("allow")
armed = False
def on_sigint(signum, frame):
    if armed:
        raise KeyboardInterrupt
signal.signal(signal.SIGINT, on_sigint)
rng = np.random.default_rng(0)
h = np.arange(1000, dtype=np.float32) % 17
A = rng.standard_normal((48, 48)).astype(np.float32)
x, a = xp.asarray(h), xp.asarray(A)
want_s, want_m = float(((h + 1) * 2).sum()), A @ A
def settle():  # a fixed state of numr's caches (scalars, read-back mirrors), then memory
    float(xp.sum((x + 1) * 2)); a @ a; float(xp.sum(x)); xp.synchronize()
    gc.collect()  # interrupted frames sit in reference cycles with their tracebacks
    xp.empty_cache()
    return xp.memory_stats()["allocated_bytes"]
base = settle()
interrupts = iters = 0
print("READY", flush=True)
deadline = time.monotonic() + float(sys.argv[1])
while time.monotonic() < deadline:
    try:
        armed = True
        y = (x + 1) * 2
        s = float(xp.sum(y))
        m = a @ a
        ok_m = iters % 5 or np.allclose(np.asarray(m), want_m, rtol=1e-4, atol=1e-4)
        armed = False
    except KeyboardInterrupt:
        armed = False
        interrupts += 1
        continue
    if s != want_s:
        print("WRONG sum", s, want_s, flush=True); sys.exit(3)
    if not ok_m:
        print("WRONG matmul", flush=True); sys.exit(3)
    iters += 1
    print("HB", iters, interrupts, flush=True)
signal.signal(signal.SIGINT, signal.SIG_IGN)
y = m = None
assert float(xp.sum((x + 1) * 2)) == want_s
assert np.allclose(np.asarray(a @ a), want_m, rtol=1e-4, atol=1e-4)
print("DONE", iters, interrupts, settle() - base, flush=True)
"""


def _interrupt_run(seconds, watchdog, seed):
    """One child under random SIGINTs (every 5-300 ms); (outcome, detail). Outcomes: 'ok',
    'hang' (no output for ``watchdog`` s), 'failed' (non-zero exit or no DONE)."""
    rnd = random.Random(seed)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    # keep the caller's path (the GPU machine finds wgpu through it)
    env = dict(os.environ, XDG_RUNTIME_DIR=os.environ.get("XDG_RUNTIME_DIR", "/tmp"),
               PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH"))
                                          if p))
    p = subprocess.Popen([sys.executable, "-c", _CHILD, str(seconds)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=env)
    lines = queue.Queue()
    threading.Thread(target=lambda: ([lines.put(ln) for ln in p.stdout], lines.put(None)),
                     daemon=True).start()
    err = []
    threading.Thread(target=lambda: err.append(p.stderr.read()), daemon=True).start()
    last_output, ready, done, sent = time.monotonic(), False, None, 0
    while True:
        try:
            ln = lines.get(timeout=rnd.uniform(0.005, 0.3) if ready else 1.0)
            if ln is None:
                break
            last_output = time.monotonic()
            ready = ready or ln.startswith("READY")
            if ln.startswith("DONE"):
                done = ln.split()
        except queue.Empty:
            pass
        if time.monotonic() - last_output > watchdog:
            p.kill()
            p.wait()
            return "hang", f"no output for {watchdog} s after {sent} SIGINTs"
        if ready and done is None and p.poll() is None:
            p.send_signal(signal.SIGINT)
            sent += 1
    p.wait()
    time.sleep(0.05)
    if p.returncode != 0 or done is None:
        return "failed", f"rc={p.returncode} {''.join(err)[-2500:]}"
    iters, interrupts, leaked = int(done[1]), int(done[2]), int(done[3])
    if leaked:
        return "failed", f"{leaked} bytes still allocated after empty_cache"
    return "ok", f"{sent} SIGINTs, {interrupts} landed in numr, {iters} clean iterations"


_require_webgpu = require_webgpu


@pytest.mark.parametrize("run", range(sized(3, 50)))
def test_reproducer_2_random_sigints_never_hang_or_corrupt(run):
    """CI: 3 runs of 6 s, watchdog 30 s; NUMR_STRESS=full: 50 runs of 20 s, watchdog 60 s."""
    _require_webgpu()
    # NUMR_INTERRUPT_SECONDS shortens each run (the GPU acceptance script runs 50 in parallel)
    seconds = float(os.environ.get("NUMR_INTERRUPT_SECONDS") or sized(6, 20))
    outcome, detail = _interrupt_run(seconds, sized(30, 60), seed=run)
    assert outcome == "ok", detail


# ---- the pieces, one interrupt at a time ----------------------------------------------------

def test_deferred_section_delivers_sigint_when_it_ends():
    from numr_array_api.backends.webgpu.runtime.concurrency import deferred_interrupts
    before = signal.getsignal(signal.SIGINT)
    reached_end = False
    with pytest.raises(KeyboardInterrupt):
        with deferred_interrupts():
            with deferred_interrupts():  # nested: delivered by the outermost only
                os.kill(os.getpid(), signal.SIGINT)
                time.sleep(0.01)  # (Python runs handlers between bytecodes)
            reached_end = True
    assert reached_end
    assert signal.getsignal(signal.SIGINT) is before


def test_deferred_section_in_another_thread_leaves_sigint_alone():
    from numr_array_api.backends.webgpu.runtime.concurrency import deferred_interrupts
    before = signal.getsignal(signal.SIGINT)
    seen = []

    def work():
        with deferred_interrupts():
            seen.append(signal.getsignal(signal.SIGINT))

    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert seen == [before]


def test_interrupted_read_back_is_reaped_and_the_next_one_works(monkeypatch):
    xp = _require_webgpu()
    from numr_array_api.backends.webgpu.runtime.mapping import Mappings
    x = xp.asarray(np.arange(300, dtype=np.float32))
    client = xp._backend._client(x.device)
    real_wait = Mappings.wait

    def interrupted(self, m):
        monkeypatch.setattr(Mappings, "wait", real_wait)
        raise KeyboardInterrupt

    monkeypatch.setattr(Mappings, "wait", interrupted)
    with numr_array_api.host_conversion("allow"):
        with pytest.raises(KeyboardInterrupt):
            np.asarray(x + 1)
        assert len(client.maps.active) == 1  # the abandoned mapping, kept until it ends
        np.testing.assert_array_equal(np.asarray(x * 2), np.arange(300) * 2)
        xp.synchronize()
        np.testing.assert_array_equal(np.asarray(x - 1), np.arange(300) - 1)
    assert client.maps.active == {}


def test_interrupted_synchronize_then_everything_still_works(monkeypatch):
    xp = _require_webgpu()
    from numr_array_api.backends.webgpu.runtime.mapping import Mappings
    x = xp.asarray(np.arange(50, dtype=np.float32))
    real_wait = Mappings.wait
    calls = []

    def interrupted(self, m):
        calls.append(m)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real_wait(self, m)

    monkeypatch.setattr(Mappings, "wait", interrupted)
    y = x + 1
    with pytest.raises(KeyboardInterrupt):
        xp.synchronize()
    xp.synchronize()  # the fence's map may still be pending: another fence is used
    xp.synchronize()
    assert float(xp.sum(y)) == float(np.arange(1, 51).sum())


def test_interrupt_before_a_dispatch_keeps_its_buffers_pending(monkeypatch):
    """The pending set is filled before a dispatch is recorded: an output whose op was
    interrupted after that (here: in the native dispatch call) is never handed to a host
    write before the batch that may still write it is submitted."""
    xp = _require_webgpu()
    from numr_array_api.backends.webgpu.runtime import submit
    x = xp.asarray(np.ones(64, np.float32))
    client = xp._backend._client(x.device)
    real = submit._lib

    class Interrupting:
        def __getattr__(self, name):
            fn = getattr(real, name)
            if name != "wgpuComputePassEncoderDispatchWorkgroups":
                return fn

            def dispatch(*args):
                fn(*args)
                raise KeyboardInterrupt  # recorded, then interrupted

            return dispatch

    monkeypatch.setattr(submit, "_lib", Interrupting())
    out_blocks = []
    real_alloc = client.pool.allocate

    def spy(nbytes, host_write=False):
        b = real_alloc(nbytes, host_write)
        out_blocks.append(b.buffer)
        return b

    real_class = client.pool.allocate_class

    def spy_class(size):  # the launch plans' allocation path (kernels/launch_plan.py)
        b = real_class(size)
        out_blocks.append(b.buffer)
        return b

    monkeypatch.setattr(client.pool, "allocate", spy)
    monkeypatch.setattr(client.pool, "allocate_class", spy_class)
    with pytest.raises(KeyboardInterrupt):
        x + 1
    monkeypatch.undo()
    out = out_blocks[-1]
    assert id(out) in client.recorder.pending_ids
    client.pool.stats()  # sorts the dead output into its list
    assert any(b is out for lst in client.pool._deferred.values() for b in lst)
    assert float(xp.sum(x * 3)) == 192.0


# ---- a long GPU operation, interrupted, then the next call interrupted too ------------------

# The child runs the long-sum reproducer ``runs`` times: a whole-array sum of a broadcast view
# sized to take several seconds, a SIGINT 1-3 s in; then a short sum, with a second SIGINT
# 0.02-0.3 s into it (while it may still be waiting for the abandoned work); then a checked
# sum. The handler stamps when Python got each signal: its delay after the send is what a
# user waits for Ctrl-C to act.
_LONG_SUM = r"""
import os, random, signal, sys, threading, time, warnings, numpy as np
warnings.simplefilter("ignore")
import numr_array_api.webgpu as xp
runs = int(sys.argv[1])
one = xp.asarray([1.0], dtype=xp.float32)
small = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32)
assert float(xp.sum(small)) == 6.0
box = 1 << 30  # the reduction's box: one paced step
float(xp.sum(xp.broadcast_to(one, (2 * box,))))  # the boxed path's kernels, compiled
t = time.perf_counter(); float(xp.sum(xp.broadcast_to(one, (4 * box,)))); t = time.perf_counter() - t
n = box * max(4, min(1 << 16, int(8.0 / max(t / 4, 1e-5))))  # ~8 s of work
print("N", n, "box_s", round(t / 4, 5), flush=True)
armed, got, sent = False, [], []
def on_sigint(signum, frame):
    got.append(time.monotonic())
    if armed:
        raise KeyboardInterrupt
signal.signal(signal.SIGINT, on_sigint)
def send(after):
    time.sleep(after)
    sent.append(time.monotonic())
    os.kill(os.getpid(), signal.SIGINT)
rnd = random.Random(int(sys.argv[2]))
rng = np.random.default_rng(0)
for run in range(runs):
    got.clear(); sent.clear()
    threading.Thread(target=send, args=(rnd.uniform(1.0, 3.0),)).start()
    t0 = time.monotonic()
    try:
        armed = True
        v = float(xp.sum(xp.broadcast_to(one, (n,))))
        armed = False
        first = "finished"
    except KeyboardInterrupt:
        armed = False
        first = "interrupted"
    while not got:
        time.sleep(0.001)
    lat1 = got[0] - sent[0]
    got.clear(); sent.clear()
    t1 = time.monotonic()
    th = threading.Thread(target=send, args=(rnd.uniform(0.02, 0.3),)); th.start()
    try:
        armed = True
        v = float(xp.sum(small))
        armed = False
        second = "finished"
        assert v == 6.0, v
    except KeyboardInterrupt:
        armed = False
        second = "interrupted"
    th.join()
    while not got:
        time.sleep(0.001)
    lat2 = got[0] - sent[0]
    h = rng.standard_normal(1000).astype(np.float32)
    ok = abs(float(xp.sum(xp.asarray(h))) - float(h.sum(dtype=np.float64))) < 1e-2
    print("RUN", run, first, round(lat1, 4), second, round(lat2, 4), ok, flush=True)
print("DONE", flush=True)
"""


@pytest.mark.parametrize("seed", [0])
def test_long_sum_interrupted_twice_answers_at_once(seed):
    """20 runs: both SIGINTs are raised within 0.5 s, the interrupted work never delays
    the next call past a paced step, results stay right afterwards."""
    _require_webgpu()
    from .conftest import run_python
    runs = 20
    p = run_python(_LONG_SUM, runs, seed, timeout=60 + 15 * runs)
    assert p.returncode == 0 and "DONE" in p.stdout, p.stdout[-2000:] + p.stderr[-3000:]
    rows = [ln.split() for ln in p.stdout.splitlines() if ln.startswith("RUN")]
    assert len(rows) == runs
    print(p.stdout.splitlines()[0])
    seconds = []
    for _, run, first, lat1, second, lat2, ok in rows:
        assert ok == "True", f"run {run}: a wrong sum after the interrupts"
        assert first == "interrupted", f"run {run}: the long sum ended before its SIGINT"
        assert float(lat1) < 0.5, f"run {run}: first SIGINT raised after {lat1} s"
        assert float(lat2) < 0.5, f"run {run}: second SIGINT raised after {lat2} s"
        seconds.append(float(lat2))
    landed = sum(r[4] == "interrupted" for r in rows)
    print(f"second SIGINT landed in the next call in {landed} of {runs} runs; "
          f"slowest raise {max(seconds):.4f} s")
