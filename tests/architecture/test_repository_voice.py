"""The repository speaks of the library, not of how it was made: a measured figure names
its benchmark and stored result (the package, the docs, the tests, the benchmarks)."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PATTERN = re.compile(r"\bse(ss)ion [0-9]|\bcall [0-9]|second\s+engineer", re.IGNORECASE)
SUFFIXES = {".py", ".md", ".wgsl", ".sh", ".txt", ".toml", ".json", ".cfg", ".rst"}


def test_no_work_history_in_the_repository():
    bad = []
    paths = [ROOT / "README.md"]
    for top in ("numr_array_api", "docs", "tests", "benchmarks"):
        paths += [p for p in (ROOT / top).rglob("*") if p.suffix in SUFFIXES and p.is_file()
                  and "_build" not in p.parts and "_generated" not in p.parts]
    for p in paths:
        for i, line in enumerate(p.read_text(errors="replace").splitlines(), 1):
            if PATTERN.search(line):
                bad.append(f"{p.relative_to(ROOT)}:{i}: {line.strip()[:100]}")
    assert not bad, "\n".join(bad[:40])
