"""The GPU profiler (runtime/profile.py): one timed entry per recorded dispatch, graph and
recipe replays included, and results identical to an unprofiled run."""

import numpy as np
import pytest

import numr_array_api.webgpu as xp
from numr_array_api._core.errors import BackendLimitation
from numr_array_api.backends.webgpu.runtime import profile as P

RNG = np.random.default_rng(3)


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
    assert all(t1 >= t0 > 0 for _, t0, t1 in ent)
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


def test_a_full_query_set_submits_and_keeps_counting(client, monkeypatch):
    monkeypatch.setattr(P, "PAIRS", 4)
    x = xp.asarray(np.arange(8, dtype=np.float32))
    d0 = client.recorder.dispatches
    with P.profile(client) as p:
        for _ in range(11):
            x = x + 1.0
    assert len(p.entries()) == client.recorder.dispatches - d0 == 11
    assert len(p.batches) >= 3
    np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), np.arange(8) + 11.0)
