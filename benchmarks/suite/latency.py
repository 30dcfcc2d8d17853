#!/usr/bin/env python3
"""Latency of one call on webgpu: a small op then a wait, and a scalar read, next to CuPy.

    python benchmarks/suite/latency.py [--calls 300] [--mib 1 16] [--strategies]
                                       [--breakdown] [--json out.json]

1. ``op+sync``: ``y = x + 1`` on 1000 float32 elements, then ``synchronize()``.
2. ``sum->float MiB``: ``float(xp.sum(x))`` of a float32 array of --mib MiB.

For each, --calls calls one after another: median and minimum wall time per call, the
calling thread's CPU time per call (``time.thread_time``: the host's own work, without the
adapter's threads; lavapipe executes on the host, so its wall time is not a GPU's), and the
wgpu-native calls per call (runtime/native_calls.py: the steady ones, and the polls, which
depend on how long the device takes). CuPy, where installed, runs the same calls in this
process (``cupy.cuda.Device().synchronize()``).

``--strategies``: every MAP_WAIT choice (how a host wait polls: spin, yield, block; tuning
knob, runtime/mapping.py) for a 1 ms window, and sleeping at once (MAP_SPIN_US 0), in
turn, interleaved call by call so a shared machine's drift hits them alike.
``--floor``: the wgpu-native floor of ``op+sync``: the same 1000-element ``+ 1`` kernel
(its pipeline and bind group made once) encoded, submitted and waited for by a queue
marker through wgpu-native's C calls alone, with no numr Python around them (encoder,
pass, pipeline, bind group, dispatch, pass end, finish, submit, three releases, marker,
then polls): what any Python library on wgpu-native pays for one call and its wait.
``--breakdown``: where one call's wall time goes, from timers around the runtime's steps
(recording, submit, marker / map start, wait, unmap + host copy; the rest is the
front-end and the namespace), the median of each over the calls (so the rows need not add
up to the total's median); the timers add ~1 us a step.

Nothing here asserts a timing.
"""

import argparse
import json
import os
import platform
import statistics
import sys
import time

import numpy as np

sys.path.append(str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


def workloads(xp, sync, mib_list):
    """name -> call; the same for every library."""
    x = xp.asarray(np.arange(1000, dtype=np.float32))
    out = {}

    def op_sync():
        out["y"] = None   # its buffer goes back to the pool first, as in a loop
        out["y"] = x + 1
        sync()
    calls = {"op+sync": op_sync}
    for mib in mib_list:
        a = xp.asarray((np.arange(mib << 18) % 7).astype(np.float32))
        calls[f"sum->float {mib} MiB"] = (lambda a: lambda: float(xp.sum(a)))(a)
    return calls


def measure(fn, calls):
    for _ in range(5):
        fn()
    wall, cpu = [], []
    for _ in range(calls):
        t, c = time.perf_counter_ns(), time.thread_time_ns()
        fn()
        cpu.append(time.thread_time_ns() - c)
        wall.append(time.perf_counter_ns() - t)
    return {"median_us": statistics.median(wall) / 1e3, "min_us": min(wall) / 1e3,
            "thread_cpu_us": statistics.median(cpu) / 1e3}


def native_calls(fn):
    from numr_array_api.backends.webgpu.runtime.native_calls import (POLL,
                                                                      count_native_calls,
                                                                      steady)
    for _ in range(6):
        fn()
    with count_native_calls() as c:
        fn()
    return {"native_calls": steady(c), "polls": c[POLL], "by_name": dict(c)}


# (label, MAP_WAIT, MAP_SPIN_US in seconds): sleeping at once was the CPU adapters' wait
STRATEGIES = (("sleep", "spin", 0.0), ("spin", "spin", 1e-3), ("yield", "yield", 1e-3),
              ("block", "block", 1e-3))

_STEPS = (("record", "submit", "Recorder", "dispatch"), ("record", "submit", "Recorder", "replay"),
          ("submit", "submit", "Recorder", "flush"),
          ("marker / map start", "mapping", "Mappings", "start"),
          ("marker / map start", "mapping", "Mappings", "mark"),
          ("wait", "mapping", "Mappings", "wait"),
          ("unmap + host copy", "mapping", "Mappings", "finish"))


def breakdown(fn, calls):
    """Median microseconds per call in each step (timers around the runtime's methods;
    steps a tree's runtime lacks are left out)."""
    import importlib
    acc = {}
    patched = []

    def timed(step, f):
        def w(*a, **k):
            t = time.perf_counter_ns()
            try:
                return f(*a, **k)
            finally:
                acc[step] = acc.get(step, 0) + time.perf_counter_ns() - t
        return w

    for step, mod, cls, meth in _STEPS:
        c = getattr(importlib.import_module(f"numr_array_api.backends.webgpu.runtime.{mod}"),
                    cls)
        f = c.__dict__.get(meth)
        if f is not None:
            patched.append((c, meth, f))
            setattr(c, meth, timed(step, f))
    per_call = []
    try:
        for i in range(calls + 5):
            acc.clear()
            t = time.perf_counter_ns()
            fn()
            total = time.perf_counter_ns() - t
            if i >= 5:
                row = dict(acc)
                row["front-end, namespace, rest"] = total - sum(acc.values())
                row["total"] = total
                per_call.append(row)
    finally:
        for c, meth, f in patched:
            setattr(c, meth, f)
    steps = dict.fromkeys(k for row in per_call for k in row)
    return {k: statistics.median(row.get(k, 0) for row in per_call) / 1e3 for k in steps}


def bench_webgpu(a):
    import numr_array_api.webgpu as xp
    if not xp.__array_namespace_info__().devices():
        raise RuntimeError("no WebGPU adapter")
    res = {"adapter": str(xp.__array_namespace_info__().default_device())}
    calls = workloads(xp, xp.synchronize, a.mib)
    for name, fn in calls.items():
        row = measure(fn, a.calls)
        row.update(native_calls(fn))
        if a.breakdown:
            row["breakdown_us"] = breakdown(fn, a.calls)
        res[name] = row
    if a.floor:
        res["op+sync"]["floor"] = native_floor(a.calls)
    if a.strategies:
        # set on the client's waits directly: an override per call would re-read every
        # knob of the runtime at each wait and time that too
        from numr_array_api.backends.webgpu import get_client
        maps = get_client().maps
        chosen = maps.poll_wait, maps.spin_s
        try:
            for name, fn in calls.items():
                samples = {label: [] for label, _, _ in STRATEGIES}
                for _ in range(a.calls):
                    for label, mode, spin_s in STRATEGIES:
                        maps.poll_wait, maps.spin_s = mode, spin_s
                        t = time.perf_counter_ns()
                        fn()
                        samples[label].append(time.perf_counter_ns() - t)
                res[name]["strategies_median_us"] = {
                    k: statistics.median(v) / 1e3 for k, v in samples.items()}
        finally:
            maps.poll_wait, maps.spin_s = chosen
    return res


def native_floor(calls):
    """``--floor`` (module docstring), on numr's own device and queue."""
    import wgpu
    from wgpu.backends.wgpu_native._ffi import ffi, lib
    from numr_array_api.backends.webgpu import get_client
    client = get_client()
    dev = client.device
    code = ("@group(0) @binding(0) var<storage, read_write> y: array<f32>;\n"
            "@compute @workgroup_size(256) fn main(@builtin(global_invocation_id) g: "
            "vec3<u32>) { if (g.x < 1000u) { y[g.x] = y[g.x] + 1.0; } }")
    pipe = dev.create_compute_pipeline(layout="auto", compute={
        "module": dev.create_shader_module(code=code), "entry_point": "main"})
    buf = dev.create_buffer(size=4000, usage=wgpu.BufferUsage.STORAGE)
    bg = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
        {"binding": 0, "resource": {"buffer": buf, "offset": 0, "size": 4000}}])
    d, q, p, b = dev._internal, client.queue._internal, pipe._internal, bg._internal
    done = []

    @ffi.callback("void(WGPUQueueWorkDoneStatus, WGPUStringView, void *, void *)")
    def on_done(status, message, u1, u2):
        done.append(int(status))
    info = ffi.new("WGPUQueueWorkDoneCallbackInfo *")
    info.mode = lib.WGPUCallbackMode_AllowProcessEvents
    info.callback = on_done
    enc_desc = ffi.new("WGPUCommandEncoderDescriptor *")
    pass_desc = ffi.new("WGPUComputePassDescriptor *")
    cb_desc = ffi.new("WGPUCommandBufferDescriptor *")
    cbs = ffi.new("WGPUCommandBuffer[1]")

    def one():
        enc = lib.wgpuDeviceCreateCommandEncoder(d, enc_desc)
        cp = lib.wgpuCommandEncoderBeginComputePass(enc, pass_desc)
        lib.wgpuComputePassEncoderSetPipeline(cp, p)
        lib.wgpuComputePassEncoderSetBindGroup(cp, 0, b, 0, ffi.NULL)
        lib.wgpuComputePassEncoderDispatchWorkgroups(cp, 4, 1, 1)
        lib.wgpuComputePassEncoderEnd(cp)
        cbs[0] = lib.wgpuCommandEncoderFinish(enc, cb_desc)
        lib.wgpuQueueSubmit(q, 1, cbs)
        lib.wgpuCommandBufferRelease(cbs[0])
        lib.wgpuComputePassEncoderRelease(cp)
        lib.wgpuCommandEncoderRelease(enc)
        done.clear()
        lib.wgpuQueueOnSubmittedWorkDone(q, info[0])
        while not done:
            lib.wgpuDevicePoll(d, False, ffi.NULL)

    client.synchronize()
    return measure(one, calls)


def bench_cupy(a):
    import cupy as cp
    dev = cp.cuda.Device()
    res = {}
    for name, fn in workloads(cp, dev.synchronize, a.mib).items():
        res[name] = measure(fn, a.calls)
    return res


def rows(out):
    """One table row per library and call (the rendered docs page shows these)."""
    table = []
    for lib in ("webgpu", "cupy"):
        res = out.get(lib)
        if not isinstance(res, dict):
            continue
        for name, r in res.items():
            if not isinstance(r, dict):
                continue
            row = {"call": name, "library": lib}
            row.update({k: round(v, 1) if isinstance(v, float) else v for k, v in r.items()
                        if k in ("median_us", "min_us", "thread_cpu_us", "native_calls",
                                 "polls")})
            for k, v in r.get("strategies_median_us", {}).items():
                row[f"{k}_us"] = round(v, 1)
            if "floor" in r:
                row["native_floor_us"] = round(r["floor"]["median_us"], 1)
            table.append(row)
    return table


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--calls", type=int, default=300)
    p.add_argument("--mib", type=int, nargs="+", default=[1, 16])
    p.add_argument("--strategies", action="store_true")
    p.add_argument("--breakdown", action="store_true")
    p.add_argument("--floor", action="store_true")
    p.add_argument("--json")
    a = p.parse_args()
    out = {"machine": platform.node(), "python": platform.python_version(),
           "args": vars(a)}
    for lib, fn in (("webgpu", bench_webgpu), ("cupy", bench_cupy)):
        try:
            out[lib] = fn(a)
        except Exception as e:  # report, never crash: the other column still matters
            out[lib] = f"unavailable: {type(e).__name__}: {e}"
    w, c = out["webgpu"], out["cupy"]
    print(f"{'call':22s} {'webgpu median':>14s} {'min':>8s} {'thread cpu':>11s} "
          f"{'native':>7s} {'polls':>6s} {'cupy median':>12s}")
    for name in (w if isinstance(w, dict) else {}):
        if not isinstance(w[name], dict):
            continue
        r = w[name]
        cm = f"{c[name]['median_us']:10.1f}us" if isinstance(c, dict) else f"{'-':>12s}"
        print(f"{name:22s} {r['median_us']:12.1f}us {r['min_us']:7.1f} {r['thread_cpu_us']:10.1f} "
              f"{r['native_calls']:7d} {r['polls']:6d} {cm}")
        if "floor" in r:
            f = r["floor"]
            print(f"    wgpu-native floor {f['median_us']:8.1f}us (min {f['min_us']:.1f}, "
                  f"thread cpu {f['thread_cpu_us']:.1f})")
        for k, v in r.get("strategies_median_us", {}).items():
            print(f"    wait: {k:6s} {v:10.1f}us")
        for k, v in r.get("breakdown_us", {}).items():
            print(f"    {k:28s} {v:8.1f}us")
    if not isinstance(w, dict):
        print("webgpu:", w)
    if not isinstance(c, dict):
        print("cupy:", c)
    out["rows"] = rows(out)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
