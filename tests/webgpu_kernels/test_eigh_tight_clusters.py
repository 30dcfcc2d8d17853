"""Tight chains of (near-)equal eigenvalues in the tridiagonal eigh path (clusters.py):
beyond EIGH_TIGHT_SERIAL_MAX members, each member's inverse iteration runs on its own
from a distinct start vector and the chain's block is orthonormalised by the GPU QR;
residuals, orthogonality and eigenvalues keep NumPy's accuracy (C n eps ||A||)."""

import os

import numpy as np
import pytest

from numr_array_api import tuning

from .test_eigh_tridiag import (DTYPES, _check, _from_spectrum, _skip_f64,  # noqa: F401
                                calls, xp)

SLOW = os.environ.get("NUMR_TEST_SLOW") == "1"
FORCED = dict(EIGH_SERIAL_MAX=0, EIGH_TIGHT_SERIAL_MAX=1)   # every tight chain by QR


def _tight_block(n, m, dtype, rng):
    """An unreduced tridiagonal m x m block whose eigenvalues lie within ~100 unit
    roundoffs of 1 (one tight chain: the split test keeps off-diagonals of 24 eps), beside
    a random symmetric part with eigenvalues away from 1."""
    e = 24 * float(np.finfo(dtype).eps)
    a = np.zeros((n, n))
    a[:m, :m] = np.eye(m) + e * (np.eye(m, k=1) + np.eye(m, k=-1))
    r = rng.standard_normal((n - m, n - m))
    a[m:, m:] = (r + r.T) / np.sqrt(8 * n) + 3 * np.eye(n - m)
    return a


def _covariance(n, p, rng):
    """G G^T / p + I with G n x p, p < n: eigenvalue 1 of multiplicity n - p."""
    g = rng.standard_normal((n, p))
    return g @ g.T / p + np.eye(n)


def _multiplicities(n, rng):
    """Q diag(...) Q^T with eigenvalues of multiplicity 2, 17 and n / 4."""
    k = n // 4
    lam = np.concatenate([np.full(2, 0.5), np.full(17, -0.25), np.full(k, 1.0),
                          rng.uniform(-1, 1, n - 19 - k)])
    return _from_spectrum(lam, rng)


@pytest.mark.parametrize("dtype", DTYPES)
def test_long_tight_chain_takes_qr(xp, calls, dtype, monkeypatch):
    """The 48-member chain (slots and rows 0..47 of T: the block stays tridiagonal) is
    found on the device and QR-orthonormalised."""
    from numr_array_api.backends.webgpu.ops.linalg_spectral import clusters, tridiag
    _skip_f64(xp, dtype)
    plans = []

    def spy(*args, **kw):
        plans.append(clusters.plan(*args, **kw))
        return plans[-1]
    monkeypatch.setattr(tridiag, "plan", spy)
    _check(xp, _tight_block(128, 48, dtype, np.random.default_rng(30)), dtype, calls)
    d = calls()
    assert d["parallel"] >= 1 and d["tight_qr"] >= 1, d
    assert plans and all(p.chains == ((0, 0, 48, 0, 48),) for p in plans), plans


def test_short_tight_chain_stays_serial(xp, calls):
    """EIGH_TIGHT_SERIAL_MAX above the chain: walked serially, no QR."""
    with tuning.override(EIGH_TIGHT_SERIAL_MAX=128):
        _check(xp, _tight_block(128, 48, "float32", np.random.default_rng(31)), "float32",
               calls)
    d = calls()
    assert d["parallel"] >= 1 and d["tight_qr"] == 0, d


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("kind", ["covariance", "multiplicities"])
def test_degenerate_forced_qr(xp, calls, dtype, kind):
    """Exactly degenerate spectra with every tight chain (however short) by QR."""
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(32)
    a = _covariance(96, 64, rng) if kind == "covariance" else _multiplicities(96, rng)
    with tuning.override(**FORCED):
        _check(xp, a, dtype, calls)
    assert calls()["parallel"] >= 1


def test_batched_chains(xp, calls):
    """A stack of matrices whose tight chains differ (two chains of one length share a
    batched QR, a third its own; one matrix without any): each answers for itself."""
    rng = np.random.default_rng(33)
    dtype = "float32"
    a = np.stack([_tight_block(96, 40, dtype, rng), _tight_block(96, 40, dtype, rng),
                  _tight_block(96, 56, dtype, rng), _covariance(96, 96, rng)])
    _check(xp, a, dtype, calls)
    assert calls()["tight_qr"] >= 3


@pytest.mark.slow
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [256] + ([1024, 2048] if SLOW else []))
@pytest.mark.parametrize("kind", ["tight_block", "covariance", "multiplicities"])
def test_large_tight_clusters(xp, calls, dtype, n, kind):
    _skip_f64(xp, dtype)
    rng = np.random.default_rng(34)
    if kind == "tight_block":
        a = _tight_block(n, n // 4, dtype, rng)
    elif kind == "covariance":
        a = _covariance(n, 3 * n // 4, rng)
    else:
        a = _multiplicities(n, rng)
    _check(xp, a, dtype, calls)
    if kind == "tight_block":
        assert calls()["tight_qr"] >= 1
