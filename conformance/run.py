#!/usr/bin/env python3
"""Run the official array API conformance suite (data-apis/array-api-tests) on one numr backend.

    python conformance/run.py --backend cpu|cuda|webgpu --suite /path/to/array-api-tests \
        [--max-examples N] [--derandomize] [--tests test_x.py ...] [--tag TAG] [-- extra pytest args]

It sets ARRAY_API_TESTS_MODULE=numr_array_api.<backend>, marks the ids listed in
conformance/xfails/<backend>.txt as expected failures (the suite's --xfails-file), runs pytest
in the suite checkout with pytest-json-report, and writes

    conformance/results/<backend>[-<tag>].md    settings, counts, failing ids + first error line
    conformance/results/<backend>[-<tag>].json  the same, machine-readable (not the full report)

The exit status is pytest's (0 when every selected test passed or failed as listed).
See conformance/README.md.
"""

import argparse
import datetime as _dt
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BACKENDS = ("cpu", "cuda", "webgpu")
OUTCOMES = ("passed", "failed", "error", "xfailed", "xpassed", "skipped")

# Runs inside the suite checkout with the same environment as pytest, to record what the suite
# itself sees: the API version it tests against and the module's version / devices.
_PROBE = r"""
import json, sys
out = {}
try:
    from array_api_tests import api_version, xp
    out["api_version"] = str(api_version)
    out["module"] = getattr(xp, "__name__", "?")
    top = sys.modules.get(getattr(xp, "__name__", "").split(".")[0])
    out["module_version"] = str(getattr(xp, "__version__", None)
                                or getattr(top, "__version__", "unknown"))
    try:
        info = xp.__array_namespace_info__()
        out["devices"] = [repr(d) for d in info.devices()]
        out["default_device"] = repr(info.default_device())
    except Exception as e:
        out["devices_error"] = f"{type(e).__name__}: {e}"
    if out["module"].startswith("cubed"):
        # the namespace Cubed computes each chunk with (CUBED_BACKEND_ARRAY_API_MODULE)
        import cubed.backend_array_api as cb
        out["chunk_namespace"] = cb.namespace.__name__
except Exception as e:
    out["error"] = f"{type(e).__name__}: {e}"
print("@@PROBE@@" + json.dumps(out))
"""


def parse_args(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    p = argparse.ArgumentParser(
        description="Run array-api-tests on a numr backend and record the results.",
        epilog="Arguments after '--' are passed to pytest unchanged "
        "(e.g. -- -x --disable-extension fft).",
    )
    p.add_argument("--backend", choices=BACKENDS)
    p.add_argument("--cubed-backend", default=None, metavar="MODULE",
                   help="run the suite on cubed.array_api with this chunk namespace "
                        "(CUBED_BACKEND_ARRAY_API_MODULE; 'numpy': Cubed's default). Results "
                        "go to results/cubed-<tag or MODULE>.md|json; no xfails file")
    p.add_argument(
        "--suite",
        default=os.environ.get("ARRAY_API_TESTS_DIR"),
        help="path of the array-api-tests checkout (default: $ARRAY_API_TESTS_DIR)",
    )
    p.add_argument("--max-examples", type=int, default=100,
                   help="Hypothesis examples per test (suite default: 100)")
    p.add_argument("--derandomize", action="store_true",
                   help="derandomize Hypothesis (reproducible runs)")
    p.add_argument("--deadline", action="store_true",
                   help="keep the suite's 800 ms Hypothesis deadline per example (by default "
                   "it is disabled: first-call shader / kernel compilation is not a conformance "
                   "failure)")
    p.add_argument("--no-shrink", action="store_true",
                   help="no Hypothesis shrinking (plugins/no_shrink.py): failing tests report "
                        "their first failing example, much faster on slow namespaces")
    p.add_argument("--tests", nargs="+", default=[], metavar="TEST",
                   help="test files or ids to run, e.g. test_linalg.py "
                   "test_sorting_functions.py::test_sort (default: the whole suite)")
    p.add_argument("--tag", default=None,
                   help="results go to results/<backend>-<tag>.md|json (e.g. h200, lavapipe)")
    p.add_argument("--xfails", default=None,
                   help="xfails file (default: conformance/xfails/<backend>.txt)")
    p.add_argument("--results-dir", default=str(HERE / "results"), help=argparse.SUPPRESS)
    p.add_argument("--keep-report", default=None, metavar="PATH",
                   help="also keep pytest-json-report's full report at PATH")
    # Hidden: test the runner itself against another namespace (e.g. array_api_strict).
    p.add_argument("--module", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.cubed_backend and args.module:
        p.error("--cubed-backend and --module exclude each other")
    if not (args.backend or args.cubed_backend or args.module):
        p.error("one of --backend, --cubed-backend is required")
    if not args.suite:
        p.error("--suite is required (or set ARRAY_API_TESTS_DIR)")
    args.extra = extra
    return args


def test_paths(tests):
    out = []
    for t in tests:
        t = t.removeprefix("./")
        if not t.startswith("array_api_tests/"):
            t = "array_api_tests/" + t
        out.append(t)
    return out or ["array_api_tests/"]


def git_commit(path):
    """HEAD of the checkout at ``path``; "unknown" when ``path`` is no checkout of its own
    (a copy without .git inside another repository would report that repository)."""
    try:
        top = subprocess.run(["git", "-C", str(path), "rev-parse", "--show-toplevel"],
                             check=True, capture_output=True, text=True).stdout.strip()
        if Path(top).resolve() != Path(path).resolve():
            return "unknown"
        return subprocess.run(["git", "-C", str(path), "rev-parse", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except Exception:
        return "unknown"


def probe(suite, env):
    r = subprocess.run([sys.executable, "-c", _PROBE], cwd=suite, env=env,
                       capture_output=True, text=True)
    for line in r.stdout.splitlines():
        if line.startswith("@@PROBE@@"):
            return json.loads(line[len("@@PROBE@@"):])
    return {"error": (r.stderr.strip().splitlines() or ["probe failed"])[-1]}


def first_error_line(test):
    """The first line of a test's error: its crash message, else the first 'E' line."""
    for stage in ("call", "setup", "teardown"):
        st = test.get(stage) or {}
        if st.get("outcome") == "passed":
            continue
        crash = st.get("crash") or {}
        msg = (crash.get("message") or "").strip()
        if not msg:
            lr = st.get("longrepr") or ""
            for line in str(lr).splitlines():
                if line.startswith("E "):
                    msg = line[1:].strip()
                    break
        if msg:
            line = msg.splitlines()[0].strip()
            return line if len(line) <= 240 else line[:237] + "..."
    return "(no error message)"


def count_xfail_entries(path):
    n = 0
    if path.exists():
        for line in path.read_text().splitlines():
            if line.strip() and not line.startswith("#"):
                n += 1
    return n


def write_markdown(path, s):
    c = s["counts"]
    L = [f"# Conformance: `{s['module']}`" + (f" ({s['tag']})" if s.get("tag") else ""), ""]
    L.append("Generated by `conformance/run.py`; do not edit by hand.")
    L.append("")
    L.append("| setting | value |")
    L.append("|---|---|")
    rows = [
        ("date (UTC)", s["date"]),
        ("backend", s["backend"]),
        ("module", f"`{s['module']}` {s.get('module_version', '')}".strip()),
        *([("chunk namespace", f"`{s['chunk_namespace']}`")] if s.get("chunk_namespace") else []),
        ("devices", ", ".join(s.get("devices") or []) or s.get("devices_error", "?")),
        ("array-api-tests commit", f"`{s['suite_commit']}`"),
        ("array API version", s["api_version"]),
        ("max-examples", s["max_examples"]),
        ("derandomize", s["derandomize"]),
        ("hypothesis deadline", s["deadline"]),
        ("hypothesis shrinking", "yes" if s.get("shrink", True) else "no (--no-shrink)"),
        ("environment", ", ".join(f"`{k}={v}`" for k, v in s.get("environment", {}).items())
         or "none"),
        ("tests", " ".join(f"`{t}`" for t in s["tests"])),
        ("extra pytest args", " ".join(f"`{a}`" for a in s["extra_args"]) or "none"),
        ("xfails file", f"`{s['xfails_file']}` ({s['xfail_entries']} entries)"
         if s["xfails_file"] else "none"),
        ("python / platform", f"{s['python']} / {s['platform']}"),
        ("wall time", f"{s['duration_s']:.0f} s"),
        ("pytest exit code", s["exit_code"]),
    ]
    for k, v in rows:
        L.append(f"| {k} | {v} |")
    L.append("")
    L.append("| passed | failed | errors | xfailed | xpassed | skipped | total |")
    L.append("|---|---|---|---|---|---|---|")
    L.append("| " + " | ".join(str(c[k]) for k in OUTCOMES) + f" | {c['total']} |")
    L.append("")
    L.append(f"## Failing tests ({len(s['failing'])})")
    L.append("")
    if s["failing"]:
        for f in s["failing"]:
            L.append(f"- `{f['id']}`{' (error)' if f['outcome'] == 'error' else ''}: "
                     f"{f['message'].replace('|', '/')}")
    else:
        L.append("None.")
    if s["xpassed"]:
        L.append("")
        L.append(f"## Unexpectedly passing ({len(s['xpassed'])}): remove from the xfails file")
        L.append("")
        L.extend(f"- `{t}`" for t in s["xpassed"])
    path.write_text("\n".join(L) + "\n")


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    suite = Path(args.suite).expanduser().resolve()
    if not (suite / "array_api_tests").is_dir():
        sys.exit(f"error: {suite} is not an array-api-tests checkout (no array_api_tests/)")
    if not any((suite / "array-api").glob("*")):
        sys.exit(f"error: {suite}/array-api is empty: run "
                 "`git submodule update --init` in the suite checkout")

    module = args.module or ("cubed.array_api" if args.cubed_backend
                             else f"numr_array_api.{args.backend}")
    tag = args.tag
    if args.cubed_backend:
        # Cubed over a chunk namespace: results/cubed-<tag or namespace>.md; numr's xfails
        # are about numr's own namespaces, not about Cubed's
        stem = "cubed-" + re.sub(r"[^A-Za-z0-9_.-]+", "_", tag or args.cubed_backend)
        default_xfails = None
    elif args.module:
        # Another namespace (a check of the runner itself): never overwrite a numr result nor
        # apply numr's xfails to it; results go to results/<module>[-<tag>].md.
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", args.module) + (f"-{tag}" if tag else "")
        default_xfails = None
    else:
        stem = args.backend + (f"-{tag}" if tag else "")
        default_xfails = HERE / "xfails" / f"{args.backend}.txt"
    xfails = Path(args.xfails).resolve() if args.xfails else default_xfails
    results_dir = Path(args.results_dir)
    results_dir.mkdir(parents=True, exist_ok=True)

    env = dict(os.environ)
    env["ARRAY_API_TESTS_MODULE"] = module
    if args.cubed_backend == "numpy":
        env.pop("CUBED_BACKEND_ARRAY_API_MODULE", None)
    elif args.cubed_backend:
        env["CUBED_BACKEND_ARRAY_API_MODULE"] = args.cubed_backend
    # The suite imports the module from its own directory: make the project importable even
    # when it is not installed.
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    if args.no_shrink:
        env["PYTHONPATH"] = os.pathsep.join((str(HERE / "plugins"), env["PYTHONPATH"]))
    env.setdefault("PYTHONUNBUFFERED", "1")

    info = probe(suite, env)
    if "error" in info:
        print(f"warning: the suite could not import {module}: {info['error']}", file=sys.stderr)

    tests = test_paths(args.tests)
    with tempfile.TemporaryDirectory() as tmp:
        report_path = Path(args.keep_report).resolve() if args.keep_report else Path(tmp) / "report.json"
        cmd = [sys.executable, "-m", "pytest", *tests, "-p", "no:cacheprovider",
               f"--max-examples={args.max_examples}",
               "--json-report", f"--json-report-file={report_path}",
               "--json-report-omit", "log", "streams", "keywords", "traceback"]
        if args.derandomize:
            cmd.append("--derandomize")
        if args.no_shrink:
            cmd += ["-p", "no_shrink"]
        if not args.deadline:
            cmd.append("--disable-deadline")
        if xfails is not None and xfails.exists():
            cmd.append(f"--xfails-file={xfails}")
        elif xfails is not None:
            print(f"note: no xfails file at {xfails}", file=sys.stderr)
        cmd += args.extra
        print(f"[conformance] ARRAY_API_TESTS_MODULE={module} (cd {suite} && "
              f"{shlex.join(cmd)})", flush=True)
        t0 = time.monotonic()
        rc = subprocess.call(cmd, cwd=suite, env=env)
        duration = time.monotonic() - t0
        try:
            report = json.loads(report_path.read_text())
        except (OSError, ValueError) as e:
            sys.exit(f"error: pytest (exit {rc}) wrote no JSON report ({e}); nothing recorded")

    counts = {k: 0 for k in OUTCOMES}
    failing, xpassed = [], []
    for t in report.get("tests", []):
        o = t.get("outcome")
        if o in counts:
            counts[o] += 1
        if o in ("failed", "error"):
            failing.append({"id": t["nodeid"], "outcome": o, "message": first_error_line(t)})
        elif o == "xpassed":
            xpassed.append(t["nodeid"])
    counts["total"] = sum(counts[k] for k in OUTCOMES)
    # Collection errors (a test module failing to import) are not in "tests".
    for c in report.get("collectors", []) or []:
        if c.get("outcome") == "failed":
            failing.append({"id": c.get("nodeid", "?"), "outcome": "error",
                            "message": (str(c.get("longrepr", "")).strip().splitlines()
                                        or ["collection error"])[-1][:240]})
    failing.sort(key=lambda f: f["id"])

    summary = {
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "backend": args.cubed_backend or args.backend,
        "tag": tag,
        "module": module,
        "chunk_namespace": info.get("chunk_namespace"),
        "module_version": info.get("module_version", ""),
        "devices": info.get("devices"),
        "devices_error": info.get("devices_error") or info.get("error"),
        "suite_commit": git_commit(suite),
        "spec_commit": git_commit(suite / "array-api"),
        "api_version": info.get("api_version", "unknown"),
        "max_examples": args.max_examples,
        "derandomize": args.derandomize,
        "deadline": "800 ms" if args.deadline else "disabled",
        "shrink": not args.no_shrink,
        # variables that choose what the module under test computes with (e.g. Cubed's
        # chunk namespace)
        "environment": {k: v for k, v in sorted(env.items())
                        if k.startswith(("CUBED_", "NUMR_"))},
        "tests": tests,
        "extra_args": args.extra,
        "xfails_file": (None if xfails is None else
                        os.path.relpath(xfails, ROOT) if xfails.is_relative_to(ROOT) else str(xfails)),
        "xfail_entries": count_xfail_entries(xfails) if xfails is not None else 0,
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "duration_s": round(duration, 1),
        "exit_code": rc,
        "counts": counts,
        "failing": failing,
        "xpassed": xpassed,
    }
    md, js = results_dir / f"{stem}.md", results_dir / f"{stem}.json"
    write_markdown(md, summary)
    js.write_text(json.dumps(summary, indent=1) + "\n")
    c = counts
    print(f"[conformance] {module}: {c['passed']} passed, {c['failed']} failed, "
          f"{c['error']} errors, {c['xfailed']} xfailed, {c['xpassed']} xpassed, "
          f"{c['skipped']} skipped -> {os.path.relpath(md)}, {os.path.relpath(js)}")
    return rc


if __name__ == "__main__":
    sys.exit(main())
