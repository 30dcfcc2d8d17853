"""The one-sweep radix passes (knob SORT_SWEEP, primitives/radix_sweep.py): a pass in one
launch by decoupled look-back over tile counts.

Whether a tile may spin on an earlier one depends on the adapter's forward progress, so
these tests are what a tuning table turning the knob on stands on. CPU adapters never run
the sweep (lavapipe stops an invocation's loops after 65535 trips: a spin can pass that),
so the tests that need it skip there; the kernels still render and compile there
(test_render_compile.py). Every case compares with NumPy on new data, many tiles deep,
so a wrong prefix, a tile counted twice or a stale status word gives a wrong order."""

import threading

import numpy as np
import pytest

from numr_array_api import tuning
from numr_array_api.backends.webgpu.primitives import radix_keys, radix_sweep


def _host(x):
    return np.asarray(x.to_device("cpu"))


@pytest.fixture
def sweep(wgpu_xp):
    client = wgpu_xp.asarray([0])._data.client
    with tuning.override(SORT_SWEEP=True, SORT_RANK="workgroup"):
        if not radix_sweep.usable(client, "workgroup", 1 << 20, 4, 512):
            pytest.skip("the one-sweep sort does not run on this adapter (CPU adapters)")
        yield client


def test_cpu_adapters_never_sweep(wgpu_xp):
    client = wgpu_xp.asarray([0])._data.client
    from numr_array_api.backends.webgpu.runtime.adapters import is_cpu
    with tuning.override(SORT_SWEEP=True, SORT_RANK="workgroup"):
        assert radix_sweep.usable(client, "workgroup", 1 << 20, 4, 512) != is_cpu(client.info)
    with tuning.override(SORT_SWEEP=False):
        assert not radix_sweep.usable(client, "workgroup", 1 << 20, 4, 512)
    with tuning.override(SORT_SWEEP=True):
        assert not radix_sweep.usable(client, "workgroup", 1 << 30, 4, 1 << 19)


def test_a_pass_is_one_launch(wgpu_xp, sweep):
    xp = wgpu_xp
    x = xp.asarray(np.random.default_rng(0).standard_normal(1 << 20).astype(np.float32))
    rec = sweep.recorder
    xp.sort(x)
    d0 = rec.dispatches
    with xp.fusion(False):
        s = xp.sort(x)
    # fill G, prep (zeroing the status tables), plan, 4 passes, finish
    assert rec.dispatches - d0 <= 8
    assert np.array_equal(_host(s), np.sort(_host(x)))


@pytest.mark.parametrize("dtype", ["float32", "int32", "float64", "int64", "uint8",
                                   "float16", "int16"])
def test_sort_and_argsort_match_numpy(wgpu_xp, sweep, dtype):
    xp = wgpu_xp
    rng = np.random.default_rng(hash(dtype) % 1000)
    n = (1 << 20) + 12345
    if dtype.startswith("float"):
        a = rng.standard_normal(n).astype(dtype)
        a[::1001] = np.nan
        a[7::509] = -0.0
        a[9::509] = 0.0
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, n, endpoint=True).astype(dtype)
    x = xp.asarray(a)
    got = _host(xp.sort(x))
    assert got.tobytes() == np.sort(a, kind="stable").tobytes(), dtype
    np.testing.assert_array_equal(_host(xp.argsort(x)), np.argsort(a, kind="stable"))
    d = _host(xp.argsort(x, descending=True))
    v = a[d]
    ref = np.sort(a, kind="stable")[::-1]
    if a.dtype.kind == "f":  # NaN first when descending, as NumPy's order reversed
        assert np.array_equal(v, ref, equal_nan=True)
    else:
        assert np.array_equal(v, ref)
    same = (v[1:] == v[:-1]) | (np.isnan(v[1:]) & np.isnan(v[:-1]) if a.dtype.kind == "f"
                               else False)
    assert np.all(d[1:][same] > d[:-1][same])  # stable: equal keys keep their order

def test_rows_views_unique_and_repeats(wgpu_xp, sweep):
    xp = wgpu_xp
    rng = np.random.default_rng(3)
    m = rng.standard_normal((6, 300001)).astype(np.float32)
    x = xp.asarray(m)
    np.testing.assert_array_equal(_host(xp.sort(x, axis=1)), np.sort(m, axis=1))
    np.testing.assert_array_equal(_host(xp.argsort(x[:, ::3], axis=1)),
                                  np.argsort(m[:, ::3], axis=1, kind="stable"))
    np.testing.assert_array_equal(_host(xp.argsort(x, axis=0)),
                                  np.argsort(m, axis=0, kind="stable"))
    for _ in range(3):  # new data each time through one cached plan
        u = rng.integers(0, 1 << 20, 4 << 20).astype(np.int32)
        np.testing.assert_array_equal(_host(xp.unique_values(xp.asarray(u))), np.unique(u))


def test_threads_sort_at_once(wgpu_xp, sweep):
    xp = wgpu_xp
    errors = []

    def work(seed):
        try:
            rng = np.random.default_rng(seed)
            for _ in range(3):
                a = rng.standard_normal((1 << 19) + seed).astype(np.float32)
                if not np.array_equal(_host(xp.sort(xp.asarray(a))), np.sort(a)):
                    errors.append(seed)
        except Exception as exc:  # a thread's failure must fail the test
            errors.append(repr(exc))

    ts = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


def test_the_sweep_kernels_render():
    from numr_array_api.backends.webgpu.codegen.caps import NVIDIA
    specs = [s for s in radix_keys.variants() if s.sweep and s.stage == "scatter"]
    assert specs
    for s in specs:
        src = s.source(NVIDIA)
        assert "atomicAdd(&ST[" in src and "loop {" in src
    # the prep zeroes the status tables
    preps = [s for s in radix_keys.variants() if s.sweep and s.stage == "prep"]
    assert preps and all("ST[" in s.source(NVIDIA) for s in preps)


def test_many_sorts_of_full_range_keys(wgpu_xp, sweep):
    """Every pass live and every tile waiting on the one before: repeated, so a rare
    ordering fault (a status word read before its count) has many chances to show."""
    xp = wgpu_xp
    rng = np.random.default_rng(12)
    for _ in range(12):
        a = rng.integers(-2**31, 2**31 - 1, 1 << 20, endpoint=True).astype(np.int32)
        assert np.array_equal(_host(xp.sort(xp.asarray(a))), np.sort(a))
