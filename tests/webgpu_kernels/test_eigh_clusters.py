"""Long clusters of close eigenvalues in the tridiagonal eigh path (clusters.py): a
covariance's spectrum takes the parallel mode (independent inverse iteration, tight chains
serial, Newton-Schulz orthogonalisation), and every kind of repeated spectrum forced into
that mode still gives NumPy's accuracy."""

import numpy as np
import pytest

from numr_array_api import tuning

from .test_eigh_tridiag import (DTYPES, _check, _from_spectrum, _orth, _skip_f64,  # noqa: F401
                                calls, xp)


def _cov(n, rng, ratio=1.0):
    g = rng.standard_normal((n, int(n * ratio)))
    return g @ g.T / g.shape[1] + np.eye(n)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [160, 256])
def test_covariance_takes_parallel_mode(xp, calls, dtype, n):
    _skip_f64(xp, dtype)
    _check(xp, _cov(n, np.random.default_rng(20)), dtype, calls)
    assert calls()["parallel"] >= 1


@pytest.mark.parametrize("dtype", DTYPES)
def test_covariance_serial_mode_knob(xp, calls, dtype):
    """EIGH_SERIAL_MAX above every chain keeps the serial mode."""
    _skip_f64(xp, dtype)
    with tuning.override(EIGH_SERIAL_MAX=100000):
        _check(xp, _cov(160, np.random.default_rng(21)), dtype, calls)
    assert calls()["parallel"] == 0


def _spectrum(kind, n, rng):
    if kind == "identity":
        return np.eye(n)
    if kind == "projection":
        q = _orth(n, rng)[:, : n // 2]
        return q @ q.T
    if kind == "diag_repeats":
        return np.diag(rng.permutation(np.repeat([-2.0, 0.0, 1.0, 5.0], n // 4)))
    if kind == "two_clusters":
        lam = np.concatenate([1 + 1e-5 * rng.standard_normal(n // 2),
                              -1 + 1e-5 * rng.standard_normal(n - n // 2)])
        return _from_spectrum(lam, rng)
    if kind == "near_degenerate":   # gaps of a few eps ||A||: the tight chains
        lam = np.concatenate([1 + 1e-7 * np.arange(n // 2), np.linspace(-1, 0.5, n - n // 2)])
        return _from_spectrum(lam, rng)
    if kind == "rank_deficient":
        b = rng.standard_normal((n, n // 4))
        return b @ b.T
    if kind == "wide_covariance":   # more features than samples: a zero eigenvalue cluster
        return _cov(n, rng, 0.5) - np.eye(n)
    b = rng.standard_normal((n, n))
    return b + b.T


# the cluster path forced on every input (the GPU runs check it)
@pytest.mark.slow
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["identity", "projection", "diag_repeats", "two_clusters",
                                  "near_degenerate", "rank_deficient", "wide_covariance",
                                  "random"])
def test_forced_parallel_mode(xp, calls, dtype, kind):
    """EIGH_SERIAL_MAX=0: every input takes the parallel mode."""
    _skip_f64(xp, dtype)
    a = _spectrum(kind, 100, np.random.default_rng(22))
    with tuning.override(EIGH_SERIAL_MAX=0):
        _check(xp, (a + a.T) / 2, dtype, calls)
    assert calls()["parallel"] >= 1


@pytest.mark.parametrize("dtype", DTYPES)
def test_parallel_mode_batched_and_replayed(xp, calls, dtype):
    """A batch mixing a covariance and a random matrix, twice (the second call replays both
    recipes): each matrix answers for itself."""
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(23)
    for _ in range(2):
        r = rng.standard_normal((160, 160))
        _check(xp, np.stack([_cov(160, rng), r + r.T]), dtype, calls)
    assert calls()["parallel"] >= 2


def test_newton_schulz_orthogonalises(xp, calls, monkeypatch):
    """The parallel mode's orthogonality comes from its Newton-Schulz steps: without them
    a covariance's vectors are an order of magnitude less orthogonal (the tests above
    therefore see the steps' work, not only the inverse iteration's)."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import clusters, tridiag
    monkeypatch.setattr(xp.asarray([0])._data.client.recipes, "enabled", False)
    monkeypatch.setattr(tridiag, "ORTH_TOL", 1e30)   # the raw vectors may fail the check
    a = _cov(320, np.random.default_rng(20)).astype("float32")
    orth = []
    for steps in (0, clusters.NS_STEPS):
        monkeypatch.setattr(clusters, "NS_STEPS", steps)
        v = np.asarray(xp.linalg.eigh(xp.asarray(a))[1].to_device("cpu"), dtype=np.float64)
        orth.append(np.abs(v.T @ v - np.eye(320)).max() / (320 * np.finfo(np.float32).eps))
    assert calls()["parallel"] >= 2
    assert orth[1] <= 0.2 and orth[0] >= 5 * orth[1], orth
