"""numr_array_api.scipy.ndimage's filters against SciPy on NumPy, on every backend.

webgpu arrays run numr's stencil kernels (no host copy: the policy is "raise" throughout);
cpu arrays run SciPy on the payload. Every boundary mode, origins, ranks 1-3, every dtype
SciPy's C filters accept, views as input, output= as a dtype and as a device array (whose
own memory must change), errors and refusals.
"""

import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import numr_array_api as numr
from numr_array_api.errors import BackendLimitation

sn = pytest.importorskip("scipy.ndimage")
nn = pytest.importorskip("numr_array_api.scipy.ndimage")

MODES = ("reflect", "constant", "nearest", "mirror", "wrap", "grid-wrap", "grid-constant",
         "grid-mirror")
INTS = (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)
SHAPES = {1: (13,), 2: (7, 9), 3: (4, 5, 6)}


pytestmark = pytest.mark.usefixtures("no_host_copies")


def _host(a):
    return np.asarray(a.to_device("cpu")._data)


def _has(xp, dtype):
    return getattr(xp, np.dtype(dtype).name) in xp.__array_namespace_info__().dtypes().values()


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -50), min(info.max, 100), shape).astype(dtype)
    if np.dtype(dtype) == np.bool_:
        return rng.random(shape) < 0.5
    if np.dtype(dtype).kind == "c":
        return (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def _check(got, ref, exact=False):
    g = _host(got)
    assert g.dtype == ref.dtype, (g.dtype, ref.dtype)
    assert g.shape == ref.shape
    if exact or ref.dtype.kind in "biu":
        np.testing.assert_array_equal(g, ref)
    else:
        tol = 2e-6 if ref.dtype in (np.float32, np.complex64) else 1e-12
        scale = max(1.0, float(np.abs(ref).max())) if ref.size else 1.0
        np.testing.assert_allclose(g, ref, rtol=0, atol=tol * scale)


def _skip_missing(xp, *dtypes):
    for d in dtypes:
        if not _has(xp, d):
            pytest.skip(f"{np.dtype(d).name} not on this device")


# ---- correlate / convolve -------------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("rank", [1, 2, 3])
def test_correlate_and_convolve_every_mode_and_rank(xp, mode, rank):
    a = _data(SHAPES[rank], np.float64, rank)
    w = _data((3, 2, 3)[:rank], np.float64, 7) / 10
    origin = [-1, 0, 1][:rank]
    origin = [max(o, -(n // 2)) if n % 2 else min(o, 0) for o, n in zip(origin, w.shape)]
    x = xp.asarray(a)
    for f in ("correlate", "convolve"):
        got = getattr(nn, f)(x, w, mode=mode, cval=1.5, origin=origin)
        _check(got, getattr(sn, f)(a, w, mode=mode, cval=1.5, origin=origin))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("origin", [-2, 0, 1])
def test_correlate1d_convolve1d_modes_origins_and_long_weights(xp, mode, origin):
    a = _data((5, 6), np.float64)
    x = xp.asarray(a)
    for w in ([1.0, -2.0, 0.5, 3.0], np.linspace(-1, 1, 15)):   # 15 > both extents
        for f in ("correlate1d", "convolve1d"):
            for axis in (0, -1):
                got = getattr(nn, f)(x, w, axis=axis, mode=mode, cval=-2.0, origin=origin)
                _check(got, getattr(sn, f)(a, w, axis=axis, mode=mode, cval=-2.0,
                                           origin=origin))


@pytest.mark.parametrize("dtype", INTS + (np.float32, np.float64, np.bool_))
def test_correlate_every_input_dtype(xp, dtype):
    _skip_missing(xp, dtype)
    a = _data((6, 7), dtype)
    x = xp.asarray(a)
    w = np.array([[1, -2, 1], [0, 3, 1]])          # integer sums: exact in every dtype
    _check(nn.correlate(x, w), sn.correlate(a, w))
    _check(nn.correlate1d(x, [2, -1, 1], axis=0, mode="wrap"),
           sn.correlate1d(a, [2, -1, 1], axis=0, mode="wrap"))
    # fractional weights: integer outputs truncate as SciPy's C cast does
    w2 = np.array([0.3, 0.5, 0.25])
    _check(nn.correlate1d(x, w2, mode="nearest", output=np.float64),
           sn.correlate1d(a, w2, mode="nearest", output=np.float64))


@pytest.mark.parametrize("out_dtype", INTS + (np.float32, np.float64, np.bool_))
def test_output_dtype_casts_as_scipy(xp, out_dtype):
    _skip_missing(xp, out_dtype)
    a = np.arange(30, dtype=np.float64).reshape(5, 6) * 0.37 - 4.0
    x = xp.asarray(a)
    w = [0.5, 1.25, -0.75]
    got = nn.correlate1d(x, w, output=out_dtype)
    ref = sn.correlate1d(a, w, output=out_dtype)
    _check(got, ref)


def test_output_array_is_written_in_place(xp):
    a = _data((6, 8), np.float64)
    x = xp.asarray(a)
    w = np.array([[0.25, 0.5], [1.0, -1.0]])
    for dtype in (xp.float64, xp.float32, xp.int16):
        if dtype not in xp.__array_namespace_info__().dtypes().values():
            continue
        out = xp.zeros((6, 8), dtype=dtype)
        r = nn.correlate(x, w, output=out, mode="mirror")
        ref = sn.correlate(a, w, output=np.dtype(str(dtype).split(".")[-1]), mode="mirror")
        assert r is out
        _check(out, ref)
    # a strided view of a larger array as output: only its elements change
    big = xp.zeros((6, 16), dtype=xp.float64)
    nn.uniform_filter(x, 3, output=big[:, ::2])
    h = _host(big)
    _check(xp.asarray(h[:, ::2]), sn.uniform_filter(a, 3))
    assert (h[:, 1::2] == 0).all()


def test_output_aliasing_the_input(xp):
    a = _data((9, 10), np.float64)
    ref = sn.sobel(a, axis=0)
    x = xp.asarray(a.copy())
    r = nn.sobel(x, axis=0, output=x)
    _check(x, ref)
    assert r is x


def test_views_as_input(xp):
    a = _data((10, 12, 3), np.float32)
    x = xp.asarray(a)
    views = [(x[::2, ::-1, 1], a[::2, ::-1, 1]), (xp.permute_dims(x, (2, 0, 1)),
                                                    a.transpose(2, 0, 1))]
    for v, av in views:
        _check(nn.gaussian_filter(v, 1.3), sn.gaussian_filter(av, 1.3))
        _check(nn.correlate(v, np.ones((3,) * av.ndim)), sn.correlate(av, np.ones((3,) *
                                                                                  av.ndim)))
        _check(nn.median_filter(v, 3), sn.median_filter(av, 3))
    assert _host(x).tobytes() == a.tobytes()     # the input is never changed


def test_weights_as_device_array(xp):
    a = _data((7, 8), np.float64)
    w = np.array([[1.0, 0.0, -2.0], [0.5, 0.25, 3.0]])
    x, wd = xp.asarray(a), xp.asarray(w)
    _check(nn.correlate(x, wd, origin=(0, 1)), sn.correlate(a, w, origin=(0, 1)))
    _check(nn.convolve(x, wd, mode="wrap"), sn.convolve(a, w, mode="wrap"))
    _check(nn.convolve1d(x, xp.asarray(w[1]), axis=0), sn.convolve1d(a, w[1], axis=0))


def test_complex_correlations(xp):
    _skip_missing(xp, np.complex128)
    a = _data((6, 7), np.complex128)
    r = _data((6, 7), np.float64)
    wc = np.array([1 + 2j, -0.5j, 0.25])
    x, xr = xp.asarray(a), xp.asarray(r)
    _check(nn.correlate1d(x, [1.0, 2.0, -1.0], mode="constant", cval=1 - 1j),
           sn.correlate1d(a, [1.0, 2.0, -1.0], mode="constant", cval=1 - 1j))
    _check(nn.correlate1d(xr, wc), sn.correlate1d(r, wc))
    _check(nn.convolve1d(x, wc, axis=0), sn.convolve1d(a, wc, axis=0))
    w2 = np.outer(wc, [1, 1j])
    _check(nn.correlate(x, w2), sn.correlate(a, w2))
    _check(nn.convolve(x, w2, mode="nearest"), sn.convolve(a, w2, mode="nearest"))
    _check(nn.uniform_filter(x, 3), sn.uniform_filter(a, 3))
    _check(nn.gaussian_filter(x, 1.0), sn.gaussian_filter(a, 1.0))


def test_long_weights_and_views_take_the_stencil_kernel(xp):
    """Weights too long for a workgroup-memory tile (and strided inputs) run through the
    general stencil kernel; both paths give SciPy's result."""
    a = _data((130, 5), np.float64)
    w = np.linspace(-1, 1, 120)
    x = xp.asarray(a)
    for mode in ("reflect", "constant", "wrap"):
        _check(nn.correlate1d(x, w, axis=0, mode=mode), sn.correlate1d(a, w, axis=0,
                                                                       mode=mode))
        _check(nn.correlate1d(x[::2], w, axis=0, mode=mode),
               sn.correlate1d(a[::2], w, axis=0, mode=mode))
        _check(nn.maximum_filter1d(x[:, ::-1], 3, axis=1, mode=mode),
               sn.maximum_filter1d(a[:, ::-1], 3, axis=1, mode=mode))


@settings(max_examples=15, deadline=None)
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=3),
       taps=st.integers(1, 12), data=st.data())
def test_correlate1d_random_geometry(xp, shape, taps, data):
    axis = data.draw(st.integers(0, len(shape) - 1))
    origin = data.draw(st.integers(-(taps // 2), (taps - 1) // 2))
    mode = data.draw(st.sampled_from(MODES))
    a = _data(tuple(shape), np.float32, 3)
    w = np.linspace(-1.0, 2.0, taps)
    with numr.host_conversion("raise"):
        got = nn.correlate1d(xp.asarray(a), w, axis=axis, mode=mode, cval=0.5,
                             origin=origin)
    _check(got, sn.correlate1d(a, w, axis=axis, mode=mode, cval=0.5, origin=origin))


def test_float32_accumulation_for_adapters_without_f64(xp, monkeypatch):
    if not xp.__name__.endswith("webgpu"):
        pytest.skip("the webgpu compute type")
    from numr_array_api.backends.webgpu.scipy.ndimage import run
    monkeypatch.setattr(run, "compute_type", lambda src, dst, client: "f32")
    a = _data((20, 30), np.float32)
    x = xp.asarray(a)
    for got, ref in [(nn.gaussian_filter(x, 2.0), sn.gaussian_filter(a, 2.0)),
                     (nn.correlate(x, np.ones((2, 3)) / 3), sn.correlate(a, np.ones((2, 3)) / 3)),
                     (nn.uniform_filter(x, 4, mode="wrap"), sn.uniform_filter(a, 4, mode="wrap"))]:
        g = _host(got)
        assert g.dtype == ref.dtype
        np.testing.assert_allclose(g, ref, rtol=0, atol=1e-5 * np.abs(ref).max())
    u = _data((20, 30), np.uint8)
    g = _host(nn.uniform_filter(xp.asarray(u), 3))
    assert np.abs(g.astype(int) - sn.uniform_filter(u, 3)).max() <= 1


# ---- separable filters -----------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_uniform_filter(xp, dtype):
    _skip_missing(xp, dtype)
    a = _data((8, 9, 5), dtype)
    x = xp.asarray(a)
    _check(nn.uniform_filter(x, 3), sn.uniform_filter(a, 3))
    _check(nn.uniform_filter(x, (2, 4, 1), origin=(0, -1, 0), mode=("wrap", "mirror", "nearest")),
           sn.uniform_filter(a, (2, 4, 1), origin=(0, -1, 0),
                             mode=("wrap", "mirror", "nearest")))
    _check(nn.uniform_filter1d(x, 5, axis=1, mode="constant", cval=3),
           sn.uniform_filter1d(a, 5, axis=1, mode="constant", cval=3))
    _check(nn.uniform_filter(x, 3, axes=(0, 2)), sn.uniform_filter(a, 3, axes=(0, 2)))


def test_uniform_filter1d_integer_sums_are_exact(xp):
    a = np.repeat([0, 1, 0], [9, 9, 9])
    for size in range(3, 10):
        got = nn.uniform_filter1d(xp.asarray(a), size)
        assert int(_host(got).sum()) == 10 - size


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64])
def test_gaussian_filters(xp, dtype):
    _skip_missing(xp, dtype)
    a = _data((9, 11, 4), dtype)
    x = xp.asarray(a)
    _check(nn.gaussian_filter(x, 1.5), sn.gaussian_filter(a, 1.5))
    kw = dict(sigma=(1.0, 2.0, 0.7), order=(0, 1, 2), mode=("reflect", "wrap", "constant"),
              cval=2.0, truncate=3.0)
    _check(nn.gaussian_filter(x, **kw), sn.gaussian_filter(a, **kw))
    _check(nn.gaussian_filter(x, 1.2, radius=2, axes=(0, 1)),
           sn.gaussian_filter(a, 1.2, radius=2, axes=(0, 1)))
    for order in range(4):
        _check(nn.gaussian_filter1d(x, 1.7, axis=1, order=order, mode="mirror"),
               sn.gaussian_filter1d(a, 1.7, axis=1, order=order, mode="mirror"))
    _check(nn.gaussian_filter(x, 0.0), sn.gaussian_filter(a, 0.0))


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_derivative_filters(xp, dtype):
    _skip_missing(xp, dtype)
    a = _data((9, 10), dtype)
    x = xp.asarray(a)
    for f in ("prewitt", "sobel"):
        for axis in (0, 1):
            _check(getattr(nn, f)(x, axis=axis, mode=("reflect", "constant"), cval=1.0),
                   getattr(sn, f)(a, axis=axis, mode=("reflect", "constant"), cval=1.0))
    _check(nn.laplace(x, mode="nearest"), sn.laplace(a, mode="nearest"))
    _check(nn.gaussian_laplace(x, 1.1), sn.gaussian_laplace(a, 1.1))
    _check(nn.gaussian_gradient_magnitude(x, (1.0, 1.5)),
           sn.gaussian_gradient_magnitude(a, (1.0, 1.5)))


def test_generic_laplace_and_gradient_magnitude_with_numr_callables(xp):
    a = _data((8, 9), np.float64)
    x = xp.asarray(a)

    def d2(mod):
        return lambda inp, axis, output, mode, cval: mod.correlate1d(inp, [1, -2, 1], axis,
                                                                     output, mode, cval)

    def d1(mod):
        return lambda inp, axis, output, mode, cval: mod.sobel(inp, axis, output, mode, cval)

    _check(nn.generic_laplace(x, d2(nn)), sn.generic_laplace(a, d2(sn)))
    _check(nn.generic_gradient_magnitude(x, d1(nn), mode="wrap"),
           sn.generic_gradient_magnitude(a, d1(sn), mode="wrap"))


# ---- minimum / maximum / rank ----------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.uint8, np.int16, np.int64, np.float32, np.float64])
def test_minimum_maximum(xp, dtype):
    _skip_missing(xp, dtype)
    a = _data((8, 9, 5), dtype)
    x = xp.asarray(a)
    fp = np.array([[1, 0, 1], [0, 1, 1]], bool)
    for f in ("minimum_filter", "maximum_filter"):
        _check(getattr(nn, f)(x, 3), getattr(sn, f)(a, 3))
        _check(getattr(nn, f)(x, (2, 3, 1), mode=("wrap", "constant", "reflect"), cval=7),
               getattr(sn, f)(a, (2, 3, 1), mode=("wrap", "constant", "reflect"), cval=7))
        _check(getattr(nn, f)(x, footprint=fp, axes=(0, 2), origin=(0, -1), mode="mirror"),
               getattr(sn, f)(a, footprint=fp, axes=(0, 2), origin=(0, -1), mode="mirror"))
        _check(getattr(nn, f)(x, footprint=xp.asarray(fp[:, :2]), axes=(1, 2)),
               getattr(sn, f)(a, footprint=fp[:, :2], axes=(1, 2)))
    for f in ("minimum_filter1d", "maximum_filter1d"):
        _check(getattr(nn, f)(x, 4, axis=1, mode="constant", cval=-1, origin=1),
               getattr(sn, f)(a, 4, axis=1, mode="constant", cval=-1, origin=1))


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
def test_rank_filters(xp, dtype):
    _skip_missing(xp, dtype)
    a = _data((9, 10), dtype)
    x = xp.asarray(a)
    fp = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]], bool)
    _check(nn.median_filter(x, 3), sn.median_filter(a, 3))
    _check(nn.median_filter(x, footprint=fp, mode="wrap"),
           sn.median_filter(a, footprint=fp, mode="wrap"))
    _check(nn.rank_filter(x, -2, size=(2, 4), origin=(0, 1), mode="constant", cval=5),
           sn.rank_filter(a, -2, size=(2, 4), origin=(0, 1), mode="constant", cval=5))
    _check(nn.percentile_filter(x, 30, size=5, mode="mirror"),
           sn.percentile_filter(a, 30, size=5, mode="mirror"))
    _check(nn.percentile_filter(x, 100, footprint=fp), sn.percentile_filter(a, 100,
                                                                           footprint=fp))
    _check(nn.median_filter(x, 4, axes=1), sn.median_filter(a, 4, axes=1))
    a1 = _data((40,), dtype)
    _check(nn.median_filter(xp.asarray(a1), 7, mode="nearest"),
           sn.median_filter(a1, 7, mode="nearest"))


# ---- edges, errors and refusals --------------------------------------------------------------

def test_empty_and_single_element_arrays(xp):
    for shape in [(0,), (0, 5), (1,), (1, 1)]:
        a = np.ones(shape)
        x = xp.asarray(a)
        _check(nn.gaussian_filter(x, 1.0), sn.gaussian_filter(a, 1.0))
        _check(nn.median_filter(x, 3), sn.median_filter(a, 3))
        _check(nn.correlate1d(x, [1.0, 2.0, 3.0]), sn.correlate1d(a, [1.0, 2.0, 3.0]))


def test_errors_match_scipy(xp):
    x = xp.asarray(np.ones((4, 5)))
    with pytest.raises(ValueError):
        nn.correlate1d(x, [1, 2, 3], origin=2)
    with pytest.raises(RuntimeError):
        nn.correlate(x, np.ones((3, 3)), mode="bogus")
    with pytest.raises(RuntimeError):
        nn.correlate1d(x, [])
    with pytest.raises(RuntimeError):
        nn.uniform_filter1d(x, 0)
    with pytest.raises(ValueError):
        nn.maximum_filter(x, footprint=np.zeros((3, 3), bool))
    with pytest.raises(RuntimeError):
        nn.rank_filter(x, 9, size=3)
    with pytest.raises(RuntimeError):
        nn.correlate(x, np.ones((3, 3)), output=xp.zeros((4, 4)))
    with pytest.raises(ValueError):
        nn.uniform_filter(x, 3, axes=(0, 0))


def test_float16_is_refused_as_scipy_does(xp):
    x = xp.asarray(np.ones(5, np.float16))
    with pytest.raises(RuntimeError):
        nn.gaussian_filter(x, 1.0)


def test_what_webgpu_does_not_cover_raises_backend_limitation(xp):
    if not xp.__name__.endswith("webgpu"):
        pytest.skip("webgpu refusals")
    x = xp.asarray(np.ones((40, 40)))
    with pytest.raises(BackendLimitation, match="median_filter"):
        nn.median_filter(x, 33)                       # 1089 > 1024 footprint elements
    with pytest.raises(BackendLimitation, match="generic_filter"):
        nn.generic_filter(x, np.mean, 3)
    with pytest.raises(BackendLimitation, match="zoom"):
        nn.zoom(x, 2)


def test_implemented():
    assert nn.implemented("gaussian_filter", "webgpu")
    assert not nn.implemented("zoom", "webgpu")
    assert not nn.implemented("generic_filter", "webgpu")
    assert nn.implemented("zoom", "cpu") and nn.implemented("vectorized_filter", "cpu")
    assert not nn.implemented("no_such_function", "cpu")
    assert not nn.implemented("vectorized_filter", "cuda")   # SciPy's CUPY_BLOCKLIST
    assert set(nn.__all__) - {"implemented"} == set(sn.__all__)


@pytest.mark.slow
def test_big_filters_slow(xp):
    """4096 x 4096 float32: gaussian_filter sigma 4 and uniform_filter 5 (the sizes the GPU
    speed comparison with cupyx uses) equal SciPy's; prints the time of a warm call."""
    a = np.random.default_rng(0).random((4096, 4096), dtype=np.float32)
    x = xp.asarray(a)
    for name, args in (("gaussian_filter", (4.0,)), ("uniform_filter", (5,))):
        f = getattr(nn, name)
        f(x, *args).to_device("cpu")
        t = time.perf_counter()
        for _ in range(5):
            r = f(x, *args)
        r.to_device("cpu")
        print(f"{name} {xp.__name__}: {(time.perf_counter() - t) / 5 * 1e3:.2f} ms")
        _check(r, getattr(sn, name)(a, *args))


def test_parameters_as_device_arrays_and_output_dtype_spellings(xp):
    """Parameters given as numr arrays (SciPy's own tests pass ``origin=xp.asarray(...)``)
    are read explicitly, so the "raise" policy holds; output= takes every dtype spelling."""
    a = np.arange(48.0).reshape(6, 8) ** 1.1
    x = xp.asarray(a)
    _check(nn.median_filter(x, 3, origin=xp.asarray([0, 1])),
           sn.median_filter(a, 3, origin=[0, 1]))
    _check(nn.gaussian_filter(x, xp.asarray([1.0, 2.0])), sn.gaussian_filter(a, [1.0, 2.0]))
    w = np.ones((2, 3))
    for spelling, ref_dtype in ((xp.float32, np.float32), ("int16", np.int16),
                                (np.dtype("uint8"), np.uint8), (np.float64, np.float64)):
        _check(nn.correlate(x, w, output=spelling), sn.correlate(a, w, output=ref_dtype))
