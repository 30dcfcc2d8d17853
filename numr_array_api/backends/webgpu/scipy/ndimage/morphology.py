"""scipy.ndimage's grey morphology for numr webgpu arrays: minimum / maximum filters with a
footprint or an additive structure (filters._min_or_max_filter), composed as SciPy's
``_morphology.py`` composes them; the arithmetic between the passes runs on the device."""

from __future__ import annotations

import warnings

import numpy as np

from ....._core import dtypes as D
from ....._core.array import Array
from .filters import _like, _min_or_max_filter
from .support import as_input, check_axes, host_small, normalize_sequence, xp_of

__all__ = ["grey_erosion", "grey_dilation", "grey_opening", "grey_closing",
           "morphological_gradient", "morphological_laplace", "white_tophat",
           "black_tophat"]


def grey_erosion(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    return _min_or_max_filter("grey_erosion", input, size, footprint, structure, output,
                              mode, cval, origin, "min", axes)


def grey_dilation(input, size=None, footprint=None, structure=None, output=None,
                  mode="reflect", cval=0.0, origin=0, *, axes=None):
    if size is None and footprint is None and structure is None:
        raise ValueError("size, footprint, or structure must be specified")
    # dilation is the erosion's mirror: the structure and footprint are reflected and
    # the origins moved so the reflected window covers the same neighbours
    if structure is not None:
        structure = host_small(structure)
        structure = structure[tuple([slice(None, None, -1)] * structure.ndim)]
    if footprint is not None:
        footprint = host_small(footprint)
        footprint = footprint[tuple([slice(None, None, -1)] * footprint.ndim)]
    input = as_input(input, _like(input, output), "grey_dilation")
    axes = check_axes(axes, input.ndim)
    origin = normalize_sequence(origin, len(axes))
    for i in range(len(origin)):
        origin[i] = -origin[i]
        if footprint is not None:
            sz = footprint.shape[i]
        elif structure is not None:
            sz = structure.shape[i]
        elif np.isscalar(size):
            sz = size
        else:
            sz = size[i]
        if not sz & 1:
            origin[i] -= 1
    return _min_or_max_filter("grey_dilation", input, size, footprint, structure, output,
                              mode, cval, origin, "max", axes)


def _warn_size(size, footprint):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)


def grey_opening(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    _warn_size(size, footprint)
    tmp = grey_erosion(input, size, footprint, structure, None, mode, cval, origin,
                       axes=axes)
    return grey_dilation(tmp, size, footprint, structure, output, mode, cval, origin,
                         axes=axes)


def grey_closing(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    _warn_size(size, footprint)
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin,
                        axes=axes)
    return grey_erosion(tmp, size, footprint, structure, output, mode, cval, origin,
                        axes=axes)


def morphological_gradient(input, size=None, footprint=None, structure=None, output=None,
                           mode="reflect", cval=0.0, origin=0, *, axes=None):
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin,
                        axes=axes)
    xp = xp_of(tmp)
    if isinstance(output, Array):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin,
                     axes=axes)
        output[...] = xp.subtract(tmp, output)
        return output
    # as SciPy: an output dtype is not used on this path
    return xp.subtract(tmp, grey_erosion(input, size, footprint, structure, None, mode,
                                         cval, origin, axes=axes))


def morphological_laplace(input, size=None, footprint=None, structure=None, output=None,
                          mode="reflect", cval=0.0, origin=0, *, axes=None):
    input = as_input(input, _like(input, output), "morphological_laplace")
    xp = xp_of(input)
    tmp1 = grey_dilation(input, size, footprint, structure, None, mode, cval, origin,
                         axes=axes)
    if isinstance(output, Array):
        grey_erosion(input, size, footprint, structure, output, mode, cval, origin,
                     axes=axes)
        dst = output
    else:
        dst = grey_erosion(input, size, footprint, structure, None, mode, cval, origin,
                           axes=axes)
    # SciPy adds and subtracts in place: each step wraps / casts in the result's dtype
    d = dst.dtype
    dst[...] = xp.add(tmp1, dst)
    dst[...] = xp.subtract(dst, xp.astype(input, d))
    dst[...] = xp.subtract(dst, xp.astype(input, d))
    return dst


def _tophat(input, tmp, white):
    xp = xp_of(input)
    if D.coerce(input.dtype) == D.bool_ and D.coerce(tmp.dtype) == D.bool_:
        tmp[...] = xp.logical_xor(input, tmp)
    elif white:
        tmp[...] = xp.subtract(xp.astype(input, tmp.dtype), tmp)
    else:
        tmp[...] = xp.subtract(tmp, xp.astype(input, tmp.dtype))
    return tmp


def white_tophat(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    input = as_input(input, _like(input, output), "white_tophat")
    _warn_size(size, footprint)
    tmp = grey_erosion(input, size, footprint, structure, None, mode, cval, origin,
                       axes=axes)
    tmp = grey_dilation(tmp, size, footprint, structure, output, mode, cval, origin,
                        axes=axes)
    return _tophat(input, tmp, True)


def black_tophat(input, size=None, footprint=None, structure=None, output=None,
                 mode="reflect", cval=0.0, origin=0, *, axes=None):
    input = as_input(input, _like(input, output), "black_tophat")
    _warn_size(size, footprint)
    tmp = grey_dilation(input, size, footprint, structure, None, mode, cval, origin,
                        axes=axes)
    tmp = grey_erosion(tmp, size, footprint, structure, output, mode, cval, origin,
                       axes=axes)
    return _tophat(input, tmp, False)
