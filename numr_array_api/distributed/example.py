"""Scale-out example: reductions and products over arrays larger than a GPU, on one GPU or many.

    python -m numr_array_api.distributed.example --backend cuda            # 2x one GPU's memory
    python -m numr_array_api.distributed.example --backend cuda,webgpu,cupy --size 1x
    python -m numr_array_api.distributed.example --backend cuda,webgpu,cupy --scaling
    python -m numr_array_api.distributed.example --backend cpu --small     # CI-sized
    python -m numr_array_api.distributed.example --backend webgpu --time-budget 90  # <= 2x

The operations (workloads.py): mean, std, matvec, rowsum, colsum (a reduction along each
axis) and matmul (partial products moving between workers). ``--scaling`` runs each
backend twice, on its first device and on all of them (one worker each), with the same
array, and reports the throughput ratio per operation.

Cubed plans, Dask runs: a local Dask cluster with one worker process per device (each pinned
to its device, see cluster.py) computes Cubed arrays whose chunks are numr arrays of the
chosen backend (``--backend cupy``: array_api_compat.cupy chunks, the CuPy peer). The data
is generated chunk by chunk on the devices (generate.py: a counter hash of each element's
index), so the array never exists as a whole: each task generates its chunk on its device
and reduces it there, and only per-chunk partial results go through Cubed's storage.

Prints each worker's device, Cubed's progress bar per computation, the throughput (bytes
of generated array reduced per second), and a verification against NumPy on a subsample
(the same pipeline on a slice, compared with NumPy on the same elements computed on the
host) plus a statistical check of the full results. Several backends (comma-separated) run
one after the other, each in a fresh process (Cubed binds its chunk namespace at import),
and end with a table comparing them. Exit status 1 when a verification fails.
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

import numpy as np

from . import chunks as _chunks
from . import cluster as _cluster
from .workloads import OPS, run_op
_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "KIB": 2**10, "MIB": 2**20, "GIB": 2**30, "TIB": 2**40}


def parse_size(text):
    """'200GB', '1.5GiB', '123456' -> bytes; '2x' -> ('x', 2.0), a multiple of device memory."""
    t = text.strip().upper()
    if t.endswith("X"):
        return ("x", float(t[:-1]))
    m = re.fullmatch(r"([0-9.]+)\s*([KMGT]I?B|B)?", t)
    if not m:
        raise argparse.ArgumentTypeError(f"not a size: {text!r} (e.g. 2x, 64GiB, 500MB)")
    return int(float(m.group(1)) * _UNITS[m.group(2) or ""])


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m numr_array_api.distributed.example",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", default="cuda",
                   help="cpu, cuda, webgpu or cupy (the CuPy peer); comma-separated to compare "
                        "several in one run (default cuda)")
    p.add_argument("--size", type=parse_size, default=None,
                   help="bytes of each generated array: '2x' = twice one device's memory "
                        "(default for GPUs), or '64GiB', '500MB' ...")
    p.add_argument("--dtype", choices=("float64", "float32"), default="float64")
    p.add_argument("--ops", default=",".join(OPS), help=f"comma-separated subset of {OPS}")
    p.add_argument("--devices", default=None,
                   help="device ordinals to use, e.g. '0,1' or '0,0' (two workers on one "
                        "device); cpu: a worker count (default: every device; cpu: 2)")
    p.add_argument("--chunk-bytes", type=parse_size, default=None,
                   help="bytes per chunk (default: from device memory, chunks.chunk_bytes)")
    p.add_argument("--cols", type=int, default=16384, help="columns of the matvec matrix")
    p.add_argument("--work-dir", default=None, help="Cubed's storage (default: a temp dir)")
    p.add_argument("--small", action="store_true",
                   help="CI size: 16 MiB arrays in 1 MiB chunks, two workers")
    p.add_argument("--no-progress", action="store_true", help="no progress bars")
    p.add_argument("--json", default=None, help="also write the results to this file")
    p.add_argument("--scaling", action="store_true",
                   help="each backend on its first device, then on all its devices (the same "
                        "array): the throughput ratio per operation")
    p.add_argument("--time-budget", type=float, default=None, metavar="SECONDS",
                   help="seconds for each backend's computations: a calibration on a few "
                        "chunks measures the per-chunk time, the array is made smaller than "
                        "--size where not even one op would fit, and ops that would end past "
                        "the budget are skipped (both reported)")
    args = p.parse_args(argv)
    args.ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    bad = [o for o in args.ops if o not in OPS]
    if bad:
        p.error(f"unknown ops {bad}; choose from {OPS}")
    for b in args.backend.split(","):
        if b not in ("cpu", "cuda", "webgpu", "cupy"):
            p.error(f"unknown backend {b!r}")
    if args.small:
        args.size = args.size or 16 * 2**20
        args.chunk_bytes = args.chunk_bytes or 2**20
        args.cols = min(args.cols, 1024)
        args.devices = args.devices or ("2" if args.backend == "cpu" else None)
    return args


def _devices(args, backend):
    if args.devices is None:
        if backend == "cpu":
            return 2
        devs = _cluster.available_devices(backend)
        if args.small and len(devs) == 1:
            return devs * 2  # two workers on the one device: the multi-device code path
        return devs
    if backend == "cpu":
        return int(args.devices)
    return [int(d) for d in args.devices.split(",")]


def _fmt_bytes(n):
    for unit, f in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= f:
            return f"{n / f:.2f} {unit}"
    return f"{n} B"


def _compute(arr, progress):
    callbacks = []
    if progress:
        from cubed.diagnostics.tqdm import TqdmProgressBar
        callbacks.append(TqdmProgressBar())
    t0 = time.perf_counter()
    out = arr.compute(callbacks=callbacks)
    return _cluster.to_numpy(out), time.perf_counter() - t0


def run_one(args, backend):
    _cluster.use_backend(backend)  # before cubed is imported anywhere in this process
    import cubed.array_api as cx
    from distributed import Client

    from .generate import hashed_uniform, reference

    itemsize = np.dtype(args.dtype).itemsize
    result = {"backend": backend, "namespace": _cluster.chunk_namespace(backend),
              "dtype": args.dtype, "ops": {}, "ok": True}
    devices = _devices(args, backend)
    if not devices:
        raise SystemExit(f"[{backend}] no device to start a worker on")
    n_workers = devices if isinstance(devices, int) else len(devices)
    # host memory per worker: what Cubed may plan a task to hold (its allowed_mem)
    from distributed.system import MEMORY_LIMIT
    host_per_worker = int(MEMORY_LIMIT * 0.8) // n_workers
    with tempfile.TemporaryDirectory(prefix="numr-scaleout-") as tmp:
        work_dir = args.work_dir or tmp
        with _cluster.local_cluster(backend, devices, memory_limit=host_per_worker) as cluster, \
                Client(cluster) as client:
            client.wait_for_workers(len(cluster.worker_spec))
            workers = _cluster.worker_devices(client)
            result["workers"] = workers
            print(f"[{backend}] {len(workers)} workers, chunks in {result['namespace']}:")
            for name, d in workers.items():
                mem = _fmt_bytes(d["memory_bytes"]) if d.get("memory_bytes") else "memory ?"
                pin = ", ".join(f"{k}={d[k]}" for k in ("CUDA_VISIBLE_DEVICES",
                                                          "NUMR_WEBGPU_ADAPTER") if d.get(k))
                print(f"  {name}: {d['device']} = {d.get('name', '?')}, {mem}, pid {d['pid']}"
                      + (f" ({pin})" if pin else ""))
            mems = [d["memory_bytes"] for d in workers.values() if d.get("memory_bytes")]
            device_memory = min(mems) if mems else None
            bufs = [d["max_buffer_bytes"] for d in workers.values() if d.get("max_buffer_bytes")]
            size = args.size
            if size is None:
                size = ("x", 2.0) if backend != "cpu" else 256 * 2**20
            if isinstance(size, tuple):
                if device_memory is None:
                    raise SystemExit(f"[{backend}] --size {size[1]}x needs the device memory, "
                                     f"which no worker reports; give --size in bytes")
                size = int(size[1] * device_memory)
            # Cubed's memory model: a task may hold a few chunks (plus temporaries) in host
            # memory, so a chunk is also bounded by the host memory of a worker
            cb = args.chunk_bytes or min(
                _chunks.chunk_bytes(device_memory, max_buffer_bytes=min(bufs) if bufs else None),
                (host_per_worker - 2**28) // 10)
            cb = max(itemsize, min(cb, size))
            allowed = min(max(10 * cb + 2**28, 2**30), host_per_worker)
            spec = _cluster.cubed_spec(cluster, work_dir=work_dir, allowed_mem=allowed)
            n = max(1, size // itemsize)
            result.update(size_bytes=int(n * itemsize), chunk_bytes=int(cb),
                          device_memory=device_memory, allowed_mem=int(allowed))
            print(f"[{backend}] array {_fmt_bytes(n * itemsize)} {args.dtype}"
                  + (f" = {n * itemsize / device_memory:.2f}x one device's memory"
                     if device_memory else "")
                  + f", chunks {_fmt_bytes(cb)}")
            t_start = time.perf_counter()
            per_chunk = overhead = None
            # (an array of at most 10 chunks takes about as long as the calibration)
            if args.time_budget and n * itemsize > 10 * cb:
                overhead, per_chunk = _calibrate(cx, hashed_uniform, cb, itemsize, args, spec)
                result["calibration"] = {"seconds_per_chunk": per_chunk,
                                         "seconds_per_computation": overhead}
                left = args.time_budget - (time.perf_counter() - t_start)
                # one op over n elements takes about overhead + chunks * per_chunk; the
                # reductions' later rounds and the checks add a little: 1.25x
                fit = int((left / 1.25 - overhead) / per_chunk) * cb // itemsize
                print(f"[{backend}] calibration: {per_chunk * 1e3:.1f} ms per {_fmt_bytes(cb)}"
                      f" chunk ({cb / per_chunk / 1e9:.2f} GB/s), {overhead:.2f} s per "
                      f"computation; {left:.0f} s of the budget left")
                if fit < n:
                    n = max(cb // itemsize, fit)
                    result["size_reduced"] = True
                    print(f"[{backend}] array reduced to {_fmt_bytes(n * itemsize)}"
                          + (f" = {n * itemsize / device_memory:.2f}x one device's memory"
                             if device_memory else "") + " to fit the time budget")
                result["size_bytes"] = int(n * itemsize)
            last = None
            for op in args.ops:
                if args.time_budget and last is not None:
                    elapsed = time.perf_counter() - t_start
                    if elapsed + 1.1 * last > args.time_budget:
                        result.setdefault("skipped_ops", []).append(op)
                        print(f"[{backend}] {op}: skipped, it would end past the time budget "
                              f"({elapsed:.0f} s spent + ~{1.1 * last:.0f} s > "
                              f"{args.time_budget:.0f} s)")
                        continue
                t_op = time.perf_counter()
                r = run_op(op, cx, hashed_uniform, reference, n, cb, itemsize, args, spec,
                           _compute)
                last = time.perf_counter() - t_op
                result["ops"][op] = r
                result["ok"] &= r["ok"]
                print(f"[{backend}] {op}: {r['seconds']:.2f} s, {r['gbps']:.2f} GB/s "
                      f"({_fmt_bytes(r['bytes'])}), check {'OK' if r['ok'] else 'FAILED'}: "
                      f"{r['check']}")
                if args.json and "," not in args.backend:
                    # what is done so far survives a run stopped from outside
                    _dump(args.json, result)
            result["stored_bytes"] = _du(work_dir)
    return result


def _dump(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f, indent=1, default=str)


def _du(path):
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total


def _calibrate(cx, hashed_uniform, cb, itemsize, args, spec):
    """(seconds per computation, seconds per chunk) of a mean over generated chunks, from
    a mean over 2 and over 10 chunks after a warm-up on 1 (kernel compilation)."""
    per = cb // itemsize
    times = {}
    for k in (1, 2, 10):
        x = hashed_uniform((k * per,), chunks=(per,), dtype=args.dtype, spec=spec)
        times[k] = _compute(cx.mean(x), False)[1]
    per_chunk = max((times[10] - times[2]) / 8, 1e-4)
    return max(times[2] - 2 * per_chunk, 0.0), per_chunk


def _table(results):
    ops = [o for o in OPS if any(o in r.get("ops", {}) for r in results)]
    head = f"{'backend':<8} {'chunks':<34} {'size':>11} " + " ".join(f"{o + ' GB/s':>12}" for o in ops)
    lines = [head, "-" * len(head)]
    for r in results:
        if "error" in r:
            lines.append(f"{r['backend']:<8} FAILED: {r['error']}")
            continue
        cells = " ".join(f"{r['ops'][o]['gbps']:>12.2f}" if o in r["ops"] else f"{'-':>12}"
                         for o in ops)
        lines.append(f"{r['backend']:<8} {r['namespace']:<34} {_fmt_bytes(r['size_bytes']):>11} {cells}")
    return "\n".join(lines)


def _child(raw, backend, devices=None):
    """One backend's run in a fresh process (Cubed binds its chunk namespace at import)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as f:
        out = f.name
    extra = ["--devices", devices] if devices is not None else []
    cmd = [sys.executable, "-m", "numr_array_api.distributed.example",
           *_without([a for a in raw if a != "--scaling"], "--backend", "--json", "--devices"),
           "--backend",
           backend, *extra, "--json", out]
    print(f"=== {backend}: {' '.join(cmd)}", flush=True)
    rc = subprocess.call(cmd)
    try:
        with open(out) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {"backend": backend, "error": f"exit code {rc}, no result", "ok": False}
    finally:
        os.unlink(out)


def _scaling_devices(args, backend):
    """(one device, every device) as --devices values: cpu worker counts; GPUs' ordinals
    (a single GPU is used twice with --small: the code path, not a speed-up)."""
    if backend == "cpu":
        return "1", args.devices or "2"
    devs = ([int(d) for d in args.devices.split(",")] if args.devices
            else _cluster.available_devices(backend))
    if not devs:
        raise SystemExit(f"[{backend}] no device")
    many = devs if len(devs) > 1 else (devs * 2 if args.small else devs)
    return str(devs[0]), ",".join(map(str, many))


def _scaling_table(results):
    ops = [o for o in OPS if any(o in r.get("ops", {}) for r in results)]
    head = f"{'backend':<8} {'workers':>7} {'size':>11} " + " ".join(f"{o + ' GB/s':>12}" for o in ops)
    lines = [head, "-" * len(head)]
    by_backend = {}
    for r in results:
        by_backend.setdefault(r["backend"], []).append(r)
        if "error" in r:
            lines.append(f"{r['backend']:<8} FAILED: {r['error']}")
            continue
        cells = " ".join(f"{r['ops'][o]['gbps']:>12.2f}" if o in r["ops"] else f"{'-':>12}"
                         for o in ops)
        lines.append(f"{r['backend']:<8} {len(r['workers']):>7} "
                     f"{_fmt_bytes(r['size_bytes']):>11} {cells}")
    for b, (one, many) in ((b, rs) for b, rs in by_backend.items() if len(rs) == 2):
        if "error" in one or "error" in many:
            continue
        cells = " ".join(f"{many['ops'][o]['gbps'] / one['ops'][o]['gbps']:>11.2f}x"
                         if o in one["ops"] and o in many["ops"] else f"{'-':>12}" for o in ops)
        lines.append(f"{b:<8} {'ratio':>7} {str(len(many['workers'])) + ' / 1':>11} {cells}")
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    backends = args.backend.split(",")
    raw = sys.argv[1:] if argv is None else list(argv)
    if args.scaling:
        results = []
        for b in backends:
            one, many = _scaling_devices(args, b)
            first = _child(raw, b, one)
            results.append(first)
            # the same array on every device count: the size and chunking that the one-device
            # run settled on (its time budget may have made the array smaller than --size)
            same = (["--size", f"{first['size_bytes']}B", "--chunk-bytes",
                     f"{first['chunk_bytes']}B"] if "size_bytes" in first else [])
            results.append(_child([*_without(raw, "--size", "--chunk-bytes"), *same], b, many))
        print(_scaling_table(results))
    elif len(backends) == 1:
        r = run_one(args, backends[0])
        if args.json:
            _dump(args.json, r)
        print(_table([r]))
        return 0 if r["ok"] else 1
    else:
        results = [_child(raw, b) for b in backends]
        print(_table(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)
    return 0 if all(r.get("ok") for r in results) else 1


def _without(argv, *options):
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
            continue
        if a in options:
            skip = True
            continue
        if any(a.startswith(o + "=") for o in options):
            continue
        out.append(a)
    return out


if __name__ == "__main__":
    sys.exit(main())
