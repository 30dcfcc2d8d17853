"""Allocator: env thresholds, free list, out-of-memory retry, stats, empty_cache."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from numr_array_api._core.errors import OutOfMemory

pytestmark = pytest.mark.gpu
MiB = 1 << 20


def test_env_thresholds_take_effect():
    code = textwrap.dedent("""
        import json, numr_array_api.cuda as xp
        x = xp.ones((4 * 2**20,), dtype=xp.uint8)   # 4 MiB
        del x
        s = xp.memory_stats()
        print(json.dumps(s))
    """)
    env = dict(os.environ, NUMR_CUDA_POOL_RELEASE_THRESHOLD_MB="64",
               NUMR_CUDA_FREE_LIST_CAP_MB="1")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stderr
    s = json.loads(r.stdout.strip().splitlines()[-1])
    assert s["pool_release_threshold_bytes"] == 64 * MiB  # read back from the driver
    assert s["free_list_cap_bytes"] == 1 * MiB
    assert s["free_list_bytes"] <= 1 * MiB  # the 4 MiB block did not fit the free list


def test_default_thresholds(cx):
    if os.environ.get("NUMR_CUDA_POOL_RELEASE_THRESHOLD_MB") or \
            os.environ.get("NUMR_CUDA_FREE_LIST_CAP_MB"):
        pytest.skip("thresholds overridden in the environment")
    cx.zeros(1)
    s = cx.memory_stats()
    assert s["pool_release_threshold_bytes"] == 512 * MiB
    assert s["free_list_cap_bytes"] == 1024 * MiB


def test_free_list_reuse_and_stats(cx):
    cx.empty_cache()
    s0 = cx.memory_stats()
    x = cx.ones((1000,), dtype=cx.float32)
    s1 = cx.memory_stats()
    assert s1["active_bytes"] >= s0["active_bytes"] + 4000
    del x
    s2 = cx.memory_stats()
    assert s2["free_list_bytes"] >= 4000
    y = cx.ones((1000,), dtype=cx.float32)
    s3 = cx.memory_stats()
    assert s3["free_list_bytes"] <= s2["free_list_bytes"] - 4000  # served from the list
    assert s3["pool_used_bytes"] == s2["pool_used_bytes"]
    assert float(cx.sum(y)) == 1000.0
    del y
    cx.empty_cache()
    s4 = cx.memory_stats()
    assert s4["free_list_bytes"] == 0 and s4["free_list_blocks"] == 0


def test_oom_retry_once_then_success(cx, monkeypatch):
    cx.zeros(1)
    alloc = cx._backend.rt.client(0).allocator
    real = alloc.raw_malloc
    calls = []

    def flaky(n):
        calls.append(n)
        if len(calls) == 1:
            raise MemoryError("simulated out of memory")
        return real(n)

    monkeypatch.setattr(alloc, "raw_malloc", flaky)
    alloc.drain()
    before = alloc.oom_retries
    x = cx.full((12345,), 2.0, dtype=cx.float64)  # a size no free-list block serves
    assert alloc.oom_retries == before + 1 and len(calls) == 2
    assert float(cx.sum(x)) == 2.0 * 12345


def test_oom_raises_numr_error_naming_request(cx, monkeypatch):
    cx.zeros(1)
    alloc = cx._backend.rt.client(0).allocator

    def never(n):
        raise MemoryError("simulated out of memory")

    monkeypatch.setattr(alloc, "raw_malloc", never)
    before = alloc.oom_retries
    with pytest.raises(OutOfMemory) as ei:
        cx.empty((77777,), dtype=cx.float64)
    assert ei.value.nbytes == 77777 * 8 and str(77777 * 8) in str(ei.value)
    assert isinstance(ei.value, MemoryError)
    assert alloc.oom_retries == before + 1


def test_tiny_memory_limit(cx):
    cx.zeros(1)
    cx.empty_cache()
    cx.set_memory_limit(cx.memory_stats()["pool_used_bytes"] + MiB)
    with pytest.raises(OutOfMemory, match=str(64 * MiB)):
        cx.empty((64 * MiB,), dtype=cx.uint8)
    small = cx.ones((10,))  # still fits under the limit
    assert float(cx.sum(small)) == 10.0
    cx.set_memory_limit(None)
    big = cx.empty((64 * MiB,), dtype=cx.uint8)
    assert big.shape == (64 * MiB,)


def test_real_oom_is_numr_error(cx):
    free, total = cx._backend.xp.cuda.runtime.memGetInfo()
    with pytest.raises(OutOfMemory):
        cx.empty((2 * total,), dtype=cx.uint8)
    x = cx.ones((3,))  # the device still works
    assert np.asarray(x.to_device("cpu")).tolist() == [1.0, 1.0, 1.0]


@pytest.mark.gpu
def test_cufft_plan_failure_retries_once_then_is_out_of_memory(cx, monkeypatch):
    # cuFFT reports a plan it cannot allocate as ALLOC_FAILED / INTERNAL_ERROR / INVALID_SIZE:
    # numr clears the plan cache, trims its pool, retries once, then raises OutOfMemory
    import cupy
    from cupy.cuda import cufft
    from numr_array_api.errors import OutOfMemory
    real = cupy.fft.fft
    calls = []

    def flaky(*a, **k):
        calls.append(1)
        if len(calls) == 1:
            raise cufft.CuFFTError(8)  # CUFFT_INVALID_SIZE
        return real(*a, **k)

    monkeypatch.setattr(cupy.fft, "fft", flaky)
    x = cx.asarray(np.arange(8.0) + 0j)
    np.testing.assert_allclose(cx.fft.fft(x).to_device("cpu"), np.fft.fft(np.arange(8.0)))
    assert len(calls) == 2

    def broken(*a, **k):
        raise cufft.CuFFTError(5)  # CUFFT_INTERNAL_ERROR

    monkeypatch.setattr(cupy.fft, "fft", broken)
    with pytest.raises(OutOfMemory, match="cuFFT"):
        cx.fft.fft(x)
    assert float(cx.sum(cx.ones(4))) == 4.0
