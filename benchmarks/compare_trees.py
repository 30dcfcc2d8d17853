#!/usr/bin/env python3
"""Two source trees of numr side by side: a benchmark script run alternately on each, the
numr rows of both in one table (a refactor's no-regression check).

    python benchmarks/compare_trees.py --old OLD_TREE --new NEW_TREE [--rounds 2]
        [--json out.json] -- benchmarks/suite/linalg.py --only cholesky

Each round runs the script once per tree (old, new; then new, old: the order alternates so
a slow phase of a shared machine affects both columns alike) in a fresh process whose
``PYTHONPATH`` starts with that tree, with ``--json`` appended. The numr time of each row
is the best over the rounds. Scripts understood: suite/namespace.py (rows with "backend" and
"seconds"), suite/linalg.py / suite/sort.py / suite/spectral.py (rows with a
"numr" or "numr-webgpu" time), suite/fft.py ("cases" with "numr_ms"). Nothing here asserts
a timing: the table is read by a person, noise included.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

_PEERS = ("cupy", "torch", "numpy", "numr-cuda", "error", "ratio", "over", "gbps", "rel_err")


def _rows(data):
    """{row key: numr seconds} of one script's JSON."""
    out = {}
    if isinstance(data, dict) and isinstance(data.get("cases"), dict):
        for name, row in data["cases"].items():
            v = row.get("numr_ms")
            if isinstance(v, (int, float)):
                out[name] = v / 1e3
        return out
    rows = data.get("results", []) if isinstance(data, dict) else data
    for row in rows:
        if not isinstance(row, dict):
            continue
        if "backend" in row:
            if row["backend"] == "numr-webgpu" and isinstance(row.get("seconds"), float):
                out[f"{row.get('family')} / {row.get('case')} / {row.get('size')}"] = \
                    row["seconds"]
            continue
        v = row.get("numr", row.get("numr-webgpu"))
        if not isinstance(v, (int, float)):
            continue
        scale = 1e-3 if "numr" in row else 1.0   # suite/linalg.py records milliseconds
        key = " ".join(f"{row[k]}" for k in row
                       if not isinstance(row[k], float) and row[k] not in (None, "")
                       and not any(p in k for p in _PEERS) and "numr" not in k)
        out[key] = v * scale
    return out


def _report(best, a, script, trees, final, done=""):
    keys = list(dict.fromkeys([*best["old"], *best["new"]]))
    table = []
    for k in keys:
        o, n = best["old"].get(k), best["new"].get(k)
        table.append({"row": k, "old_s": o, "new_s": n,
                      "new_over_old": n / o if o and n else None})
    if final:
        print(f"{'row':60s} {'old ms':>10s} {'new ms':>10s} {'new/old':>8s}")
        nan = float("nan")
        for t in table:
            print(f"{t['row'][:60]:60s} {t['old_s'] * 1e3 if t['old_s'] else nan:10.3f} "
                  f"{t['new_s'] * 1e3 if t['new_s'] else nan:10.3f} "
                  f"{t['new_over_old'] or nan:8.3f}")
    else:
        print(f"[{done}] {len(best['old'])} old rows, {len(best['new'])} new rows", flush=True)
    if a.json:
        meta = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
                "script": script, "rounds": a.rounds, "trees": trees, "complete": final}
        with open(a.json, "w") as f:
            json.dump({"meta": meta, "rows": table}, f, indent=1)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--old", required=True)
    p.add_argument("--new", required=True)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--json", default=None)
    p.add_argument("--timeout", type=int, default=600)
    p.add_argument("script", nargs=argparse.REMAINDER)
    a = p.parse_args(argv)
    script = [s for s in a.script if s != "--"]
    trees = {"old": os.path.abspath(a.old), "new": os.path.abspath(a.new)}
    best: dict[str, dict[str, float]] = {"old": {}, "new": {}}
    extra = os.environ.get("PYTHONPATH", "")
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
            for which in (("old", "new") if r % 2 == 0 else ("new", "old")):
                tree = trees[which]
                out = os.path.join(tmp, f"{which}-{r}.json")
                env = dict(os.environ, PYTHONPATH=os.pathsep.join(
                    x for x in (tree, extra) if x))
                cmd = [sys.executable, os.path.join(tree, script[0]), *script[1:],
                       "--json", out]
                try:
                    res = subprocess.run(cmd, env=env, cwd=tree, capture_output=True,
                                         text=True, timeout=a.timeout)
                except subprocess.TimeoutExpired:
                    print(f"[{which} round {r}] past {a.timeout} s: left out", file=sys.stderr)
                    continue
                if res.returncode != 0 or not os.path.exists(out):
                    print(f"[{which} round {r}] rc={res.returncode}\n{res.stdout[-2000:]}"
                          f"{res.stderr[-3000:]}", file=sys.stderr)
                    continue
                with open(out) as f:
                    for k, v in _rows(json.load(f)).items():
                        best[which][k] = min(v, best[which].get(k, float("inf")))
                # after every run: a comparison cut short by a time limit keeps its rows
                _report(best, a, script, trees, final=False, done=f"{which} round {r}")
    _report(best, a, script, trees, final=True)
    return 0 if best["old"] and best["new"] else 1


if __name__ == "__main__":
    sys.exit(main())
