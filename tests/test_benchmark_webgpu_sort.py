"""benchmarks/webgpu_sort.py runs in its --small mode (the CI guard against rot) and
records a time for every case on numr webgpu; timings themselves are never asserted."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.webgpu
def test_webgpu_sort_benchmark_small(tmp_path):
    pytest.importorskip("wgpu")
    out = tmp_path / "sort.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-W", "ignore", str(ROOT / "benchmarks" /
                                                              "webgpu_sort.py"),
                        "--small", "--repeats", "1", "--backends", "numr-webgpu",
                        "--json", str(out)],
                       capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    if "no backend available" in r.stdout:
        pytest.skip("no WebGPU adapter")
    rows = json.loads(out.read_text())
    assert len(rows) == 9
    for row in rows:
        assert row.get("numr-webgpu"), row
