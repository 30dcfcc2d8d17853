#!/usr/bin/env python3
"""Draw a sweep (benchmarks/suite/namespace.py --json) as numr's throughput relative to CuPy per case.

    python benchmarks/plot.py sweep.json [--out docs/img/sweep.png] [--size large]

One horizontal bar per (case, numr backend): CuPy's time / numr's time, so 1.0 is CuPy's
throughput and more is faster; cases grouped by family, the acceptance rows (``target`` in
benchmarks/suite/namespace.py) marked with a star, a line at 0.8. Without CuPy in the run, numr's
effective GB/s is drawn instead. Needs matplotlib (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys


def ratios(results, size):
    """{(family, case, target): {numr backend: cupy_time / numr_time or GB/s}}, and whether
    the values are ratios to CuPy."""
    rows = {}
    for r in results:
        if r["size"] != size or "seconds" not in r:
            continue
        rows.setdefault((r["family"], r["case"], r.get("target", False)), {})[r["backend"]] = r
    vs_cupy = any("cupy" in cols for cols in rows.values())
    out = {}
    for key, cols in rows.items():
        for name, r in cols.items():
            if not name.startswith("numr"):
                continue
            if vs_cupy:
                if "cupy" in cols:
                    out.setdefault(key, {})[name] = cols["cupy"]["seconds"] / r["seconds"]
            else:
                out.setdefault(key, {})[name] = r["gbps"]
    return out, vs_cupy


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("json")
    p.add_argument("--out", default="sweep.png")
    p.add_argument("--size", default="large", choices=("small", "large"))
    p.add_argument("--xscale", default="auto", choices=("auto", "linear", "log"),
                   help="auto: log when the values span more than 50x (one outlier would "
                        "otherwise flatten every other bar)")
    args = p.parse_args(argv)
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(args.json) as f:
        data = json.load(f)
    vals, vs_cupy = ratios(data["results"], args.size)
    if not vals:
        print("[plot] nothing to draw (no numr results at this size)", file=sys.stderr)
        return 1
    keys = sorted(vals, key=lambda k: (k[0], k[1]))
    backends = sorted({b for v in vals.values() for b in v})
    height = 0.8 / len(backends)
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(keys) * len(backends) + 1.5))
    for j, b in enumerate(backends):
        ys = [i + j * height for i in range(len(keys))]
        ax.barh(ys, [vals[k].get(b, 0.0) for k in keys], height=height, label=b)
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(keys))])
    ax.set_yticklabels([f"{'* ' if t else ''}{fam}: {case}" for fam, case, t in keys],
                       fontsize=8)
    ax.invert_yaxis()
    drawn = [v for vs in vals.values() for v in vs.values() if v > 0]
    if args.xscale == "log" or (args.xscale == "auto" and drawn
                                and max(drawn) > 50 * min(drawn)):
        ax.set_xscale("log")
    if vs_cupy:
        ax.axvline(1.0, color="black", lw=0.8)
        ax.axvline(0.8, color="gray", lw=0.8, ls="--")
        ax.set_xlabel("throughput relative to CuPy (CuPy time / numr time)")
    else:
        ax.set_xlabel("effective GB/s (no CuPy in this run)")
    meta = data.get("meta", {})
    devs = "; ".join(f"{k}: {v}" for k, v in meta.get("devices", {}).items())
    ax.set_title(f"numr sweep, {args.size} size, {meta.get('date', '')}\n{devs}", fontsize=8)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=120)
    print(f"[plot] wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
