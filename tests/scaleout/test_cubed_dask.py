"""Cubed on a local Dask cluster of two workers over numr chunks, checked against NumPy.

Cubed binds its chunk namespace when it is imported, so each backend runs in a fresh
process (tests/scaleout/cubed_job.py, and the example's --small mode). Two workers share one
device where only one exists: the multi-GPU code path (one worker process per device,
pinned through its environment) with the device pinned twice.
"""

import importlib
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from _support import unavailable

ROOT = Path(__file__).resolve().parents[2]
JOB = Path(__file__).with_name("cubed_job.py")

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("cubed") is None or importlib.util.find_spec("distributed") is None,
    reason="needs the 'distributed' extra (cubed, dask[distributed])")


def _env():
    env = dict(os.environ)
    # the workers (spawned processes) import this checkout, as the test process does
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env.pop("CUBED_BACKEND_ARRAY_API_MODULE", None)
    return env


def _run(cmd, timeout=300):
    r = subprocess.run(cmd, cwd=ROOT, env=_env(), capture_output=True, text=True,
                       timeout=timeout)
    return r, r.stdout + r.stderr


def _require(backend):
    """Skip unless ``backend`` is selected (NUMR_TEST_BACKENDS) and has a device here."""
    selected = os.environ.get("NUMR_TEST_BACKENDS", "").strip()
    if selected and backend not in [b.strip() for b in selected.split(",")]:
        pytest.skip(f"{backend} not in NUMR_TEST_BACKENDS")
    try:
        mod = importlib.import_module(f"numr_array_api.{backend}")
        devices = mod.__array_namespace_info__().devices()
    except Exception as e:  # noqa: BLE001
        unavailable(backend, f"{type(e).__name__}: {e}")
    if not devices:
        unavailable(backend, "no devices")


def _pinned_devices(backend):
    """Worker pinning for two workers: cpu -> a count; GPUs -> the first device twice, or
    the first two devices where there are two."""
    if backend == "cpu":
        return "2"
    _require(backend)
    from numr_array_api.distributed.cluster import available_devices
    devs = available_devices(backend)
    return ",".join(str(d) for d in (devs[:2] if len(devs) >= 2 else devs[:1] * 2))


@pytest.mark.parametrize("backend", [
    "cpu",
    pytest.param("webgpu", marks=pytest.mark.webgpu),
    pytest.param("cuda", marks=[pytest.mark.cuda, pytest.mark.gpu]),
])
def test_cubed_on_two_dask_workers(backend):
    devices = _pinned_devices(backend)
    r, out = _run([sys.executable, str(JOB), backend, devices])
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("@@RESULT@@")]
    assert r.returncode == 0 and lines, out[-4000:]
    res = json.loads(lines[-1][len("@@RESULT@@"):])
    failed = {k: v for k, v in res["results"].items() if not v["ok"]}
    assert not failed, failed
    ns = f"numr_array_api.distributed.{backend}"
    assert {v["type"] for v in res["results"].values()} == {f"{ns}.Array"}
    workers = res["workers"]
    assert len(workers) == 2, workers
    assert all(w["namespace"] == ns for w in workers.values())
    if backend == "webgpu":
        assert sorted(w["NUMR_WEBGPU_ADAPTER"] for w in workers.values()) == \
            sorted(devices.split(","))
    if backend == "cuda":
        assert sorted(w["CUDA_VISIBLE_DEVICES"] for w in workers.values()) == \
            sorted(devices.split(","))
    # both worker processes ran Cubed's tasks
    assert len(res["tasks_per_worker"]) == 2
    assert all(n > 0 for n in res["tasks_per_worker"].values()), res["tasks_per_worker"]


def test_example_small_cpu(tmp_path):
    """The scale-out example end to end on cpu chunks: data generated chunk by chunk,
    verified against NumPy, and never stored whole (generation is fused into the
    reductions, so Cubed's storage holds only partial results). A generous time budget
    calibrates and then keeps the size and every op."""
    out = tmp_path / "r.json"
    r, log = _run([sys.executable, "-m", "numr_array_api.distributed.example", "--backend",
                   "cpu", "--small", "--no-progress", "--time-budget", "900", "--json",
                   str(out)])
    assert r.returncode == 0, log[-4000:]
    res = json.loads(out.read_text())
    from numr_array_api.distributed.workloads import OPS
    assert res["ok"] and set(res["ops"]) == set(OPS)
    assert all(op["ok"] for op in res["ops"].values())
    assert len(res["workers"]) == 2
    assert res["stored_bytes"] < res["size_bytes"] / 4, res["stored_bytes"]
    assert res["size_bytes"] == 16 * 2**20 and res["calibration"]["seconds_per_chunk"] > 0
    assert "skipped_ops" not in res and "size_reduced" not in res


def test_example_scaling_runs_one_worker_then_all(tmp_path):
    """--scaling: the same array on one worker and on every worker (cpu: two), each
    operation checked against NumPy, and the throughput ratio printed per operation."""
    out = tmp_path / "r.json"
    r, log = _run([sys.executable, "-m", "numr_array_api.distributed.example", "--backend",
                   "cpu", "--small", "--size", "4MiB", "--ops", "colsum,matmul", "--scaling",
                   "--no-progress", "--json", str(out)])
    assert r.returncode == 0, log[-4000:]
    res = json.loads(out.read_text())
    assert [len(x["workers"]) for x in res] == [1, 2]
    assert all(x["ok"] and set(x["ops"]) == {"colsum", "matmul"} for x in res)
    assert res[0]["size_bytes"] == res[1]["size_bytes"] == 4 * 2**20
    assert "ratio" in r.stdout and "2 / 1" in r.stdout


@pytest.mark.webgpu
def test_example_compares_backends_in_one_run(tmp_path):
    """Several backends in one invocation (one process each) end in a comparison table;
    webgpu chunks run on two workers pinned to one adapter."""
    _require("webgpu")
    out = tmp_path / "r.json"
    r, log = _run([sys.executable, "-m", "numr_array_api.distributed.example", "--backend",
                   "cpu,webgpu", "--small", "--size", "4MiB", "--ops", "mean",
                   "--no-progress", "--json", str(out)])
    assert r.returncode == 0, log[-4000:]
    res = json.loads(out.read_text())
    assert [x["backend"] for x in res] == ["cpu", "webgpu"] and all(x["ok"] for x in res)
    assert "mean GB/s" in r.stdout
    assert len(res[1]["workers"]) == 2


def test_generated_values_are_exact_on_the_device(xp):
    """generate.py's chunk hash in the namespace equals its NumPy reference bit for bit
    (wrapping uint64 arithmetic), at indices beyond 2**32."""
    from _support import has_dtype, to_numpy
    from numr_array_api.distributed import generate as G

    if not (has_dtype(xp, "uint64") and has_dtype(xp, "float64")):
        pytest.skip("needs uint64 and float64")
    idx = np.array([0, 1, 2**31 - 1, 2**32 + 5, 2**40 + 3, 2**62 + 7], dtype=np.uint64)
    for dt in ("float64", "float32"):
        got = to_numpy(G._splitmix(xp, xp.asarray(idx), 5, dt))
        want = G.reference(idx, seed=5, dtype=dt)
        assert got.dtype == want.dtype == np.dtype(dt)
        np.testing.assert_array_equal(got, want)
        assert np.all((want >= 0) & (want < 1))


def test_chunk_sizes():
    from numr_array_api.distributed.chunks import chunk_bytes, chunk_shape

    assert chunk_shape((10**6, 16384), 8, 2**30) == (8192, 16384)
    assert chunk_shape((10**10,), 8, 2**30) == (2**27,)
    assert chunk_shape((5, 10**9), 8, 2**30) == (1, 2**27)
    assert chunk_shape((3, 4), 8, 1000) == (3, 4)
    assert chunk_shape((), 8, 10) == ()
    assert chunk_bytes(80 * 10**9) == 2**30  # capped
    assert chunk_bytes(2**30) == 2**26  # a sixteenth of the device
    assert chunk_bytes(80 * 10**9, max_buffer_bytes=2**28) == 2**27
    assert chunk_bytes(None, cap=2**25) == 2**25


def test_example_sizes():
    from numr_array_api.distributed.example import parse_size

    assert parse_size("2x") == ("x", 2.0)
    assert parse_size("1.5GiB") == 3 * 2**29
    assert parse_size("500MB") == 500 * 10**6
    assert parse_size("123") == 123
    with pytest.raises(Exception):
        parse_size("lots")


def test_worker_environment_pins_devices():
    from numr_array_api.distributed import cluster as C

    assert C.worker_env("cuda", 3) == {"CUBED_BACKEND_ARRAY_API_MODULE":
                                       "numr_array_api.distributed.cuda",
                                       "CUDA_VISIBLE_DEVICES": "3"}
    assert C.worker_env("cupy", 1)["CUBED_BACKEND_ARRAY_API_MODULE"] == "array_api_compat.cupy"
    assert C.worker_env("cpu", None) == {"CUBED_BACKEND_ARRAY_API_MODULE":
                                         "numr_array_api.distributed.cpu"}
    # CuPy chunks reach Zarr as device arrays: Zarr must use its GPU buffers
    assert C.worker_env("cupy", 1)["ZARR_NDBUFFER"] == "zarr.buffer.gpu.NDBuffer"
    assert C.worker_env("cupy", 1)["CUDA_VISIBLE_DEVICES"] == "1"
    assert "ZARR_BUFFER" not in C.worker_env("cuda", 0)
    with pytest.raises(ValueError):
        C.chunk_namespace("tpu")


def test_results_convert_to_numpy(xp):
    """Strict and chunk-namespace arrays alike, with no implicit-conversion warning."""
    import warnings

    from numr_array_api.distributed.cluster import to_numpy

    cx = importlib.import_module(xp.__name__.replace("numr_array_api.",
                                                     "numr_array_api.distributed."))
    for ns in (xp, cx):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = to_numpy(ns.asarray([1.5, -0.0, 3.0]))
        assert type(got) is np.ndarray
        np.testing.assert_array_equal(got, [1.5, -0.0, 3.0])
        assert np.signbit(got[1])
