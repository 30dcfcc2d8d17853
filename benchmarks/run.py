#!/usr/bin/env python3
"""The benchmark suite: every family of benchmarks/suite/ in one run, stored as data.

    python benchmarks/run.py                       # every family, full size
    python benchmarks/run.py --size smoke          # tiny sizes: a minute or two on a laptop
    python benchmarks/run.py --families fft,sort --backends numr-webgpu,cupy
    python benchmarks/run.py --out results.json    # default: benchmarks/results/<name>.json

Each family is one module of benchmarks/suite/ (runnable alone as well: its docstring says
how). This runner starts each in its own process, with the family's arguments for the size,
and stores one JSON file: ``meta`` (date, commit, adapter, devices, library versions, the
command) and per family its command, exit code, duration, results (the module's JSON) and
the tail of its output. Peers (CuPy, PyTorch, NumPy) run in the same module and the same
process as numr, so every figure has its peer from the same minute of the same machine.
docs/benchmarks.md is drawn from the stored files (benchmarks/render.py). Nothing here
asserts a timing: a family that fails is recorded with its exit code and output, and the
runner's exit code says whether any did.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.metadata
import json
import os
import pathlib
import platform
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
SUITE = ROOT / "benchmarks" / "suite"

# family -> (arguments at smoke size, arguments at full size, takes --backends, needs CUDA).
# Smoke sizes exercise every case in seconds; full sizes are what the stored results show.
FAMILIES: dict[str, tuple[list[str], list[str], bool, bool]] = {
    "namespace": (["--smoke"], ["--repeats", "3", "--reps-large", "5"], True, False),
    "fft": (["--small", "--repeats", "1"], ["--repeats", "5"], False, False),
    "sort": (["--small", "--repeats", "1"], ["--repeats", "3"], True, False),
    "linalg": (["--small", "--repeats", "1"], ["--repeats", "2"], False, False),
    "spectral": (["--small", "--repeats", "1"], ["--repeats", "2"], True, False),
    "runtime": (["--mib", "1", "--chain", "20", "--small", "100", "--repeats", "1"], [], False,
                False),
    "gather": (["--quick"], [], False, False),
    "overhead": (["--sizes", "100", "--repeats", "2", "--target", "0.002"], [], False, False),
    "latency": (["--calls", "20", "--mib", "1"], ["--strategies", "--breakdown", "--floor"],
                False, False),
    "ext": (["--quick"], [], False, False),
    "cuda_overhead": (["--calls", "50", "--repeats", "2"], [], False, True),
    "scaleout": (["--small", "--size", "4MiB", "--ops", "mean,matmul"], ["--time-budget", "120"],
                 True, False),
    "scipy_gpu": (["--small", "--repeats", "1"], ["--repeats", "3"], True, False),
    "fusion": (["--small", "--repeats", "1"], ["--repeats", "3"], True, False),
    "reductions": (["--small", "--repeats", "1"], ["--repeats", "5"], True, False),
}
JSON_FLAG = {"namespace", "fft", "sort", "linalg", "spectral", "runtime", "overhead", "latency",
             "cuda_overhead", "scaleout", "scipy_gpu", "fusion", "reductions"}
VERSIONED = ("numr-array-api", "numpy", "wgpu", "cupy-cuda13x", "cupy-cuda12x", "torch",
             "scipy", "array-api-compat")


def _git(*args: str) -> str:
    try:
        r = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                           timeout=20)
        return r.stdout.strip() if r.returncode == 0 else ""
    except (OSError, subprocess.SubprocessError):
        return ""


def _versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in VERSIONED:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            pass
    return out


def _devices() -> dict[str, str]:
    """The adapter and CUDA device, asked in a child (this process stays free of both)."""
    probe = ("import json\nout = {}\ntry:\n"
             "    import numr_array_api.webgpu as w\n"
             "    from numr_array_api.tuning import tables\n"
             "    c = w.asarray([0])._data.client\n"
             "    out['webgpu'] = tables.describe(c)\n"
             "except Exception as e:\n    out['webgpu'] = {'error': repr(e)[:200]}\n"
             "try:\n    import cupy\n"
             "    out['cuda'] = cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()\n"
             "except Exception as e:\n    out['cuda'] = 'none (' + type(e).__name__ + ')'\n"
             "print(json.dumps(out))\n")
    r = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                       timeout=300, env=_env(), cwd=ROOT)
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return {"error": (r.stderr or r.stdout)[-300:]}


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env.setdefault("XDG_RUNTIME_DIR", tempfile.gettempdir())
    return env


def _slug(devices: dict) -> str:
    gpu = devices.get("webgpu", {})
    name = gpu.get("name") if isinstance(gpu, dict) else None
    text = (name or "no-adapter").lower()
    return "".join(c if c.isalnum() else "-" for c in text).strip("-")[:40]


def run_family(name: str, size: str, backends: str, timeout: float) -> dict:
    smoke, full, takes_backends, _ = FAMILIES[name]
    cmd = [sys.executable, str(SUITE / f"{name}.py"), *(smoke if size == "smoke" else full)]
    if backends and takes_backends:
        cmd += ["--backends", backends]
    with tempfile.TemporaryDirectory() as tmp:
        out = pathlib.Path(tmp) / "out.json"
        if name in JSON_FLAG:
            cmd += ["--json", str(out)]
        t0 = time.perf_counter()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                               env=_env(), cwd=ROOT)
            rc, text = r.returncode, r.stdout + r.stderr
        except subprocess.TimeoutExpired as exc:
            rc = 124
            text = ((exc.stdout or b"").decode(errors="replace") if isinstance(exc.stdout, bytes)
                    else exc.stdout or "") + f"\n[run] stopped after {timeout:.0f} s"
        seconds = time.perf_counter() - t0
        results = json.loads(out.read_text()) if out.exists() and out.stat().st_size else None
    shown = [str(pathlib.Path(c).relative_to(ROOT)) if c.startswith(str(ROOT)) else
             "OUT.json" if c == str(out) else c for c in cmd[1:]]
    return {"command": ["python", *shown], "rc": rc, "seconds": round(seconds, 2),
            "results": results, "output": text[-6000:]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--families", default="", help="comma-separated, of " + ", ".join(FAMILIES))
    p.add_argument("--size", choices=("smoke", "full"), default="full")
    p.add_argument("--backends", default="", help="passed to the families that take it")
    p.add_argument("--out", default="", help="the results file (default: benchmarks/results/)")
    p.add_argument("--timeout", type=float, default=1800, help="seconds per family")
    a = p.parse_args(argv)
    names = [f for f in a.families.split(",") if f] or list(FAMILIES)
    unknown = sorted(set(names) - set(FAMILIES))
    if unknown:
        p.error(f"unknown families {unknown}; known: {', '.join(FAMILIES)}")
    devices = _devices()
    if "none" in str(devices.get("cuda", "none")):
        skipped = [n for n in names if FAMILIES[n][3]]
        names = [n for n in names if not FAMILIES[n][3]]
        for n in skipped:
            print(f"[run] {n}: skipped (no CUDA device)")
    commit = _git("rev-parse", "--short", "HEAD")
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "commit": commit, "dirty": bool(_git("status", "--porcelain", "--", "numr_array_api")),
            "size": a.size, "devices": devices, "host": platform.platform(),
            "versions": _versions(), "command": ["python", "benchmarks/run.py", *(argv or
                                                                                 sys.argv[1:])]}
    data = {"meta": meta, "families": {}}
    path = pathlib.Path(a.out) if a.out else (
        ROOT / "benchmarks" / "results" /
        f"{meta['date'][:10]}-{_slug(devices)}-{a.size}-{commit or 'nocommit'}.json")
    failed = []
    for name in names:
        print(f"[run] {name} ...", flush=True)
        got = data["families"][name] = run_family(name, a.size, a.backends, a.timeout)
        print(f"[run] {name}: rc={got['rc']} in {got['seconds']:.1f} s", flush=True)
        if got["rc"]:
            failed.append(name)
            print(got["output"][-1500:])
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1, default=str))   # after each: a cut run keeps
    print(f"[run] wrote {path}" + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
