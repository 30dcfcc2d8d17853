"""The benchmark suite runs whole at smoke size (the CI guard against rot) and stores what a
results file must hold; docs/benchmarks.md's generated part renders it. Timings are never
asserted: every case must have a measurement, and numbers that have an answer (an FFT's error
against NumPy) must be right."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import render  # noqa: E402
import run as suite_run  # noqa: E402

pytestmark = pytest.mark.webgpu


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    pytest.importorskip("wgpu")
    out = tmp_path_factory.mktemp("bench") / "smoke.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "run.py"), "--size", "smoke",
                        "--backends", "numr-webgpu,numpy", "--out", str(out)],
                       capture_output=True, text=True, timeout=900, env=env, cwd=ROOT)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    return json.loads(out.read_text())


def test_a_results_file_names_date_commit_adapter_and_versions(stored):
    meta = stored["meta"]
    assert meta["date"][:4].isdigit() and meta["size"] == "smoke"
    assert len(meta["commit"]) >= 7, meta["commit"]
    assert meta["devices"]["webgpu"]["name"], meta["devices"]
    for lib in ("python", "numpy", "wgpu", "numr-array-api"):
        assert meta["versions"].get(lib), lib
    cuda_only = {n for n, spec in suite_run.FAMILIES.items() if spec[3]}
    assert set(stored["families"]) == set(suite_run.FAMILIES) - cuda_only
    for name, fam in stored["families"].items():
        assert fam["rc"] == 0, (name, fam["output"][-2000:])
        assert fam["command"][1] == f"benchmarks/suite/{name}.py"


def test_every_namespace_case_is_measured_on_numr_and_its_peer(stored):
    data = stored["families"]["namespace"]["results"]
    got = {(x["case"], x["size"], x["backend"]) for x in data["results"] if "seconds" in x}
    cases = {(x["case"], x["size"]) for x in data["results"]}
    assert len(cases) >= 20
    for case, size in cases:
        assert (case, size, "numr-webgpu") in got, (case, size)
        assert (case, size, "numpy") in got, (case, size)


def test_fft_cases_are_timed_and_within_their_accuracy_goal(stored):
    cases = stored["families"]["fft"]["results"]["cases"]
    assert len(cases) == 5
    import numr_array_api.webgpu as wx
    has_f64 = "complex128" in wx.__array_namespace_info__().dtypes()
    for name, row in cases.items():
        if "numr" in row and "complex128" in row["dtype"] and not has_f64:
            assert "BackendLimitation" in row["numr"] and "shader-f64" in row["numr"], row
            continue
        assert "numr_ms" in row, (name, row)
        tol = 1e-14 * 20 if row["dtype"] == "complex128" else 1e-6 * 20
        assert row["rel_err"] <= tol, (name, row["rel_err"])


@pytest.mark.parametrize("family,rows", [("sort", 9), ("spectral", 10)])
def test_row_families_time_every_row_on_numr(stored, family, rows):
    got = stored["families"][family]["results"]
    assert len(got) >= rows
    for row in got:
        assert row.get("numr-webgpu"), row


def test_text_families_print_their_tables(stored):
    for name in ("gather", "ext"):
        out = stored["families"][name]["output"]
        assert "ms" in out or "us" in out, (name, out[-800:])


def test_the_docs_page_renders_the_stored_run(stored, tmp_path):
    stored = json.loads(json.dumps(stored))
    stored["meta"]["size"] = "full"    # rendered as the newest full run of its adapter
    (tmp_path / "2026-01-01-smoke.json").write_text(json.dumps(stored))
    page = render.page(tmp_path, img_dir=None)
    adapter = stored["meta"]["devices"]["webgpu"]["name"]
    assert adapter in page and stored["meta"]["commit"] in page
    for name in stored["families"]:
        assert f"#### {name}" in page, name
    assert "## History" in page and "2026-01-01-smoke.json" in page
