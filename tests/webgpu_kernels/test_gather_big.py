"""Integer-array indexing beyond one storage binding and one buffer (primitives/gather.py):
x[idx], take, take_along_axis, x[idx] = v and several-array keys, with indices at both ends,
across window / segment boundaries, negative and out of range.

Limits are shrunk (``small_limits``: 1 MiB bindings, 4 MiB buffers) so megabytes take the
paths that gigabytes take on real adapters; one test uses a real 256 MB array on the
adapter's own limits (lavapipe: 128 MiB binding).
"""

import numpy as np
import pytest


def host(x):
    return np.asarray(x.to_device("cpu"))


def _edges(n, rng, m=3000):
    """Indices at both ends, around every 1 MiB / 4 MiB boundary of float32 data, random,
    and their negative forms."""
    marks = [0, 1, n - 1, n - 2]
    for b in range(1 << 18, n, 1 << 18):
        marks += [b - 1, b, b + 1]
    idx = np.array(marks + list(rng.integers(0, n, m)), np.int64)
    neg = idx - n
    return np.concatenate([idx, neg[::3]])


@pytest.mark.parametrize("idt", ["int64", "int32", "uint32", "int16"])
def test_take_beyond_binding_and_buffer(wgpu_xp, small_limits, idt):
    xp = wgpu_xp
    rng = np.random.default_rng(1)
    n = 3_000_000  # 12 MB of float32: 3 buffers of 4 MiB, 12 bindings of 1 MiB
    a = rng.standard_normal(n).astype(np.float32)
    idx = _edges(n, rng)
    if idt == "uint32":
        idx = idx % n
    if idt == "int16":
        n16 = 30000
        a, idx = a[:n16], (idx % n16 - n16 // 2).astype(np.int64)
    idx = idx.astype(idt)
    with small_limits():
        x = xp.asarray(a)
        i = xp.asarray(idx)
        want = a[idx.astype(np.int64)]
        np.testing.assert_array_equal(host(xp.take(x, i)), want)
        np.testing.assert_array_equal(host(x[i]), want)
        # a flipped and a strided view of the multi-buffer array
        np.testing.assert_array_equal(host(xp.flip(x)[i]), a[::-1][idx.astype(np.int64)])
        if idt != "int16":
            h = np.abs(idx.astype(np.int64)) % (n // 3)
            np.testing.assert_array_equal(host(x[::3][xp.asarray(h)]), a[::3][h])


@pytest.mark.parametrize("dtype", ["float64", "int8", "float16", "complex64", "bool"])
def test_gather_scatter_dtypes_beyond_binding(wgpu_xp, small_limits, dtype):
    xp = wgpu_xp
    rng = np.random.default_rng(2)
    n = 1_500_000
    a = (rng.standard_normal(n) * 50).astype(dtype)
    itemsize = a.itemsize
    per_mib = (1 << 20) // itemsize
    idx = np.array([0, n - 1, per_mib - 1, per_mib, -1, -per_mib] +
                   list(rng.integers(-n, n, 2001)), np.int64)
    with small_limits():
        x = xp.asarray(a)
        np.testing.assert_array_equal(host(x[xp.asarray(idx)]), a[idx])
        # scatter into windows of a multi-buffer array
        uniq = np.unique(idx % n)
        vals = (rng.standard_normal(uniq.size) * 50).astype(dtype)
        ref = a.copy()
        ref[uniq] = vals
        x[xp.asarray(uniq)] = xp.asarray(vals)
        np.testing.assert_array_equal(host(x), ref)


def test_2d_keys_take_along_axis_and_results_beyond_binding(wgpu_xp, small_limits):
    xp = wgpu_xp
    rng = np.random.default_rng(3)
    a = rng.standard_normal((1500, 1001)).astype(np.float32)   # 6 MB
    with small_limits():
        x = xp.asarray(a)
        rows = np.array([0, 1499, 261, 262, 1047, -1, -1500] + list(rng.integers(0, 1500, 900)))
        cols = np.array([0, 1000, -1, 500, 7])
        # result (914 x 1001 floats = 3.7 MB) beyond a binding: walked in chunks
        np.testing.assert_array_equal(host(x[xp.asarray(rows)]), a[rows])
        np.testing.assert_array_equal(host(x[xp.asarray(rows), 3:9]), a[rows, 3:9])
        np.testing.assert_array_equal(host(x[:, xp.asarray(cols)]), a[:, cols])
        np.testing.assert_array_equal(host(xp.take(x, xp.asarray(cols), axis=1)),
                                      np.take(a, cols, axis=1))
        # two index arrays (the offset-table path)
        r2, c2 = rows[:300], rng.integers(-1001, 1001, 300)
        np.testing.assert_array_equal(host(x[xp.asarray(r2), xp.asarray(c2)]), a[r2, c2])
        # take_along_axis over both axes, with an index array beyond a binding
        ti = rng.integers(-1001, 1001, (1500, 1001))
        np.testing.assert_array_equal(host(xp.take_along_axis(x, xp.asarray(ti), axis=1)),
                                      np.take_along_axis(a, ti % 1001, axis=1))
        t0 = rng.integers(0, 1500, (7, 1001))
        np.testing.assert_array_equal(host(xp.take_along_axis(x, xp.asarray(t0), axis=0)),
                                      np.take_along_axis(a, t0, axis=0))
        # scatter rows and (row, col) pairs
        ref = a.copy()
        ur = np.unique(rows % 1500)[:200]
        ref[ur] = -3.0
        x[xp.asarray(ur)] = -3.0
        ref[r2, c2] = 9.0
        x[xp.asarray(r2), xp.asarray(c2)] = 9.0
        np.testing.assert_array_equal(host(x), ref)


def test_out_of_range_beyond_binding(wgpu_xp, small_limits):
    xp = wgpu_xp
    a = np.arange(3_000_000, dtype=np.float32)
    with small_limits():
        x = xp.asarray(a)
        for bad in (3_000_000, -3_000_001, 2 ** 40, -(2 ** 40)):
            with pytest.raises(IndexError, match=str(bad)):
                x[xp.asarray(np.array([5, bad, 7], np.int64))]
        with pytest.raises(IndexError, match="3000000"):
            xp.take(x, xp.asarray(np.array([0, 3_000_000], np.int64)))
        with pytest.raises(IndexError):
            x[xp.asarray(np.array([1, 3_000_000], np.int64))] = 1.0
        np.testing.assert_array_equal(host(x[xp.asarray([0, -1])]), a[[0, -1]])
        np.testing.assert_array_equal(host(x[:5]), a[:5])  # the failed assignment wrote nothing
        assert float(host(x[xp.asarray([1])])[0]) == 1.0


@pytest.mark.bigmem
def test_real_256mb_gather_on_the_adapters_own_limits(wgpu_xp):
    """Twice lavapipe's 128 MiB binding (one buffer): take, x[idx], take_along_axis,
    x[i, j], x[mask], x[idx] = v, at both ends and around the binding boundary."""
    xp = wgpu_xp
    n = 64 << 20  # 256 MiB of float32
    x = xp.arange(n, dtype=xp.float32)
    rng = np.random.default_rng(4)
    half = (128 << 20) // 4
    idx = np.array([0, n - 1, half - 1, half, half + 1, -1, -n, -half] +
                   list(rng.integers(-n, n, 5000)), np.int64)
    want = np.arange(n, dtype=np.float32)[idx]
    np.testing.assert_array_equal(host(x[xp.asarray(idx)]), want)
    np.testing.assert_array_equal(host(xp.take(x, xp.asarray(idx.astype(np.int32)))), want)
    with pytest.raises(IndexError, match=str(n)):
        xp.take(x, xp.asarray(np.array([n], np.int64)))
    # take_along_axis and a two-array key over the same 256 MiB
    x2 = xp.reshape(x, (4, n // 4))
    ti = rng.integers(-(n // 4), n // 4, (4, 300))
    np.testing.assert_array_equal(host(xp.take_along_axis(x2, xp.asarray(ti), axis=1)),
                                  np.arange(n, dtype=np.float32).reshape(4, -1)[
                                      np.arange(4)[:, None], ti % (n // 4)])
    r, c = np.array([0, 3, 1, 2]), np.array([0, -1, n // 8, n // 4 - 2])
    np.testing.assert_array_equal(host(x2[xp.asarray(r), xp.asarray(c)]),
                                  np.arange(n, dtype=np.float32).reshape(4, -1)[r, c])
    # x[mask] over the whole array (windows on both sides)
    import warnings
    m = np.zeros(n, bool)
    where = np.r_[0:5, half - 2:half + 2, n - 3:n]
    m[where] = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = host(x[xp.asarray(m)])
    np.testing.assert_array_equal(got, np.arange(n, dtype=np.float32)[where])
    sel = np.array([0, half - 1, half, n - 1], np.int64)
    x[xp.asarray(sel)] = xp.asarray(np.array([-1, -2, -3, -4], np.float32))
    np.testing.assert_array_equal(host(x[xp.asarray(sel)]), [-1, -2, -3, -4])
    del x, x2


@pytest.mark.parametrize("dtype", ["float32", "int64", "complex128"])
def test_mask_block_compaction(wgpu_xp, dtype):
    """x[mask] of long 1-D data: block counts, their scan, one moving pass (no ranks);
    offset views, empty / full / sparse masks, blocks cut by the end."""
    import warnings
    xp = wgpu_xp
    rng = np.random.default_rng(5)
    n = 200_003
    a = (rng.standard_normal(n + 16) * 100).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for p in (0.0, 0.003, 0.5, 1.0):
            m = rng.random(n + 16) < p
            x, mk = xp.asarray(a), xp.asarray(m)
            np.testing.assert_array_equal(host(x[:n][mk[:n]]), a[:n][m[:n]])
            for s in (1, 3, 7):
                np.testing.assert_array_equal(host(x[s:n + s][mk[16 - s:n + 16 - s]]),
                                              a[s:n + s][m[16 - s:n + 16 - s]])


def test_lazy_index_check_raises_at_the_next_read(wgpu_xp, monkeypatch):
    from numr_array_api.backends.webgpu.primitives import gather as G
    xp = wgpu_xp
    a = np.arange(10.0, dtype=np.float32)
    x = xp.asarray(a)
    monkeypatch.setattr(G, "CHECK", "lazy")
    y = xp.take(x, xp.asarray([1, 10]))        # no error yet: no host round trip
    with pytest.raises(IndexError, match="earlier"):
        host(y)
    np.testing.assert_array_equal(host(xp.take(x, xp.asarray([1, -1]))), [1.0, 9.0])
    z = x[xp.asarray([0, -11])]
    with pytest.raises(IndexError):
        x._data.client.synchronize()
    del z
    # a good call after a bad one does not inherit its error
    monkeypatch.setattr(G, "CHECK", "sync")
    with pytest.raises(IndexError, match="12"):
        xp.take(x, xp.asarray([12]))
    np.testing.assert_array_equal(host(xp.take(x, xp.asarray([2]))), [2.0])


@pytest.mark.gpu
@pytest.mark.slow
def test_gpu_gather_scatter_on_10_gib(wgpu_xp):
    """Size acceptance on a GPU: a 10 GiB uint32 array (several 2 GiB buffers, beyond the
    binding): x[idx], take, take_along_axis and x[idx] = v, across every buffer boundary."""
    xp = wgpu_xp
    client = xp.asarray([0.0])._data.client
    if client.info.get("type") == "CPU":
        pytest.skip("10 GiB on a CPU adapter: GPU machine only")
    n = 10 * 2 ** 30 // 4
    x = xp.arange(n, dtype=xp.uint32)
    assert len(x._data.block.segments) >= 3
    rng = np.random.default_rng(6)
    marks = [0, 1, n - 1, -1, -n]
    for b in range(1 << 29, n, 1 << 29):
        marks += [b - 1, b, b + 1]
    idx = np.array(marks + list(rng.integers(-n, n, 20000)), np.int64)
    want = (idx % n).astype(np.uint32)
    np.testing.assert_array_equal(host(x[xp.asarray(idx)]), want)
    np.testing.assert_array_equal(host(xp.take(x, xp.asarray(idx))), want)
    with pytest.raises(IndexError, match=str(n)):
        x[xp.asarray(np.array([3, n], np.int64))]
    rows = n // 4096
    x2 = xp.reshape(x, (rows, 4096))
    ti = rng.integers(0, 4096, (rows, 1))
    got = host(xp.take_along_axis(x2, xp.asarray(ti), axis=1))
    np.testing.assert_array_equal(got[:, 0], (np.arange(rows) * 4096 + ti[:, 0]).astype(np.uint32))
    sel = np.unique(idx % n)[:5000]
    x[xp.asarray(sel)] = xp.asarray(np.full(sel.size, 7, np.uint32))
    np.testing.assert_array_equal(host(x[xp.asarray(sel)]), np.full(sel.size, 7, np.uint32))
    np.testing.assert_array_equal(host(x[xp.asarray(np.array([2], np.int64))]),
                                  [7 if 2 in sel else 2])
    del x, x2


@pytest.mark.parametrize("dtype", ["int8", "bool", "complex128"])
def test_index_value_and_result_chunks(wgpu_xp, small_limits, dtype):
    """Index arrays, scatter values and results beyond one binding are walked in chunks of
    result elements (within one row of the leading dims when the index does not fit)."""
    xp = wgpu_xp
    rng = np.random.default_rng(8)
    a = (rng.standard_normal(2_400_000) * 50).astype(dtype)
    with small_limits():
        idx = rng.integers(-a.size, a.size, 1_500_001)
        np.testing.assert_array_equal(host(xp.asarray(a)[xp.asarray(idx)]), a[idx])
        b = a.reshape(3, 800_000)
        i2 = rng.integers(0, 800_000, 200_000)
        np.testing.assert_array_equal(host(xp.take(xp.asarray(b), xp.asarray(i2), axis=1)),
                                      np.take(b, i2, axis=1))
        c = a.copy()
        x = xp.asarray(c)
        u = np.unique(rng.integers(0, a.size, 1_000_000))
        v = (rng.standard_normal(u.size) * 50).astype(dtype)
        x[xp.asarray(u)] = xp.asarray(v)
        c[u] = v
        np.testing.assert_array_equal(host(x), c)


@pytest.mark.parametrize("dtype", ["float32", "int8"])
def test_many_chunks_of_a_result_that_fits(wgpu_xp, monkeypatch, dtype):
    """A launch walks at most _MAX_UNITS elements (2^30; shrunk here): later chunks of a
    result that fits one binding write from their own first element."""
    from numr_array_api.backends.webgpu.primitives import gather as G
    xp = wgpu_xp
    monkeypatch.setattr(G, "_MAX_UNITS", 1 << 14)
    rng = np.random.default_rng(9)
    a = (rng.standard_normal((300, 400)) * 50).astype(dtype)
    x = xp.asarray(a)
    i = rng.integers(-300, 300, 500)
    np.testing.assert_array_equal(host(x[xp.asarray(i)]), a[i])
    j = rng.integers(-400, 400, 70_000)
    np.testing.assert_array_equal(host(xp.take(xp.asarray(a.reshape(-1)), xp.asarray(j))),
                                  a.reshape(-1)[j])
    t = rng.integers(0, 400, (300, 400))
    np.testing.assert_array_equal(host(xp.take_along_axis(x, xp.asarray(t), axis=1)),
                                  np.take_along_axis(a, t, axis=1))
    c = a.copy()
    u = np.unique(rng.integers(0, 300, 200))
    v = (rng.standard_normal((u.size, 400)) * 50).astype(dtype)
    x[xp.asarray(u)] = xp.asarray(v)
    c[u] = v
    np.testing.assert_array_equal(host(x), c)


@pytest.mark.parametrize("dtype", ["float32", "int8", "complex128"])
def test_repeated_gathers_take_a_plan(wgpu_xp, dtype):
    """The second and later gathers of one geometry run from a plan: other data and index
    offsets (views), bad indices still raising, internal (unchecked) calls in between."""
    from numr_array_api.backends.webgpu.primitives import gather as G
    xp = wgpu_xp
    rng = np.random.default_rng(10)
    a = (rng.standard_normal(5000) * 50).astype(dtype)
    x = xp.asarray(a)
    for rep in range(4):
        o = 7 * rep
        i = rng.integers(-1000, 1000, 300)
        iw = xp.asarray(np.concatenate([np.zeros(o, np.int64), i]))
        n_plans = len(G._PLANS)
        got = host(xp.take(x[o:o + 1000], iw[o:]))
        np.testing.assert_array_equal(got, a[o:o + 1000][i])
        if rep:
            assert len(G._PLANS) == n_plans  # no new plan: the cached one ran
        np.testing.assert_array_equal(host(x[o:o + 1000][iw[o:]]), a[o:o + 1000][i])
        with pytest.raises(IndexError, match="1000"):
            xp.take(x[o:o + 1000], xp.asarray(np.r_[i[:299], 1000]))
        # the internal unchecked gather (repeat) between checked ones
        np.testing.assert_array_equal(host(xp.repeat(x[:3], 2)), np.repeat(a[:3], 2))
