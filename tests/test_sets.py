"""unique_* (NaNs are distinct) and isin."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from _support import assert_equal, get_dtype, np_arrays, shapes, to_numpy


def _index_dtype(xp):
    return xp.__array_namespace_info__().default_dtypes()["indexing"].name


def _check_unique_all(xp, a):
    x = xp.asarray(a)
    r = xp.unique_all(x)
    vals = to_numpy(r.values)
    assert r.values.dtype == x.dtype
    flat = a.reshape(-1)
    finite = flat[~np.isnan(flat)] if flat.dtype.kind in "fc" else flat
    nnan = int(np.isnan(flat).sum()) if flat.dtype.kind in "fc" else 0
    exp_vals = np.unique(finite)
    # every NaN is its own unique value
    assert vals.shape == (exp_vals.size + nnan,)
    non_nan = vals[~np.isnan(vals)] if vals.dtype.kind in "fc" else vals
    np.testing.assert_array_equal(np.sort(non_nan), exp_vals)
    idt = _index_dtype(xp)
    for arr in (r.indices, r.inverse_indices, r.counts):
        assert arr.dtype.name == idt
    idx, inv, cnt = to_numpy(r.indices), to_numpy(r.inverse_indices), to_numpy(r.counts)
    assert inv.shape == a.shape  # inverse_indices has the shape of x (2023.12+)
    # values[inverse] reconstructs x (NaNs map to NaNs)
    np.testing.assert_array_equal(vals[inv.reshape(-1)], flat)
    # x[indices] are the values (first occurrences)
    np.testing.assert_array_equal(flat[idx], vals)
    for v, c in zip(vals, cnt):
        if v != v:
            assert c == 1
        else:
            assert c == np.sum(flat == v)
    assert cnt.sum() == flat.size


@given(data=st.data())
def test_unique_all(xp, data):
    name = data.draw(st.sampled_from(["float64", "int32", "uint8", "float32"]))
    get_dtype(xp, name)
    a = data.draw(np_arrays(name, shapes(), min_value=0, max_value=4))
    _check_unique_all(xp, a)


def test_unique_nans_are_distinct(xp):
    a = np.asarray([[np.nan, 1.0, np.nan], [1.0, 2.0, np.nan]])
    _check_unique_all(xp, a)
    x = xp.asarray(a)
    assert xp.unique_values(x).shape == (5,)
    v, c = xp.unique_counts(x)
    assert v.shape == (5,) and int(xp.sum(c)) == 6
    v, inv = xp.unique_inverse(x)
    assert v.shape == (5,) and inv.shape == (2, 3)
    np.testing.assert_array_equal(to_numpy(v)[to_numpy(inv)], a)


@given(data=st.data())
def test_unique_counts_inverse_values(xp, data):
    name = data.draw(st.sampled_from(["float64", "int16", "bool"]))
    a = data.draw(np_arrays(name, shapes(), **({} if name == "bool" else
                                               dict(min_value=-3, max_value=3))))
    x = xp.asarray(a)
    ref_v, ref_inv, ref_c = np.unique(a, return_inverse=True, return_counts=True)
    vals = to_numpy(xp.unique_values(x))
    np.testing.assert_array_equal(np.sort(vals), ref_v)
    v, c = xp.unique_counts(x)
    order = np.argsort(to_numpy(v))
    np.testing.assert_array_equal(to_numpy(v)[order], ref_v)
    np.testing.assert_array_equal(to_numpy(c)[order], ref_c)
    v, inv = xp.unique_inverse(x)
    assert inv.shape == a.shape
    np.testing.assert_array_equal(to_numpy(v)[to_numpy(inv)], a)


@given(data=st.data())
def test_isin(xp, data):
    name = data.draw(st.sampled_from(["int32", "float64", "uint8"]))
    a = data.draw(np_arrays(name, shapes(), min_value=0, max_value=6))
    b = data.draw(np_arrays(name, shapes(max_dims=2), min_value=0, max_value=6))
    invert = data.draw(st.booleans())
    out = xp.isin(xp.asarray(a), xp.asarray(b), invert=invert)
    assert_equal(out, np.isin(a, b, invert=invert), dtype="bool")


@pytest.mark.strict_semantics
def test_isin_scalars_and_nan(xp):
    x = xp.asarray([1.0, float("nan"), 3.0])
    assert_equal(xp.isin(x, 3.0), np.asarray([False, False, True]))
    assert_equal(xp.isin(x, xp.asarray([float("nan")])), np.asarray([False, False, False]))
    with pytest.raises(TypeError):
        xp.isin(x, xp.asarray([1], dtype=xp.int8))
