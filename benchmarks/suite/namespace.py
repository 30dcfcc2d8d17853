#!/usr/bin/env python3
"""The namespace as a whole, next to its peers, in one run: every function family at a small
and a large size, for numr webgpu, numr cuda, raw CuPy, PyTorch and NumPy.

    python benchmarks/suite/namespace.py [--families reductions,...] [--backends numr-webgpu,cupy,...]
                               [--large-mib 256] [--json sweep.json] [--smoke]

Prints one table (time per call; the numr / CuPy throughput ratio, >= 1 means numr is as
fast as CuPy) and writes JSON (``--json``; benchmarks/plot.py draws it). Peers that are
absent (no CuPy, no PyTorch, no CUDA device, no WebGPU adapter) are reported and skipped; a
case a backend cannot run records its error. Nothing here asserts a timing.

``--smoke``: tiny sizes and few repetitions, so it runs on lavapipe / a laptop in well under
a minute (CI runs it so the script cannot rot).

Time per call: a warm-up call, then ``repeats`` times ``reps`` calls followed by one
synchronize; the best of the repeats divided by ``reps``. Consecutive calls queue on the
device like a real program's, so the per-call figure is throughput, not latency. The
repeats of the backends interleave (numr, CuPy, PyTorch, then CuPy, PyTorch, numr, ...: the
order rotates), so a slow phase of a shared machine affects every column of a row alike.

Extending: a family is a function decorated with ``@family("name")`` that returns Cases for
a Sizes object. A Case names its inputs (NumPy arrays made once and copied to each backend),
the call (``run(ns, *arrays)`` written against the array API standard; ``ns`` is the
backend's namespace, PyTorch behind a small shim in ``_TorchNS``) and the bytes it moves (for
GB/s).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import json
import math
import os
import platform
import sys
import time
from typing import Any, Callable

import numpy as np

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


# ---- cases and families -------------------------------------------------------------------
@dataclasses.dataclass
class Sizes:
    small: int        # elements of a "small" case (1000)
    large: int        # bytes of a "large" case's main input (>= 256 MiB)

    def n(self, size, itemsize):
        return self.small if size == "small" else self.large // itemsize

    def square(self, size, itemsize):
        """(rows, cols) with about n(size) elements (8192 x 8192 for 256 MiB of float32)."""
        n = self.n(size, itemsize)
        side = 1 << (int(math.isqrt(n)).bit_length() - 1) if size == "large" else None
        if side is None:
            return (25, n // 25)
        return (side, n // side)


@dataclasses.dataclass
class Case:
    family: str
    name: str
    size: str                                   # "small" | "large"
    inputs: Callable[[np.random.Generator], tuple]
    run: Callable[..., Any]                     # run(ns, *device_arrays)
    nbytes: int                                 # bytes read + written by one call
    target: bool = False                        # an acceptance row (starred in plots)


FAMILIES: dict[str, Callable[[Sizes], list[Case]]] = {}


def family(name):
    def register(fn):
        FAMILIES[name] = fn
        return fn
    return register


def _normal(shape, dtype):
    def make(rng):
        if np.dtype(dtype).kind == "b":
            return (rng.random(shape) > 0.5,)
        if np.dtype(dtype).kind in "iu":
            return (rng.integers(0, 100, shape).astype(dtype),)
        return (rng.standard_normal(shape, dtype=np.float32).astype(dtype),)
    return make


@family("reductions")
def reductions(sz: Sizes) -> list[Case]:
    out = []
    for size in ("small", "large"):
        def add(name, dtype, shape, run, result_elems=1, target=False):
            isz = np.dtype(dtype).itemsize
            nbytes = math.prod(shape) * isz + result_elems * isz
            out.append(Case("reductions", name, size, _normal(shape, dtype), run, nbytes,
                            target))
        n32 = sz.n(size, 4)
        rows, cols = sz.square(size, 4)
        add("sum float32", "float32", (n32,), lambda ns, x: ns.sum(x), target=True)
        add("max(axis=1) float32", "float32", (rows, cols),
            lambda ns, x: ns.max(x, axis=1), rows, target=True)
        add("var(axis=0) float32", "float32", (rows, cols),
            lambda ns, x: ns.var(x, axis=0), cols, target=True)
        add("sum(axis=0) float32", "float32", (rows, cols), lambda ns, x: ns.sum(x, axis=0),
            cols)
        add("sum(axis=1) float32", "float32", (rows, cols), lambda ns, x: ns.sum(x, axis=1),
            rows)
        add("mean float32", "float32", (n32,), lambda ns, x: ns.mean(x))
        add("std float32", "float32", (n32,), lambda ns, x: ns.std(x))
        add("min(axis=0) float32", "float32", (rows, cols), lambda ns, x: ns.min(x, axis=0),
            cols)
        add("argmax float32", "float32", (n32,), lambda ns, x: ns.argmax(x))
        add("argmin(axis=1) float32", "float32", (rows, cols),
            lambda ns, x: ns.argmin(x, axis=1), rows)
        add("sum float64", "float64", (sz.n(size, 8),), lambda ns, x: ns.sum(x))
        add("sum float16", "float16", (sz.n(size, 2),), lambda ns, x: ns.sum(x))
        add("sum int32", "int32", (n32,), lambda ns, x: ns.sum(x))
        add("any bool", "bool", (sz.n(size, 1),), lambda ns, x: ns.any(x))
        add("count_nonzero float32", "float32", (n32,), lambda ns, x: ns.count_nonzero(x))
    return out


def _cases(fam, sz, build):
    """Cases of ``fam`` at both sizes: ``build(size, add)`` calls ``add(name, inputs, run,
    nbytes, target=False)`` per case."""
    out = []
    for size in ("small", "large"):
        def add(name, inputs, run, nbytes, target=False):
            out.append(Case(fam, name, size, inputs, run, nbytes, target))
        build(size, add)
    return out


def _arrays(*specs):
    """inputs(rng) making one array per (shape, dtype) spec."""
    def make(rng):
        return tuple(_normal(shape, dtype)(rng)[0] for shape, dtype in specs)
    return make


@family("elementwise")
def elementwise(sz: Sizes) -> list[Case]:
    def build(size, add):
        for dt_, isz in (("float32", 4), ("float16", 2), ("float64", 8)):
            n = sz.n(size, isz)
            add(f"x + y {dt_}", _arrays(((n,), dt_), ((n,), dt_)), lambda ns, x, y: x + y,
                3 * n * isz, target=dt_ == "float32")
        n = sz.n(size, 4)
        add("x + x float32", _arrays(((n,), "float32")), lambda ns, x: x + x, 3 * n * 4,
            target=True)
        add("exp float32", _arrays(((n,), "float32")), lambda ns, x: ns.exp(x), 2 * n * 4)
        add("sin float32", _arrays(((n,), "float32")), lambda ns, x: ns.sin(x), 2 * n * 4)
        n8 = sz.n(size, 8)
        add("log float64", _arrays(((n8,), "float64")), lambda ns, x: ns.log(ns.abs(x)),
            3 * n8 * 8)
        add("x * y complex64", _arrays(((n8,), "float32"), ((n8,), "float32")),
            lambda ns, x, y: ns.astype(x, ns.complex64) * ns.astype(y, ns.complex64),
            6 * n8 * 8)
        add("where float32", _arrays(((n,), "bool"), ((n,), "float32"), ((n,), "float32")),
            lambda ns, c, x, y: ns.where(c, x, y), n * 13)
        add("astype float32->float16", _arrays(((n,), "float32")),
            lambda ns, x: ns.astype(x, ns.float16), n * 6)
        rows, cols = sz.square(size, 4)
        add("x + row broadcast", _arrays(((rows, cols), "float32"), ((cols,), "float32")),
            lambda ns, x, y: x + y, 2 * rows * cols * 4)
    return _cases("elementwise", sz, build)


@family("scans")
def scans(sz: Sizes) -> list[Case]:
    def build(size, add):
        n = sz.n(size, 4)
        add("cumulative_sum float32", _arrays(((n,), "float32")),
            lambda ns, x: ns.cumulative_sum(x), 2 * n * 4, target=True)
        rows, cols = sz.square(size, 4)
        add("cumulative_sum(axis=1) float32", _arrays(((rows, cols), "float32")),
            lambda ns, x: ns.cumulative_sum(x, axis=1), 2 * n * 4)
        add("cumulative_sum(axis=0) float32", _arrays(((rows, cols), "float32")),
            lambda ns, x: ns.cumulative_sum(x, axis=0), 2 * n * 4)
        add("cumulative_prod int32", _arrays(((n,), "int32")),
            lambda ns, x: ns.cumulative_prod(x), 2 * n * 4)
    return _cases("scans", sz, build)


@family("manipulation")
def manipulation(sz: Sizes) -> list[Case]:
    def build(size, add):
        rows, cols = sz.square(size, 4)
        n = rows * cols
        two = _arrays(((rows, cols), "float32"), ((rows, cols), "float32"))
        one = _arrays(((rows, cols), "float32"))
        add("concat axis=0", two, lambda ns, x, y: ns.concat([x, y], axis=0), 4 * n * 4)
        add("stack axis=1", two, lambda ns, x, y: ns.stack([x, y], axis=1), 4 * n * 4)
        add("transpose copy", one, lambda ns, x: ns.asarray(ns.permute_dims(x, (1, 0)),
                                                             copy=True), 2 * n * 4)
        add("flip copy", one, lambda ns, x: ns.asarray(ns.flip(x), copy=True), 2 * n * 4)
        add("roll", one, lambda ns, x: ns.roll(x, 7, axis=1), 2 * n * 4)
        add("tile 2x", one, lambda ns, x: ns.tile(x, (2, 1)), 3 * n * 4)
        add("reshape of a transpose", one,
            lambda ns, x: ns.reshape(ns.permute_dims(x, (1, 0)), (-1,)), 2 * n * 4)
    return _cases("manipulation", sz, build)


@family("indexing")
def indexing(sz: Sizes) -> list[Case]:
    def build(size, add):
        n = sz.n(size, 4)
        m = max(1, n // 4)

        def take_inputs(rng, n=n, m=m):
            return (rng.standard_normal(n, dtype=np.float32),
                    rng.integers(0, n, m).astype(np.int64))
        add("take int64 indices (n/4 of n float32)", take_inputs,
            lambda ns, x, i: ns.take(x, i), m * 8 + m * 4 * 2, target=True)
        add("x[mask] float32", _arrays(((n,), "float32"), ((n,), "bool")),
            lambda ns, x, b: x[b], n * 5 + n * 2)
        rows, cols = sz.square(size, 4)

        def tal(rng, rows=rows, cols=cols):
            return (rng.standard_normal((rows, cols), dtype=np.float32),
                    rng.integers(0, cols, (rows, cols)).astype(np.int64))
        add("take_along_axis(axis=1)", tal, lambda ns, x, i: ns.take_along_axis(x, i, axis=1),
            rows * cols * 16)
        add("x[:, ::2] copy", _arrays(((rows, cols), "float32")),
            lambda ns, x: ns.asarray(x[:, ::2], copy=True), rows * cols * 4)
    return _cases("indexing", sz, build)


@family("matmul")
def matmul(sz: Sizes) -> list[Case]:
    out = []

    def add(name, size, a, b, dtype, target=False, batch=1):
        flops = 2 * batch * a[-2] * a[-1] * b[-1]
        out.append(Case("matmul", name, size, _arrays((a, dtype), (b, dtype)),
                        lambda ns, x, y: x @ y, flops, target))
    add("64x64 float32", "small", (64, 64), (64, 64), "float32")
    big = 4096 if sz.large >= 256 << 20 else 256
    add(f"{big}^3 float32", "large", (big, big), (big, big), "float32", target=True)
    add(f"{big // 2}^3 float32", "large", (big // 2,) * 2, (big // 2,) * 2, "float32")
    add(f"{big}^3 float16", "large", (big, big), (big, big), "float16")
    add(f"{big // 2}^3 float64", "large", (big // 2,) * 2, (big // 2,) * 2, "float64")
    add(f"skinny {big * 4}x64 @ 64x{big * 4}", "large", (big * 4, 64), (64, big * 4),
        "float32")
    add(f"skinny 64x{big * 4} @ {big * 4}x64", "large", (64, big * 4), (big * 4, 64),
        "float32")
    nb = 1000 if sz.large >= 256 << 20 else 10
    add(f"batched {nb} x 64x64", "large", (nb, 64, 64), (nb, 64, 64), "float32", batch=nb)
    return out


@family("chain")
def chain(sz: Sizes) -> list[Case]:
    """Per-op eager cost: 100 chained small adds per call (reported per call of 100)."""
    def run(ns, x):
        y = x
        for _ in range(100):
            y = y + x
        return y
    return [Case("chain", "100 chained adds, 1000 float32", "small",
                 _arrays(((sz.small,), "float32")), run, 100 * 3 * sz.small * 4, True)]


# ---- backends -----------------------------------------------------------------------------
class _TorchNS:
    """The array API calls the families use, on PyTorch tensors."""

    def __init__(self, torch):
        self.t = torch

    def _dim(self, fn, x, axis, **kw):
        return fn(x, **kw) if axis is None else fn(x, dim=axis, **kw)

    def sum(self, x, axis=None):
        return self._dim(self.t.sum, x, axis)

    def mean(self, x, axis=None):
        return self._dim(self.t.mean, x, axis)

    def max(self, x, axis=None):
        return self.t.amax(x) if axis is None else self.t.amax(x, dim=axis)

    def min(self, x, axis=None):
        return self.t.amin(x) if axis is None else self.t.amin(x, dim=axis)

    def var(self, x, axis=None):
        return self._dim(self.t.var, x, axis, correction=0)

    def std(self, x, axis=None):
        return self._dim(self.t.std, x, axis, correction=0)

    def argmax(self, x, axis=None):
        return self.t.argmax(x) if axis is None else self.t.argmax(x, dim=axis)

    def argmin(self, x, axis=None):
        return self.t.argmin(x) if axis is None else self.t.argmin(x, dim=axis)

    def any(self, x, axis=None):
        return self._dim(self.t.any, x, axis)

    def count_nonzero(self, x, axis=None):
        return self._dim(self.t.count_nonzero, x, axis)

    def cumulative_sum(self, x, axis=0):
        return self.t.cumsum(x, dim=axis)

    def cumulative_prod(self, x, axis=0):
        return self.t.cumprod(x, dim=axis)

    def astype(self, x, dtype):
        return x.to(dtype)

    def concat(self, xs, axis=0):
        return self.t.cat(xs, dim=axis)

    def stack(self, xs, axis=0):
        return self.t.stack(xs, dim=axis)

    def permute_dims(self, x, axes):
        return x.permute(*axes)

    def flip(self, x, axis=None):
        return self.t.flip(x, dims=tuple(range(x.ndim)) if axis is None else (axis,))

    def roll(self, x, shift, axis=None):
        return self.t.roll(x, shift, dims=axis)

    def tile(self, x, reps):
        return self.t.tile(x, reps)

    def reshape(self, x, shape):
        return self.t.reshape(x, shape)

    def take(self, x, i, axis=None):
        return self.t.index_select(x, 0 if axis is None else axis, i)

    def take_along_axis(self, x, i, axis=-1):
        return self.t.take_along_dim(x, i, dim=axis)

    def asarray(self, x, copy=None):
        return x.clone() if copy else x

    def where(self, c, x, y):
        return self.t.where(c, x, y)

    def __getattr__(self, name):  # exp, sin, log, abs, float16, complex64, ...
        return getattr(self.t, name)


@dataclasses.dataclass
class Backend:
    name: str
    ns: Any
    asarray: Callable
    sync: Callable
    device: str


def _numr(which):
    import importlib
    ns = importlib.import_module(f"numr_array_api.{which}")
    info = ns.__array_namespace_info__()
    devs = info.devices()
    if not devs:
        raise RuntimeError(f"no {which} device")
    dev = str(info.default_device())
    if which == "webgpu":
        client = ns.asarray([0.0])._data.client
        dev += f" ({client.info.get('name')})"
    return Backend(f"numr-{which}", ns, ns.asarray, ns.synchronize, dev)


def _cupy():
    import cupy as cp
    cp.cuda.runtime.getDeviceCount()
    name = cp.cuda.runtime.getDeviceProperties(0)["name"]
    return Backend("cupy", cp, cp.asarray, cp.cuda.get_current_stream().synchronize,
                   name.decode() if isinstance(name, bytes) else str(name))


def _torch():
    import torch
    if not torch.cuda.is_available():
        raise RuntimeError("no CUDA device for PyTorch")
    return Backend("torch", _TorchNS(torch), lambda a: torch.as_tensor(a, device="cuda"),
                   torch.cuda.synchronize, torch.cuda.get_device_name(0))


def _numpy():
    return Backend("numpy", np, np.asarray, lambda: None, platform.processor() or "host")


BACKENDS = {"numr-webgpu": lambda: _numr("webgpu"), "numr-cuda": lambda: _numr("cuda"),
            "cupy": _cupy, "torch": _torch, "numpy": _numpy}


# ---- measuring ----------------------------------------------------------------------------
def time_call(fn, sync, reps, repeats):
    fn()
    sync()
    best = math.inf
    for _ in range(repeats):
        best = min(best, _burst(fn, sync, reps))
    return best


def _burst(fn, sync, reps):
    # one untimed call first: the GPU switching from another API's context (Vulkan after
    # CUDA or back) costs the first call of a burst, which would tax whichever backend
    # follows another API in the interleaved order (H100, 2026-11-26: numr cuda 0.90 of
    # CuPy on rows where it was 1.00)
    fn()
    sync()
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - t) / reps


def run_case(case, backends, arrays, args):
    """Every backend's inputs uploaded and its call warmed up first, then the repeats
    interleaved (each repeat times every backend in turn), so a slow phase of a shared
    machine (20-40 % between runs of the same call on the H100) weighs on every column
    alike instead of on whichever backend it hit."""
    reps = args.reps_small if case.size == "small" else args.reps_large
    recs, live = {}, {}
    for be in backends:
        recs[be.name] = {"family": case.family, "case": case.name, "size": case.size,
                         "backend": be.name, "target": case.target}
        try:
            dev = [be.asarray(a) for a in arrays]
            be.sync()
            case.run(be.ns, *dev)
            be.sync()
            live[be.name] = (be, dev)
        except Exception as exc:  # report and go on: the other columns still matter
            recs[be.name]["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    best = {name: math.inf for name in live}
    for rep in range(args.repeats):
        # the order rotates each repeat: each backend follows every other API once (a
        # burst right after another API's context ran slower on the H100 even after the
        # untimed call: numr cuda 0.74 / 0.80 of CuPy on the skinny / batched matmul rows,
        # 0.85-0.92 in a probe timing numr cuda and CuPy alone)
        order = list(live.items())
        k = rep % len(order) if order else 0
        for name, (be, dev) in order[k:] + order[:k]:
            try:
                t = _burst(lambda: case.run(be.ns, *dev), be.sync, reps)
                best[name] = min(best[name], t)
            except Exception as exc:
                recs[name]["error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
                del live[name]
    for name in live:
        recs[name].update(seconds=best[name], gbps=case.nbytes / best[name] / 1e9)
    live.clear()
    return [recs[be.name] for be in backends]


def _fmt(t):
    if t is None:
        return "-"
    return f"{t * 1e6:.1f} us" if t < 1e-3 else f"{t * 1e3:.3f} ms"


def print_table(results, names):
    by = {}
    for r in results:
        by.setdefault((r["family"], r["case"], r["size"]), {})[r["backend"]] = r
    head = ["family", "case", "size"] + names + [f"{n}/cupy" for n in names
                                                 if n.startswith("numr") and "cupy" in names]
    lines = [head]
    for (fam, case, size), cols in by.items():
        line = [fam, case, size]
        for n in names:
            r = cols.get(n, {})
            line.append(_fmt(r.get("seconds")) if "seconds" in r else
                        ("error" if "error" in r else "-"))
        for n in names:
            if n.startswith("numr") and "cupy" in names:
                a, c = cols.get(n, {}).get("seconds"), cols.get("cupy", {}).get("seconds")
                line.append(f"{c / a:.2f}" if a and c else "-")
        lines.append(line)
    widths = [max(len(str(row[i])) for row in lines) for i in range(len(head))]
    for row in lines:
        print("  ".join(str(v).ljust(w) for v, w in zip(row, widths)))
    errs = [r for r in results if "error" in r]
    for r in errs:
        print(f"  error: {r['backend']} {r['case']} ({r['size']}): {r['error']}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--families", default=",".join(FAMILIES))
    p.add_argument("--backends", default=",".join(BACKENDS))
    p.add_argument("--large-mib", type=int, default=256)
    p.add_argument("--small", type=int, default=1000)
    p.add_argument("--reps-small", type=int, default=200)
    p.add_argument("--reps-large", type=int, default=10)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--sizes", default="small,large")
    p.add_argument("--json", default=None, help="write the results here")
    p.add_argument("--smoke", action="store_true",
                   help="tiny sizes, few repetitions (a CI check that the script runs)")
    args = p.parse_args(argv)
    if args.smoke:
        args.large_mib, args.reps_small, args.reps_large, args.repeats = 1, 3, 2, 1
    sizes = Sizes(args.small, args.large_mib << 20)
    backends, skipped = [], {}
    for name in args.backends.split(","):
        try:
            backends.append(BACKENDS[name]())
        except Exception as exc:
            skipped[name] = f"{type(exc).__name__}: {exc}"
    names = [b.name for b in backends]
    for n, why in skipped.items():
        print(f"[sweep] skipping {n}: {why}")
    print("[sweep] " + "; ".join(f"{b.name}: {b.device}" for b in backends))
    want = set(args.sizes.split(","))
    rng = np.random.default_rng(0)
    results = []
    t0 = time.perf_counter()
    meta = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
            "devices": {b.name: b.device for b in backends}, "skipped": skipped,
            "args": vars(args), "host": platform.node()}
    for fam in args.families.split(","):
        for case in FAMILIES[fam](sizes):
            if case.size not in want:
                continue
            arrays = case.inputs(rng)
            results += run_case(case, backends, arrays, args)
            del arrays
        if args.json:  # after each family: a run stopped from outside keeps what it measured
            meta["families_done"] = meta.get("families_done", []) + [fam]
            with open(args.json, "w") as f:
                json.dump({"meta": meta, "results": results}, f, indent=1)
        print(f"[sweep] {fam}: done at {time.perf_counter() - t0:.1f} s", flush=True)
    print_table(results, names)
    print(f"[sweep] {len(results)} measurements in {time.perf_counter() - t0:.1f} s")
    if args.json:
        print(f"[sweep] wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
