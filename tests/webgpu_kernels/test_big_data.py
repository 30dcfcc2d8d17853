"""Data beyond one storage binding and beyond one buffer (primitives/slabs.py, SegmentedBlock).

The limits are shrunk (``small_limits``) so megabytes exercise the paths that gigabytes take
on real adapters; one test uses a real 300 MB array on the adapter's own limits.
"""

import numpy as np
import pytest

from numr_array_api.backends.webgpu.primitives.slabs import boxes, fits


def host(x):
    return np.asarray(x.to_device("cpu"))


@pytest.fixture
def data():
    rng = np.random.default_rng(7)
    return (rng.standard_normal((1500, 1001)).astype(np.float32),
            rng.standard_normal(1001).astype(np.float32))


def test_multi_buffer_round_trip_and_views(wgpu_xp, small_limits, data):
    xp = wgpu_xp
    a, b = data
    with small_limits():
        x = xp.asarray(a)
        assert len(x._data.block.segments) == 2  # 6 MB in 4 MiB buffers
        np.testing.assert_array_equal(host(x), a)
        np.testing.assert_array_equal(host(xp.flip(x, axis=0)), a[::-1])
        np.testing.assert_array_equal(host(x[::3, ::2]), a[::3, ::2])
        np.testing.assert_array_equal(host(x.T), a.T)
        np.testing.assert_array_equal(host(x[1499]), a[1499])


@pytest.mark.parametrize("dtype", ["float32", "int8", "float16", "complex64", "bool"])
def test_elementwise_and_casts_over_boxes(wgpu_xp, small_limits, data, dtype):
    xp = wgpu_xp
    a, b = data
    a = (a * 10).astype(dtype)
    b = (b * 10).astype(dtype)
    with small_limits(binding=256 << 10, segment=1 << 20):
        x, y = xp.asarray(a), xp.asarray(b)
        if dtype == "bool":
            np.testing.assert_array_equal(host(xp.logical_xor(x, y)), a ^ b)
        else:
            np.testing.assert_array_equal(host(x + y), a + b)
            wide = "complex128" if dtype == "complex64" else "float64"
            np.testing.assert_array_equal(host(xp.astype(x, getattr(xp, wide))), a.astype(wide))
        np.testing.assert_array_equal(host(x[::-2] == y), a[::-2] == b)


def test_fill_creation_and_setitem_over_boxes(wgpu_xp, small_limits, data):
    xp = wgpu_xp
    a, _ = data
    with small_limits():
        np.testing.assert_array_equal(host(xp.full((3000, 1001), 2.5, dtype=xp.float32)),
                                      np.full((3000, 1001), 2.5, np.float32))
        np.testing.assert_array_equal(host(xp.zeros(5_000_001, dtype=xp.int8)),
                                      np.zeros(5_000_001, np.int8))
        np.testing.assert_array_equal(host(xp.arange(3_000_000, dtype=xp.int32)),
                                      np.arange(3_000_000, dtype=np.int32))
        np.testing.assert_array_equal(host(xp.eye(1500, 1001, k=3, dtype=xp.float32)),
                                      np.eye(1500, 1001, k=3, dtype=np.float32))
        np.testing.assert_allclose(host(xp.linspace(0, 1, 2_000_001, dtype=xp.float32)),
                                   np.linspace(0, 1, 2_000_001, dtype=np.float32), atol=1e-6)
        np.testing.assert_array_equal(host(xp.tril(xp.asarray(a), k=-2)), np.tril(a, -2))
        x = xp.asarray(a)
        x[10:20] = 5.0
        x[:, 7] = -1.0
        ref = a.copy()
        ref[10:20] = 5.0
        ref[:, 7] = -1.0
        np.testing.assert_array_equal(host(x), ref)


def test_broadcast_view_beyond_the_element_limit_is_split_by_count(wgpu_xp, small_limits):
    xp = wgpu_xp
    with small_limits():
        v = xp.broadcast_to(xp.asarray(np.float32(3)), (4000, 1000))
        assert len(boxes(v.shape, [v._data], max_elems=1 << 20)) == 4
        np.testing.assert_array_equal(host(v * 2), np.full((4000, 1000), 6, np.float32))


def test_boxes_cover_the_space_once_and_each_fits(wgpu_xp, small_limits):
    xp = wgpu_xp
    with small_limits():
        x = xp.asarray(np.zeros((777, 3001), np.float32))._data
        parts = boxes(x.shape, [x, x.flip(0)])
        seen = np.zeros(x.shape, np.int32)
        for box in parts:
            sub = x[tuple(slice(a, b) for a, b in box)]
            assert fits([sub, x.flip(0)[tuple(slice(a, b) for a, b in box)]])
            seen[tuple(slice(a, b) for a, b in box)] += 1
        assert (seen == 1).all() and len(parts) < 40


@pytest.mark.bigmem
def test_real_300mb_array_on_the_adapters_own_limits(wgpu_xp):
    """More than twice lavapipe's 128 MiB binding: split without shrunken limits."""
    xp = wgpu_xp
    n = 75_000_000  # 300 MB of float32
    x = xp.arange(n, dtype=xp.float32)
    y = x * 2.0 + 1.0
    got = host(y[::7_500_000])
    np.testing.assert_array_equal(got, np.arange(n, dtype=np.float32)[::7_500_000] * 2 + 1)
    del x, y
