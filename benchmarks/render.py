#!/usr/bin/env python3
"""docs/benchmarks.md's generated part, drawn from the files stored in benchmarks/results/.

    python benchmarks/render.py [--out page.md] [--img-dir DIR]

The docs build calls ``page()`` (docs/_ext/numr_docs.py) and includes what it returns. It
shows, for the newest full-size run of benchmarks/run.py on each adapter, every family's
results as tables (the namespace family also as plots of numr's throughput relative to CuPy,
benchmarks/plot.py, when matplotlib is there), then the history: every stored file with its
date, commit, devices and what it holds. A file from before the runner (one benchmark
script's JSON) is listed in the history under the commit that stored it.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
MAX_COLS = 9
MAX_ROWS = 60


def _stored_in(path: pathlib.Path) -> str:
    try:
        r = subprocess.run(["git", "-C", str(ROOT), "log", "--diff-filter=A", "--format=%h",
                            "--", str(path.relative_to(ROOT))], capture_output=True,
                           text=True, timeout=20)
        return r.stdout.split()[-1] if r.returncode == 0 and r.stdout.split() else ""
    except (OSError, subprocess.SubprocessError, ValueError):
        return ""


def _cell(v) -> str:
    if isinstance(v, float):
        v = f"{v:.4g}"
    elif isinstance(v, (dict, list)):
        v = json.dumps(v, default=str)
        v = v if len(v) <= 60 else v[:57] + "..."
    return str(v).replace("|", "\\|").replace("\n", " ")


def _table(rows: list[dict]) -> list[str]:
    cols: list[str] = []
    for r in rows:
        cols += [k for k in r if k not in cols]
    cols = [c for c in cols if any(r.get(c) not in (None, "", {}, []) for r in rows)]
    # numr's own columns survive the cut: a table of peers alone says nothing
    ours = {c for c in cols if re.search(r"numr|_over_|ratio", c)}
    others = [c for c in cols if c not in ours][:max(1, MAX_COLS - len(ours))]
    cols = [c for c in cols if c in ours or c in others]
    out = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    out += ["| " + " | ".join(_cell(r.get(c, "")) for c in cols) + " |"
            for r in rows[:MAX_ROWS]]
    if len(rows) > MAX_ROWS:
        out.append(f"\n({len(rows) - MAX_ROWS} more rows in the stored file)")
    return out + [""]


def _rows(results) -> list[dict] | None:
    """A family's results as table rows, whatever shape its module writes."""
    if isinstance(results, list) and results and all(isinstance(r, dict) for r in results):
        return results
    if isinstance(results, dict):
        for key in ("results", "rows"):
            if isinstance(results.get(key), list):
                return _rows(results[key])
        if isinstance(results.get("cases"), dict):
            return [{"case": k, **(v if isinstance(v, dict) else {"value": v})}
                    for k, v in results["cases"].items()]
        scalars = {k: v for k, v in results.items() if not isinstance(v, (dict, list))}
        if scalars:
            return [{"measure": k, "value": v} for k, v in scalars.items()]
    return None


def _namespace(data: dict, stem: str, img_dir: pathlib.Path | None,
               level: int = 5) -> list[str]:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import plot
    out = []
    results = data.get("results", [])
    for fam in sorted({r.get("family", "?") for r in results}):
        subset = [r for r in results if r.get("family") == fam]
        for size in ("large", "small"):
            vals, vs_cupy = plot.ratios(subset, size)
            if not vals:
                continue
            out += ["#" * level + f" {fam}, {size} arrays", ""]
            if img_dir is not None and _draw(plot, {"meta": data.get("meta", {}),
                                                    "results": subset},
                                             img_dir / f"{stem}-{fam}-{size}.png", size):
                out += [f"![{fam}, {size} arrays](img/{stem}-{fam}-{size}.png)", ""]
            backends = sorted({b for v in vals.values() for b in v})
            what = "CuPy time / numr time" if vs_cupy else "GB/s (no CuPy in the run)"
            rows = [{"case": ("\\* " if t else "") + case,
                     **{b: f"{vals[(fm, case, t)][b]:.2f}" if b in vals[(fm, case, t)] else "-"
                        for b in backends}}
                    for fm, case, t in sorted(vals, key=lambda k: k[1])]
            out += [f"{what}:", ""] + _table(rows)
    return out


def _draw(plot, data: dict, img: pathlib.Path, size: str) -> bool:
    """benchmarks/plot.py into ``img`` (kept when its data did not change); False without
    matplotlib."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    import contextlib
    import io
    import tempfile
    img.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, sort_keys=True)
    stamp = img.with_suffix(".sha1")
    digest = hashlib.sha1((text + size).encode()).hexdigest()
    if img.exists() and stamp.exists() and stamp.read_text() == digest:
        return True
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tmp:
        tmp.write(text)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            plot.main([tmp.name, "--out", str(img), "--size", size])
    finally:
        pathlib.Path(tmp.name).unlink()
    stamp.write_text(digest)
    return True


def _devices(meta: dict) -> str:
    dev = meta.get("devices") or {}
    gpu = dev.get("webgpu")
    if isinstance(gpu, dict) and "name" in gpu:
        parts = [f"webgpu: {gpu['name']} ({gpu.get('backend', '?')})"]
        parts += [f"{k}: {v}" for k, v in dev.items() if k != "webgpu"]
        return "; ".join(parts)
    if dev:
        return "; ".join(f"{k}: {v}" for k, v in dev.items())
    return str(meta.get("adapter", "?"))


def _load(path: pathlib.Path) -> dict:
    try:
        data = json.loads(path.read_text())
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {"results": data}


def page(results_dir: pathlib.Path = RESULTS, img_dir: pathlib.Path | None = None) -> str:
    files = sorted(results_dir.glob("*.json"))
    loaded = {f: _load(f) for f in files}
    suite = {f: d for f, d in loaded.items() if "families" in d}
    out = ["## Latest results", ""]
    newest: dict[str, pathlib.Path] = {}
    for f, d in sorted(suite.items(), key=lambda kv: kv[1]["meta"].get("date", "")):
        if d["meta"].get("size") == "full":
            newest[_devices(d["meta"])] = f
    if not newest:
        out += ["No full-size run of `benchmarks/run.py` is stored yet; the history below "
                "lists what is.", ""]
    for devices, f in sorted(newest.items()):
        d = suite[f]
        m = d["meta"]
        out += [f"### {devices}", "",
                f"{m.get('date', '?')}, commit `{m.get('commit') or '?'}`"
                + (" (with uncommitted changes)" if m.get("dirty") else "")
                + f", `benchmarks/results/{f.name}`; versions: "
                + ", ".join(f"{k} {v}" for k, v in (m.get("versions") or {}).items()), ""]
        for name, fam in d["families"].items():
            out += [f"#### {name}", "", f"`{' '.join(fam.get('command', []))}`: exit code "
                    f"{fam.get('rc')}, {fam.get('seconds')} s", ""]
            res = fam.get("results")
            if name == "namespace" and isinstance(res, dict):
                out += _namespace(res, f.stem, img_dir)
                continue
            rows = _rows(res)
            if rows:
                out += _table(rows)
            else:
                tail = "\n".join((fam.get("output") or "").splitlines()[-40:])
                out += ["```text", tail, "```", ""]
    legacy = {f: d for f, d in loaded.items() if "families" not in d and
              isinstance(d.get("results"), list) and d["results"] and
              "family" in d["results"][0]}
    if legacy:
        out += ["## Earlier runs of the namespace family", "",
                "Before the runner: `benchmarks/suite/namespace.py` alone, one file per run.", ""]
    for f, d in sorted(legacy.items()):
        m = d.get("meta") or {}
        out += [f"### {f.stem}", "", f"{str(m.get('date', '?'))[:16]}; {_devices(m)}; "
                f"`benchmarks/results/{f.name}`.", ""]
        out += _namespace(d, f.stem, img_dir, level=4)
    out += ["## History", "", "Every stored file, oldest first (the commit is the measured "
            "tree's where the file records it, else the commit that stored the file).", ""]
    rows = []
    for f, d in loaded.items():
        m = d.get("meta") or {}
        what = (", ".join(d["families"]) if "families" in d
                else ", ".join(k for k in d if k != "meta") or "?")
        dated = re.search(r"\d{4}-\d{2}-\d{2}", f.stem)
        rows.append({"date": str(m.get("date", ""))[:10] or (dated.group(0) if dated else "?"),
                     "commit": m.get("commit") or _stored_in(f) or "?",
                     "devices": _devices(m) if m else _devices({"devices": d.get("devices")}),
                     "size": m.get("size", ""), "holds": what,
                     "file": f"`benchmarks/results/{f.name}`"})
    rows.sort(key=lambda r: (r["date"], r["file"]))
    out += _table(rows)
    return "\n".join(out)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default="", help="write the Markdown here (default: print)")
    p.add_argument("--img-dir", default="", help="draw the plots into this folder")
    a = p.parse_args(argv)
    text = page(img_dir=pathlib.Path(a.img_dir) if a.img_dir else None)
    if a.out:
        pathlib.Path(a.out).write_text(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
