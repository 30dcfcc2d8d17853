"""The carried-key radix sort (primitives/radix_keys.py) and what runs on it: sort /
argsort of real dtypes, unique_*, and searchsorted's cached top levels, against NumPy and
against the position sort (primitives/radix.py, SORT_KEYS=False), bit for bit.

Sizes around the tile (2048 keys) reach the kernels directly (``sort_keys``): through the
namespace, rows that short sort in workgroup memory instead. Both in-tile rankings
(subgroup ballots, workgroup bitmasks) are forced through the SORT_RANK knob.
NUMR_TEST_SLOW=1 adds 2^20 + 3 keys per dtype and ranking.
"""

import os
import warnings

import numpy as np
import pytest

from numr_array_api import tuning
from numr_array_api.backends.webgpu.ops.host_fallback import HostFallbackWarning, HostReadWarning

from .test_sort_gpu import REAL, data, host, ref_argsort

SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"
TILE = 2048


@pytest.fixture
def wx(wgpu_xp):
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)
        warnings.simplefilter("ignore", HostReadWarning)
        yield wgpu_xp


def _sort_keys(wx, a, descending, rank=None):
    """(sorted values, positions) of the 1-D or 2-D host array ``a`` by sort_keys."""
    from numr_array_api.backends.webgpu.primitives.radix_keys import sort_keys
    st = wx.asarray(a)._data
    st = st.reshape((1, a.size)) if a.ndim == 1 else st
    with tuning.override(**({"SORT_RANK": rank} if rank else {})):
        v, p = sort_keys(st, descending, "both")
    return v.to_numpy(), p.to_numpy()


def _check(a, v, p, descending):
    """Positions equal to NumPy's stable sort (reversed as the cpu backend); values the
    elements at those positions, bit for bit (-0.0 / +0.0 order, NaN payloads)."""
    ref = ref_argsort(a, -1, descending)
    if a.ndim == 2:
        m = a.shape[1]
        np.testing.assert_array_equal(p.reshape(a.shape) // max(m, 1),
                                      np.arange(a.shape[0])[:, None] + 0 * ref)
        p = p.reshape(a.shape) % max(m, 1)
    np.testing.assert_array_equal(p.reshape(ref.shape), ref)
    e = np.take_along_axis(a, ref, -1).reshape(-1)
    assert np.array_equal(v.view(np.uint8), e.view(np.uint8))


@pytest.mark.parametrize("name", REAL)
def test_every_dtype_at_tile_edges(wx, name):
    rng = np.random.default_rng(len(name))
    for n in (0, 1, TILE - 1, TILE, TILE + 1):   # descending: the tests below
        a = data(rng, (n,), name, spread=40)
        v, p = _sort_keys(wx, a, False)
        _check(a, v, p, False)


@pytest.mark.parametrize("rank", ["subgroup", "workgroup"])
@pytest.mark.parametrize("name", ["float32", "float64", "int16"])
def test_both_rankings(wx, rank, name):
    from numr_array_api.backends.webgpu.primitives.radix_keys import rank_variant
    client = wx.asarray([0])._data.client
    with tuning.override(SORT_RANK=rank):
        if rank_variant(client) != rank:
            pytest.skip(f"the adapter has no {rank} ranking")
    rng = np.random.default_rng(7)
    for n, spread in ((TILE - 1, 3), (TILE + 1, 1000), (3 * TILE + 17, 50)):
        a = data(rng, (n,), name, spread=spread)
        for desc in (False, True):
            v, p = _sort_keys(wx, a, desc, rank)
            _check(a, v, p, desc)


@pytest.mark.parametrize("tile", [1024, pytest.param(4096, marks=pytest.mark.slow)])
def test_tile_sizes_and_prep_stride(wx, knobs, tile):
    """Every SORT_TILE choice; one prep workgroup striding over the whole input."""
    knobs(SORT_TILE=tile, SORT_PREP_GROUPS=1)
    rng = np.random.default_rng(tile)
    for n in (tile - 1, tile + 1, 3 * tile + 7):
        a = data(rng, (n,), "float32", spread=300)
        for desc in (False, True):
            v, p = _sort_keys(wx, a, desc)
            _check(a, v, p, desc)


@pytest.mark.parametrize("name", ["float32", "int32", "uint32"])
def test_passes_read_a_contiguous_source_directly(wx, name):
    """32-bit keys in row-major order: the prep writes no planes and the first pass that
    runs reads the source (``direct``); that pass may be any (low bytes all equal) or none
    (every key equal: the finish copies the source). Offsets, rows, unique's pair, and
    the source unchanged after."""
    rng = np.random.default_rng(21)
    n = 3 * TILE + 5
    base = data(rng, (n + 9,), name, spread=1 << 30)
    hi = (rng.integers(0, 200, n) << 24).astype(np.uint32).view(name)
    cases = [base, base[9:], np.full(n, base[0]), hi, np.repeat(base[:40], 200)]
    for a in cases:
        x = wx.asarray(a)
        view = x[9:] if a is base else x
        ref_a = a[9:] if a is base else a
        for desc in (False, True):
            ref = ref_argsort(ref_a, -1, desc)
            np.testing.assert_array_equal(host(wx.argsort(view, descending=desc)), ref)
            assert np.array_equal(host(wx.sort(view, descending=desc)).view(np.uint8),
                                  ref_a[ref].view(np.uint8))
        vals, counts = np.unique(ref_a, return_counts=True, equal_nan=False)
        uv, uc = wx.unique_counts(view)
        np.testing.assert_array_equal(host(uv), vals)
        np.testing.assert_array_equal(host(uc), counts)
        assert np.array_equal(host(x).view(np.uint8), a.view(np.uint8))   # untouched
    m = data(rng, (5, 2 * TILE + 3), name, spread=300)
    np.testing.assert_array_equal(host(wx.sort(wx.asarray(m), axis=1)), np.sort(m, axis=1))
    client = wx.asarray([0])._data.client
    from numr_array_api.backends.webgpu.primitives.radix_keys import direct_ok
    if direct_ok(wx.asarray(base)._data.reshape((1, base.size))):
        assert any(getattr(k, "direct", False) and k.stage == "prep" for k in client._kernels)


def test_orders_and_skipped_passes(wx):
    """Already sorted, reversed, all equal (every pass skipped), one distinct high byte
    (the low passes run, the high ones skip) and the type's extremes."""
    rng = np.random.default_rng(8)
    n = 3 * TILE + 1
    cases = [np.arange(n, dtype=np.int32), np.arange(n, dtype=np.int32)[::-1].copy(),
             np.full(n, 7, np.int64), np.full(n, np.nan, np.float32),
             (rng.integers(0, 256, n) << 40).astype(np.int64),
             rng.integers(0, 3, n).astype(np.uint32) * np.uint32(0x01000000),
             np.array([np.iinfo(np.int64).min, -1, 0, np.iinfo(np.int64).max] * 2000)]
    for i, a in enumerate(cases):
        for desc in (False, True):
            v, p = _sort_keys(wx, a, desc)
            _check(a, v, p, desc)
        # one result: written by the last pass that runs (the copy where none does)
        desc = i % 2 == 1
        x = wx.asarray(a)
        ref = ref_argsort(a, -1, desc)
        np.testing.assert_array_equal(host(wx.argsort(x, descending=desc)), ref)
        assert np.array_equal(host(wx.sort(x, descending=desc)).view(np.uint8),
                              a[ref].view(np.uint8))


def test_rows_and_strided_views(wx):
    rng = np.random.default_rng(9)
    a = data(rng, (5000, 3), "float32", spread=30)
    # the transposed view: three rows of 5000 keys, the row passes of the index
    v, p = _sort_keys(wx, np.ascontiguousarray(a.T), False)
    _check(np.ascontiguousarray(a.T), v, p, False)
    x = wx.asarray(a)
    for desc in (False, True):
        ref = ref_argsort(a, 0, desc)
        np.testing.assert_array_equal(host(wx.argsort(x, axis=0, descending=desc)), ref)
        e = np.take_along_axis(a, ref, 0)
        assert np.array_equal(host(wx.sort(x, axis=0, descending=desc)).view(np.uint8),
                              e.view(np.uint8))
    b = data(rng, (2 * 9001,), "int64", spread=30)
    y = wx.asarray(b)[::-2]
    np.testing.assert_array_equal(host(wx.argsort(y)), np.argsort(b[::-2], kind="stable"))
    np.testing.assert_array_equal(host(wx.sort(y, descending=True)), np.sort(b[::-2])[::-1])


@pytest.mark.parametrize("name", ["float32", "float64", "uint8"])
def test_namespace_matches_position_sort(wx, name):
    """sort / argsort through the namespace (rows past workgroup memory take this path)
    give the position sort's results bit for bit."""
    rng = np.random.default_rng(10)
    a = data(rng, (9000,), name, spread=60)
    x = wx.asarray(a)
    for desc in (False, True):
        new = host(wx.sort(x, descending=desc)), host(wx.argsort(x, descending=desc))
        with tuning.override(SORT_KEYS=False):
            old = host(wx.sort(x, descending=desc)), host(wx.argsort(x, descending=desc))
        assert np.array_equal(new[0].view(np.uint8), old[0].view(np.uint8))
        np.testing.assert_array_equal(new[1], old[1])
        np.testing.assert_array_equal(new[1], ref_argsort(a, -1, desc))


@pytest.mark.parametrize("name", ["float32", "int64", "int8", "float64"])
def test_unique_on_sorted_keys(wx, name):
    rng = np.random.default_rng(11)
    a = data(rng, (6000,), name, spread=300)
    x = wx.asarray(a)
    new = [host(t) for t in wx.unique_all(x)]
    with tuning.override(SORT_KEYS=False):
        old = [host(t) for t in wx.unique_all(x)]
    for g, r in zip(new, old):
        assert np.array_equal(g.view(np.uint8), r.view(np.uint8))
    vals, first, inv, counts = new
    ref = np.unique(a, equal_nan=False)
    np.testing.assert_array_equal(vals, ref)   # NaNs distinct, in original order
    np.testing.assert_array_equal(a[first].view(np.uint8), vals.view(np.uint8))
    np.testing.assert_array_equal(vals[inv.reshape(-1)][~np.isnan(a) if a.dtype.kind == "f"
                                                        else slice(None)],
                                  a[~np.isnan(a)] if a.dtype.kind == "f" else a)
    assert counts.sum() == a.size
    uv = host(wx.unique_values(x))
    assert np.array_equal(uv.view(np.uint8), vals.view(np.uint8))
    np.testing.assert_array_equal(host(wx.unique_counts(x)[1]), counts)


@pytest.mark.parametrize("cache, groups", [(256, 4096), (1024, 4096), (4096, 1024), (1024, 3)])
@pytest.mark.parametrize("name", ["float32", "int64", "uint16", "float64"])
def test_searchsorted_cached(wx, knobs, cache, groups, name):
    # (groups 3: every workgroup takes many needles by grid stride; 4096 samples of a
    # 64-bit key halve to fit workgroup memory)
    knobs(SEARCH_CACHE=cache, SEARCH_GROUPS=groups)
    rng = np.random.default_rng(12)
    for ns in (4 * cache - 1, 4 * cache, 5000):   # the plain search below 4 * cache
        s = np.sort(data(rng, (ns,), name, spread=500))
        v = data(rng, (3001,), name, spread=520)
        S, V = wx.asarray(s), wx.asarray(v)
        for side in ("left", "right"):
            np.testing.assert_array_equal(host(wx.searchsorted(S, V, side=side)),
                                          np.searchsorted(s, v, side=side))
    perm = rng.permutation(ns)
    sorter = np.argsort(s[perm], kind="stable")
    np.testing.assert_array_equal(
        host(wx.searchsorted(wx.asarray(s[perm]), V[::-3], sorter=wx.asarray(sorter))),
        np.searchsorted(s[perm], v[::-3], sorter=sorter))


@pytest.mark.slow
@pytest.mark.parametrize("rank", ["subgroup", "workgroup"])
@pytest.mark.parametrize("name", ["float32", "int64", "float64", "uint8"])
def test_long_rows(wx, rank, name):
    rng = np.random.default_rng(13)
    a = data(rng, ((1 << 20) + 3,), name, spread=1 << 20)
    for desc in (False, True):
        v, p = _sort_keys(wx, a, desc, rank)
        _check(a, v, p, desc)


def test_the_copy_where_no_pass_runs_strides_over_every_element(wx):
    """All keys equal: no pass runs and the fused finish copies the result, over more
    elements than its workgroups' threads (it launches at most 1024 workgroups and
    strides)."""
    n = 1024 * 256 * 3 + 77
    for a in (np.full(n, -2.5, np.float32), np.full(n, 9, np.int64)):
        x = wx.asarray(a)
        assert np.array_equal(host(wx.sort(x)), a)
        np.testing.assert_array_equal(host(wx.argsort(x)), np.arange(n))
