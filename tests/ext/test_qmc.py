"""Sobol / Halton / Latin hypercube against SciPy and across namespaces."""

import os
import warnings

import numpy as np
import pytest
from scipy.stats import qmc

from numr_array_api._core.errors import DTypeMismatch, InvalidArgument
from numr_array_api.ext import random as R
from numr_array_api._algorithms.qmc import directions

from ext_testutil import to_numpy

from ext_testutil import NAMESPACES


def _scipy_sobol(d, n, skip=0, bits=32):
    eng = qmc.Sobol(d, scramble=False, bits=bits)
    if skip:  # scipy's fast_forward(0) on a fresh engine underflows
        eng.fast_forward(skip)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # balance warning for n not 2**m
        return eng.random(n)


def _scipy_halton(d, n, skip=0):
    eng = qmc.Halton(d, scramble=False)
    if skip:
        eng.fast_forward(skip)
    return eng.random(n)


def _max_degree_ok(d, bits):
    # SciPy mis-initialises its direction numbers when a polynomial degree exceeds bits
    poly, _ = directions._table()
    return all(int(p).bit_length() - 1 <= bits for p in poly[:d])


def test_shipped_table_equals_scipy_table():
    import scipy.stats

    src = os.path.join(os.path.dirname(scipy.stats.__file__), "_sobol_direction_numbers.npz")
    poly, vinit = directions._table()
    with np.load(src) as z:
        np.testing.assert_array_equal(poly, z["poly"])
        np.testing.assert_array_equal(vinit.astype(np.int64), z["vinit"])
    size = os.path.getsize(directions._TABLE)
    assert size < 1_000_000


@pytest.mark.parametrize("bits", [32, 30, 24, 18, 10, 4, 1])
def test_direction_numbers_equal_scipy(bits):
    d = 21201 if _max_degree_ok(21201, bits) else max(
        k for k in (1, 2, 3, 7, 20, 50, 200, 1000) if _max_degree_ok(k, bits))
    v = directions.direction_numbers(d, bits)
    eng = qmc.Sobol(d, scramble=False, bits=bits)
    np.testing.assert_array_equal(v.T.astype(np.uint64), eng._sv)


@pytest.mark.parametrize("d,n,skip,bits", [
    (1, 1, 0, 32), (2, 256, 0, 32), (5, 1000, 0, 32), (7, 333, 17, 32), (40, 1024, 1 << 20, 32),
    (3, 100, 5, 10), (2, 30, 0, 5), (300, 64, 3, 30), (1111, 16, 0, 32), (21201, 4, 1, 32),
])
def test_sobol_bit_exact_with_scipy(xp, d, n, skip, bits):
    ref = _scipy_sobol(d, n, skip, bits)
    got = R.sobol(n, d, skip=skip, bits=bits, dtype=xp.float64, xp=xp)
    assert tuple(got.shape) == (n, d) and got.dtype == xp.float64
    np.testing.assert_array_equal(to_numpy(got), ref)


def test_sobol_float32_truncates_and_stays_below_one(xp):
    # the last points of a 32-bit sequence have every high bit set
    skip = 2**32 - 512
    got = to_numpy(R.sobol(512, 4, skip=skip, dtype=xp.float32, xp=xp))
    # scipy's fast_forward to 2**32 - 512 takes seconds; the float64 path equals scipy
    # (tested above), so it serves as the reference here
    ref = to_numpy(R.sobol(512, 4, skip=skip, dtype=xp.float64, xp=xp))
    assert got.dtype == np.float32 and got.max() < 1.0
    expect = np.floor(ref * 2**24) / 2**24  # float64 value truncated to 24 bits
    np.testing.assert_array_equal(got.astype(np.float64), expect)
    # several blocks from index 0 (the first block reuses the kernel's point table)
    many = to_numpy(R.sobol(70000, 2, dtype=xp.float32, xp=xp)).astype(np.float64)
    np.testing.assert_array_equal(many, np.floor(_scipy_sobol(2, 70000) * 2**24) / 2**24)
    small = to_numpy(R.sobol(64, 3, bits=12, dtype=xp.float32, xp=xp))
    np.testing.assert_array_equal(small.astype(np.float64), _scipy_sobol(3, 64, 0, 12))


def test_sobol_scrambled_identical_across_namespaces_and_deterministic():
    outs = [to_numpy(R.sobol(256, 9, skip=3, scramble=True, seed=1234, dtype=xp.float64, xp=xp))
            for _, xp in NAMESPACES]
    for o in outs[1:]:
        np.testing.assert_array_equal(o, outs[0])
    again = to_numpy(R.sobol(256, 9, skip=3, scramble=True, seed=1234, dtype=np.float64,
                             xp=NAMESPACES[0][1]))
    np.testing.assert_array_equal(again, outs[0])
    other = to_numpy(R.sobol(256, 9, skip=3, scramble=True, seed=1235, dtype=np.float64,
                             xp=NAMESPACES[0][1]))
    assert not np.array_equal(other, outs[0])
    f32 = [to_numpy(R.sobol(64, 3, scramble=True, seed=7, dtype=xp.float32, xp=xp)) for _, xp in NAMESPACES]
    for o in f32[1:]:
        np.testing.assert_array_equal(o, f32[0])


def test_sobol_scrambled_keeps_net_property():
    # LMS + digital shift keeps (t, m, s)-net stratification: 2**m points, one per interval
    x = to_numpy(R.sobol(1024, 6, scramble=True, seed=5, dtype=np.float64, xp=NAMESPACES[0][1]))
    assert x.min() >= 0 and x.max() < 1
    for j in range(6):
        counts = np.bincount(np.floor(x[:, j] * 1024).astype(int), minlength=1024)
        assert np.all(counts == 1)
    ref = _scipy_sobol(6, 1024)
    assert not np.array_equal(x, ref)
    # mean of a smooth integrand is close to its integral (sanity, not a proof)
    assert abs(np.mean(np.prod(x, axis=1)) - 1 / 64) < 1e-3


@pytest.mark.parametrize("d,n,skip", [(1, 10, 0), (2, 1, 0), (5, 1000, 0), (7, 333, 17),
                                      (100, 500, 12345), (1000, 20, 3)])
def test_halton_bit_exact_with_scipy(xp, d, n, skip):
    ref = _scipy_halton(d, n, skip)
    got = R.halton(n, d, skip=skip, dtype=xp.float64, xp=xp)
    np.testing.assert_array_equal(to_numpy(got), ref)


def test_halton_float32_and_scrambled(xp):
    f32 = to_numpy(R.halton(300, 4, dtype=xp.float32, xp=xp))
    np.testing.assert_array_equal(f32, np.minimum(_scipy_halton(4, 300), 1 - 2.0**-24).astype(np.float32))
    s = to_numpy(R.halton(200, 6, skip=2, scramble=True, seed=11, dtype=xp.float64, xp=xp))
    s0 = to_numpy(R.halton(200, 6, skip=2, scramble=True, seed=11, dtype=np.float64, xp=NAMESPACES[0][1]))
    np.testing.assert_array_equal(s, s0)
    assert s.min() >= 0 and s.max() < 1
    # base 2 stays stratified: 128 points hit each dyadic interval of length 1/128 once
    s2 = to_numpy(R.halton(128, 1, scramble=True, seed=3, dtype=xp.float64, xp=xp))[:, 0]
    assert np.all(np.bincount(np.floor(s2 * 128).astype(int), minlength=128) == 1)


def test_latin_hypercube(xp):
    x = to_numpy(R.latin_hypercube(50, 4, seed=42, dtype=xp.float64, xp=xp))
    assert x.shape == (50, 4) and x.min() >= 0 and x.max() < 1
    for j in range(4):
        np.testing.assert_array_equal(np.sort(np.floor(x[:, j] * 50)), np.arange(50))
    y = to_numpy(R.latin_hypercube(50, 4, seed=42, dtype=np.float64, xp=NAMESPACES[0][1]))
    np.testing.assert_array_equal(x, y)
    assert not np.array_equal(x, to_numpy(R.latin_hypercube(50, 4, seed=43, dtype=xp.float64, xp=xp)))
    f = to_numpy(R.latin_hypercube(7, 2, seed=0, dtype=xp.float32, xp=xp))
    assert f.dtype == np.float32 and f.max() < 1


def test_lhs_documented_algorithm():
    rng = np.random.Generator(np.random.PCG64(9))
    perm = rng.permuted(np.tile(np.arange(20), (3, 1)), axis=1)
    u = rng.random((20, 3))
    np.testing.assert_array_equal(R.latin_hypercube(20, 3, seed=9, xp=NAMESPACES[0][1],
                                                    dtype=np.float64), (perm.T + u) / 20)


def test_default_namespace_and_dtype():
    import numr_array_api.cpu as cpu  # the cpu namespace is always there

    cpu.asarray([1.0])
    x = R.sobol(8, 2)
    assert x.__array_namespace__().__name__ == "numr_array_api.cpu"
    assert x.dtype == cpu.float64
    y = R.halton(4, 2, device="cpu")
    assert y.__array_namespace__().__name__ == "numr_array_api.cpu"


def test_default_dtype_is_namespace_default(xp):
    x = R.sobol(4, 2, xp=xp)
    assert x.dtype == xp.__array_namespace_info__().default_dtypes()["real floating"]


def test_errors_name_the_argument(xp):
    with pytest.raises(InvalidArgument, match="'d'"):
        R.sobol(4, 0, xp=xp)
    with pytest.raises(InvalidArgument, match="'d'"):
        R.sobol(4, 21202, xp=xp)
    with pytest.raises(InvalidArgument, match="'n'"):
        R.sobol(-1, 2, xp=xp)
    with pytest.raises(InvalidArgument, match="'bits'"):
        R.sobol(4, 2, bits=33, xp=xp)
    with pytest.raises(InvalidArgument, match="'bits'"):
        R.sobol(4, 2, bits=0, xp=xp)
    with pytest.raises(InvalidArgument, match="'n'"):
        R.sobol(5, 2, bits=2, xp=xp)
    with pytest.raises(InvalidArgument, match="'skip'"):
        R.sobol(4, 2, skip=-1, xp=xp)
    with pytest.raises(DTypeMismatch, match="'dtype'"):
        R.sobol(4, 2, dtype=xp.int32, xp=xp)
    with pytest.raises(DTypeMismatch, match="'dtype'"):
        R.halton(4, 2, dtype=xp.int64, xp=xp)
    with pytest.raises(DTypeMismatch, match="'dtype'"):
        R.latin_hypercube(4, 2, seed=0, dtype=xp.int64, xp=xp)
    with pytest.raises(InvalidArgument, match="'d'"):
        R.halton(4, 1001, xp=xp)
    with pytest.raises(InvalidArgument, match="'n'"):
        R.latin_hypercube(-2, 2, seed=0, xp=xp)
    with pytest.raises(InvalidArgument, match="'seed'"):
        R.latin_hypercube(2, 2, seed=-1, xp=xp)
    with pytest.raises(InvalidArgument, match="'seed'"):
        R.sobol(2, 2, scramble=True, seed="x", xp=xp)
    with pytest.raises(InvalidArgument, match="'n'"):
        R.sobol(2.5, 2, xp=xp)
    with pytest.raises(InvalidArgument, match="'device'"):
        R.sobol(2, 2, device=object())


def test_empty(xp):
    for f in (lambda: R.sobol(0, 3, xp=xp), lambda: R.halton(0, 3, xp=xp),
              lambda: R.latin_hypercube(0, 3, seed=0, xp=xp)):
        assert tuple(f().shape) == (0, 3)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("skip,n", [(0, 1000), (5, 1000), (1023, 77), (3 << 20, 300)])
def test_sobol_numpy_kernel_block_boundaries(monkeypatch, dtype, skip, n):
    # tiny blocks: many aligned blocks, partial first / last blocks, scrambled and not
    import array_api_strict as xs
    from numr_array_api._algorithms.qmc import sobol as S

    monkeypatch.setattr(S, "_CHUNK_BYTES", 64)
    v = directions.direction_numbers(3, 32)
    sv, shift = directions.scramble(v, 32, np.random.Generator(np.random.PCG64(0)))
    xdt = xs.float64 if dtype == np.float64 else xs.float32
    for vv, sh in ((v, None), (sv, shift)):
        got = S.sobol_numpy(n, skip, vv, sh, bits=32, dtype=dtype)
        ref = np.asarray(S.sobol_portable(xs, n, skip, vv, sh, bits=32, dtype=xdt, device=None))
        np.testing.assert_array_equal(got, ref)
