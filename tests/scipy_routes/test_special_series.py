"""numr_array_api.scipy.special's zeta family, gamma ratios, yn and lpmv: what
test_special_accuracy.py's table of ufunc cases cannot say. zeta with and without q (the
Riemann function has its own values below 1 and its own result dtype), multigammaln's host
integer d and its domain check (one flag read back, as SciPy raises), polygamma's mixed
dtypes, and float64 against mpmath where SciPy's own value is off (the slow part: one
shader per function). webgpu runs under the "raise" host-conversion policy."""

import numpy as np
import pytest

from numr_array_api.errors import BackendLimitation, InvalidArgument, InvalidType

from . import special_series_cases as SR
from .special_series_cases import cond_riemann
from .test_special_accuracy import (EDGES, assert_matches,  # noqa: F401
                                    backend, host)

ss = pytest.importorskip("scipy.special")
special = pytest.importorskip("numr_array_api.scipy.special")

pytestmark = pytest.mark.usefixtures("no_host_copies")


def needs(xp, name):
    if not special.implemented(name, backend(xp)):
        pytest.skip(f"{name} has no {backend(xp)} implementation")
    if xp.float64 not in xp.__array_namespace_info__().dtypes().values():
        pytest.skip("no float64 on this device")


def not_cuda(xp):
    if backend(xp) == "cuda":
        pytest.skip("cupyx.scipy.special's own dtypes, messages and accuracy")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_riemann_zeta_matches_scipy(xp, dtype):
    needs(xp, "zeta")
    not_cuda(xp)
    rng = np.random.default_rng(1)
    x = np.concatenate([EDGES, rng.uniform(-60, 60, 1000), 10.0 ** rng.uniform(-6, 2.3, 500),
                        1 + 10.0 ** rng.uniform(-8, 0, 200)]).astype(dtype)
    with np.errstate(all="ignore"):
        ref = np.asarray(ss.zeta(x))
    got = host(special.zeta(xp.asarray(x)))
    bound = 0 if backend(xp) == "cpu" else 8
    cond = cond_riemann if dtype == np.float64 else None   # (SciPy's reflection: ~|x| ulp)
    assert_matches(got, ref, dtype, bound, [x], "zeta", cond)
    assert host(special.zetac(xp.asarray(x[:3]))).dtype == dtype


def test_zeta_calling_forms(xp):
    needs(xp, "zeta")
    not_cuda(xp)
    x = np.array([0.5, 1.5, 2.0, 3.5])
    q = np.array([0.25, 1.0, 2.0, 7.5])
    a, b = xp.asarray(x), xp.asarray(q)
    np.testing.assert_array_equal(host(special.zeta(a)), host(special.zeta(a, None)))
    np.testing.assert_array_equal(host(special.zeta(a, q=None)), host(special.zeta(a)))
    with np.errstate(all="ignore"):
        # the two-argument form is Cephes' Hurwitz zeta (NaN below 1 even for q = 1), the
        # one-argument form Riemann's
        np.testing.assert_allclose(host(special.zeta(a, b)), ss.zeta(x, q), rtol=1e-14)
        np.testing.assert_allclose(host(special.zeta(a, q=b)), ss.zeta(x, q=q), rtol=1e-14)
        np.testing.assert_allclose(host(special.zeta(a, 1.0)), ss.zeta(x, 1.0), rtol=1e-14)
        np.testing.assert_allclose(host(special.zeta(a)), ss.zeta(x), rtol=1e-14)
    for dt in ("float16", "float32", "int32"):   # SciPy's loops: the two forms differ
        h = x.astype(dt)
        for args, ref in (((xp.asarray(h),), ss.zeta(h)), ((xp.asarray(h), 2.0), ss.zeta(h, 2.0))):
            assert host(special.zeta(*args)).dtype == np.asarray(ref).dtype, (dt, len(args))
    if backend(xp) == "webgpu":
        out = xp.zeros(4)
        assert special.zeta(a, b, out) is out
        np.testing.assert_allclose(host(out), ss.zeta(x, q), rtol=1e-14)
        with pytest.raises(InvalidType, match="multiple values"):
            special.zeta(a, b, q=b)


@pytest.mark.parametrize("d", [1, 3, 10])
def test_multigammaln_matches_scipy(xp, d):
    needs(xp, "multigammaln")
    rng = np.random.default_rng(d)
    a = 0.5 * (d - 1) + 10.0 ** rng.uniform(-6, 3, 200)
    # (cpu: SciPy sums float32 gammaln values for a float32 a)
    for dt, tol in ((np.float64, 1e-13), (np.float32, 1e-6 if backend(xp) == "cpu" else 1e-13)):
        ad = a.astype(dt)
        got = special.multigammaln(xp.asarray(ad), d)
        # (always float64, as SciPy's; float32 input: numr's float64 sum, where SciPy sums
        # float32 gammaln values)
        assert got.dtype == xp.float64
        ref = ss.multigammaln(ad.astype(np.float64), d)
        np.testing.assert_allclose(host(got), ref, rtol=tol, atol=1e-13)
    assert host(special.multigammaln(xp.asarray(np.array([np.nan, np.inf]) + d), d)).tolist()[1] \
        == np.inf


def test_multigammaln_checks_d_and_a(xp):
    needs(xp, "multigammaln")
    not_cuda(xp)
    a = xp.asarray(np.array([3.0, 4.0]))
    for d in (2.5, np.array([2, 3])):
        with pytest.raises(ValueError, match="positive integer"):
            special.multigammaln(a, d)
        with pytest.raises(ValueError):
            ss.multigammaln(np.array([3.0, 4.0]), d)   # (SciPy's own)
    with pytest.raises(ValueError, match="not met"):
        special.multigammaln(xp.asarray(np.array([3.0, 0.9])), 3)   # a <= (d - 1) / 2
    with pytest.raises(ValueError, match="not met"):
        ss.multigammaln(np.array([3.0, 0.9]), 3)
    with pytest.raises(TypeError):
        special.multigammaln(a, 3.0)   # (SciPy: range() of a float)
    if backend(xp) == "webgpu":
        for d in (0, -1):   # (SciPy returns a meaningless scalar)
            with pytest.raises(InvalidArgument):
                special.multigammaln(a, d)
        with pytest.raises(BackendLimitation, match="d as a device array"):
            special.multigammaln(a, xp.asarray(3))
        with pytest.raises(BackendLimitation, match="at most"):
            special.multigammaln(a + 1e6, 100001)
    np.testing.assert_allclose(host(special.multigammaln(a, np.int64(2))),
                               ss.multigammaln(np.array([3.0, 4.0]), 2), rtol=1e-14)


@pytest.mark.slow   # (psi, gamma and zeta in one shader: ~8 s of compiling on lavapipe)
def test_polygamma_mixed_dtypes(xp):
    needs(xp, "polygamma")
    not_cuda(xp)
    n = np.array([0, 0, 1, 2, 3])
    x = np.array([0.5, 7.25, 0.5, -1.5, 3.75], dtype=np.float32)
    ref = ss.polygamma(n, x)
    got = host(special.polygamma(xp.asarray(n), xp.asarray(x)))
    assert got.dtype == ref.dtype == np.float64
    # (n = 0 is SciPy's float32 psi there; numr's psi runs in the float64 result type)
    np.testing.assert_allclose(got[n == 0], ref[n == 0], rtol=1e-6)
    np.testing.assert_allclose(got[n > 0], ref[n > 0], rtol=1e-14)


# ---- float64 against mpmath --------------------------------------------------------------

mpmath = pytest.importorskip("mpmath")


def _ulp(got, ref):
    return np.abs(got - ref) / np.spacing(np.abs(ref))


# function -> (points, mpmath function, max ulp): where SciPy's float64 is off by more
# (zeta's reflection, its lgamma / exp formulas, expn's expansion past n = 50, spence)
_MP = {
    "zeta": ([(-219.8298710202675,), (-60.5,), (-0.0105,), (-5.3,)], mpmath.zeta, 4),
    "zetac": ([(-0.01051533779589766,), (-25.99475906759193,), (0.3,)],
              lambda x: mpmath.zeta(x) - 1, 4),
    "expn": ([(180, 90.0), (1308, 357.2730768138966), (60, 0.5), (9, 3.972090931864346)],
             lambda n, x: mpmath.expint(int(n), x), 4),
    "spence": ([(0.5,), (2.0526007952781615,), (1.9936995272602336,)],
               lambda x: mpmath.polylog(2, 1 - x), 3),
    "betaln": ([(-7.999509760677501, 2.992790191054197e-06), (180.0, 0.25),
                (198.6455446272957, 0.24668375113270843), (0.39697361430703537, 73.75144241062671)],
               lambda a, b: mpmath.log(abs(mpmath.beta(a, b))), 8),
    "poch": ([(800.0, 0.75), (976.7619035673434, -0.0002555077268178484),
              (-5.0373155868609665, -0.00034474574716231507),
              (794.4977468886741, -11.037924195795581)],
             mpmath.rf, 8),
    "binom": ([(800.0, 0.5), (937.158525174327, 23.453482501690516),
               (732.7670277427815, -0.0010181900503621795)], mpmath.binomial, 8),
    "polygamma": ([(19, 61.272081405660295), (1, -1.5), (3, 0.001)], mpmath.polygamma, 6),
}


_MP_COND = {"zetac": SR.cond_zetac, "betaln": SR.cond_betaln, "poch": SR.cond_poch,
            "binom": SR.cond_binom}


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:floating point number truncated")   # (SciPy's expn)
@pytest.mark.parametrize("name", sorted(_MP))
def test_float64_against_mpmath(xp, name):
    needs(xp, name)
    not_cuda(xp)
    points, f, bound = _MP[name]
    cols = [np.array(c, dtype=np.float64) for c in zip(*points)]
    with mpmath.workdps(60):
        ref = np.array([float(f(*[mpmath.mpf(float(v)) for v in p])) for p in points])
    if backend(xp) == "cpu":
        pytest.skip("SciPy itself: its errors are why these points are here")
    got = host(getattr(special, name)(*[xp.asarray(c) for c in cols]))
    # (in units of the problem's own condition: kappa of the log-gamma ratios, the
    # cancellation of zeta - 1; not SciPy's errors)
    cond = _MP_COND.get(name)
    err = _ulp(got, ref) / (1 if cond is None else cond(cols, ref))
    assert err.max() <= bound, (got, ref, err)


@pytest.mark.slow
def test_lpmv_against_mpmath(xp):
    # SciPy's own mpmath test points (x down to -0.99, non-integer degrees) at its tolerance
    needs(xp, "lpmv")
    not_cuda(xp)
    pts = [(m, v, x) for x in (-0.99, -0.557, 1e-6, 0.132, 1)
           for m, v in ((1, 1), (1, -1), (-1, 1), (-1, -2), (1, 1.7), (1, -1.7), (-1, 1.7),
                        (-1, -2.7), (1, 10), (1, 11), (3, 8), (5, 11), (-3, 8), (-5, 11),
                        (3, -8), (5, -11), (-3, -8), (-5, -11), (3, 8.3), (5, 11.3),
                        (-3, 8.3), (-5, 11.3), (3, -8.3), (5, -11.3), (-3, -8.3), (-5, -11.3))]

    def ref(m, v, x):
        if x == 1:   # (mpmath 0.17 got this wrong: SciPy's test fixes it)
            return 1.0 if m == 0 else 0.0
        return float(mpmath.legenp(v, m, x))

    m, v, x = (np.array(c, dtype=np.float64) for c in zip(*pts))
    want = np.array([ref(*p) for p in pts])
    got = host(special.lpmv(xp.asarray(m), xp.asarray(v), xp.asarray(x)))
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-14)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:floating point number truncated")
def test_yn_orders_past_a_c_int(xp):
    # SciPy truncates n to a C int: 2^31 and more wraps negative, and its recurrence then
    # runs until Y overflows (-inf); numr's stops at YN_MAX steps, NaN where Y has not
    needs(xp, "yn")
    not_cuda(xp)
    x = np.array([0.5, 3.0, 1e-5])
    for n in (3e9, 2.0 ** 31, np.inf):
        got = host(special.yn(xp.asarray(np.full(3, n)), xp.asarray(x)))
        with np.errstate(all="ignore"):
            np.testing.assert_array_equal(got, ss.yn(np.full(3, n), x))
    got = host(special.yn(xp.asarray(np.array([-3.0, -2.7, 3.0])), xp.asarray(np.full(3, 2.5))))
    np.testing.assert_allclose(got, ss.yn(np.array([-3.0, -2.7, 3.0]), 2.5), rtol=1e-13)
