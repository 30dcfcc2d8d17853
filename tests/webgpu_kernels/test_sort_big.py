"""sort / argsort beyond one storage binding (primitives/radix.py ``record_slabs``, the
windowed value gather of ops/sorting/mixin.py): lavapipe runs the slab / destination-window
paths at shrunken limits (256 KiB bindings, 1 MiB segments), so positions, key planes and the
data each span several windows and buffers; compared with NumPy's stable sort exactly."""

import numpy as np
import pytest

from numr_array_api._core.errors import BackendLimitation
from numr_array_api.backends.webgpu.primitives.radix import sort_positions

BIND = 1 << 18          # 65536 u32 positions per binding
SEG = 1 << 20


def host(x):
    return np.asarray(x.to_device("cpu"))


def _check(xp, a, descending=False):
    x = xp.asarray(a)
    got_i = host(xp.argsort(x, descending=descending, stable=True))
    if descending:
        # the exact reverse of the ascending stable order with ties in original order
        asc = np.argsort(a[::-1], kind="stable")
        want_i = (a.size - 1 - asc)[::-1]
    else:
        want_i = np.argsort(a, kind="stable")
    np.testing.assert_array_equal(got_i, want_i)
    got = host(xp.sort(x, descending=descending))
    want = a[want_i]
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))  # -0.0 kept


@pytest.mark.parametrize("name,n", [("float32", 3 * 65536 + 5), ("int32", 2 * 65536),
                                    ("int32", 2 * 65536 - 1),
                                    # slabs / windows hold 63488 positions (31 tiles) here
                                    ("uint32", 2 * 63488), ("uint32", 2 * 63488 + 1),
                                    ("uint16", 3 * 63488 - 1), ("float64", 75_001),
                                    ("int64", 65536 + 2049), ("float16", 100_003),
                                    ("bool", 70_000), ("uint8", 300_003)])
def test_sort_beyond_one_binding(wgpu_xp, small_limits, name, n):
    xp = wgpu_xp
    if not hasattr(xp, name):
        pytest.skip(f"{name} not exposed")
    rng = np.random.default_rng(n)
    dtype = np.dtype(name)
    if dtype.kind == "f":
        a = rng.integers(-40, 40, n).astype(dtype) / dtype.type(4)   # many equal keys
        a[rng.integers(0, n, 50)] = np.nan
        a[rng.integers(0, n, 50)] = -0.0
        a[rng.integers(0, n, 20)] = np.inf
        a[rng.integers(0, n, 20)] = -np.inf
    elif dtype.kind == "b":
        a = rng.integers(0, 2, n).astype(bool)
    else:
        lo = 0 if dtype.kind == "u" else -100
        a = rng.integers(lo, 100, n).astype(dtype)
        if dtype.itemsize == 8:
            a[::7] += np.int64(1) << 40    # the high word matters
    with small_limits(binding=BIND, segment=SEG) as client:
        assert not xp.asarray(np.zeros(n, np.uint32))._data.fits_binding()
        _check(xp, a)
        if name in ("float32", "int64", "float16"):
            _check(xp, a, descending=True)
        del client


def test_rows_beyond_one_binding(wgpu_xp, small_limits):
    """Rows along the last axis: the row passes run over the slab path too."""
    xp = wgpu_xp
    rng = np.random.default_rng(3)
    a = rng.integers(-1000, 1000, (3, 40_001)).astype(np.int32)
    with small_limits(binding=BIND, segment=SEG):
        x = xp.asarray(a)
        np.testing.assert_array_equal(host(xp.argsort(x, axis=-1)),
                                      np.argsort(a, axis=-1, kind="stable"))
        np.testing.assert_array_equal(host(xp.sort(x, axis=-1)), np.sort(a, axis=-1))
        np.testing.assert_array_equal(host(xp.sort(x, axis=0)), np.sort(a, axis=0))
        # short rows beyond one binding: no workgroup-memory row sort there, the row
        # passes of the slab path order 40k rows of 5
        b = rng.standard_normal((40_000, 5)).astype(np.float32)
        b[::3, 1] = b[::3, 3]            # ties inside rows
        y = xp.asarray(b)
        np.testing.assert_array_equal(host(xp.argsort(y, axis=-1, descending=True)),
                                      4 - np.argsort(b[:, ::-1], axis=-1, kind="stable")[:, ::-1])
        np.testing.assert_array_equal(host(xp.sort(y, axis=-1)), np.sort(b, axis=-1))


def test_four_word_keys_beyond_one_binding_refused(wgpu_xp, small_limits):
    """complex128 keys (4 words; unique / isin sort them) would need more bindings than
    the slab scatter has: refused, never wrong."""
    xp = wgpu_xp
    if not hasattr(xp, "complex128"):
        pytest.skip("complex128 not exposed")
    a = np.arange(70_000, dtype=np.complex128)
    with small_limits(binding=BIND, segment=SEG):
        x = xp.asarray(a)._data
        with pytest.raises(BackendLimitation):
            sort_positions(x.reshape((1, x.size)))


def test_histogram_table_beyond_one_binding_refused(wgpu_xp, small_limits):
    """The (digits, tiles) table takes n / 2 bytes and must fit one binding (on NVIDIA
    that is every size below 2^32 elements): past it, refused, never wrong."""
    xp = wgpu_xp
    a = np.zeros(600_000, np.uint8)     # a 300 KB table
    with small_limits(binding=BIND, segment=SEG):
        with pytest.raises(BackendLimitation):
            xp.sort(xp.asarray(a))
