"""benchmarks/webgpu_fft.py runs in its --small mode (the CI guard against rot): every case
gets a numr webgpu time and a relative error against NumPy within the accuracy goal;
timings themselves are never asserted."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.webgpu
def test_webgpu_fft_benchmark_small(tmp_path):
    pytest.importorskip("wgpu")
    out = tmp_path / "fft.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-W", "ignore",
                        str(ROOT / "benchmarks" / "webgpu_fft.py"), "--small", "--repeats",
                        "1", "--json", str(out)],
                       capture_output=True, text=True, timeout=600, env=env, cwd=ROOT)
    if "numr webgpu unavailable" in r.stdout:
        pytest.skip(r.stdout.strip())
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    cases = json.loads(out.read_text())["cases"]
    assert len(cases) == 5
    import numr_array_api.webgpu as wx
    has_f64 = "complex128" in wx.__array_namespace_info__().dtypes()
    for name, row in cases.items():
        if "numr" in row and "complex128" in row["dtype"] and not has_f64:
            # an adapter without shader-f64 reports the refusal, which must name the feature
            assert "BackendLimitation" in row["numr"] and "shader-f64" in row["numr"], row
            continue
        assert "numr_ms" in row, (name, row)
        tol = 1e-14 * 20 if row["dtype"] == "complex128" else 1e-6 * 20
        assert row["rel_err"] <= tol, (name, row["rel_err"])
