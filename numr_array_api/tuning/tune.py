"""The tune command: measure each knob's choices on this adapter and write its table.

    python -m numr_array_api.tuning [--quick] [--families fft,linalg] [--knobs A,B] [--out F]

For every family that declares ``workloads(xp, quick)`` (tuning/knobs/<family>.py), the
knobs with several ``choices`` are tried one at a time (coordinate descent, in declaration
order, earlier winners pinned): each choice runs every workload once to compile and must
give the default's results (NaN where NaN; float tolerance by dtype); then the choices take
turns, ``repeats`` synchronised passes each, and each keeps its best. A choice replaces the
current value only when it is faster by more than ``margin`` (5 %) and again so in a second
race of the two alone: the table records what beat the portable default, not noise. The
table is merged into the adapter's file (tables.write) with the date, the commit and the
command, and the library reads it on next use.
GEMM tile configurations have their own tuner (backends/webgpu/ops/matmul/tune.py), which
writes the same table's "gemm" section.
"""

from __future__ import annotations

import datetime
import importlib
import os
import subprocess
import time
from typing import Any, Callable

import numpy as np

from . import registry, tables
from .knobs import FAMILIES

__all__ = ["tune", "main", "best_time"]

_RTOL = {np.dtype("float16"): 2e-2, np.dtype("float32"): 2e-4, np.dtype("complex64"): 2e-4}


def _host(x) -> list[np.ndarray]:
    if isinstance(x, (tuple, list)):
        return [a for item in x for a in _host(item)]
    return [np.asarray(x.to_device("cpu")) if hasattr(x, "to_device") else np.asarray(x)]


def _same(got: list[np.ndarray], ref: list[np.ndarray]) -> bool:
    if len(got) != len(ref):
        return False
    for g, r in zip(got, ref):
        if g.shape != r.shape or g.dtype != r.dtype:
            return False
        if g.dtype.kind in "fc":
            rtol = _RTOL.get(g.dtype, 1e-9)
            scale = float(np.nanmax(np.abs(r))) if r.size and np.isfinite(r).any() else 1.0
            if not np.allclose(g, r, rtol=rtol, atol=rtol * scale, equal_nan=True):
                return False
        elif not np.array_equal(g, r):
            return False
    return True


def best_time(fn: Callable[[], Any], sync: Callable[[], None], repeats: int) -> float:
    """Seconds of the fastest of ``repeats`` synchronised calls, after one that compiles."""
    fn()
    sync()
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        sync()
        best = min(best, time.perf_counter() - t)
    return best


def _runner(works, sync, values: dict[str, Any]) -> Callable[[], float]:
    """One synchronised pass over every workload with ``values`` in force; returns seconds."""
    def run() -> float:
        with registry.override(**values):
            t = time.perf_counter()
            for _, fn in works:
                fn()
            sync()
            return time.perf_counter() - t
    return run


def _interleaved(runs: dict[Any, Callable[[], float]], repeats: int) -> dict[Any, float]:
    """The best of ``repeats`` passes per choice, the choices taking turns (rotated each
    round): clocks, caches and other tenants drift over a run, and choices timed one after
    the other would inherit that drift as a difference of their own."""
    order = list(runs)
    best = dict.fromkeys(order, float("inf"))
    for r in range(max(1, repeats)):
        for c in order[r % len(order):] + order[:r % len(order)]:
            best[c] = min(best[c], runs[c]())
    return best


def _commit() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        out = subprocess.run(["git", "-C", here, "rev-parse", "--short", "HEAD"],
                             capture_output=True, text=True, timeout=10)
        return out.stdout.strip() if out.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def tune(families=None, knob_names=None, quick: bool = False, repeats: int = 3,
         margin: float = 0.05, write: bool = True, path: str | None = None, xp=None,
         log: Callable[[str], None] = print) -> dict[str, Any]:
    """Tune the knobs of ``families`` (all with workloads by default) on ``xp``'s default
    device (numr_array_api.webgpu); returns {knob: chosen value} and writes the table."""
    if xp is None:
        import numr_array_api.webgpu as xp
    client = xp.asarray([0])._data.client
    sync = client.synchronize
    chosen: dict[str, Any] = {}
    timings: dict[str, dict[str, float]] = {}
    desc = tables.describe(client)
    done: list[str] = []
    for fam in families or FAMILIES:
        mod = importlib.import_module(f"{__package__}.knobs.{fam}")
        make = getattr(mod, "workloads", None)
        ks = [k for k in registry.knobs(fam).values()
              if k.tunable and len(k.choices) > 1 and
              (knob_names is None or k.name in knob_names)]
        if make is None or not ks:
            continue
        works = make(xp, quick)
        if not works:
            continue
        refs = [_host(fn()) for _, fn in works]
        pinned: dict[str, Any] = {}
        for k in ks:
            cur = registry.get(k.name, client)
            runs: dict[Any, Callable[[], float]] = {}
            for choice in dict.fromkeys((cur,) + k.choices):
                try:    # the warm-up compiles; its results must be the default's
                    with registry.override(**pinned, **{k.name: choice}):
                        ok = all(_same(_host(fn()), ref) for (_, fn), ref in zip(works, refs))
                except Exception as exc:  # noqa: BLE001 - a choice that fails here is skipped
                    log(f"[tune] {fam} {k.name}={choice!r}: {type(exc).__name__}: {exc}")
                    continue
                if not ok:
                    log(f"[tune] {fam} {k.name}={choice!r}: results differ, skipped")
                    continue
                runs[choice] = _runner(works, sync, {**pinned, k.name: choice})
            if cur not in runs:
                continue
            results = _interleaved(runs, repeats)
            best = min(results, key=results.get)
            verdict = cur
            if results[best] < results[cur] * (1 - margin):
                # a second, separate race of the two: a win must hold twice to count
                again = _interleaved({cur: runs[cur], best: runs[best]}, repeats)
                if again[best] < again[cur] * (1 - margin):
                    pinned[k.name] = verdict = best
            timings[k.name] = {repr(c): round(t * 1e3, 4) for c, t in results.items()}
            log(f"[tune] {fam} {k.name}: " + ", ".join(
                f"{c!r} {t * 1e3:.3f} ms" for c, t in results.items()) + f" -> {verdict!r}")
        chosen.update(pinned)
        if write:   # after each family: a run cut short keeps what it measured
            measured = {"date": datetime.date.today().isoformat(), "commit": _commit(),
                        "command": "python -m numr_array_api.tuning" +
                        (" --quick" if quick else ""), "families": done + [fam],
                        "timings_ms": timings}
            out = tables.write(desc, values=pinned, measured=measured, path=path)
            log(f"[tune] {fam}: {len(pinned)} values differ from the defaults; table: {out}")
        done.append(fam)
    return chosen


def main(argv=None) -> int:
    import argparse
    p = argparse.ArgumentParser(prog="python -m numr_array_api.tuning",
                                description="Tune numr's knobs on this WebGPU adapter.")
    p.add_argument("--quick", action="store_true", help="tiny sizes (a smoke run)")
    p.add_argument("--families", default="", help=f"comma-separated, of {', '.join(FAMILIES)}")
    p.add_argument("--knobs", default="", help="comma-separated knob names (default: all)")
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--margin", type=float, default=0.05,
                   help="how much faster a choice must be to replace the current value")
    p.add_argument("--out", default=None, help="table file (default: the adapter's cache file)")
    p.add_argument("--list", action="store_true", help="print every knob and exit")
    a = p.parse_args(argv)
    if a.list:
        for k in registry.knobs().values():
            print(f"{k.family:10} {k.name:28} {k.type.__name__:5} {k.default!r:>10}  {k.doc}")
        return 0
    fams = [f for f in a.families.split(",") if f] or None
    names = set(n for n in a.knobs.split(",") if n) or None
    tune(fams, names, quick=a.quick, repeats=a.repeats, margin=a.margin, path=a.out)
    return 0
