"""The fft extension against NumPy's float64 FFT: relative L2 error within
1e-6 * log2(n) (complex64) and 1e-14 * log2(n) (complex128), for every function, every
plan method of the webgpu backend (workgroup-memory, Stockham passes, Bluestein), the
half-length real trick, padding / truncation, norms, axes, batches and strided views.

Long lengths (65537, 2^20 + 7, 2^22) run with NUMR_TEST_SLOW=1.
"""

import math
import os
import warnings

import numpy as np
import pytest

from _support import asxp, get_dtype, to_numpy

SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"
RTOL = {"complex64": 1e-6, "complex128": 1e-14}
REAL = {"complex64": "float32", "complex128": "float64"}
FUNCS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
NORMS = ("backward", "ortho", "forward")


def _rel(got, ref):
    den = np.linalg.norm(ref)
    return np.linalg.norm(got - ref) / (den if den else 1.0)


def _input(rng, shape, name, cd):
    """(host array in the input dtype, float64 / complex128 reference copy)."""
    if name in ("rfft", "ihfft"):
        a = rng.standard_normal(shape).astype(REAL[cd])
    else:
        a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(cd)
    return a, a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _check(xp, name, cd, shape, n=None, axis=-1, norm="backward", rng=None, view=None):
    get_dtype(xp, cd)
    rng = rng or np.random.default_rng(abs(hash((name, shape, n, axis))) % 2**32)
    a, ref_in = _input(rng, shape, name, cd)
    x = asxp(xp, a)
    if view is not None:
        x, ref_in = view(x), view(ref_in)
    got = to_numpy(getattr(xp.fft, name)(x, n=n, axis=axis, norm=norm))
    ref = getattr(np.fft, name)(ref_in, n=n, axis=axis, norm=norm)
    assert got.shape == ref.shape, (name, got.shape, ref.shape)
    want = "float" if name in ("irfft", "hfft") else "complex"
    assert got.dtype == np.dtype(REAL[cd] if want == "float" else cd), (name, got.dtype)
    length = n if n is not None else ref.shape[axis]
    if name in ("rfft", "ihfft") and n is None:
        length = ref_in.shape[axis]
    tol = RTOL[cd] * max(math.log2(max(length, 2)), 1.0)
    err = _rel(got, ref)
    assert err <= tol, f"{name} {cd} shape={shape} n={n} axis={axis} norm={norm}: " \
                       f"relative L2 error {err:.3g} > {tol:.3g}"


# ---- lengths ------------------------------------------------------------------------------
# complex128 repeats complex64's plans in the other precision (~16 s on lavapipe): with
# NUMR_TEST_SLOW=1
@pytest.mark.parametrize("cd", ["complex64", pytest.param("complex128", marks=pytest.mark.slow)])
def test_every_length_1_to_64(xp, cd):
    rng = np.random.default_rng(0)
    # CI: 1-9 (every small radix and prime), 12, 13, 16, 17 and the ends 31, 32, 33, 63, 64;
    # every length with NUMR_TEST_SLOW=1
    lengths = range(1, 65) if SLOW else (*range(1, 10), 12, 13, 16, 17, 31, 32, 33, 63, 64)
    for n in lengths:
        for name in FUNCS:
            if name in ("irfft", "hfft"):
                _check(xp, name, cd, (2, n // 2 + 1), n=n, rng=rng)
            else:
                _check(xp, name, cd, (2, n), rng=rng)


LENGTHS = [97, 128, 840, 1009, 2048, 2401, 3125, 4096, 6144, 8192, 2 * 1009, 3 * 4096 + 3]


@pytest.mark.parametrize("cd", ["complex64", "complex128"])
@pytest.mark.parametrize("n", LENGTHS)
def test_selected_lengths(xp, cd, n):
    # primes, 2^k (in and beyond workgroup memory), products of 3 / 5 / 7 (Stockham passes
    # with every radix), even lengths whose half is prime (the real trick over Bluestein)
    for name in FUNCS:
        if name in ("irfft", "hfft"):
            _check(xp, name, cd, (2, n // 2 + 1), n=n)
        else:
            _check(xp, name, cd, (2, n))


@pytest.mark.skipif(not SLOW, reason="NUMR_TEST_SLOW=1")
@pytest.mark.parametrize("n", [65537, (1 << 20) + 7, 1 << 22])
def test_long_lengths(xp, n):
    _check(xp, "fft", "complex64", (n,))
    _check(xp, "ifft", "complex64", (n,))
    _check(xp, "rfft", "complex64", (n,))
    _check(xp, "irfft", "complex64", (n // 2 + 1,), n=n)


@pytest.mark.skipif(not SLOW, reason="NUMR_TEST_SLOW=1")
def test_long_stockham_without_split(xp):
    _check(xp, "fft", "complex64", (2 * 7 ** 7,))   # no divisor in [sqrt(n), cap]


@pytest.mark.skipif(not SLOW, reason="NUMR_TEST_SLOW=1")
def test_long_complex128(xp):
    _check(xp, "fft", "complex128", (1 << 20,))
    _check(xp, "fft", "complex128", (65537,))


# ---- n, norms, axes, batches, views --------------------------------------------------------
@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("norm", NORMS)
def test_padding_truncation_and_norms(xp, name, norm):
    for n in (1, 2, 5, 8, 11, 16, 33):
        _check(xp, name, "complex64", (3, 12), n=n, norm=norm)
        _check(xp, name, "complex128", (3, 12), n=n, norm=norm)


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("axis", [0, 1, -1])
def test_axes_of_a_batch(xp, name, axis):
    for shape in [(6, 10, 12), (7, 9, 11), (4, 2, 3000), (2500, 3)]:
        _check(xp, name, "complex64", shape, axis=axis)
        _check(xp, name, "complex64", shape, axis=axis, n=9)


VIEWS = {
    "step": lambda a: a[::2, 1:, ::3],
    "flipped": lambda a: a[::-1, :, ::-2],
    "transposed": lambda a: _permute(a, (2, 0, 1)),
}


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("name", FUNCS)
def test_strided_views(xp, name, view):
    v = VIEWS[view]
    for axis in (0, 1, 2):
        _check(xp, name, "complex64", (6, 10, 12), axis=axis, view=v)
        _check(xp, name, "complex128", (6, 10, 12), axis=axis, n=7, view=v)


def _permute(a, axes):
    if isinstance(a, np.ndarray):
        return a.transpose(axes)
    return a.__array_namespace__().permute_dims(a, axes)


@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_nd(xp, name):
    rng = np.random.default_rng(3)
    for cd in ("complex64", "complex128"):
        get_dtype(xp, cd)
        shape = (5, 6, 8)
        if name == "rfftn":
            a = rng.standard_normal(shape).astype(REAL[cd])
        else:
            a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(cd)
        ref_in = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
        x = asxp(xp, a)
        for s, axes in [(None, None), ((5, 6, 8), (0, 1, 2)), ((4, 9), (2, 0)),
                        ((7,), (1,)), ((3, 10), (0, 1))]:
            for norm in NORMS:
                kw = {} if axes is None else {"s": s, "axes": axes}
                got = to_numpy(getattr(xp.fft, name)(x, norm=norm, **kw))
                ref = getattr(np.fft, name)(ref_in, norm=norm, **kw)
                tol = RTOL[cd] * math.log2(int(np.prod(shape)) * 4)
                assert got.shape == ref.shape
                assert _rel(got, ref) <= tol, (name, cd, s, axes, norm)


def test_empty_batches_and_empty_axis(xp):
    x = asxp(xp, np.zeros((0, 4), np.complex64))
    assert to_numpy(xp.fft.fft(x)).shape == (0, 4)
    assert to_numpy(xp.fft.rfft(asxp(xp, np.zeros((3, 0), np.float32)), n=4)).shape == (3, 3)
    got = to_numpy(xp.fft.fft(asxp(xp, np.zeros((2, 0), np.complex64)), n=5))
    np.testing.assert_array_equal(got, np.zeros((2, 5), np.complex64))


def test_irfft_ignores_imaginary_dc_and_nyquist(xp):
    a = np.array([1 + 1j, 2 - 1j, 3 + 5j], np.complex64)
    for n in (4, 5):
        for name in ("irfft", "hfft"):
            got = to_numpy(getattr(xp.fft, name)(asxp(xp, a), n=n))
            ref = getattr(np.fft, name)(a.astype(np.complex128), n=n)
            np.testing.assert_allclose(got, ref, rtol=1e-6, atol=1e-6)


# ---- frequencies and shifts ----------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 7, 8, 1000])
@pytest.mark.parametrize("d", [1.0, 0.3, 1e-3, 7])
def test_freqs_equal_numpy(xp, n, d):
    for dname in ("float32", "float64"):
        t = get_dtype(xp, dname)
        got = to_numpy(xp.fft.fftfreq(n, d=d, dtype=t))
        np.testing.assert_array_equal(got, np.fft.fftfreq(n, d).astype(dname))
        got = to_numpy(xp.fft.rfftfreq(n, d=d, dtype=t))
        np.testing.assert_array_equal(got, np.fft.rfftfreq(n, d).astype(dname))


def test_shifts_equal_numpy(xp):
    a = np.arange(2 * 5 * 6, dtype=np.float32).reshape(2, 5, 6)
    x = asxp(xp, a)
    for axes in (None, (0,), (1, 2), (2, 0, 1), ()):
        kw = {} if axes is None else {"axes": axes}
        np.testing.assert_array_equal(to_numpy(xp.fft.fftshift(x, **kw)),
                                      np.fft.fftshift(a, **kw))
        np.testing.assert_array_equal(to_numpy(xp.fft.ifftshift(x, **kw)),
                                      np.fft.ifftshift(a, **kw))


# ---- webgpu specifics -----------------------------------------------------------------------
def _every_fft_call(xp):
    c = xp.asarray(np.arange(12, dtype=np.complex64).reshape(3, 4))
    r = xp.asarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    yield from (xp.fft.fft(c), xp.fft.ifft(c, n=7), xp.fft.rfft(r), xp.fft.irfft(c),
                xp.fft.hfft(c, n=5), xp.fft.ihfft(r), xp.fft.fftn(c), xp.fft.ifftn(c),
                xp.fft.rfftn(r), xp.fft.irfftn(c), xp.fft.fftfreq(5),
                xp.fft.rfftfreq(6, dtype=xp.float32), xp.fft.fftshift(c),
                xp.fft.ifftshift(r, axes=(0,)), xp.fft.fft(c, n=13), xp.fft.fft(r))


def test_no_host_round_trip(wgpu_xp):
    from numr_array_api.webgpu import HostFallbackWarning
    with warnings.catch_warnings():
        warnings.simplefilter("error", HostFallbackWarning)
        for y in _every_fft_call(wgpu_xp):
            assert y.device == wgpu_xp.asarray([0]).device
    from numr_array_api.backends.webgpu.ops.host_fallback import FALLBACK_METHODS
    assert not [m for m in FALLBACK_METHODS if m.startswith("fft")]


def test_plan_methods(wgpu_xp):
    from numr_array_api.backends.webgpu.ops.fft.plan import factor, plan, shared_cap
    client = wgpu_xp.asarray([0])._data.client
    assert plan(client, 64, "complex64", False).method == "shared"
    assert plan(client, 1 << 13, "complex64", False).method == "fourstep"
    # length 1: one radix-1 Stockham pass (the workgroup-memory kernel has no stage for it)
    p1 = plan(client, 1, "complex64", False)
    assert (p1.method, p1.radices) == ("stockham", [1])
    # without a divisor split, plans take Stockham passes; those also serve rows the
    # four-step cannot express (zero padding, real pairs at odd offsets, Hermitian loads):
    # test_padded_long_rows_take_stockham_passes
    assert plan(client, 97, "complex64", False).method == "bluestein"
    m = plan(client, 97, "complex64", False).m
    assert m >= 193 and factor(m)[1] == 1  # 7-smooth, here 196 = 2^2 7^2
    # 2 7^7 has no divisor in [sqrt(n), cap]: the nested four-step (686 x 2401)
    p = plan(client, 2 * 7 ** 7, "complex64", False)
    cap = shared_cap(client, "complex64")
    assert p.method == "fourstep", p.method
    # the column step nests where its length passes the cap (lavapipe), else it is shared
    # (NVIDIA's larger workgroup memory holds 2401 points)
    assert p.p1.method == ("fourstep" if p.n1 > cap else "shared"), (p.n1, cap, p.p1.method)


def test_plans_follow_the_knobs(wgpu_xp):
    from numr_array_api import tuning
    from numr_array_api.backends.webgpu.ops.fft.plan import plan, shared_cap
    client = wgpu_xp.asarray([0])._data.client
    p = plan(client, 512, "complex64", False)
    with tuning.override(FFT_CAP=64):
        assert shared_cap(client, "complex64") == 64
        q = plan(client, 512, "complex64", False)
        assert q.method == "fourstep" and q is not p
    with tuning.override(FFT_EPT=16, FFT_WGT=64, FFT_PAD=0):
        q = plan(client, 512, "complex64", False)
        assert (q.ftpr, q.frpw, q.pad) == (32, 2, 0), (q.ftpr, q.frpw, q.pad)
    assert plan(client, 512, "complex64", False).ftpr == 64


# ---- the knobs (FFT_CAP lowers the workgroup-memory cap, so that the nested four-step,
# columns that are four-steps of their own, runs at small lengths) ----
NESTED = [(8, 4096), (8, 4802), (16, 512), (16, 1000), (16, 2160), (8, 97), (32, 3 * 4096)]


@pytest.mark.parametrize("cap,n", NESTED)
def test_nested_fourstep(wgpu_xp, cap, n):
    from numr_array_api import tuning
    from numr_array_api.backends.webgpu.ops.fft.plan import plan
    client = wgpu_xp.asarray([0])._data.client
    with tuning.override(FFT_CAP=cap):
        p = plan(client, n, "complex64", False)
        if p.method == "bluestein":
            p = p.fwd
        assert p.method == "fourstep" and p.p1.method == "fourstep", (n, p.method)
        for cd in ("complex64", "complex128"):
            _check(wgpu_xp, "fft", cd, (2, n))
            _check(wgpu_xp, "ifft", cd, (n,), norm="ortho")
            # batches along axis 0 (inner rows: the sub-columns fold into the inner index)
            _check(wgpu_xp, "fft", cd, (n, 3), axis=0)
            _check(wgpu_xp, "rfft", cd, (n, 2), axis=0)
            _check(wgpu_xp, "irfft", cd, (3, n // 2 + 1), n=n)
            # a strided view: element stride != inner * inner stride (Stockham passes)
            _check(wgpu_xp, "fft", cd, (n, 4), axis=0, view=lambda v: v[:, ::2])
            _check(wgpu_xp, "fft", cd, (2, 2 * n), view=lambda v: v[:, ::2])


# FFT_CAP (four-steps at small n), FFT_PAD (workgroup-memory padding), FFT_EPT / FFT_WGT
# (elements per thread, threads per workgroup) away from their defaults
KNOBS = [{"FFT_CAP": 16}, {"FFT_CAP": 16, "FFT_PAD": 0, "FFT_EPT": 16, "FFT_WGT": 64},
         {"FFT_CAP": 64, "FFT_PAD": 2, "FFT_EPT": 4, "FFT_WGT": 1024},
         {"FFT_PAD": 3}]


@pytest.mark.parametrize("knobs", KNOBS[:3])
def test_knobs_keep_results(wgpu_xp, knobs):
    from numr_array_api import tuning
    with tuning.override(**knobs):
        for n in (8, 16, 48, 512, 97, 2160):
            _check(wgpu_xp, "fft", "complex64", (5, n))
            _check(wgpu_xp, "ihfft", "complex64", (n, 3), axis=0)


@pytest.mark.slow
@pytest.mark.parametrize("knobs", KNOBS)
def test_knobs_keep_results_everywhere(wgpu_xp, knobs):
    from numr_array_api import tuning
    with tuning.override(**knobs):
        for n in (1, 2, 3, 8, 12, 16, 60, 97, 512, 1024, 2160, 4096):
            for cd in ("complex64", "complex128"):
                _check(wgpu_xp, "fft", cd, (5, n))
                _check(wgpu_xp, "ifft", cd, (n, 3), axis=0, norm="ortho")
                _check(wgpu_xp, "rfft", cd, (3, n))
                _check(wgpu_xp, "ihfft", cd, (n, 3), axis=0, norm="forward")
                _check(wgpu_xp, "irfft", cd, (3, n // 2 + 1), n=n)
            _check(wgpu_xp, "fft", "complex64", (n, 4), axis=0, view=lambda v: v[:, ::2])
            _check(wgpu_xp, "rfft", "complex64", (2, n + 3), n=n + 1)


def test_beyond_one_binding_is_refused(wgpu_xp, small_limits):
    from numr_array_api._core.errors import BackendLimitation
    a = np.ones(1 << 18, np.complex64)  # 2 MiB against a 1 MiB binding
    x = wgpu_xp.asarray(a)
    with small_limits():
        with pytest.raises(BackendLimitation, match="binding"):
            wgpu_xp.fft.fft(x)


@pytest.mark.parametrize("case", ["rows", "columns", "bluestein", "real"])
def test_rows_beyond_one_binding_run_in_slabs(wgpu_xp, small_limits, case):
    # a 1 MiB binding limit: each call below needs several slabs of rows
    rng = np.random.default_rng(5)
    xp = wgpu_xp
    if case == "rows":
        a = (rng.standard_normal((48, 4096)) + 1j * rng.standard_normal((48, 4096)))
        a = a.astype(np.complex64)
        with small_limits():
            got = to_numpy(xp.fft.fft(xp.asarray(a)))
        ref = np.fft.fft(a.astype(np.complex128))
    elif case == "columns":
        a = (rng.standard_normal((3, 512, 160)) + 1j * rng.standard_normal((3, 512, 160)))
        a = a.astype(np.complex64)
        with small_limits():
            got = to_numpy(xp.fft.ifft(xp.asarray(a), axis=1))
        ref = np.fft.ifft(a.astype(np.complex128), axis=1)
    elif case == "bluestein":
        a = (rng.standard_normal((80, 1009)) + 1j * rng.standard_normal((80, 1009)))
        a = a.astype(np.complex64)
        with small_limits():
            got = to_numpy(xp.fft.fft(xp.asarray(a)))
        ref = np.fft.fft(a.astype(np.complex128))
    else:
        a = rng.standard_normal((600, 700)).astype(np.float32)
        with small_limits():
            got = to_numpy(xp.fft.rfftn(xp.asarray(a)))
        ref = np.fft.rfftn(a.astype(np.float64))
    assert _rel(got, ref) <= 1e-6 * 20


def test_plans_replay_inside_a_captured_graph(wgpu_xp):
    import numr_array_api.backends.webgpu as W
    from numr_array_api._core import dtypes as dt
    from numr_array_api.backends.webgpu.ops.fft import real
    rng = np.random.default_rng(9)

    def fn(x):  # Bluestein, four-step and the real trick in one graph
        y = real.one_d("fft", x, 1009, 1, "ortho", dt.complex64)
        return real.one_d("irfft", y, 8192, 1, "backward", dt.float32)

    a0 = (rng.standard_normal((3, 1009)) + 1j * rng.standard_normal((3, 1009)))
    g = W.capture_graph(fn, W.from_numpy(a0.astype(np.complex64)))
    for _ in range(2):
        a = (rng.standard_normal((3, 1009)) + 1j * rng.standard_normal((3, 1009)))
        got = W.to_numpy(g(a.astype(np.complex64)))
        ref = np.fft.irfft(np.fft.fft(a, norm="ortho"), n=8192)
        assert _rel(got, ref) <= 1e-6 * 13


@pytest.mark.parametrize("name", ["rfft", "ihfft", "irfft", "hfft"])
def test_real_rows_at_odd_and_even_offsets(xp, name):
    # unit-stride even rows are read as complex pairs only at an even element offset;
    # odd offsets take the real-pair loads
    for cut in (slice(1, -1), slice(2, None), slice(None, -2)):
        for n in (None, 4100):
            _check(xp, name, "complex64", (3, 4098), n=n, view=lambda a: a[:, cut])


@pytest.mark.parametrize("cd", ["complex64", "complex128"])
def test_padded_long_rows_take_stockham_passes(xp, cd):
    # padding beyond the workgroup-memory cap: global Stockham passes, rows and columns
    _check(xp, "fft", cd, (2, 3000), n=4096)
    _check(xp, "ifft", cd, (3000, 3), n=3500, axis=0)
    _check(xp, "fft", cd, (2, 3001, 2), n=2401, axis=1)


def test_plan_cache_is_bounded(wgpu_xp, monkeypatch):
    from numr_array_api.backends.webgpu.ops.fft import plan as P
    client = wgpu_xp.asarray([0])._data.client
    monkeypatch.setattr(P, "_CACHE_BYTES", 1 << 16)
    for n in (4096, 3000, 2048, 1000):
        P.plan(client, n, "complex64", False)
    assert sum(P._nbytes(v) for v in client._fft_cache.values()) <= (1 << 16) + 4096 * 8
    x = (np.arange(3000) % 7).astype(np.complex64)  # evicted plans rebuild on demand
    _ = to_numpy(wgpu_xp.fft.fft(wgpu_xp.asarray(x)))
    np.testing.assert_allclose(_, np.fft.fft(x.astype(np.complex128)), rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("shape,axis", [((1000, 8), -1), ((37, 64), -1), ((33, 100, 3), 1),
                                        ((5, 7, 9), 0), ((300, 1000), -1)])
def test_many_short_rows_per_workgroup(xp, shape, axis):
    # short rows share a workgroup (rows-per-workgroup is not a divisor of the row count)
    for name in ("fft", "ifft", "rfft", "ihfft"):
        _check(xp, name, "complex64", shape, axis=axis)
        _check(xp, name, "complex128", shape, axis=axis)


def test_length_one_dims_with_negative_strides(xp):
    # x[::-1] of a length-1 axis keeps a negative stride that no element uses
    a = (np.arange(6) + 1j).astype(np.complex64).reshape(1, 6)
    x = asxp(xp, a)[::-1]
    np.testing.assert_allclose(to_numpy(xp.fft.ifftn(x, s=(3, 6), axes=(0, 1))),
                               np.fft.ifftn(a[::-1].astype(np.complex128), s=(3, 6)),
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(to_numpy(xp.fft.fft(x[:, ::-1], axis=0, n=2)),
                               np.fft.fft(a[::-1, ::-1].astype(np.complex128), axis=0, n=2),
                               rtol=1e-5, atol=1e-6)
