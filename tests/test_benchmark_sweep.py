"""benchmarks/sweep.py runs (its --smoke mode, the CI guard against rot); it reports and
never asserts timings, so only that it produced a measurement per case and backend is
checked here."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.webgpu
def test_sweep_smoke_runs_and_writes_json(tmp_path):
    pytest.importorskip("wgpu")
    out = tmp_path / "sweep.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "sweep.py"), "--smoke",
                        "--backends", "numr-webgpu,numpy", "--json", str(out)],
                       capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    data = json.loads(out.read_text())
    got = {(x["case"], x["size"], x["backend"]) for x in data["results"] if "seconds" in x}
    if "numr-webgpu" not in data["meta"]["devices"]:
        pytest.skip("no WebGPU adapter")
    cases = {(x["case"], x["size"]) for x in data["results"]}
    assert len(cases) >= 20
    for case, size in cases:
        assert (case, size, "numr-webgpu") in got, (case, size)
        assert (case, size, "numpy") in got, (case, size)
