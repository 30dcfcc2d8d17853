"""numr_array_api.scipy.special's inverse distribution functions and the F distribution on
every backend: SciPy's special values (including its quirks), float64 against mpmath where
SciPy's own value is off (Cephes' incbi, Boost's ibeta_inv and the incomplete gamma's
rounding), the round trip through the forward functions in the tails, and the float32
incomplete-beta inverse against SciPy in CI (test_special_accuracy.py runs all of them,
both dtypes, under NUMR_TEST_SLOW=1). webgpu runs under the "raise" host-conversion
policy."""

import warnings

import numpy as np
import pytest

from numr_array_api.errors import BackendLimitation

from .test_special_accuracy import (CASES, assert_matches, backend,  # noqa: F401
                                    host, inputs, reference)

ss = pytest.importorskip("scipy.special")
special = pytest.importorskip("numr_array_api.scipy.special")

pytestmark = pytest.mark.usefixtures("no_host_copies")


def needs(xp, name, f64=True):
    if not special.implemented(name, backend(xp)):
        pytest.skip(f"{name} has no {backend(xp)} implementation")
    if f64 and xp.float64 not in xp.__array_namespace_info__().dtypes().values():
        pytest.skip("no float64 on this device")


def call(xp, name, *cols, dtype=np.float64):
    return host(getattr(special, name)(*[xp.asarray(np.asarray(c, dtype)) for c in cols]))


def scipy(name, *cols):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return getattr(ss, name)(*[np.asarray(c, np.float64) for c in cols])


def test_betaincinv_float32(xp):
    # the incomplete beta's inverse in CI: float32, fewer random points (every function
    # and dtype runs in test_special_accuracy.py under NUMR_TEST_SLOW=1)
    needs(xp, "betaincinv", f64=False)
    args = inputs("betaincinv", np.float32, n=200)
    ref = reference("betaincinv", args, own_loop=backend(xp) == "cpu")
    got = host(special.betaincinv(*[xp.asarray(a) for a in args]))
    bound = 0 if backend(xp) == "cpu" else CASES["betaincinv"][1]
    assert_matches(got, ref, np.float32, bound, args, "betaincinv", CASES["betaincinv"][3])


@pytest.mark.parametrize("name", ["gammaincinv", "gammainccinv"])
def test_incomplete_gamma_inverse_special_values(xp, name):
    needs(xp, name)
    a = np.array([0.5, 2.0, 0.0, -0.0, np.inf, 0.0, 2.0, 2.0, 2.0, -1.0, np.nan, 2.0])
    p = np.array([0.0, 1.0, 0.5, 0.5, 0.5, 1e-6, -0.5, 1.5, np.nan, 0.5, 0.5, 0.25])
    got = call(xp, name, a, p)
    ref = scipy(name, a, p)
    ok = (p >= 0) & (p <= 1) | np.isnan(p)   # (outside: SciPy's domain-error fall-through)
    np.testing.assert_array_equal(np.isnan(got[ok]), np.isnan(ref[ok]))
    fin = ok & np.isfinite(ref)
    np.testing.assert_allclose(got[fin], ref[fin], rtol=1e-13)
    assert np.all(np.isnan(got[~ok]))


@pytest.mark.slow
def test_student_t_and_binomial_quirks(xp):
    # SciPy's values kept: stdtrit gives +inf at p = 0 and p = 1; bdtri(0, n, 1) is -0.0
    needs(xp, "stdtrit")
    got = call(xp, "stdtrit", [3.0, 3.0, 3.0, 1.0, 2.0], [0.0, 1.0, 0.5, 0.25, 1e-300])
    np.testing.assert_array_equal(got[:3], [np.inf, np.inf, 0.0])
    np.testing.assert_allclose(got[3:], [-1.0, -1 / np.sqrt(2e-300)], rtol=1e-15)
    b = call(xp, "bdtri", [0.0, 0.0, 1.0], [5.0, 5.0, 5.0], [1.0, 0.0, 1.0])
    assert b[0] == 0 and np.signbit(b[0]) and b[1] == 1 and b[2] == 0 and not np.signbit(b[2])


def _root(f, x0):
    import mpmath as mp
    lo, hi = mp.mpf(x0) * (1 - mp.mpf(2) ** -40), mp.mpf(x0) * (1 + mp.mpf(2) ** -40)
    return float(mp.findroot(f, (lo, hi), solver="anderson", tol=mp.mpf(10) ** -45))


# points where SciPy's float64 value is off by 80 to 10^8 ulp (or NaN / 2^-56 from Boost's
# ibeta_inv, a missed root from Cephes' incbi), with mpmath's equation for the root
def _cases():
    import mpmath as mp
    P = lambda a, x: mp.gammainc(a, 0, x, regularized=True)
    Q = lambda a, x: mp.gammainc(a, x, mp.inf, regularized=True)
    I = lambda a, b, x: mp.betainc(a, b, 0, x, regularized=True)
    return [
        ("gammainccinv", (0.5070792372716468, 0.30002512796232095),
         lambda a, q: (lambda x: Q(a, x) - q)),
        ("gammainccinv", (0.5, 0.25), lambda a, q: (lambda x: Q(a, x) - q)),
        ("gammaincinv", (0.6820277109434255, 0.8211837514704463),
         lambda a, p: (lambda x: P(a, x) - p)),
        ("chdtri", (1.0099616923518964, 0.19448975026111215),
         lambda v, q: (lambda x: Q(v / 2, x / 2) - q)),
        ("pdtri", (695.0, 1.2846833966381196e-23),
         lambda k, y: (lambda m: mp.log(Q(k + 1, m)) - mp.log(y))),
        ("betaincinv", (435.9095603957708, 5.083407003101572, 1.3041221470351034e-223),
         lambda a, b, p: (lambda x: mp.log(I(a, b, x)) - mp.log(p))),
        ("betaincinv", (147.15803453747202, 261.760405454327, 0.9999999999911763),
         lambda a, b, p: (lambda x: 1 - I(a, b, x) - (1 - mp.mpf(p)))),
        ("betaincinv", (1.383039, 0.19298293, 1.307291e-24),
         lambda a, b, p: (lambda x: mp.log(I(a, b, x)) - mp.log(p))),
        ("betaincinv", (1.0177836983864472, 0.867674281380432, 4.762956684043858e-19),
         lambda a, b, p: (lambda x: mp.log(I(a, b, x)) - mp.log(p))),
        ("nbdtri", (100.0, 270.0, 1e-300),
         lambda k, n, y: (lambda p: mp.log(I(n, k + 1, p)) - mp.log(y))),
        ("nbdtri", (632.0, 1.0, 0.9999995),
         lambda k, n, y: (lambda p: (1 - I(n, k + 1, p)) - (1 - mp.mpf(y)))),
        ("bdtri", (1.0, 28.0, 0.9999999999999989),
         lambda k, n, y: (lambda p: I(k + 1, n - k, p) - (1 - mp.mpf(y)))),
        ("stdtrit", (2.9976933062084434, 0.20064485534598153),
         lambda v, p: (lambda t: I(v / 2, mp.mpf(1) / 2, v / (v + t * t)) / 2 - p)),
    ]


@pytest.mark.slow
def test_float64_against_mpmath(xp):
    mp = pytest.importorskip("mpmath")
    mp.mp.dps = 50
    if backend(xp) == "cpu":
        pytest.skip("SciPy itself: these are the points where it is off")
    for name, args, equation in _cases():
        needs(xp, name)
        got = call(xp, name, *[[v] for v in args])[0]
        root = _root(equation(*[mp.mpf(v) for v in args]), got)
        err = abs(got - root) / np.spacing(abs(root))
        # (the forward function's exponent carries ~|log p| ulp; SciPy's: 80 to 10^8 ulp)
        t = min(args[-1], 1 - args[-1])
        assert err <= 8 + abs(np.log(t)), (name, args, got, root, err)


@pytest.mark.slow
@pytest.mark.parametrize("name, forward, complement", [
    ("bdtri", "bdtr", "bdtrc"), ("nbdtri", "nbdtr", "nbdtrc"), ("pdtri", "pdtr", "pdtrc"),
    ("gammainccinv", "gammaincc", "gammainc")])
def test_round_trip_in_the_tails(xp, name, forward, complement):
    # y from 1e-300 to 1 - 1e-15 (where SciPy's Cephes inverses miss the root): numr's
    # result put through SciPy's forward function gives y back to the forward function's
    # own accuracy times the condition number
    needs(xp, name)
    if backend(xp) == "cpu":
        pytest.skip("SciPy itself: its Cephes inverses miss these roots")
    rng = np.random.default_rng(5)
    n = 400
    k = np.floor(10 ** rng.uniform(0, 2.5, n))
    y = np.concatenate([10 ** rng.uniform(-300, -1, n // 2), 1 - 10 ** rng.uniform(-15, -1,
                                                                                  n // 2)])
    cols = {"bdtri": (k, k + np.floor(10 ** rng.uniform(0, 3, n)) + 1, y),
            "nbdtri": (k, np.floor(10 ** rng.uniform(0, 3, n)) + 1, y),
            "pdtri": (k, y), "gammainccinv": (k + 0.5, y)}[name]
    got = call(xp, name, *cols)
    back = scipy(forward, *cols[:-1], got)
    back_c = scipy(complement, *cols[:-1], got)
    assert np.all(np.isfinite(got))
    # (a probability above 1/2 carries its information in 1 - p, which is not returned)
    ok = (got > 0) & (got < (0.5 if name in ("bdtri", "nbdtri") else np.inf))
    assert ok.sum() > n // 4
    rel = np.abs(back[ok] / y[ok] - 1)
    near1 = y[ok] > 0.5   # (there the complement, 1 - y exact, carries the information)
    rel[near1] = np.abs(back_c[ok][near1] / (1 - y[ok][near1]) - 1)
    assert np.median(rel) < 1e-12 and np.quantile(rel, 0.99) < 1e-9, (name, np.max(rel))


def test_hyp1f1_is_refused_on_webgpu(xp):
    # no kernel (the reason: _snippets_inverse.py): a clear error, never a wrong value
    if backend(xp) != "webgpu":
        pytest.skip("webgpu's own kernels")
    assert not special.implemented("hyp1f1", "webgpu")
    with pytest.raises(BackendLimitation, match="hyp1f1"):
        special.hyp1f1(xp.asarray(np.array([1.0, 2.0])), 3.0, 0.5)
