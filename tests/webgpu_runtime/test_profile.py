"""The GPU profiler (runtime/profile.py): one timed entry per recorded dispatch, graph and
recipe replays included, and results identical to an unprofiled run."""

import textwrap

import numpy as np
import pytest

import numr_array_api.webgpu as xp
from numr_array_api._core.errors import BackendLimitation
from numr_array_api.backends.webgpu.runtime import profile as P

from .conftest import run_py

RNG = np.random.default_rng(3)
pytestmark = pytest.mark.usefixtures("eager")  # counts of the eager path


def _client():
    return xp.asarray(np.zeros(1, np.float32))._data.client


def _work(a, b):
    q, r = xp.linalg.qr(a)          # a captured graph (ops/linalg/plan.py) on repeat calls
    s = xp.sum(b)                   # a recipe replay on repeat calls
    return [q, r, xp.exp(b) + 1.0, s, xp.linalg.solve(a, b[:, :3])]


@pytest.fixture(scope="module")
def client():
    c = _client()
    if "timestamp-query" not in c.device.features:
        pytest.skip("adapter without timestamp-query")
    return c


def test_one_entry_per_dispatch_and_same_results(client):
    ha = RNG.standard_normal((96, 96)).astype(np.float32) + 8 * np.eye(96, dtype=np.float32)
    hb = RNG.standard_normal((96, 40)).astype(np.float32)
    a, b = xp.asarray(ha), xp.asarray(hb)
    ref = [np.asarray(y.to_device("cpu")) for y in _work(a, b)]
    _work(a, b)                      # the replayed forms from here on
    client.synchronize()
    d0 = client.recorder.dispatches
    with P.profile(client) as p:
        got = _work(a, b)
    n = client.recorder.dispatches - d0
    ent = p.entries()
    assert n > 10 and len(ent) == n
    assert all(t1 >= t0 >= 0 for _, t0, t1 in ent) and ent[-1][2] > 0
    tot = p.totals()
    assert sum(c for c, _ in tot.values()) == n
    assert "ReduceSpec" in tot and any(k.startswith("Qr") for k in tot), sorted(tot)
    assert "dispatches" in p.report()
    for g, r in zip(got, ref):
        np.testing.assert_array_equal(np.asarray(g.to_device("cpu")), r)


def test_profiling_off_again_and_no_nesting(client):
    with P.profile(client):
        with pytest.raises(BackendLimitation):
            with P.profile(client):
                pass
    assert client.recorder.prof is None
    d0 = client.recorder.dispatches
    y = xp.asarray(np.ones(10, np.float32)) * 2.0
    assert float(xp.sum(y)) == 20.0
    assert client.recorder.dispatches > d0


def test_a_full_query_set_is_resolved_and_counting_goes_on(client, monkeypatch):
    monkeypatch.setattr(P, "PAIRS", 4)
    # the scalar's device constant first: cold, it costs a FillSpec dispatch of its own
    x = xp.asarray(np.arange(8, dtype=np.float32)) + 1.0
    d0 = client.recorder.dispatches
    with P.profile(client) as p:
        for _ in range(11):
            x = x + 1.0
    ent = p.entries()
    assert len(ent) == client.recorder.dispatches - d0 == 11, [e[0] for e in ent]
    assert len(p.batches) >= 3
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), np.arange(8) + 12.0)


def test_stamps_are_scaled_by_the_timestamp_period(client, monkeypatch):
    x = xp.asarray(np.ones(4096, np.float32))
    with P.profile(client) as p:
        for _ in range(3):
            x = xp.exp(x * 0.5)
    ns = p.entries()
    p.period *= 4.0    # wgpu-native resolves ticks; an adapter's tick need not be 1 ns
    assert [4 * (t1 - t0) for _, t0, t1 in ns] == \
        pytest.approx([t1 - t0 for _, t0, t1 in p.entries()], abs=4)


_UNIFORM = textwrap.dedent("""
    import numpy as np
    import numr_array_api.webgpu as xp
    from numr_array_api.backends.webgpu.runtime import profile as P
    P.PAIRS = 4
    x = xp.asarray(np.zeros(8, np.float32))
    c = x._data.client
    assert c.capabilities()["params"] == "uniform"
    if "timestamp-query" in c.device.features:
        with P.profile(c):
            for i in range(1, 14):
                x = x + float(i)
        print(float(np.asarray(x.to_device("cpu"))[0]))
    else:
        print(91.0)
""")


def test_a_full_query_set_keeps_uniform_ring_params(client):
    # the set used to be submitted when full, between a dispatch's ring slot and its
    # dispatch: the ring restarted under it and later dispatches read the wrong params
    r = run_py(_UNIFORM, env={"NUMR_TUNING": "PARAMS=uniform"})
    assert r.returncode == 0 and r.stdout.split()[-1] == "91.0", r.stdout + r.stderr[-3000:]


def test_whole_process_profile_from_the_environment(client):
    code = ("import numpy as np, numr_array_api.webgpu as xp\n"
            "print(float(xp.sum(xp.exp(xp.asarray(np.zeros(64, np.float32))))))")
    r = run_py(code, env={"NUMR_WEBGPU_PROFILE": "1"})
    assert r.returncode == 0 and r.stdout.split()[-1] == "64.0", r.stdout + r.stderr[-3000:]
    assert "[numr webgpu profile]" in r.stderr and "ReduceSpec" in r.stderr, r.stderr[-3000:]
