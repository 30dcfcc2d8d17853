"""Run in a fresh interpreter (SCIPY_ARRAY_API=1): array-agnostic SciPy functions on numr
arrays return numr arrays equal to their NumPy results."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _checks_common import check, finish, same, xp  # noqa: E402

import numpy as np  # noqa: E402
import scipy.fft  # noqa: E402
import scipy.signal  # noqa: E402
import scipy.special  # noqa: E402
import scipy.stats  # noqa: E402

rng = np.random.default_rng(1)
A = rng.standard_normal((7, 4)) * 3
An = xp.asarray(A)


@check("logsumexp")
def _():
    same(scipy.special.logsumexp(An), scipy.special.logsumexp(A), "logsumexp")
    same(scipy.special.logsumexp(An, axis=0), scipy.special.logsumexp(A, axis=0),
         "logsumexp axis=0")
    big = np.asarray([1000.0, 1000.0, -np.inf])
    same(scipy.special.logsumexp(xp.asarray(big)), scipy.special.logsumexp(big),
         "logsumexp large")


@check("softmax")
def _():
    same(scipy.special.softmax(An, axis=1), scipy.special.softmax(A, axis=1), "softmax")


@check("zscore")
def _():
    same(scipy.stats.zscore(An, axis=0), scipy.stats.zscore(A, axis=0), "zscore")
    same(scipy.stats.zscore(An, axis=1, ddof=1), scipy.stats.zscore(A, axis=1, ddof=1),
         "zscore ddof=1")


@check("moment")
def _():
    for order in (2, 3):
        same(scipy.stats.moment(An, order=order, axis=0),
             scipy.stats.moment(A, order=order, axis=0), f"moment order={order}")


@check("skew_kurtosis")
def _():
    same(scipy.stats.skew(An, axis=0), scipy.stats.skew(A, axis=0), "skew")
    same(scipy.stats.kurtosis(An, axis=0), scipy.stats.kurtosis(A, axis=0), "kurtosis")


def _on_device(r, what):
    assert r.device == An.device, f"{what}: result on {r.device}, input on {An.device}"


@check("scipy_fft")
def _():
    # scipy.fft's array-agnostic path: the namespace's own fft extension, on its device
    for f in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fftn", "ifftn", "rfftn",
              "irfftn"):
        r = getattr(scipy.fft, f)(An)
        _on_device(r, f)
        same(r, getattr(scipy.fft, f)(A), f"scipy.fft.{f}", rtol=1e-10, atol=1e-12)
    r = scipy.fft.fft(An, n=11, axis=0, norm="ortho")
    _on_device(r, "fft(n, axis, norm)")
    same(r, scipy.fft.fft(A, n=11, axis=0, norm="ortho"), "fft(n, axis, norm)", rtol=1e-10,
         atol=1e-12)


@check("fftconvolve")
def _():
    B = rng.standard_normal((3, 2))  # A is 7 x 4: 'valid' needs B no larger
    for mode in ("full", "same", "valid"):
        r = scipy.signal.fftconvolve(An, xp.asarray(B), mode=mode)
        _on_device(r, f"fftconvolve {mode}")
        same(r, scipy.signal.fftconvolve(A, B, mode=mode), f"fftconvolve {mode}",
             rtol=1e-10, atol=1e-12)


finish()
