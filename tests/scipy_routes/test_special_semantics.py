"""numr_array_api.scipy.special's calling semantics on every backend: SciPy's result dtypes
(integers and bool -> float64, float32 kept, float16 as SciPy's loops give it, Python and
NumPy scalars), broadcasting of two and three arguments, strided / flipped / transposed
views, empty and 0-d arrays, inputs left unchanged, results on the arguments' namespace and
device, ``implemented``, and the errors (BackendLimitation naming the function or argument
on webgpu, DeviceMismatch for mixed namespaces). webgpu paths run under the "raise"
host-conversion policy."""

import numpy as np
import pytest

from numr_array_api.errors import BackendLimitation, DeviceMismatch, InvalidType

ss = pytest.importorskip("scipy.special")
special = pytest.importorskip("numr_array_api.scipy.special")
from numr_array_api.backends.webgpu.scipy.special import FUNCTIONS as WEBGPU  # noqa: E402


pytestmark = pytest.mark.usefixtures("no_host_copies")


def host(a):
    return np.asarray(a.to_device("cpu"))


def backend(xp):
    return xp.__name__.rsplit(".", 1)[-1]


def needs(xp, name):
    if not special.implemented(name, backend(xp)):
        pytest.skip(f"{name} has no {backend(xp)} implementation")
    if xp.float64 not in xp.__array_namespace_info__().dtypes().values():
        pytest.skip("no float64 on this device")


def close(got, ref):
    got = host(got)
    assert got.dtype == ref.dtype, (got.dtype, ref.dtype)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    tol = 2e-6 if ref.dtype == np.float32 else 1e-13
    np.testing.assert_allclose(got, ref, rtol=tol, atol=0, equal_nan=True)


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32", "int64", "uint8", "uint32", "bool",
                                   "float16", "float32", "float64"])
@pytest.mark.parametrize("name", ["erf", "ndtr", "gammaln", "i0", "entr", "expit", "psi"])
def test_result_dtype_is_scipys(xp, name, dtype):
    needs(xp, name)
    a = np.array([0, 1, 2, 3, 5], dtype=dtype)
    ref = getattr(ss, name)(a)
    got = getattr(special, name)(xp.asarray(a))
    assert got.__array_namespace__() is xp
    close(got, ref)


@pytest.mark.parametrize("other", [2, 2.5, True, np.float32(2.5), np.float64(2.5), np.int8(2)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_python_and_numpy_scalars(xp, dtype, other):
    needs(xp, "xlogy")
    y = np.array([0.5, 1.0, 3.0], dtype=dtype)
    ref = ss.xlogy(other, y)
    close(special.xlogy(other, xp.asarray(y)), ref)
    ref2 = ss.huber(other, y)
    close(special.huber(other, xp.asarray(y)), ref2)


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((5,), ()),
                                    ((1,), (0,)), ((2, 0), (1, 1))])
def test_two_argument_broadcasting(xp, shapes):
    needs(xp, "huber")
    rng = np.random.default_rng(3)
    a, b = (rng.uniform(0.1, 3, s) for s in shapes)
    close(special.huber(xp.asarray(a), xp.asarray(b)), ss.huber(a, b))
    close(special.xlog1py(xp.asarray(a), xp.asarray(b)), ss.xlog1py(a, b))


def test_three_argument_broadcasting(xp):
    needs(xp, "radian")
    d, m, s = np.arange(3.0).reshape(3, 1, 1), np.arange(4.0).reshape(1, 4, 1), np.arange(5.0)
    close(special.radian(xp.asarray(d), xp.asarray(m), xp.asarray(s)), ss.radian(d, m, s))
    close(special.radian(xp.asarray(d), 30, 1.5), ss.radian(d, 30, 1.5))


def test_strided_flipped_transposed_views(xp):
    needs(xp, "i0e")
    base = np.linspace(-20, 20, 7 * 9).reshape(7, 9)
    x = xp.asarray(base)
    for view, ref in ((x[::2, 1::3], base[::2, 1::3]), (x[::-1], base[::-1]), (x.T, base.T),
                      (x[3], base[3])):
        close(special.i0e(view), ss.i0e(ref))
        close(special.boxcox(xp.abs(view) + 0.5, view[..., :1] / 10),
              ss.boxcox(np.abs(ref) + 0.5, ref[..., :1] / 10))


def test_empty_and_zero_d(xp):
    needs(xp, "ndtri")
    close(special.ndtri(xp.asarray(np.zeros((0, 3)))), ss.ndtri(np.zeros((0, 3))))
    r = special.ndtri(xp.asarray(np.float32(0.25)))
    assert r.shape == ()
    close(r, np.asarray(ss.ndtri(np.float32(0.25))))


def test_inputs_unchanged(xp):
    needs(xp, "logit")
    a = np.array([0.2, 0.5, 0.9], dtype=np.float32)
    x = xp.asarray(a)
    special.logit(x)
    special.inv_boxcox(x, x)
    np.testing.assert_array_equal(host(x), a)


def test_cpu_runs_scipy_itself():
    cpu = pytest.importorskip("numr_array_api.cpu")
    a = np.linspace(-3, 3, 11)
    got = special.erfcx(cpu.asarray(a))
    assert got.__array_namespace__() is cpu
    np.testing.assert_array_equal(host(got), ss.erfcx(a))
    assert special.multigammaln(cpu.asarray(3.0), 2) == pytest.approx(ss.multigammaln(3.0, 2))


def test_without_numr_arrays_it_is_scipy():
    assert special.erf(0.5) == ss.erf(0.5)
    np.testing.assert_array_equal(special.sinc(np.arange(3.0)), np.sinc(np.arange(3.0)))


def test_implemented():
    assert set(special.__all__) - {"implemented"} == set(special.FUNCTIONS)
    assert len(special.FUNCTIONS) == 91
    for name in special.FUNCTIONS:
        assert special.implemented(name, "cpu")
        assert special.implemented(name, "webgpu") == (name in WEBGPU)
    assert not special.implemented("no_such_function", "cpu")
    assert not special.implemented("erf", "tpu")
    assert WEBGPU <= set(special.FUNCTIONS)


def _webgpu(xp):
    if backend(xp) != "webgpu":
        pytest.skip("webgpu's own kernels")
    return xp


def test_webgpu_refuses_what_it_has_no_kernel_for(xp):
    xp = _webgpu(xp)
    missing = sorted(set(special.FUNCTIONS) - WEBGPU)
    x = xp.asarray(np.array([0.5, 1.5]))
    for name in missing[:5]:
        with pytest.raises(BackendLimitation, match=name):
            getattr(special, name)(x, x, x) if name in ("bdtr",) else getattr(special, name)(x)
    with pytest.raises(BackendLimitation, match="where="):
        special.erf(x, where=x > 1)
    with pytest.raises(BackendLimitation, match="complex"):
        special.erf(xp.asarray(np.array([1 + 1j])))
    with pytest.raises(BackendLimitation, match="complex"):
        special.xlogy(1j, x)
    with pytest.raises(InvalidType):
        special.xlogy(np.ones(2), x)   # a host array: no silent upload


def test_mixed_namespaces_are_refused(xp):
    xp = _webgpu(xp)
    cpu = pytest.importorskip("numr_array_api.cpu")
    with pytest.raises(DeviceMismatch):
        special.kl_div(xp.asarray(np.ones(2)), cpu.asarray(np.ones(2)))


def test_webgpu_strided_view_of_a_two_d_array(xp):
    # a flipped, strided view of a 2-D array: the general (non-plan) launch of two dims
    xp = _webgpu(xp)
    base = np.linspace(0.01, 0.99, 64 * 33).reshape(64, 33)
    x = xp.asarray(base)
    close(special.ndtri(x[:, ::-2]), ss.ndtri(base[:, ::-2]))


def test_float32_kernels_are_pure_f32():
    # float32 runs at full rate on GPUs whose f64 rate is 1/32..1/64: no 64-bit type in any
    # float32 kernel (comments aside)
    import re

    from numr_array_api.backends.webgpu.scipy.special._launch import _spec
    wide = re.compile(r"\bf64\b|[0-9.]lf\b|\bi64\b|\bu64\b|[0-9]li\b|[0-9]lu\b")
    for name in sorted(WEBGPU):
        src = re.sub(r"//[^\n]*", "", "\n".join(_spec(name, "f32")))
        assert not wide.search(src), name
        assert wide.search("\n".join(_spec(name, "f64"))), name   # (the check can fail)


@pytest.mark.parametrize("out_dtype", ["float32", "float64"])
def test_out_is_written_in_place(xp, out_dtype):
    needs(xp, "xlogy")
    a = np.array([0.5, 1.5, 2.5], dtype=np.float32)
    b = np.linspace(0.1, 4, 12, dtype=np.float32).reshape(4, 3)
    ref_out = np.zeros((4, 3), dtype=out_dtype)
    r = ss.xlogy(a, b, out=ref_out)
    assert r is ref_out
    big = xp.zeros((4, 6), dtype=getattr(xp, out_dtype))
    view = big[:, ::2]   # a strided view of a larger array
    got = special.xlogy(xp.asarray(a), xp.asarray(b), out=view)
    if backend(xp) == "webgpu":
        assert got is view   # (cpu / cuda: SciPy's returned array, wrapped again)
    # computed in float32 (SciPy's loop for these inputs), then cast into out
    np.testing.assert_allclose(host(view), ref_out, rtol=2e-6)
    assert host(view).dtype == ref_out.dtype
    np.testing.assert_array_equal(host(big)[:, 1::2], 0)   # the rest untouched
    x = xp.asarray(b.copy())   # out aliasing an input (cpu: the copy shares its memory)
    special.ndtr(x, out=x)
    np.testing.assert_allclose(host(x), ss.ndtr(b), rtol=2e-6)


def test_out_is_checked(xp):
    needs(xp, "erf")
    if backend(xp) != "webgpu":
        pytest.skip("webgpu's own kernels")
    from numr_array_api.errors import DTypeMismatch, ShapeMismatch
    x = xp.asarray(np.ones((2, 3)))
    with pytest.raises(DTypeMismatch):
        special.erf(x, out=xp.zeros((2, 3), dtype=xp.int32))
    with pytest.raises(ShapeMismatch):
        special.erf(x, out=xp.zeros((3,)))
    with pytest.raises(BackendLimitation, match="out="):
        special.erf(x, out=np.zeros((2, 3)))
    assert special.erf(x, out=None, where=True, casting="same_kind").shape == (2, 3)


@pytest.mark.slow
def test_webgpu_arrays_past_one_storage_binding(xp):
    # 2^25 + 3 float32 elements: more than lavapipe's 128 MiB binding, so the N-ary launch
    # splits the call into boxes (kernels/nary.py), as for the namespace's own functions
    xp = _webgpu(xp)
    n = (1 << 25) + 3
    a = np.linspace(-9, 9, n, dtype=np.float32)
    got = host(special.ndtr(xp.asarray(a)))
    idx = np.r_[0:1000, n // 2 - 500:n // 2 + 500, n - 1000:n]
    np.testing.assert_allclose(got[idx], ss.ndtr(a[idx]), rtol=2e-6, atol=0)
