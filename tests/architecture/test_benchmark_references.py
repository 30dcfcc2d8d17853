"""A measurement quoted in the code or the docs names a benchmark of the suite or a stored
result that exists: a path under benchmarks/ that is gone would send a reader nowhere."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PATH = re.compile(r"benchmarks/[A-Za-z0-9_./<>*{},-]*[A-Za-z0-9_>*}]")
PLACES = ["numr_array_api", "tests", "docs", "conformance", ".ci", "README.md", "benchmarks"]
SKIP_PARTS = {"_build", "_generated", "__pycache__", ".hypothesis"}


def _files():
    for place in PLACES:
        p = ROOT / place
        for f in [p] if p.is_file() else p.rglob("*"):
            # stored results record the commands of their day: data, not references
            if f.is_file() and not SKIP_PARTS & set(f.parts) and "results" not in f.parts:
                yield f


def test_every_benchmark_path_mentioned_exists():
    missing = []
    for f in _files():
        try:
            text = f.read_text()
        except (UnicodeDecodeError, OSError):
            continue
        for m in PATH.finditer(text):
            ref = m.group(0).rstrip(".,")
            if any(c in ref for c in "<>*{}"):
                pattern = re.sub(r"<[^>]*>|\*|\{[^}]*\}", "*", ref)
                if not list(ROOT.glob(pattern)):
                    missing.append(f"{f.relative_to(ROOT)}: {ref}")
            elif not (ROOT / ref).exists():
                missing.append(f"{f.relative_to(ROOT)}: {ref}")
    assert not missing, "benchmark paths that do not exist:\n" + "\n".join(sorted(missing))
