"""The peer's count on the same SciPy tests: CuPy (or another backend SciPy knows) through
SciPy's own ``xp`` fixture, with SciPy's own skips (its CPU-only tests skipped for a GPU
backend, its functions handed to cupyx.scipy), no numr plugin.

    python conformance/consumers/peer.py --backend cupy [--subset scipy-gpu] [-n N]

Writes ``../results/consumers-peer-<backend>[-<subset>].json`` and prints the counts per
SciPy module, for the comparison with ``run.py``'s numr counts of the same selection.
"""

import argparse
import collections
import datetime as _dt
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from selection import SCIPY_MODULES, scipy_gpu_modules  # noqa: E402

RESULTS = HERE.parent / "results"


def _targets(subset):
    if subset == "scipy-gpu":
        return scipy_gpu_modules()
    return [f"scipy.{m}" for m in SCIPY_MODULES]


def _module(classname):
    """scipy.<package>.tests.test_<file> of a junit class name."""
    parts = classname.split(".")
    for i, part in enumerate(parts):
        if part.startswith("test_"):
            return ".".join(parts[:i + 1])
    return classname


def count(xml_path, backend):
    per = collections.defaultdict(collections.Counter)
    for case in ET.parse(xml_path).getroot().iter("testcase"):
        if backend not in case.get("name", ""):
            continue
        kinds = {c.tag for c in case}
        outcome = ("failed" if kinds & {"failure", "error"} else
                   "skipped" if "skipped" in kinds else "passed")
        per[_module(case.get("classname", ""))][outcome] += 1
    return {m: dict(c) for m, c in sorted(per.items())}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", default="cupy")
    p.add_argument("--subset", default="scipy-gpu", choices=("scipy-gpu", "all"))
    p.add_argument("--only", nargs="+", default=None, help="dotted test modules instead")
    p.add_argument("-n", "--workers", type=int, default=0)
    p.add_argument("--no-write", action="store_true")
    args = p.parse_args()
    env = dict(os.environ, SCIPY_ARRAY_API=json.dumps([args.backend]), PYTHONUNBUFFERED="1")
    with tempfile.TemporaryDirectory(prefix="numr-peer-") as tmp:
        xml = Path(tmp) / "junit.xml"
        (Path(tmp) / "pytest.ini").write_text("[pytest]\n")
        import scipy
        site = str(Path(scipy.__file__).resolve().parents[1])
        cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "-rN",
               "-c", str(Path(tmp) / "pytest.ini"), "--rootdir", site, "--junitxml", str(xml),
               "-W", "ignore::DeprecationWarning", "--pyargs", *(args.only or _targets(args.subset)),
               "-m", "array_api_backends"]
        if args.workers:
            cmd += ["-n", str(args.workers)]
        t0 = _dt.datetime.now(_dt.timezone.utc)
        proc = subprocess.run(cmd, env=env, cwd=tmp)
        per = count(xml, args.backend)
    total = collections.Counter()
    for c in per.values():
        total.update(c)
    out = {"date": t0.strftime("%Y-%m-%d %H:%M"), "backend": args.backend,
           "subset": args.subset, "scipy": scipy.__version__, "pytest_rc": proc.returncode,
           "total": dict(total), "per_module": per}
    for m, c in per.items():
        print(f"{m}: {c}")
    print(f"{args.backend} total: {dict(total)}")
    if not args.no_write:
        RESULTS.mkdir(parents=True, exist_ok=True)
        path = RESULTS / f"consumers-peer-{args.backend}-{args.subset}.json"
        path.write_text(json.dumps(out, indent=1) + "\n")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
