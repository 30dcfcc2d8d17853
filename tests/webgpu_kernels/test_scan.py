"""The shared device-wide scan (primitives/scan.py) against NumPy."""

import numpy as np
import pytest

from numr_array_api._core import dtypes as dt
from numr_array_api.backends.webgpu.primitives.scan import BLOCK, scan

REF = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum,
       "and": np.bitwise_and, "or": np.bitwise_or}


def _ref(x, op, acc, mode):
    a = x.astype(acc)
    inc = REF[op].accumulate(a, axis=1) if a.shape[1] else a
    if mode == "inclusive":
        return inc
    ident = {"add": 0, "mul": 1, "or": 0, "and": -1, "max": -np.inf, "min": np.inf}[op]
    first = np.full((a.shape[0], 1), ident).astype(acc)
    exc = np.concatenate([first, inc], axis=1)
    return exc[:, :-1] if mode == "exclusive" else exc


def _store(xp, a):
    return xp.asarray(a)._data


@pytest.mark.parametrize("mode", ["inclusive", "exclusive", "total"])
@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (2, BLOCK), (1, BLOCK + 1), (1, 3 * BLOCK * BLOCK + 7),
                                   (700, 37), (4, 5000)])
def test_add_scan_int32(wgpu_xp, shape, mode):
    rng = np.random.default_rng(0)
    a = rng.integers(-50, 50, shape).astype(np.int32)
    got = scan(_store(wgpu_xp, a), "add", dt.int32, mode).to_numpy()
    np.testing.assert_array_equal(got, _ref(a, "add", np.int32, mode))


@pytest.mark.parametrize("op,dtype,acc", [("add", "bool", dt.uint32), ("add", "float32", dt.float32),
                                          ("mul", "float64", dt.float64), ("max", "float32", dt.float32),
                                          ("min", "int64", dt.int64), ("or", "uint32", dt.uint32),
                                          ("and", "int32", dt.int32), ("add", "complex64", dt.complex64),
                                          ("add", "int8", dt.int32), ("add", "float16", dt.float32)])
def test_ops_and_dtypes(wgpu_xp, op, dtype, acc):
    rng = np.random.default_rng(1)
    shape = (3, 2 * BLOCK + 5)
    if dtype == "bool":
        a = rng.random(shape) < 0.3
    elif "complex" in dtype:
        a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    elif dtype.startswith(("int", "uint")):
        a = rng.integers(0 if dtype.startswith("u") else -100, 100, shape).astype(dtype)
    else:
        a = (rng.standard_normal(shape) * (0.01 if op == "mul" else 1)).astype(dtype) + (
            1.0 if op == "mul" else 0.0)
    if op in ("max", "min") and dtype.startswith("float"):
        a[1, 17] = np.nan
    got = scan(_store(wgpu_xp, a), op, acc, "inclusive").to_numpy()
    ref = _ref(a, op, acc.np, "inclusive")
    if acc.kind in "iub":
        np.testing.assert_array_equal(got, ref)
    else:
        np.testing.assert_allclose(got, ref, rtol=1e-4 if acc.itemsize <= 8 else 1e-12,
                                   atol=1e-3 if acc is not dt.float64 else 1e-10)


def test_strided_and_flipped_rows(wgpu_xp):
    a = np.arange(6000, dtype=np.int32).reshape(60, 100)
    s = _store(wgpu_xp, a)
    v = s.transpose()[::-1, ::2]  # (100, 30): negative row stride, element stride 200
    got = scan(v, "add", dt.int64, "total").to_numpy()
    np.testing.assert_array_equal(got, _ref(a.T[::-1, ::2], "add", np.int64, "total"))


def test_beyond_one_binding_in_windows(wgpu_xp, small_limits):
    rng = np.random.default_rng(2)
    a = rng.integers(0, 3, (3, 300_000)).astype(np.int32)   # 1.2 MB rows
    b = rng.integers(0, 3, (2000, 300)).astype(np.int32)
    with small_limits(binding=256 << 10, segment=1 << 20):
        ga = scan(_store(wgpu_xp, a), "add", dt.int32, "total").to_numpy()
        gb = scan(_store(wgpu_xp, b), "add", dt.int32, "inclusive").to_numpy()
    np.testing.assert_array_equal(ga, _ref(a, "add", np.int32, "total"))
    np.testing.assert_array_equal(gb, _ref(b, "add", np.int32, "inclusive"))


@pytest.mark.parametrize("dtype", ["float32", "int8", "float16", "complex128", "bool"])
def test_mask_selection_beyond_one_binding(wgpu_xp, small_limits, dtype):
    xp = wgpu_xp
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((400, 3000)) * 5).astype(dtype)
    m2 = rng.random((400, 3000)) < 0.4
    m1 = rng.random(400) < 0.5
    with small_limits(binding=256 << 10, segment=1 << 20):
        x = xp.asarray(a)
        g2 = np.asarray(x[xp.asarray(m2)].to_device("cpu"))
        g1 = np.asarray(x[xp.asarray(m1)].to_device("cpu"))
        g0 = np.asarray(x[xp.asarray(np.zeros(400, bool)), ...].to_device("cpu"))
    np.testing.assert_array_equal(g2, a[m2])
    np.testing.assert_array_equal(g1, a[m1])
    assert g0.shape == (0, 3000)


def test_cumulative_sum_beyond_one_binding(wgpu_xp, small_limits):
    xp = wgpu_xp
    a = np.random.default_rng(4).integers(-3, 4, (5, 200_000)).astype(np.int32)
    with small_limits(binding=256 << 10, segment=1 << 20):
        x = xp.asarray(a)
        c1 = np.asarray(xp.cumulative_sum(x, axis=1, include_initial=True).to_device("cpu"))
        c0 = np.asarray(xp.cumulative_sum(x, axis=0).to_device("cpu"))
    np.testing.assert_array_equal(c1[:, 1:], np.cumsum(a, axis=1))
    assert (c1[:, 0] == 0).all()
    np.testing.assert_array_equal(c0, np.cumsum(a, axis=0))
