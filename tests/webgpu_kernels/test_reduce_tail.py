"""Reductions that end in one launch (knob REDUCE_TAIL, ops/reduction/spec.py ``_tail``):
the last workgroup of each output combines its chunks' states behind an arrival counter.

Whether an adapter orders the states' writes before the count is its memory model's
property, so these tests are what a tuning table turning the knob on stands on: every run
here uses new data, so a stale state, a counter left non-zero or a second "last" workgroup
gives a wrong number, not a pass."""

import threading

import numpy as np
import pytest

from numr_array_api import tuning
from numr_array_api.backends.webgpu.ops.reduction import plan


@pytest.fixture
def tail():
    with tuning.override(REDUCE_TAIL=1, REDUCE_ROW_SPLIT=0):
        yield


def _host(x):
    return np.asarray(x.to_device("cpu"))


def _dispatches(xp, fn):
    rec = xp.asarray([0.0])._data.client.recorder
    d0 = rec.dispatches
    out = fn()
    return out, rec.dispatches - d0


def test_one_launch_per_reduction_with_numpys_answer(wgpu_xp, tail):
    xp = wgpu_xp
    rng = np.random.default_rng(11)
    with xp.fusion(False):
        for it in range(4):  # new data at every call: the counters must be back at zero
            a = rng.standard_normal((1 << 20) + 5 * it).astype(np.float32)
            a[rng.integers(0, a.size)] = 50.0 + it
            x = xp.asarray(a)
            s, n = _dispatches(xp, lambda: xp.sum(x))
            assert n == 1
            np.testing.assert_allclose(float(_host(s)), a.astype(np.float64).sum(),
                                       rtol=1e-5, atol=1e-5 * np.abs(a).sum())
            assert float(_host(xp.max(x))) == a.max()
            assert int(_host(xp.argmax(x))) == int(np.argmax(a))
            assert int(_host(xp.argmin(x))) == int(np.argmin(a))
            np.testing.assert_allclose(float(_host(xp.var(x))), a.astype(np.float64).var(),
                                       rtol=1e-5)
            np.testing.assert_allclose(float(_host(xp.mean(x))), a.astype(np.float64).mean(),
                                       atol=1e-5 * np.abs(a).mean())


def test_exact_sums_equal_the_two_pass_result_and_repeat_bit_for_bit(wgpu_xp):
    """Integer-valued float32 (every partial exact): the one-launch and the two-pass
    results agree, and the fixed combining order makes repeated calls identical."""
    xp = wgpu_xp
    a = np.random.default_rng(2).integers(-3, 4, 3 << 20).astype(np.float32)
    x = xp.asarray(a)
    with tuning.override(REDUCE_TAIL=0, REDUCE_ROW_SPLIT=0):
        two = _host(xp.sum(x)).tobytes()
    with tuning.override(REDUCE_TAIL=1, REDUCE_ROW_SPLIT=0):
        one = {_host(xp.sum(x)).tobytes() for _ in range(5)}
    assert one == {two}
    assert np.frombuffer(two, np.float32)[0] == a.astype(np.float64).sum()


def test_many_outputs_each_with_its_counter(wgpu_xp, tail):
    xp = wgpu_xp
    a = np.random.default_rng(4).standard_normal((6, 1 << 18)).astype(np.float32)
    x = xp.asarray(a)
    for _ in range(2):
        np.testing.assert_allclose(_host(xp.sum(x, axis=1)), a.astype(np.float64).sum(1),
                                   rtol=1e-5, atol=1e-3)
        np.testing.assert_array_equal(_host(xp.argmax(x, axis=1)), np.argmax(a, axis=1))
        # a strided row view and a reduction over axis 0 (column states, then a row pass)
        np.testing.assert_array_equal(_host(xp.max(x[::2, 1::3], axis=1)),
                                      a[::2, 1::3].max(axis=1))
        b = a.T.copy()
        np.testing.assert_allclose(_host(xp.sum(xp.asarray(b), axis=0)),
                                   b.astype(np.float64).sum(0), rtol=1e-5, atol=1e-3)


def test_more_outputs_than_counters_take_the_two_pass_path(wgpu_xp, tail):
    xp = wgpu_xp
    rows = plan.TAIL_OUTPUTS + 3
    a = np.random.default_rng(6).integers(-2, 3, (rows, 4096)).astype(np.float32)
    x = xp.asarray(a)
    with tuning.override(REDUCE_GROUPS=1 << 16, REDUCE_MIN_LOADS=1):
        s, n = _dispatches(xp, lambda: xp.sum(x, axis=1))
        assert n >= 2
        np.testing.assert_array_equal(_host(s), a.sum(axis=1))


def test_sub_word_results_and_64_bit_states(wgpu_xp, tail):
    xp = wgpu_xp
    rng = np.random.default_rng(8)
    h = (rng.standard_normal(1 << 20) * 0.01).astype(np.float16)
    got = float(_host(xp.sum(xp.asarray(h))))
    np.testing.assert_allclose(got, float(h.astype(np.float64).sum()), rtol=2e-2, atol=0.5)
    b = np.zeros(1 << 21, bool)
    assert not bool(_host(xp.any(xp.asarray(b))))
    b[-1] = True
    assert bool(_host(xp.any(xp.asarray(b))))
    assert int(_host(xp.count_nonzero(xp.asarray(b)))) == 1
    if xp.__array_namespace_info__().default_dtypes()["real floating"] == xp.float64:
        d = rng.standard_normal(1 << 20)
        np.testing.assert_allclose(float(_host(xp.sum(xp.asarray(d)))), d.sum(), rtol=1e-12,
                                   atol=1e-9)
    i = rng.integers(-1 << 40, 1 << 40, 1 << 20)
    if xp.__array_namespace_info__().default_dtypes()["integral"] == xp.int64:
        assert int(_host(xp.sum(xp.asarray(i)))) == int(i.sum())


def test_threads_share_the_counters(wgpu_xp, tail):
    """Reductions recorded from several threads at once: each launch's counters serve
    one launch at a time (the runtime orders launches binding one buffer read-write)."""
    xp = wgpu_xp
    errors = []

    def work(seed):
        try:
            rng = np.random.default_rng(seed)
            for _ in range(6):
                a = rng.integers(-4, 5, (1 << 19) + seed).astype(np.float32)
                got = float(_host(xp.sum(xp.asarray(a))))
                if got != float(a.astype(np.float64).sum()):
                    errors.append((seed, got))
        except Exception as exc:  # a thread's failure must fail the test
            errors.append((seed, repr(exc)))

    threads = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_replayed_recipe_with_new_data(wgpu_xp, tail):
    xp = wgpu_xp
    rng = np.random.default_rng(9)
    for _ in range(4):  # the first call records the recipe, the others replay it
        a = rng.standard_normal(1 << 20).astype(np.float32)
        np.testing.assert_allclose(float(_host(xp.sum(xp.asarray(a)))),
                                   a.astype(np.float64).sum(), rtol=1e-5,
                                   atol=1e-5 * np.abs(a).sum())
