"""Range bounds and dtypes that SciPy passes (found by SciPy's own suites; NumPy
and array-api-strict accept them): 0-d arrays and NumPy scalars as linspace / arange bounds
(scipy.signal._logspace, stats.cramervonmises), integer dtypes in linspace (rounded down, as
NumPy), complex dtypes in arange (the real range, as NumPy)."""

import numpy as np
import pytest


def host(a):
    return np.asarray(a.to_device("cpu")) if hasattr(a, "to_device") else np.asarray(a)


@pytest.mark.parametrize("start,stop", [(0.0, 1.0), (-2.5, 7.0), (3, -4)])
def test_linspace_0d_array_bounds(xp, start, stop):
    for num in (0, 1, 5, 33):
        got = xp.linspace(xp.asarray(start), xp.asarray(stop), num)
        np.testing.assert_allclose(host(got), np.linspace(float(start), float(stop), num))
        got = xp.linspace(np.float64(start), stop, num)
        np.testing.assert_allclose(host(got), np.linspace(float(start), float(stop), num))


def test_arange_0d_array_and_numpy_scalar_bounds(xp):
    np.testing.assert_array_equal(host(xp.arange(xp.asarray(4))), np.arange(4))
    assert xp.arange(xp.asarray(4)).dtype == xp.asarray(1).dtype
    np.testing.assert_allclose(host(xp.arange(xp.asarray(3.5))), np.arange(3.5))
    np.testing.assert_allclose(host(xp.arange(np.int64(2), np.float64(5.5))), np.arange(2, 5.5))
    with pytest.raises(TypeError):
        xp.arange(xp.asarray([1, 2]))
    with pytest.raises(TypeError):
        xp.arange(True)


@pytest.mark.parametrize("dt", ["int8", "int16", "int32", "int64", "uint8", "uint32"])
@pytest.mark.parametrize("start,stop,num,endpoint",
                         [(0, 10, 4, True), (0, 100, 7, False), (3, 250, 9, True), (5, 5, 1, True)])
def test_linspace_integer_dtype_rounds_down(xp, dt, start, stop, num, endpoint):
    got = xp.linspace(start, stop, num, dtype=getattr(xp, dt), endpoint=endpoint)
    want = np.linspace(start, stop, num, dtype=dt, endpoint=endpoint)
    assert got.dtype == getattr(xp, dt)
    np.testing.assert_array_equal(host(got), want)


def test_linspace_negative_integer_points_round_down(xp):
    got = xp.linspace(-7, 4, 6, dtype=xp.int32)
    np.testing.assert_array_equal(host(got), np.linspace(-7, 4, 6, dtype=np.int32))


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_arange_complex_dtype(xp, dt):
    got = xp.arange(1, 6, 2, dtype=getattr(xp, dt))
    assert got.dtype == getattr(xp, dt)
    np.testing.assert_array_equal(host(got), np.arange(1, 6, 2, dtype=dt))


@pytest.mark.parametrize("v", [0, 1, 2, -3])
def test_asarray_python_int_to_bool(xp, v):
    got = xp.asarray(v, dtype=xp.bool)
    assert got.dtype == xp.bool and got.shape == ()
    assert bool(got) is bool(v)
    with pytest.raises(TypeError):
        xp.asarray(1.5, dtype=xp.bool)  # floats keep the promotion rules' refusal
