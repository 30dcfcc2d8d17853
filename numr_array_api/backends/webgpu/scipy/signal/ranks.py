"""medfilt, medfilt2d and order_filter for webgpu arrays: SciPy computes them as ndimage's
rank filter with zero padding, and so does this module, through numr's webgpu ndimage
rank filter (its footprint limit applies and is reported as BackendLimitation)."""

from __future__ import annotations

import math
import operator
import warnings

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from . import _common as C

__all__ = ["medfilt", "medfilt2d", "order_filter"]


def _rank_filter(*args, **kwargs):
    from ..ndimage.filters import rank_filter
    return rank_filter(*args, **kwargs)


def _check_dtype(a, fname):
    if not (C.is_integral(a.dtype) or a.dtype in (D.float32, D.float64)):
        raise InvalidArgument("input", f"{fname}: dtype={a.dtype} is not supported by "
                              f"{fname}")


def _sizes(kernel_size, ndim, fname):
    if kernel_size is None:
        sizes = [3] * ndim
    elif np.ndim(kernel_size) == 0:
        sizes = [operator.index(kernel_size)] * ndim
    else:
        sizes = [operator.index(k) for k in kernel_size]
    if len(sizes) != ndim:
        raise InvalidArgument("kernel_size", f"{fname}: kernel_size needs {ndim} entries")
    if any(k % 2 != 1 for k in sizes):
        raise InvalidArgument("kernel_size", f"{fname}: each element of kernel_size "
                              "should be odd")
    return sizes


def medfilt(volume, kernel_size=None):
    xp, like = C.namespace(volume)
    v = C.on_device(xp, volume, like)
    if v.ndim == 0:
        v = xp.reshape(v, (1,))
    _check_dtype(v, "medfilt")
    sizes = _sizes(kernel_size, v.ndim, "medfilt")
    if any(k > s for k, s in zip(sizes, v.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.",
                      stacklevel=2)
    return _rank_filter(v, math.prod(sizes) // 2, size=sizes, mode="constant")


def medfilt2d(input, kernel_size=3):
    xp, like = C.namespace(input)
    v = C.on_device(xp, input, like)
    if v.ndim != 2:
        raise InvalidArgument("input", "medfilt2d: input must be 2-D")
    sizes = _sizes(kernel_size, 2, "medfilt2d")
    _check_dtype(v, "medfilt2d")
    return _rank_filter(v, math.prod(sizes) // 2, size=sizes, mode="constant")


def order_filter(a, domain, rank):
    xp, like = C.namespace(a, domain)
    dom = C.host_coefficients(domain, "domain")
    if any(n % 2 != 1 for n in dom.shape):
        raise InvalidArgument("domain", "order_filter: each dimension of domain argument "
                              "should have an odd number of elements")
    v = C.on_device(xp, a, like)
    _check_dtype(v, "order_filter")
    return _rank_filter(v, rank, footprint=dom, mode="constant")
