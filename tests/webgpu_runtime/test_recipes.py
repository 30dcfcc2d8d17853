"""Call recipes (runtime/recipes.py): a repeated multi-dispatch call replays its recorded
dispatches with fresh buffers. A replay must give exactly what the general path gives, never
share a buffer with an earlier result, and never be made from a call that was not
self-contained (a host transfer, a cache it filled)."""

import threading

import numpy as np
import pytest

import numr_array_api.webgpu as xp
from numr_array_api.backends.webgpu.runtime.recipes import Recipe

RNG = np.random.default_rng(7)


def _host(y):
    return np.asarray(y.to_device("cpu"))


def _c64(shape):
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(np.complex64)


def _client():
    return xp.asarray(np.zeros(1, np.float32))._data.client


def _rel(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-30)


@pytest.mark.parametrize("name,shape,kind", [
    ("fft", (16, 1024), "c"),        # one workgroup-memory dispatch
    ("fft", (1 << 14,), "c"),        # four-step: several dispatches and a scratch buffer
    ("fft", (1031,), "c"),           # Bluestein: chirp tables, five dispatches
    ("rfft", (6, 64), "r"),          # fused half-length real transform
    ("irfft", (5, 33), "c"),
    ("fftn", (4, 8, 6), "c"),
])
def test_fft_replays_equal_numpy_and_keep_earlier_results(name, shape, kind):
    client = _client()
    before = client.recipes.replays
    hosts = [_c64(shape) if kind == "c" else RNG.standard_normal(shape).astype(np.float32)
             for _ in range(5)]
    outs = [getattr(xp.fft, name)(xp.asarray(h)) for h in hosts]
    assert client.recipes.replays - before >= 2, client.recipes.refused
    for h, y in zip(hosts, outs):  # read after every call ran: no result was overwritten
        ref = getattr(np.fft, name)(h.astype(np.complex128 if kind == "c" else np.float64))
        assert _rel(_host(y), ref) < 1e-5


def test_views_with_other_offsets_are_other_signatures():
    client = _client()
    base = _c64((12, 256))
    x = xp.asarray(base)
    for r0 in (0, 2, 4, 2, 4, 0, 4):
        y = xp.fft.fft(x[r0:r0 + 6])
        assert _rel(_host(y), np.fft.fft(base[r0:r0 + 6].astype(np.complex128))) < 1e-5
    assert client.recipes.replays > 0


def test_split_k_gemm_replays_equal_numpy():
    client = _client()
    before = client.recipes.replays
    a = RNG.standard_normal((8, 8192)).astype(np.float32)
    b = RNG.standard_normal((8192, 8)).astype(np.float32)
    xa, xb = xp.asarray(a), xp.asarray(b)
    outs = [xa @ xb for _ in range(4)] + [(xa * 2.0) @ xb]
    assert client.recipes.replays > before, client.recipes.refused
    ref = a.astype(np.float64) @ b.astype(np.float64)
    for y, s in zip(outs, (1, 1, 1, 1, 2)):
        np.testing.assert_allclose(_host(y), s * ref, rtol=2e-4, atol=2e-3)


def test_a_call_with_a_host_transfer_is_never_replayed():
    client = _client()
    x = xp.asarray(np.arange(8, dtype=np.float32))
    s = x._data
    key = ("test-reads",)
    calls = []

    def fn():
        calls.append(1)
        y = s.astype(s.dtype)   # a dispatch
        y.to_numpy()            # and a host read: what a replay could not repeat
        return y

    for _ in range(6):
        client.recipes.call(key, (s,), fn)
    assert len(calls) == 6
    assert not any(isinstance(v, Recipe) for k, v in client.recipes.table.items()
                   if k[0] == key)


def test_a_call_that_fills_a_cache_is_captured_later():
    client = _client()
    x = xp.asarray(np.arange(16, dtype=np.float32))
    s = x._data
    cache = {}
    key = ("test-cache",)

    def fn():
        if "t" not in cache:   # the first call keeps a buffer it allocated
            cache["t"] = s.astype(s.dtype)
        return s.astype(s.dtype)

    r0 = client.recipes.call(key, (s,), fn)
    sig = next(k for k in client.recipes.table if k[0] == key)
    assert client.recipes.table[sig] == 1          # refused: a cache was filled
    client.recipes.call(key, (s,), fn)
    assert isinstance(client.recipes.table[sig], Recipe)
    r2 = client.recipes.call(key, (s,), fn)        # the replay
    assert r2.block is not r0.block
    np.testing.assert_array_equal(r2.to_numpy(), np.arange(16, dtype=np.float32))


def test_a_replay_looks_each_binding_set_up_once():
    """eigvalsh through the tridiagonal path: ~2 n dispatches a call binding a few buffer
    sets. A replay looks each distinct set's bind group up once (not once a dispatch:
    that per-dispatch Python bounded such column loops on an H100's host) and gives the
    general path's eigenvalues."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
    client = _client()
    n = 70
    a = RNG.standard_normal((n, n))
    a = a + a.T
    ref = np.linalg.eigvalsh(a)
    x = xp.asarray(a.astype(np.float32))
    before = tridiag.CALLS["tridiag"]
    # only this call's recipes in the table (an earlier test's larger eigh, in the same
    # worker, would be taken for "big" below)
    client.recipes.clear()
    w0 = _host(xp.linalg.eigvalsh(x))            # captured
    replays = client.recipes.replays
    bgc = client.bindgroups
    looked = bgc.hits + bgc.misses
    w1 = _host(xp.linalg.eigvalsh(x))
    assert tridiag.CALLS["tridiag"] - before == 2
    assert client.recipes.replays > replays, client.recipes.refused
    recipes = [r for r in client.recipes.table.values() if isinstance(r, Recipe)]
    big = max(recipes, key=lambda r: len(r.steps))
    assert len(big.steps) >= 2 * n - 2 and len(big.sets) <= len(big.steps) // 4
    looked = bgc.hits + bgc.misses - looked
    # every lookup of the replayed call: at most the recipes' sets
    assert looked <= sum(len(r.sets) for r in recipes)
    for w in (w0, w1):
        assert np.abs(w - ref).max() <= 1e-4 * np.abs(ref).max()


def test_empty_cache_drops_recipes():
    client = _client()
    x = xp.asarray(_c64((4, 128)))
    for _ in range(3):
        xp.fft.fft(x)
    assert client.recipes.table
    xp.__array_namespace_info__()  # (the namespace stays usable)
    client.empty_cache()
    assert not client.recipes.table
    assert _rel(_host(xp.fft.fft(x)), np.fft.fft(_host(x).astype(np.complex128))) < 1e-5


def test_threads_replaying_one_signature_get_their_own_results():
    hosts = [_c64((8, 512)) for _ in range(8)]
    refs = [np.fft.fft(h.astype(np.complex128)) for h in hosts]
    xs = [xp.asarray(h) for h in hosts]
    errors = []

    def work(i):
        try:
            for _ in range(20):
                y = xp.fft.fft(xs[i])
                if _rel(_host(y), refs[i]) > 1e-5:
                    errors.append(i)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(repr(exc))

    ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert not errors


@pytest.mark.parametrize("n", [4, 8, 16, 24])
def test_linalg_replays_keep_the_status_read(n):
    """solve / inv / cholesky of stacks replay their dispatches, and the status word is still
    read each call: a singular (or indefinite) stack of the same shape raises."""
    from numr_array_api._core.errors import InvalidArgument
    client = _client()
    before = client.recipes.replays
    eye = np.eye(n, dtype=np.float32)
    for s in range(3):
        a = (RNG.standard_normal((50, n, n)) + n * eye).astype(np.float32)
        b = RNG.standard_normal((50, n, 2)).astype(np.float32)
        spd = (a @ a.transpose(0, 2, 1)).astype(np.float32)
        xa, xb, xs = xp.asarray(a), xp.asarray(b), xp.asarray(spd)
        ref = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
        np.testing.assert_allclose(_host(xp.linalg.solve(xa, xb)), ref, rtol=1e-3, atol=1e-4)
        np.testing.assert_allclose(_host(xp.linalg.inv(xa)),
                                   np.linalg.inv(a.astype(np.float64)), rtol=1e-3, atol=1e-4)
        np.testing.assert_allclose(_host(xp.linalg.cholesky(xs)),
                                   np.linalg.cholesky(spd.astype(np.float64)), rtol=1e-3,
                                   atol=1e-3 * n)
    assert client.recipes.replays - before >= 6, client.recipes.refused
    sing = a.copy()
    sing[7] = 0.0
    with pytest.raises(InvalidArgument):
        xp.linalg.solve(xp.asarray(sing), xb)
    with pytest.raises(InvalidArgument):
        xp.linalg.inv(xp.asarray(sing))
    bad = spd.copy()
    bad[3] = -eye
    with pytest.raises(InvalidArgument):
        xp.linalg.cholesky(xp.asarray(bad))


@pytest.mark.parametrize("name,shape,axis", [
    ("sum", (1 << 22,), None),        # the whole-array row split: two launches replayed
    ("max", (1 << 22,), None),
    ("mean", (64, 8192), None),
    ("sum", (257, 33), 0),            # column mapping
    ("max", (33, 257), 1),
    ("var", (65, 129), 0),
    ("std", (1 << 20,), None),
    ("argmax", (129, 65), 1),
    ("count_nonzero", (1000, 7), 0),
])
def test_reduction_replays_equal_numpy_and_keep_earlier_results(name, shape, axis):
    client = _client()
    before = client.recipes.replays
    hosts = [RNG.standard_normal(shape).astype(np.float32) for _ in range(4)]
    if name == "count_nonzero":
        hosts = [np.where(h > 0.5, h, 0).astype(np.float32) for h in hosts]
    outs = [getattr(xp, name)(xp.asarray(h), axis=axis) for h in hosts]
    assert client.recipes.replays - before >= 2, client.recipes.refused
    for h, y in zip(hosts, outs):
        ref = getattr(np, name)(h.astype(np.float64), axis=axis)
        np.testing.assert_allclose(_host(y), ref, rtol=1e-4, atol=1e-5 * np.sqrt(h.size))


def test_outputs_viewing_one_buffer_at_offsets_replay():
    """A call whose outputs are views of one of its own buffers at nonzero offsets (eigh's
    column-chain workspace: d, e, tau and the reflectors) is captured, and each replay
    returns the same views of a fresh buffer."""
    client = _client()
    be = xp._backend
    neg = be.unary_kernel("negative")

    def job(x):
        y = neg(x)
        return y[3:7], y[7:].reshape((3, 3))

    hosts = [RNG.standard_normal(16).astype(np.float32) for _ in range(4)]
    before, cap = client.recipes.replays, client.recipes.captured
    outs = [client.recipes.call(("test_offset_outs",), (x,), lambda x=x: job(x))
            for x in (xp.asarray(h)._data for h in hosts)]
    assert client.recipes.captured - cap == 1, client.recipes.refused
    assert client.recipes.replays - before == 3
    for h, (a, b) in zip(hosts, outs):
        assert a.offset == 12 and b.offset == 28
        np.testing.assert_array_equal(a.to_numpy(), -h[3:7])
        np.testing.assert_array_equal(b.to_numpy(), -h[7:].reshape(3, 3))


@pytest.mark.parametrize("dtype,which", [(np.int32, "values"), (np.float32, "all"),
                                         (np.int64, "counts"), (np.float64, "inverse")])
def test_unique_replays_its_device_part_and_reads_each_count(dtype, which):
    """unique's sort, run flags and scan replay for a repeated shape; the count read after
    them is every call's own (a different number of unique values each time)."""
    client = _client()
    before = client.recipes.replays
    hosts = []
    for k in range(5):
        h = RNG.integers(0, 40 + 9 * k, 2000).astype(dtype)
        if dtype == np.float32:   # NaNs are distinct values; -0.0 equals 0.0
            h[::97] = np.nan
            h[1::89] = -0.0
        hosts.append(h)
    fn = {"values": xp.unique_values, "all": xp.unique_all, "counts": xp.unique_counts,
          "inverse": xp.unique_inverse}[which]
    outs = [fn(xp.asarray(h)) for h in hosts]
    assert client.recipes.replays - before >= 3, client.recipes.refused
    for h, got in zip(hosts, outs):   # read after every call ran
        got = [_host(g) for g in (got if isinstance(got, tuple) else (got,))]
        ref = np.unique(h, return_index=which == "all",
                        return_inverse=which in ("all", "inverse"),
                        return_counts=which in ("all", "counts"), equal_nan=False)
        ref = list(ref) if isinstance(ref, tuple) else [ref]   # NumPy's order is numr's
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            np.testing.assert_array_equal(g.reshape(r.shape), r)


@pytest.mark.parametrize("fn", ["sort", "argsort"])
@pytest.mark.parametrize("shape,axis,view", [
    ((3000,), 0, None),
    ((6, 7, 40), 1, None),           # the kept dims do not collapse: a copy inside the call
    ((40, 30), 1, "T"),              # a transposed view
    ((50, 64), 1, "step"),           # a strided view
])
def test_sort_replays_equal_numpy_for_new_data(fn, shape, axis, view):
    """A repeated sort replays its recorded dispatches; every buffer the recipe binds comes
    from the replay's own input (a copy made from the first call's data must not be kept)."""
    client = _client()
    before = client.recipes.replays
    hosts = [RNG.standard_normal(shape).astype(np.float32) for _ in range(4)]
    outs, refs = [], []
    for h in hosts:
        x = xp.asarray(h)
        if view == "T":
            x, h = x.T, h.T
        elif view == "step":
            x, h = x[::2, ::3], h[::2, ::3]
        outs.append(getattr(xp, fn)(x, axis=axis))
        refs.append(getattr(np, fn)(h, axis=axis, kind="stable"))
    assert client.recipes.replays - before >= 2, client.recipes.refused
    for y, r in zip(outs, refs):   # read after every call ran
        np.testing.assert_array_equal(_host(y), r)


@pytest.mark.parametrize("ord,axis", [(2, 1), (2, None), (1, 0), (float("inf"), 1), (3, 1),
                                      (0, 1), (-1, 0)])
def test_vector_norm_replays_equal_numpy_for_new_data(ord, axis):
    """vector_norm's kernels (up to 13: the scaled norm) replay for a repeated signature,
    each replay on its own input (a view too)."""
    client = _client()
    before = client.recipes.replays
    hosts = [RNG.standard_normal((48, 40)).astype(np.float32) * 10.0 ** k for k in range(6)]
    outs = [xp.linalg.vector_norm(xp.asarray(h)[:, ::2], axis=axis, ord=ord) for h in hosts]
    assert client.recipes.replays - before >= 2, client.recipes.refused
    for h, y in zip(hosts, outs):
        ref = np.linalg.norm(h[:, ::2].astype(np.float64).reshape(-1) if axis is None
                             else h[:, ::2].astype(np.float64), ord=ord, axis=axis)
        np.testing.assert_allclose(_host(y), ref, rtol=3e-6)


@pytest.mark.parametrize("name,shape,axis,initial", [
    ("cumulative_sum", (3000,), 0, False),
    ("cumulative_sum", (5, 6, 40), 1, True),    # the kept dims need a copy inside the call
    ("cumulative_prod", (40, 30), 0, False),
    ("cumulative_sum", (64, 9), 1, True),
])
def test_cumulative_replays_equal_numpy_for_new_data(name, shape, axis, initial):
    client = _client()
    before = client.recipes.replays
    hosts = [RNG.uniform(0.5, 1.5, shape).astype(np.float32) for _ in range(4)]
    outs = [getattr(xp, name)(xp.asarray(h), axis=axis, include_initial=initial)
            for h in hosts]
    assert client.recipes.replays - before >= 2, client.recipes.refused
    for h, y in zip(hosts, outs):
        ref = getattr(np, name)(h.astype(np.float64), axis=axis, include_initial=initial)
        np.testing.assert_allclose(_host(y), ref, rtol=2e-5)


@pytest.mark.parametrize("invert", [False, True])
def test_isin_replays_equal_numpy_for_new_data(invert):
    client = _client()
    before = client.recipes.replays
    pairs = [(RNG.integers(0, 90, (30, 40)).astype(np.int32),
              RNG.integers(0, 90, 120).astype(np.int32)) for _ in range(4)]
    outs = [xp.isin(xp.asarray(a)[:, ::2], xp.asarray(b)[::3], invert=invert)
            for a, b in pairs]
    assert client.recipes.replays - before >= 2, client.recipes.refused
    for (a, b), y in zip(pairs, outs):
        np.testing.assert_array_equal(_host(y), np.isin(a[:, ::2], b[::3], invert=invert))


@pytest.mark.parametrize("ord", ["fro", 1, -1, float("inf"), 2, "nuc"])
def test_matrix_norm_replays_equal_numpy_for_new_data(ord):
    client = _client()
    before = client.recipes.replays
    hosts = [RNG.standard_normal((3, 12, 10)).astype(np.float32) * 10.0 ** k for k in range(4)]
    outs = [xp.linalg.matrix_norm(xp.asarray(h)[:, ::2, :], ord=ord) for h in hosts]
    assert client.recipes.replays - before >= 2, client.recipes.refused
    for h, y in zip(hosts, outs):
        ref = np.linalg.norm(h[:, ::2, :].astype(np.float64), ord=ord, axis=(-2, -1))
        np.testing.assert_allclose(_host(y), ref, rtol=2e-5)


def test_recipes_with_fusion_on_record_only_their_own_dispatches():
    """With lazy fusion on, a capture first computes every pending expression and runs its
    own elementwise calls eagerly: an expression materialised inside the capture would be
    recorded as the call's dispatch and replayed on its old buffers (vector_norm's scaled
    norm replayed the unscaled value so, before this rule)."""
    client = _client()
    with xp.fusion(True):
        pending = xp.asarray(RNG.standard_normal(64).astype(np.float32)) * 3.0  # foreign
        outs, hosts = [], []
        for k in range(5):
            h = RNG.standard_normal((8, 6)).astype(np.float32) * 10.0 ** k
            hosts.append(h)
            outs.append(xp.linalg.vector_norm(xp.asarray(h), axis=1))
            outs.append(xp.linalg.matrix_norm(xp.asarray(h)))
            outs.append(xp.cumulative_sum(xp.asarray(h) + 1.0, axis=1))
        for k, h in enumerate(hosts):
            np.testing.assert_allclose(_host(outs[3 * k]), np.linalg.norm(h, axis=1),
                                       rtol=3e-6)
            np.testing.assert_allclose(_host(outs[3 * k + 1]), np.linalg.norm(h), rtol=3e-6)
            np.testing.assert_allclose(_host(outs[3 * k + 2]), np.cumsum(h + 1.0, axis=1),
                                       rtol=1e-5, atol=1e-5 * 10.0 ** k)
        assert _host(pending).shape == (64,)
    assert client.recipes.replays > 0
