"""wiener and savgol_filter for webgpu arrays.

wiener is two box correlations (the local mean and mean square, through ``correlate``)
and elementwise algebra; its noise estimate is a device reduction. savgol_filter is the
Savitzky-Golay FIR (SciPy's own ``savgol_coeffs`` on the host) through the direct kernel
with ndimage's boundary rules, and in 'interp' mode each edge's polynomial fit as one small
matrix product: a least-squares fit evaluated at fixed points is linear in the window's
samples, so the host computes that matrix once and the device applies it to every row.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from . import _common as C
from .convolution import correlate
from .direct import correlate_rows

__all__ = ["wiener", "savgol_filter"]

_MODES = {"mirror": "mirror", "constant": "fill", "nearest": "nearest", "wrap": "wrap"}


def wiener(im, mysize=None, noise=None):
    xp, like = C.namespace(im)
    im = C.on_device(xp, im, like)
    if mysize is None:
        sizes = [3] * im.ndim
    elif np.ndim(mysize) == 0:
        sizes = [operator.index(mysize)] * im.ndim
    else:
        sizes = [operator.index(s) for s in mysize]
    if len(sizes) != im.ndim:
        raise InvalidArgument("mysize", f"wiener: mysize needs {im.ndim} entries")
    if C.is_complex(im.dtype):
        raise C.limitation("wiener", "complex data", "the local variance is computed for "
                           "real data on webgpu")
    box = xp.ones(tuple(sizes), dtype=xp.float64, device=im.device)
    count = float(math.prod(sizes))
    mean = correlate(im, box, "same") / count
    var = correlate(im * im, box, "same") / count - mean * mean
    if noise is None:
        noise = xp.mean(xp.reshape(var, (-1,)))
    res = (im - mean) * (1 - noise / var) + mean
    return xp.where(var < noise, mean, res)


def _edge_matrix(w, polyorder, deriv, delta, positions):
    """(len(positions), w): the fitted polynomial's ``deriv``-th derivative at
    ``positions`` as a linear map of the window's samples."""
    t = np.arange(w, dtype=np.float64)
    coef = np.polyfit(t, np.eye(w), polyorder)          # one fit per unit sample
    M = np.empty((len(positions), w))
    for c in range(w):
        p = np.polyder(coef[:, c], deriv) if deriv > 0 else coef[:, c]
        M[:, c] = np.polyval(p, positions)
    return M / (delta ** deriv)


def savgol_filter(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode="interp",
                  cval=0.0):
    if mode not in ("mirror", "constant", "nearest", "interp", "wrap"):
        raise InvalidArgument("mode", "savgol_filter: mode must be 'mirror', 'constant', "
                              "'nearest' 'wrap' or 'interp'")
    xp, like = C.namespace(x)
    x = C.on_device(xp, x, like)
    if C.is_complex(x.dtype):
        raise C.limitation("savgol_filter", "complex data", "SciPy filters real data")
    dt = x.dtype if x.dtype in (D.float32, D.float64) else D.float64
    x = x if x.dtype == dt else xp.astype(x, dt)
    import scipy.signal
    coeffs_fn = getattr(scipy.signal.savgol_coeffs, "__numr_routed__",
                        scipy.signal.savgol_coeffs)
    coeffs = np.asarray(coeffs_fn(window_length, polyorder, deriv=deriv, delta=delta))
    if x.ndim == 0:
        raise InvalidArgument("x", "savgol_filter: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "savgol_filter")
    xm = xp.moveaxis(x, axis, -1)
    L = xm.shape[-1]
    w = coeffs.shape[0]
    if mode == "interp" and w > L:
        raise InvalidArgument("window_length", "savgol_filter: if mode is 'interp', "
                              "window_length must be less than or equal to the size of x")
    lead = xm.shape[:-1]
    rows = math.prod(lead)
    if rows == 0 or L == 0:
        return x
    xs = xm._data.contiguous().reshape((rows, L))
    # ndimage's convolve1d: y[i] = sum_j c[j] x[i + w // 2 - j], as a correlation with the
    # reversed taps starting w // 2 - (w - 1) samples before i
    k = xp.asarray(np.ascontiguousarray(coeffs[::-1]).astype(dt.np).reshape(1, w),
                   device=x.device)
    fill = xp.full((1,), 0.0 if mode == "interp" else cval, dtype=dt, device=x.device)
    bound = "fill" if mode == "interp" else _MODES[mode]
    out = correlate_rows(xs, k._data, L, w // 2 - (w - 1), bound, fill._data)
    y = xm._ctx.wrap(out.reshape(lead + (L,)))
    if mode == "interp":
        half = w // 2
        if half > 0:
            ml = _edge_matrix(w, polyorder, deriv, delta, np.arange(half))
            mr = _edge_matrix(w, polyorder, deriv, delta, np.arange(w - half, w))
            left = xp.matmul(xm[..., :w], xp.asarray(ml.T.astype(dt.np), device=x.device))
            right = xp.matmul(xm[..., L - w:], xp.asarray(mr.T.astype(dt.np),
                                                          device=x.device))
            y = xp.concat([left, y[..., half:L - half], right], axis=-1)
    return xp.moveaxis(y, -1, axis)
