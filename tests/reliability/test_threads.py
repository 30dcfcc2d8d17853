"""Threads (reported reproducer 1, and scikit-learn's joblib threads): any number of Python
threads may use one namespace and the same arrays at once, on every backend, with NumPy's
results."""

import threading
import warnings

import numpy as np
import pytest

import numr_array_api

from .conftest import run_python, sized

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")

N = 12  # the thread-local operands are N x N float32


def _catalog(xp, s, a, b, c, idx, na, nb, nc, ns):
    """(name, numr thunk, NumPy thunk) of every mixed op. ``s``: an array every thread reads;
    ``a``, ``b``: the thread's own operands; ``c``: the thread's own in-place target."""
    def inplace():
        c[...] += a
        return c

    def expected_inplace():
        nc[...] += na
        return nc.copy()

    def setitem():
        c[1, :] = b[2, :]
        return c

    def expected_setitem():
        nc[1, :] = nb[2, :]
        return nc.copy()

    return [
        ("add", lambda: (a + b) * 2, lambda: (na + nb) * 2),
        ("scalar", lambda: a * 2.5 - 1, lambda: na * np.float32(2.5) - 1),
        ("shared", lambda: a - s, lambda: na - ns),
        ("sum", lambda: xp.sum(a), lambda: na.sum(dtype=np.float32)),
        ("mean", lambda: xp.mean(b, axis=0), lambda: nb.mean(axis=0)),
        ("max", lambda: xp.max(a, axis=1), lambda: na.max(axis=1)),
        ("argmax", lambda: xp.argmax(a, axis=1), lambda: na.argmax(axis=1)),
        ("matmul", lambda: a @ b, lambda: na @ nb),
        ("where", lambda: xp.where(a > b, a, s), lambda: np.where(na > nb, na, ns)),
        ("slice", lambda: a[1:, ::2], lambda: na[1:, ::2]),
        ("mask", lambda: a[a > 0], lambda: na[na > 0]),
        ("take", lambda: xp.take(b, idx, axis=0), lambda: nb[np.asarray(idx)]),
        ("concat", lambda: xp.concat([a, s], axis=1), lambda: np.concatenate([na, ns], 1)),
        ("cumsum", lambda: xp.cumulative_sum(a, axis=1), lambda: np.cumsum(na, axis=1)),
        ("astype", lambda: xp.astype(a * 10, xp.int32), lambda: (na * 10).astype(np.int32)),
        ("exp", lambda: xp.exp(a / 4), lambda: np.exp(na / 4)),
        ("inplace", inplace, expected_inplace),
        ("setitem", setitem, expected_setitem),
        ("sort", lambda: xp.sort(b, axis=1), lambda: np.sort(nb, axis=1)),
    ]


def _check(name, got, want):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        return f"{name}: shape {got.shape} != {want.shape}"
    if want.dtype.kind in "iub":
        ok = np.array_equal(got, want)
    else:
        scale = max(1.0, float(np.abs(want).max(initial=0.0)))
        ok = np.allclose(got, want, rtol=2e-4, atol=2e-4 * scale)
    return None if ok else f"{name}: values differ (max |diff| {np.abs(got - want).max()})"


def _worker(xp, shared, ns, seed, n_ops, errors, check_every=25):
    rng = np.random.default_rng(seed)
    na = rng.standard_normal((N, N)).astype(np.float32)
    nb = rng.standard_normal((N, N)).astype(np.float32)
    nc = np.zeros((N, N), np.float32)
    a, b, c = xp.asarray(na), xp.asarray(nb), xp.asarray(nc)
    idx = xp.asarray(rng.integers(0, N, 7).astype(np.int32))
    ops = _catalog(xp, shared, a, b, c, idx, na, nb, nc, ns)
    pending = []
    try:
        for i in range(n_ops):
            name, run, expect = ops[int(rng.integers(len(ops)))]
            # an in-place op's result is its (later mutated) target: compare it at once
            pending.append((name, run(), expect()))
            if name in ("inplace", "setitem") or len(pending) >= check_every \
                    or i == n_ops - 1:
                for name_, got, want in pending:
                    err = _check(name_, got, want)
                    if err:
                        errors.append(f"thread {seed} op {i}: {err}")
                pending.clear()
    except BaseException as e:  # noqa: BLE001 (reported by the test)
        errors.append(f"thread {seed}: {type(e).__name__}: {e}")


def run_threads(xp, n_threads, n_ops, seed=0):
    """n_threads threads x n_ops mixed ops on one namespace; the list of errors."""
    rng = np.random.default_rng(seed)
    ns = rng.standard_normal((N, N)).astype(np.float32)
    shared = xp.asarray(ns)
    errors = []
    with numr_array_api.host_conversion("allow"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        threads = [threading.Thread(target=_worker,
                                    args=(xp, shared, ns, seed * 1000 + k, n_ops, errors))
                   for k in range(n_threads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    # the namespace still works, with the right answer, after the storm
    assert float(xp.sum(shared)) == pytest.approx(float(ns.sum()), rel=1e-5, abs=1e-4)
    return errors


@pytest.mark.parametrize("run", range(sized(1, 10)))
def test_threads_mixed_ops_equal_numpy(xp, run):
    """CI: 8 threads x 1000 ops; NUMR_STRESS=full: 16 x 2000, 10 runs."""
    errors = run_threads(xp, sized(8, 16), sized(1000, 2000), seed=run)
    assert errors == []


def test_threads_share_one_array_for_reading_and_writing_their_own(xp):
    # every thread reads one array and writes its own slice of another
    n = 8
    src = xp.asarray(np.arange(64 * n, dtype=np.float32).reshape(n, 64))
    dst = xp.zeros((n, 64), dtype=xp.float32)

    def work(k):
        for _ in range(sized(40, 400)):
            dst[k, :] = src[k, :] * 2 + xp.sum(src[k, :])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    h = np.arange(64 * n, dtype=np.float32).reshape(n, 64)
    want = h * 2 + h.sum(axis=1, keepdims=True)
    with numr_array_api.host_conversion("allow"):
        np.testing.assert_allclose(np.asarray(dst), want, rtol=1e-6)


_REPRODUCER_1 = """
import sys, threading, warnings, numpy as np
import numr_array_api
import numr_array_api.{ns} as xp
numr_array_api.set_host_conversion("allow")
warnings.simplefilter("ignore")
errors = []
def work(seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((16, 16)).astype(np.float32)
    B = rng.standard_normal((16, 16)).astype(np.float32)
    x, y = xp.asarray(A), xp.asarray(B)
    try:
        for i in range(int(sys.argv[1])):
            r = (x + y) * 2
            s = float(xp.sum(r))
            m = xp.matmul(x, y)
            if not np.allclose(np.asarray(r), (A + B) * 2, rtol=1e-6):
                errors.append(("add", seed, i))
            if not np.isclose(s, float(((A + B) * 2).sum()), rtol=1e-4, atol=1e-3):
                errors.append(("sum", seed, i, s))
            if not np.allclose(np.asarray(m), A @ B, rtol=1e-4, atol=1e-4):
                errors.append(("matmul", seed, i))
    except BaseException as e:
        errors.append((type(e).__name__, str(e)[:300]))
ts = [threading.Thread(target=work, args=(k,)) for k in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]
print("ERRORS", errors[:5], len(errors))
"""


def test_reproducer_1_eight_threads_add_sum_matmul(backend_name):
    """Reported reproducer 1: on webgpu this aborted the process (heap corruption) or gave
    sum == 0.0. Run in a fresh interpreter, so a crash fails this test, not the suite."""
    r = run_python(_REPRODUCER_1.format(ns=backend_name), sized(100, 200), timeout=600)
    assert r.returncode == 0, f"rc={r.returncode}\n{r.stderr[-3000:]}"
    assert "ERRORS [] 0" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]


_JOBLIB = """
import numpy as np, sklearn, warnings
from sklearn.metrics import pairwise_distances
import numr_array_api
import numr_array_api.{ns} as xp
warnings.simplefilter("ignore")
rng = np.random.default_rng(0)
X = rng.standard_normal((60, 5)).astype(np.float32)
Y = rng.standard_normal((40, 5)).astype(np.float32)
want = np.sqrt(((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1))
with sklearn.config_context(array_api_dispatch=True), numr_array_api.host_conversion("allow"):
    for _ in range(3):
        got = pairwise_distances(xp.asarray(X), xp.asarray(Y), n_jobs=2)
        assert got.__array_namespace__() is xp
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)
print("OK")
"""


def test_joblib_threads_pairwise_distances(backend_name):
    """scikit-learn's pairwise_distances(n_jobs=2) runs joblib threads."""
    pytest.importorskip("sklearn")
    r = run_python(_JOBLIB.format(ns=backend_name), timeout=600,
                   env={"SCIPY_ARRAY_API": "1"})
    assert r.returncode == 0 and "OK" in r.stdout, f"rc={r.returncode}\n{r.stderr[-3000:]}"
