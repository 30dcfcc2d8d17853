"""The CuPy departures corrected in backends/ndlike/cuda.py, against NumPy."""

import numpy as np
import pytest

from numr_array_api._core.errors import InvalidArgument

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_remainder_exact(cx, dtype):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(2000) * 10.0 ** rng.integers(-30, 30, 2000)).astype(dtype)
    b = (rng.standard_normal(2000) * 10.0 ** rng.integers(-30, 30, 2000)).astype(dtype)
    a[:8] = [0.0, -0.0, 5, -5, 5, -5, np.inf, 3]
    b[:8] = [-2, -2, np.inf, np.inf, -np.inf, -np.inf, 2, 0]
    with np.errstate(all="ignore"):
        ref = np.remainder(a, b)
    got = np.asarray(cx.remainder(cx.asarray(a), cx.asarray(b)).to_device("cpu"))
    np.testing.assert_array_equal(got, ref)
    assert np.array_equal(np.signbit(got), np.signbit(ref))
    with np.errstate(all="ignore"):
        ref_s = np.remainder(a, np.asarray(-3.0, dtype=dtype))
    got_s = np.asarray((cx.asarray(a) % -3.0).to_device("cpu"))
    np.testing.assert_array_equal(got_s, ref_s)
    x = cx.asarray(a)
    x %= 7.0
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.asarray(x.to_device("cpu")), np.remainder(a, 7.0))


def test_complex_log2_log10_of_zero(cx):
    z = cx.asarray(np.array([0j, 1 + 1j, -2 + 0j], dtype=np.complex128))
    for name in ("log2", "log10"):
        got = np.asarray(getattr(cx, name)(z).to_device("cpu"))
        with np.errstate(all="ignore"):
            ref = getattr(np, name)(np.array([0j, 1 + 1j, -2 + 0j]))
        np.testing.assert_allclose(got, ref, rtol=1e-14)
        assert got[0].real == -np.inf and got[0].imag == 0.0


def test_complex_linspace(cx):
    got = np.asarray(cx.linspace(0, 1 + 2j, 5, dtype=cx.complex64).to_device("cpu"))
    np.testing.assert_allclose(got, np.linspace(0, 1 + 2j, 5).astype(np.complex64))


def test_zero_d_negative_zero_round_trip(cx):
    h = np.asarray(cx.asarray(np.array(-0.0)).to_device("cpu"))
    assert h.shape == () and np.signbit(h)


def test_float_slice_bounds_rejected(cx):
    x = cx.zeros((3, 5))
    with pytest.raises(IndexError):
        x[slice(1.0, 2)]


def test_singular_inverse_raises(cx):
    with pytest.raises(InvalidArgument):
        cx.linalg.inv(cx.zeros((3, 3)))
    d = cx.linalg.det(cx.zeros((3, 3)))
    assert float(d) == 0.0
