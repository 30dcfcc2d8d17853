#!/usr/bin/env python3
"""Run scikit-learn's and SciPy's own array-API test suites on a numr namespace.

    python conformance/consumers/run.py --backend cpu|webgpu|cuda [--suite sklearn|scipy|all]
        [--subset ci] [--tag TAG] [--no-write] [-- extra pytest args]

Each suite runs from the installed package in a pytest subprocess with plugin.py (beside this
file), which adds numr_array_api.<backend> to the namespaces the suite parametrises over, next
to array-api-strict: the baseline, run in the same process. A worker that dies (segfault,
abort, or a test hung beyond --test-timeout) is recorded as a crash of the test it was running,
and the suite resumes in a fresh worker without the tests already done.

Writes conformance/results/consumers-<backend>[-<tag>].md and .json: counts per suite for numr
and strict, and every numr failure with its exception next to what strict did on the same
test, classified as

  peer      the test skips or xfails CuPy or PyTorch by name (a skip_xp_backends /
            xfail_xp_backends marker naming them): numr's GPU peers are excused from it
  reviewed  one entry of causes.REVIEWED explains it (the test, numr's exception and what
            strict did): an explanation, still counted
  numr      every other failure

Every failure but "peer" counts. The exit status is 1 when any failure counts or a numr test
crashed; 2 when a suite could not run at all; 0 otherwise. The semantics the run used
(NUMR_SEMANTICS: compatible, the default, or strict) are recorded. See README.md beside this
file.
"""

import argparse
import datetime as _dt
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RESULTS = HERE.parent / "results"
BACKENDS = ("cpu", "webgpu", "cuda")
SUITES = ("sklearn", "scipy")

sys.path.insert(0, str(HERE))
from causes import label, reviewed_cause, strict_text, twin_from_text  # noqa: E402
from plugin import HARNESS_ADAPTATIONS  # noqa: E402
from selection import (SCIPY_MODULES, ci_selection, scipy_gpu_ci_selection,
                       scipy_gpu_selection, sklearn_modules)  # noqa: E402


def parse_args(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", required=True, choices=BACKENDS)
    p.add_argument("--suite", default="all", choices=SUITES + ("all",))
    p.add_argument("--subset", default=None, choices=("ci", "scipy-gpu", "scipy-gpu-ci"),
                   help="ci: the documented deterministic CI subset (selection.py); "
                        "scipy-gpu: the SciPy test files that measure SciPy on the GPU "
                        "(selection.SCIPY_GPU_FILES); scipy-gpu-ci: CI's share of them "
                        "(selection.SCIPY_GPU_CI)")
    p.add_argument("--cpu-only-tests", action="store_true",
                   help="SciPy: run the tests SciPy marks CPU-only on numr's GPU namespaces "
                        "too (by default they are skipped for them, as for CuPy)")
    p.add_argument("--scipy-routes", action="store_true",
                   help="SciPy: numr_array_api.scipy.enable() in the test process (SciPy's "
                        "special / ndimage / signal routed to numr for numr arrays)")
    p.add_argument("--host-conversion", default=None, choices=("allow", "warn", "raise"),
                   help="numr's host-conversion policy in the test process "
                        "(NUMR_HOST_CONVERSION); 'raise' makes any host copy fail its test")
    p.add_argument("--only", nargs="+", default=None, metavar="MODULE",
                   help="run only these test modules / packages (dotted, e.g. "
                        "scipy.cluster sklearn.decomposition.tests.test_pca), with the suite's "
                        "own selection (-k array_api / -m array_api_backends)")
    p.add_argument("--tag", default=None, help="results go to consumers-<backend>-<tag>.md")
    p.add_argument("--no-write", action="store_true", help="do not write results files")
    p.add_argument("--json", default=None, help="also write the JSON summary to this path")
    p.add_argument("--test-timeout", type=float, default=300,
                   help="seconds one test may run before its worker is killed (crash)")
    p.add_argument("--combine", nargs="+", default=None, metavar="JSON",
                   help="write results/consumers-<backend>[-<tag>].md|json from the JSON "
                        "summaries of separate runs (e.g. one per suite), without running")
    p.add_argument("--max-restarts", type=int, default=25)
    p.add_argument("--time-budget", type=float, default=None, metavar="S",
                   help="stop a suite's pytest after S seconds (the tests run so far are "
                        "recorded; the suite is marked incomplete)")
    p.add_argument("--workers", "-n", type=int, default=0,
                   help="pytest-xdist workers (0: one process, no xdist); a crashed xdist "
                        "worker is recorded and replaced by xdist itself")
    args = p.parse_args(argv)
    args.extra = extra
    return args


def normalise(nodeid, backend):
    """The id of a test with the namespace and device taken out, so that a numr test and its
    array-api-strict twin share a key."""
    ns = re.escape(f"numr_array_api.{backend}")
    s = re.sub(ns, "XP", nodeid)
    s = s.replace("array_api_strict", "XP")
    s = re.sub(r"(?<![A-Za-z0-9_])(CPU_DEVICE|device1|webgpu:\d+|cuda:\d+|cpu)(?![A-Za-z0-9_])",
               "DEV", s)
    return s


def is_numr(nodeid, backend):
    return f"numr_array_api.{backend}" in nodeid


def is_strict(nodeid):
    return "array_api_strict" in nodeid and "numr_array_api" not in nodeid


def pytest_targets(suite, subset, only=None):
    if only:
        mods = [m for m in only if m.split(".")[0] == suite]
        if not mods:
            return None
        sel = ["-k", "array_api"] if suite == "sklearn" else ["-m", "array_api_backends"]
        return ["--pyargs", *mods, *sel]
    if subset == "ci":
        return ci_selection(suite)
    if subset == "scipy-gpu":
        return scipy_gpu_selection() if suite == "scipy" else None
    if subset == "scipy-gpu-ci":
        return scipy_gpu_ci_selection() if suite == "scipy" else None
    if suite == "sklearn":
        return ["--pyargs", *sklearn_modules(), "-k", "array_api"]
    return ["--pyargs", *[f"scipy.{m}" for m in SCIPY_MODULES], "-m", "array_api_backends"]


def run_suite(suite, args, workdir):
    """Run one suite (restarting crashed workers); returns (records, crashes, runs, error)."""
    log = workdir / f"{suite}.jsonl"
    exclude = workdir / f"{suite}.exclude"
    log.write_text("")
    exclude.write_text("")
    env = dict(os.environ)
    env.update({
        "NUMR_CONSUMERS_SUITE": suite,
        "NUMR_CONSUMERS_BACKEND": args.backend,
        "NUMR_CONSUMERS_LOG": str(log),
        "NUMR_CONSUMERS_EXCLUDE": str(exclude),
        "NUMR_CONSUMERS_TEST_TIMEOUT": str(args.test_timeout),
        "SCIPY_ARRAY_API": "1",
        "PYTHONUNBUFFERED": "1",
        "NUMR_CONSUMERS_CPU_ONLY_TESTS": "1" if args.cpu_only_tests else "0",
        "NUMR_CONSUMERS_SCIPY_ROUTES": "1" if args.scipy_routes else "0",
    })
    if args.host_conversion:
        env["NUMR_HOST_CONVERSION"] = args.host_conversion
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HERE), str(ROOT), env.get("PYTHONPATH")) if p)
    # An empty ini in an empty folder: neither this project's pytest settings nor a stray
    # conftest apply to the consumers' suites.
    (workdir / "pytest.ini").write_text("[pytest]\n")
    # rootdir = the folder holding the installed package: node ids then carry the test file's
    # path inside the package (sklearn/metrics/tests/test_common.py::...).
    rootdir = _site_dir(suite)
    cmd = [sys.executable, "-m", "pytest", "-p", "plugin", "-p", "no:cacheprovider",
           "-c", str(workdir / "pytest.ini"), "--rootdir", rootdir, "-q", "-rN",
           "--no-header", "-W", "ignore::DeprecationWarning",
           *pytest_targets(suite, args.subset, args.only), *args.extra]
    if args.workers:
        # --dist load: tests spread one by one; strict and numr twins may land on
        # different workers, which changes nothing (each test is independent)
        cmd += ["-n", str(args.workers), "--max-worker-restart", "1000"]
    records, crashes, runs = {}, [], []
    error = None
    t_suite = time.time()
    for attempt in range(args.max_restarts + 1):
        start_line = len(log.read_text().splitlines())
        t0 = time.time()
        left = None if args.time_budget is None else args.time_budget - (t0 - t_suite)
        try:
            proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True,
                                  timeout=left)
        except subprocess.TimeoutExpired:
            for e in _events(log.read_text().splitlines()[start_line:]):
                if e["event"] == "finish":
                    records[e["id"]] = e
            error = (f"incomplete: the time budget ({args.time_budget:.0f} s) ran out after "
                     f"{len(records)} tests")
            runs.append({"attempt": attempt, "returncode": None,
                         "seconds": round(time.time() - t0, 1), "finished": False})
            break
        lines = log.read_text().splitlines()[start_line:]
        events = _events(lines)
        finished = any(e["event"] == "sessionfinish" for e in events)
        started = [e["id"] for e in events if e["event"] == "start"]
        for e in events:
            if e["event"] == "finish":
                if e["outcome"] == "crashed":
                    crashes.append({"id": e["id"], "returncode": None,
                                    "output": e["exc"]["message"]})
                records[e["id"]] = e
        runs.append({"attempt": attempt, "returncode": proc.returncode,
                     "seconds": round(time.time() - t0, 1), "finished": finished})
        if finished:
            if proc.returncode not in (0, 1, 5):  # 5: nothing collected (e.g. a -k filter)
                error = (f"pytest exit {proc.returncode}: "
                         + _tail(proc.stdout + proc.stderr, 30))
            break
        crashed = [t for t in started if t not in records]
        if not crashed:
            error = (f"worker exited {proc.returncode} before running any test: "
                     + _tail(proc.stdout + proc.stderr, 30))
            break
        victim = crashed[-1]
        crashes.append({"id": victim, "returncode": proc.returncode,
                        "output": _tail(proc.stderr or proc.stdout, 25)})
        records[victim] = {"event": "finish", "id": victim, "outcome": "crashed",
                           "exc": {"type": f"worker died (exit {proc.returncode})",
                                   "message": _crash_line(proc), "where": None,
                                   "numr_frame": None, "consumer_frame": None}}
        with exclude.open("a") as f:
            for t in records:
                f.write(t + "\n")
    else:
        error = f"gave up after {args.max_restarts} restarts"
    return records, crashes, runs, error


def _events(lines):
    """The log's records; a line cut short by a killed worker is dropped."""
    out = []
    for x in lines:
        try:
            out.append(json.loads(x))
        except ValueError:
            continue
    return out


def _site_dir(package):
    import importlib.util

    return str(Path(importlib.util.find_spec(package).origin).parents[1])


def _tail(text, n):
    return "\n".join(text.strip().splitlines()[-n:])


def _crash_line(proc):
    text = proc.stderr or ""
    if "Timeout (" in text:
        return "killed: the test exceeded the per-test timeout (hang)"
    for line in text.splitlines():
        if line.startswith("Fatal Python error"):
            return line.strip()
    return f"exit status {proc.returncode}"


def failure_class(nodeid, exc, twin):
    """(class, cause) of one numr failure: peer / reviewed / numr (module docstring)."""
    if exc.get("peers_by_name"):
        return "peer", "CuPy / PyTorch are excused by name: " + "; ".join(exc["peers_by_name"])
    cause = reviewed_cause(nodeid, exc, twin)
    return ("reviewed", cause.name) if cause else ("numr", None)


def counted(failures):
    return sum(f["class"] != "peer" for f in failures)


def classify(records, backend):
    """Every numr failure: "reviewed" when causes.REVIEWED covers it, else "numr"."""
    strict = {normalise(k, backend): v for k, v in records.items() if is_strict(k)}
    out = []
    for k, v in sorted(records.items()):
        if not is_numr(k, backend) or v["outcome"] not in ("failed", "error", "crashed"):
            continue
        twin = strict.get(normalise(k, backend))
        exc = v.get("exc") or {}
        cls, cause = failure_class(k, exc, twin)
        row = {"id": k, "outcome": v["outcome"], "class": cls,
               "strict": strict_text(twin), "exc": exc, "cause": cause or label(k, exc)}
        if cls == "numr" and exc.get("strict_in_test"):
            # a hint for a review: the test body treats strict differently
            row["hint"] = "the test body singles out strict: " + " / ".join(
                f"`{x}`" for x in exc["strict_in_test"])
        out.append(row)
    return out


def module_seconds(records, backend):
    """Seconds spent per test module, numr and strict (for choosing the CI subset)."""
    out = {}
    for k, v in records.items():
        mod = k.split("::")[0]
        ns = "numr" if is_numr(k, backend) else "strict" if is_strict(k) else "other"
        row = out.setdefault(mod, {"numr": 0.0, "strict": 0.0, "other": 0.0, "tests": 0})
        row[ns] += v.get("duration") or 0.0
        row["tests"] += 1
    return {m: {k: round(x, 1) if isinstance(x, float) else x for k, x in r.items()}
            for m, r in sorted(out.items())}


def module_counts(records, backend):
    """numr's outcomes per test module (the per-module figures a comparison with a peer
    needs; peer.py prints the peer's)."""
    out = {}
    for k, v in records.items():
        if is_numr(k, backend):
            row = out.setdefault(k.split("::")[0], {})
            row[v["outcome"]] = row.get(v["outcome"], 0) + 1
    return dict(sorted(out.items()))


def counts(records, pred):
    c = {k: 0 for k in ("passed", "failed", "error", "crashed", "skipped", "xfailed",
                        "xpassed")}
    for k, v in records.items():
        if pred(k):
            c[v["outcome"]] = c.get(v["outcome"], 0) + 1
    c["total"] = sum(c.values())
    return c


def environment():
    vers = {}
    for mod in ("sklearn", "scipy", "numpy", "array_api_strict", "array_api_compat", "pytest"):
        try:
            m = __import__(mod)
            vers[mod] = m.__version__
        except Exception:  # noqa: BLE001 - a missing package is recorded, not fatal
            vers[mod] = "missing"
    return vers


def devices(backend):
    code = ("import numr_array_api.%s as xp; i = xp.__array_namespace_info__(); "
            "print('@@', [str(d) for d in i.devices()], i.default_device())" % backend)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    for line in r.stdout.splitlines():
        if line.startswith("@@"):
            return line[3:]
    return "unavailable: " + _tail(r.stderr, 1)


def write_markdown(path, s):
    L = [f"# Consumers: scikit-learn / SciPy array-API suites on `numr_array_api.{s['backend']}`"
         + (f" ({s['tag']})" if s.get("tag") else ""), "",
         "Generated by `conformance/consumers/run.py`; do not edit by hand. "
         "Classes: **peer** (the test skips or xfails CuPy or PyTorch by name: not counted), "
         "**reviewed** (an entry of `conformance/consumers/causes.py` explains it; counted), "
         "**numr** (every other failure; counted). Each failure prints what array-api-strict "
         "did on the same test.", "",
         "Harness adaptations (plugin.py): " + "; ".join(HARNESS_ADAPTATIONS) + ".", "",
         "| setting | value |", "|---|---|"]
    for k, v in [("date (UTC)", s["date"]), ("backend", s["backend"]),
                 ("semantics", s.get("semantics", "compatible")),
                 ("host conversion", s.get("host_conversion", "warn")),
                 ("SciPy CPU-only tests on numr", "run" if s.get("cpu_only_tests") else
                  "skipped (as for CuPy)"),
                 ("SciPy routed to numr (numr_array_api.scipy.enable())",
                  "yes" if s.get("scipy_routes") else "no"),
                 ("devices (default last)", s["devices"]),
                 ("selection", s["selection"]),
                 ("extra pytest args", " ".join(f"`{a}`" for a in s["extra_args"]) or "none"),
                 ("packages", ", ".join(f"{k} {v}" for k, v in s["versions"].items())),
                 ("python / platform", f"{s['python']} / {s['platform']}"),
                 ("wall time", f"{s['duration_s']:.0f} s")]:
        L.append(f"| {k} | {v} |")
    L += ["", "| suite | namespace | passed | failed | errors | crashed | skipped | xfailed "
          "| xpassed | total | counted failures |", "|---|---|---|---|---|---|---|---|---|---|---|"]
    for suite, r in s["suites"].items():
        for ns, c in (("numr", r["numr"]), ("array_api_strict", r["strict"])):
            nc = r["numr_caused"] if ns == "numr" else ""
            L.append(f"| {suite} | {ns} | " + " | ".join(
                str(c[k]) for k in ("passed", "failed", "error", "crashed", "skipped",
                                    "xfailed", "xpassed", "total")) + f" | {nc} |")
    for suite, r in s["suites"].items():
        L += ["", f"## {suite}", ""]
        if r.get("error"):
            L += [f"**The suite did not complete:** {r['error'].splitlines()[0]}", "",
                  "```", r["error"], "```", ""]
        runs = r["runs"]
        L.append(f"Workers: {len(runs)} ({sum(x['seconds'] for x in runs):.0f} s); "
                 f"crashed workers: {len(r['crashes'])}.")
        for c in r["crashes"]:
            L += ["", f"- crash in `{c['id']}` (exit {c['returncode']}):", "", "```",
                  c["output"], "```"]
        mc = r.get("module_counts") or {}
        if mc:
            L += ["", "| module | numr passed | failed | skipped |", "|---|---|---|---|"]
            L += [f"| `{m}` | {x.get('passed', 0)} | {x.get('failed', 0) + x.get('error', 0)} | "
                  f"{x.get('skipped', 0)} |" for m, x in mc.items()]
        ms = r.get("module_seconds") or {}
        if ms:
            L += ["", "<details><summary>time per test module (s, summed over tests)</summary>",
                  "", "| module | tests | numr | strict |", "|---|---|---|---|"]
            L += [f"| `{m}` | {x['tests']} | {x['numr']} | {x['strict']} |" for m, x in ms.items()]
            L += ["", "</details>"]
        L.append("")
        by = {}
        for f in r["failures"]:
            by.setdefault(f["class"], []).append(f)
        if not r["failures"]:
            L.append("No numr failures.")
        for cls in ("numr", "reviewed", "peer"):
            fs = by.get(cls, [])
            if not fs:
                continue
            L += [f"### {cls} ({len(fs)})", ""]
            for f in fs:
                e = f["exc"]
                msg = f"{e.get('type', '?')}: {e.get('message', '')}".replace("|", "/")
                loc = e.get("numr_frame") or e.get("consumer_frame") or e.get("where")
                L.append(f"- `{f['id']}` [{f['outcome']}]: numr: {msg}"
                         + (f" at `{loc}`" if loc else ""))
                L.append(f"  - strict: {(f.get('strict') or 'no twin').replace('|', '/')}")
                if f.get("cause"):
                    L.append(f"  - cause: {f['cause']}")
                if f.get("hint"):
                    L.append(f"  - {f['hint']}")
            L.append("")
    path.write_text("\n".join(L).rstrip() + "\n")


def combine(args):
    parts = [json.loads(Path(p).read_text()) for p in args.combine]
    out = dict(parts[0])
    out["suites"] = {}
    for p in parts:
        if p["backend"] != args.backend:
            sys.exit(f"error: {p['backend']} summary given for --backend {args.backend}")
        out["suites"].update(p["suites"])
    for r in out["suites"].values():  # the current reviews apply to the stored evidence
        for f in r["failures"]:
            f["class"], cause = failure_class(f["id"], f["exc"],
                                              twin_from_text(f.get("strict")))
            if cause:
                f["cause"] = cause
                f.pop("hint", None)
        r["numr_caused"] = counted(r["failures"])
    out["tag"] = args.tag
    out["date"] = " / ".join(sorted({p["date"] for p in parts}))
    out["selection"] = " + ".join(dict.fromkeys(p["selection"] for p in parts))
    out["duration_s"] = sum(p["duration_s"] for p in parts)
    stem = f"consumers-{args.backend}" + (f"-{args.tag}" if args.tag else "")
    write_markdown(RESULTS / f"{stem}.md", out)
    (RESULTS / f"{stem}.json").write_text(json.dumps(out, indent=1) + "\n")
    print(f"wrote {RESULTS / stem}.md from {len(parts)} summaries")
    return 0


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if args.combine:
        return combine(args)
    suites = SUITES if args.suite == "all" else (args.suite,)
    suites = tuple(x for x in suites if pytest_targets(x, args.subset, args.only) is not None)
    t0 = time.time()
    summary = {
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "backend": args.backend, "tag": args.tag,
        "selection": ("modules " + " ".join(f"`{m}`" for m in args.only) if args.only else
                      "SciPy-on-the-GPU files (conformance/consumers/selection.py "
                      "SCIPY_GPU_FILES)" if args.subset == "scipy-gpu" else
                      "CI's share of the SciPy-on-the-GPU files (selection.py SCIPY_GPU_CI)"
                      if args.subset == "scipy-gpu-ci" else
                      "CI subset (conformance/consumers/selection.py)" if args.subset
                      else "whole suites: scikit-learn `-k array_api` over its array-API "
                           "test files; SciPy `-m array_api_backends` over "
                           + ", ".join(SCIPY_MODULES)),
        "extra_args": args.extra, "versions": environment(), "devices": devices(args.backend),
        "python": platform.python_version(), "platform": platform.platform(), "suites": {},
        "semantics": os.environ.get("NUMR_SEMANTICS", "").strip().lower() or "compatible",
        "cpu_only_tests": args.cpu_only_tests, "scipy_routes": args.scipy_routes,
        "host_conversion": (args.host_conversion
                            or os.environ.get("NUMR_HOST_CONVERSION", "").strip() or "warn"),
    }
    status = 0
    with tempfile.TemporaryDirectory(prefix="numr-consumers-") as tmp:
        for suite in suites:
            records, crashes, runs, error = run_suite(suite, args, Path(tmp))
            failures = classify(records, args.backend)
            numr_caused = counted(failures)
            summary["suites"][suite] = {
                "numr": counts(records, lambda k: is_numr(k, args.backend)),
                "strict": counts(records, is_strict),
                "numr_caused": numr_caused, "failures": failures, "crashes": crashes,
                "runs": runs, "error": error,
                "module_seconds": module_seconds(records, args.backend),
                "module_counts": module_counts(records, args.backend),
            }
            c = summary["suites"][suite]["numr"]
            print(f"[{suite}] numr {args.backend}: {c['passed']} passed, {c['failed']} failed, "
                  f"{c['error']} errors, {c['crashed']} crashed, {c['skipped']} skipped, "
                  f"{c['xfailed']} xfailed; counted failures {numr_caused}; "
                  f"strict: {summary['suites'][suite]['strict']['passed']} passed, "
                  f"{summary['suites'][suite]['strict']['failed']} failed"
                  + (f"; ERROR {error.splitlines()[0]}" if error else ""), flush=True)
            if error:
                status = 2
            elif (numr_caused or any(is_numr(c["id"], args.backend) for c in crashes)) \
                    and status == 0:
                status = 1
    summary["duration_s"] = time.time() - t0
    if not args.no_write:
        stem = f"consumers-{args.backend}" + (f"-{args.tag}" if args.tag else "")
        RESULTS.mkdir(parents=True, exist_ok=True)
        write_markdown(RESULTS / f"{stem}.md", summary)
        (RESULTS / f"{stem}.json").write_text(json.dumps(summary, indent=1) + "\n")
    if args.json:
        Path(args.json).write_text(json.dumps(summary, indent=1) + "\n")
    print(f"wall time {summary['duration_s']:.0f} s; exit {status}")
    return status


if __name__ == "__main__":
    sys.exit(main())
