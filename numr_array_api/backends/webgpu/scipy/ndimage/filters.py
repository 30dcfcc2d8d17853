"""scipy.ndimage's filters for numr webgpu arrays: SciPy's Python flow, numr's kernels.

Each function follows ``scipy/ndimage/_filters.py`` step by step (argument checks and their
errors, separable passes in SciPy's order with intermediates in the output dtype) and runs
its C-level work as stencil passes (run.py, stencil.py). Inputs, outputs and weights stay
on the device; a footprint or structure given as a device array is read back explicitly
(it is a few bytes that the host must branch on, as SciPy does).
"""

from __future__ import annotations

import numbers
import operator
import warnings

import numpy as np

from ....._core import dtypes as D
from ....._core.array import Array
from . import run
from .support import (as_input, check_axes, get_output, host_small, limit, mode_of,
                      normalize_axis, normalize_sequence, run_pass, separable, xp_of)

__all__ = ["correlate1d", "convolve1d", "correlate", "convolve", "uniform_filter1d",
           "uniform_filter", "gaussian_filter1d", "gaussian_filter", "prewitt", "sobel",
           "laplace", "gaussian_laplace", "gaussian_gradient_magnitude", "generic_laplace",
           "generic_gradient_magnitude", "minimum_filter1d", "maximum_filter1d",
           "minimum_filter", "maximum_filter", "median_filter", "rank_filter",
           "percentile_filter"]


def _like(*objs):
    for o in objs:
        if isinstance(o, Array):
            return o
    return None


def _is_complex(a):
    if isinstance(a, Array):
        return D.coerce(a.dtype).kind == "c"
    return np.asarray(a).dtype.kind == "c"


def _invalid_origin(origin, lenw):
    return (origin < -(lenw // 2)) or (origin > (lenw - 1) // 2)


def _line(ndim, axis, n, lo, mode):
    fshape, los = [1] * ndim, [0] * ndim
    fshape[axis], los[axis] = n, lo
    return fshape, los, [mode] * ndim


def _part(a, which):
    if isinstance(a, Array):
        xp = xp_of(a)
        if D.coerce(a.dtype).kind != "c":
            return a if which == "real" else xp.zeros_like(a)
        return xp.real(a) if which == "real" else xp.imag(a)
    a = np.asarray(a)
    return a.real if which == "real" else a.imag


def _conj(a):
    return xp_of(a).conj(a) if isinstance(a, Array) else np.asarray(a).conj()


def _complex_via_real_components(func, input, weights, output, cval, **kwargs):
    """SciPy's complex filtering as real filterings of the parts (each part's result in
    the output's real dtype), joined on the device."""
    xp = xp_of(input)
    rdt = D.REAL_FLOAT_OF_COMPLEX[D.coerce(output.dtype)]

    def part(inp, w, cv):
        out = xp.empty(input.shape, dtype=rdt, device=input.device)
        func(inp, w, output=out, cval=cv, **kwargs)
        return out

    ci, cw = _is_complex(input), _is_complex(weights)
    re, im = (lambda a: _part(a, "real")), (lambda a: _part(a, "imag"))
    if ci and cw:
        r = xp.subtract(part(re(input), re(weights), np.real(cval)),
                        part(im(input), im(weights), np.imag(cval)))
        i = xp.add(part(re(input), im(weights), np.real(cval)),
                   part(im(input), re(weights), np.imag(cval)))
    elif ci:
        r = part(re(input), weights, np.real(cval))
        i = part(im(input), weights, np.imag(cval))
    else:
        if np.iscomplexobj(cval):
            raise ValueError("Cannot provide a complex-valued cval when the input is real.")
        r, i = part(input, re(weights), cval), part(input, im(weights), cval)
    cdt = output.dtype
    output[...] = xp.add(xp.astype(r, cdt), xp.multiply(xp.astype(i, cdt), 1j))
    return output


# ---- correlations --------------------------------------------------------------------------

def correlate1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    input = as_input(input, _like(input, weights, output), "correlate1d")
    if _is_complex(input) or _is_complex(weights):
        if _is_complex(weights):
            weights = _conj(weights)
        output = get_output(output, input, complex_output=True, fname="correlate1d")
        return _complex_via_real_components(correlate1d, input, weights, output, cval,
                                            axis=axis, mode=mode, origin=origin)
    output = get_output(output, input, fname="correlate1d")
    if isinstance(weights, Array):
        if weights.ndim != 1 or weights.shape[0] < 1:
            raise RuntimeError("no filter weights given")
        n = weights.shape[0]
    else:
        weights = np.asarray(weights, dtype=np.float64)
        if weights.ndim != 1 or weights.shape[0] < 1:
            raise RuntimeError("no filter weights given")
        n = weights.shape[0]
    axis = normalize_axis(axis, input.ndim)
    if _invalid_origin(origin, n):
        raise ValueError("Invalid origin; origin must satisfy -(len(weights) // 2) <= "
                         "origin <= (len(weights)-1) // 2")
    m = mode_of(mode)
    fshape, lo, modes = _line(input.ndim, axis, n, -(n // 2) - origin, m)
    return run_pass("correlate1d", input, output, "corr", fshape, lo, modes, weights,
                    float(cval))


def convolve1d(input, weights, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    if isinstance(weights, Array):
        weights = xp_of(weights).flip(weights, axis=0) if weights.ndim == 1 else weights
        n = weights.shape[0] if weights.ndim else 0
    else:
        weights = np.asarray(weights)[::-1]
        n = weights.shape[0]
    origin = -origin
    if not n & 1:
        origin -= 1
    if _is_complex(weights):   # pre-conjugated: correlate1d conjugates again
        weights = _conj(weights)
    return correlate1d(input, weights, axis, output, mode, cval, origin)


def _correlate_or_convolve(fname, input, weights, output, mode, cval, origin, convolution,
                           axes):
    input = as_input(input, _like(input, weights, output), fname)
    if _is_complex(input) or _is_complex(weights):
        if _is_complex(weights) and not convolution:
            weights = _conj(weights)   # as np.correlate: conjugate the weights
        output = get_output(output, input, complex_output=True, fname=fname)
        return _complex_via_real_components(
            lambda i, w, **kw: _correlate_or_convolve(fname, i, w, kw.pop("output"),
                                                      kw.pop("mode"), kw.pop("cval"),
                                                      kw.pop("origin"), convolution,
                                                      kw.pop("axes")),
            input, weights, output, cval, mode=mode, origin=origin, axes=axes)
    if not isinstance(mode, str):
        raise RuntimeError("A sequence of modes is not supported")
    m = mode_of(mode)
    axes = check_axes(axes, input.ndim)
    dev = isinstance(weights, Array)
    if not dev:
        weights = np.asarray(weights, dtype=np.float64)
    if len(axes) < input.ndim:
        if weights.ndim != len(axes):
            raise RuntimeError(f"weights.ndim ({weights.ndim}) must match len(axes) "
                               f"({len(axes)})")
        for ax in range(input.ndim):
            if ax not in axes:
                weights = (xp_of(weights).expand_dims(weights, axis=ax) if dev
                           else np.expand_dims(weights, ax))
    origins = normalize_sequence(origin, len(axes))
    if len(axes) < input.ndim:
        full = [0] * input.ndim
        for o, ax in zip(origins, axes):
            full[ax] = o
        origins = full
    wshape = [n for n in weights.shape if n > 0]
    if len(wshape) != input.ndim:
        raise RuntimeError(f"weights.ndim ({len(wshape)}) must match len(axes) "
                           f"({len(axes)})")
    if convolution:
        weights = (xp_of(weights).flip(weights) if dev
                   else weights[tuple([slice(None, None, -1)] * weights.ndim)])
        for i in range(len(origins)):
            origins[i] = -origins[i]
            if not weights.shape[i] & 1:
                origins[i] -= 1
    for o, n in zip(origins, wshape):
        if _invalid_origin(o, n):
            raise ValueError("Invalid origin; origin must satisfy -(weights.shape[k] // 2) "
                             "<= origin[k] <= (weights.shape[k]-1) // 2")
    output = get_output(output, input, fname=fname)
    fshape = list(weights.shape)
    lo = [-(n // 2) - o for n, o in zip(fshape, origins)]
    return run_pass(fname, input, output, "corrnd", fshape, lo, [m] * input.ndim, weights,
                    float(cval))


def correlate(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *,
              axes=None):
    return _correlate_or_convolve("correlate", input, weights, output, mode, cval, origin,
                                  False, axes)


def convolve(input, weights, output=None, mode="reflect", cval=0.0, origin=0, *, axes=None):
    return _correlate_or_convolve("convolve", input, weights, output, mode, cval, origin,
                                  True, axes)


# ---- uniform and Gaussian ------------------------------------------------------------------

def _uniform_pass(inp, out, axis, size, origin, mode, cval):
    fshape, lo, modes = _line(inp.ndim, axis, size, -(size // 2) - origin, mode_of(mode))
    run_pass("uniform_filter1d", inp, out, "uniform", fshape, lo, modes, np.ones(size),
             float(cval), div=float(size))


def uniform_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    input = as_input(input, _like(input, output), "uniform_filter1d")
    axis = normalize_axis(axis, input.ndim)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    complex_output = _is_complex(input)
    output = get_output(output, input, complex_output=complex_output,
                        fname="uniform_filter1d")
    if (size // 2 + origin < 0) or (size // 2 + origin >= size):
        raise ValueError("invalid origin")
    mode_of(mode)
    if not complex_output:
        _uniform_pass(input, output, axis, int(size), origin, mode, cval)
        return output
    return _complex_via_real_components(
        lambda i, w, output, cval: _uniform_pass(i, output, axis, int(size), origin, mode,
                                                 cval),
        input, np.ones(1), output, cval)


def uniform_filter(input, size=3, output=None, mode="reflect", cval=0.0, origin=0, *,
                   axes=None):
    input = as_input(input, _like(input, output), "uniform_filter")
    output = get_output(output, input, complex_output=_is_complex(input),
                        fname="uniform_filter")
    axes = check_axes(axes, input.ndim)
    k = len(axes)
    sizes, origins = normalize_sequence(size, k), normalize_sequence(origin, k)
    modes = normalize_sequence(mode, k)
    todo = [(axes[i], int(sizes[i]), origins[i], modes[i]) for i in range(k) if sizes[i] > 1]
    for ax, sz, o, md in todo:
        if (sz // 2 + o < 0) or (sz // 2 + o >= sz):
            raise ValueError("invalid origin")
        mode_of(md)
    passes = [lambda i, o, a=a: uniform_filter1d(i, a[1], a[0], o, a[3], cval, a[2])
              for a in todo]
    return separable(input, output, passes)


def gaussian_kernel1d(sigma, order, radius):
    """SciPy's Gaussian (derivative) weights: exp(-x^2 / 2 sigma^2) normalised, times the
    polynomial q(x) from differentiating ``order`` times (q' + q p', p' = -x / sigma^2)."""
    if order < 0:
        raise ValueError("order must be non-negative")
    powers = np.arange(order + 1)
    sigma2 = sigma * sigma
    x = np.arange(-radius, radius + 1)
    phi = np.exp(-0.5 / sigma2 * x ** 2)
    phi = phi / phi.sum()
    if order == 0:
        return phi
    q = np.zeros(order + 1)
    q[0] = 1
    deriv = np.diag(powers[1:], 1) + np.diag(np.ones(order) / -sigma2, -1)
    for _ in range(order):
        q = deriv.dot(q)
    return (x[:, None] ** powers).dot(q) * phi


def _gauss_weights(sigma, order, truncate, radius):
    sd = float(sigma)
    lw = int(truncate * sd + 0.5)
    if radius is not None:
        lw = radius
    if not isinstance(lw, numbers.Integral) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    return gaussian_kernel1d(sigma, order, lw)[::-1]


def gaussian_filter1d(input, sigma, axis=-1, order=0, output=None, mode="reflect", cval=0.0,
                      truncate=4.0, *, radius=None):
    w = _gauss_weights(sigma, order, truncate, radius)
    return correlate1d(input, w, axis, output, mode, cval, 0)


def gaussian_filter(input, sigma, order=0, output=None, mode="reflect", cval=0.0,
                    truncate=4.0, *, radius=None, axes=None):
    input = as_input(input, _like(input, output), "gaussian_filter")
    output = get_output(output, input, fname="gaussian_filter")
    axes = check_axes(axes, input.ndim)
    k = len(axes)
    orders, sigmas = normalize_sequence(order, k), normalize_sequence(sigma, k)
    modes, radii = normalize_sequence(mode, k), normalize_sequence(radius, k)
    todo = [(axes[i], sigmas[i], orders[i], modes[i], radii[i]) for i in range(k)
            if sigmas[i] > 1e-15]
    passes = []
    for ax, sg, od, md, rd in todo:
        w = _gauss_weights(sg, od, truncate, rd)
        mode_of(md)
        passes.append(lambda i, o, ax=ax, w=w, md=md: correlate1d(i, w, ax, o, md, cval, 0))
    return separable(input, output, passes)


# ---- derivatives ---------------------------------------------------------------------------

def _edge(fname, smooth, input, axis, output, mode, cval):
    input = as_input(input, _like(input, output), fname)
    axis = normalize_axis(axis, input.ndim)
    output = get_output(output, input, fname=fname)
    modes = normalize_sequence(mode, input.ndim)
    passes = [lambda i, o: correlate1d(i, [-1, 0, 1], axis, o, modes[axis], cval, 0)]
    for ax in range(input.ndim):
        if ax != axis:
            passes.append(lambda i, o, ax=ax: correlate1d(i, smooth, ax, o, modes[ax], cval,
                                                          0))
    return separable(input, output, passes)


def prewitt(input, axis=-1, output=None, mode="reflect", cval=0.0):
    return _edge("prewitt", [1, 1, 1], input, axis, output, mode, cval)


def sobel(input, axis=-1, output=None, mode="reflect", cval=0.0):
    return _edge("sobel", [1, 2, 1], input, axis, output, mode, cval)


def generic_laplace(input, derivative2, output=None, mode="reflect", cval=0.0,
                    extra_arguments=(), extra_keywords=None, *, axes=None):
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = as_input(input, _like(input, output), "generic_laplace")
    output = get_output(output, input, fname="generic_laplace")
    axes = check_axes(axes, input.ndim)
    if not axes:
        output[...] = input
        return output
    xp = xp_of(input)
    modes = normalize_sequence(mode, len(axes))
    derivative2(input, axes[0], output, modes[0], cval, *extra_arguments, **extra_keywords)
    for i in range(1, len(axes)):
        tmp = derivative2(input, axes[i], output.dtype, modes[i], cval, *extra_arguments,
                          **extra_keywords)
        output[...] = xp.add(output, tmp)
    return output


def laplace(input, output=None, mode="reflect", cval=0.0, *, axes=None):
    def derivative2(input, axis, output, mode, cval):
        return correlate1d(input, [1, -2, 1], axis, output, mode, cval, 0)
    return generic_laplace(input, derivative2, output, mode, cval, axes=axes)


def gaussian_laplace(input, sigma, output=None, mode="reflect", cval=0.0, *, axes=None,
                     **kwargs):
    input = as_input(input, _like(input, output), "gaussian_laplace")

    def derivative2(input, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * input.ndim
        order[axis] = 2
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)

    axes = check_axes(axes, input.ndim)
    sigma = normalize_sequence(sigma, len(axes))
    if len(axes) < input.ndim:
        full = [0] * input.ndim
        for s, ax in zip(sigma, axes):
            full[ax] = s
        sigma = full
    return generic_laplace(input, derivative2, output, mode, cval, extra_arguments=(sigma,),
                           extra_keywords=kwargs, axes=axes)


def _float_for(xp, a):
    d = D.coerce(a.dtype)
    if d.kind in "fc":
        return a
    f64 = a._data.client.has("shader-f64")
    return xp.astype(a, xp.float64 if f64 else xp.float32)


def generic_gradient_magnitude(input, derivative, output=None, mode="reflect", cval=0.0,
                               extra_arguments=(), extra_keywords=None, *, axes=None):
    extra_keywords = {} if extra_keywords is None else extra_keywords
    input = as_input(input, _like(input, output), "generic_gradient_magnitude")
    output = get_output(output, input, fname="generic_gradient_magnitude")
    axes = check_axes(axes, input.ndim)
    if not axes:
        output[...] = input
        return output
    xp = xp_of(input)
    modes = normalize_sequence(mode, len(axes))
    derivative(input, axes[0], output, modes[0], cval, *extra_arguments, **extra_keywords)
    output[...] = xp.multiply(output, output)
    for i in range(1, len(axes)):
        tmp = derivative(input, axes[i], output.dtype, modes[i], cval, *extra_arguments,
                         **extra_keywords)
        output[...] = xp.add(output, xp.multiply(tmp, tmp))
    # NumPy's sqrt of an integer array computes in floating point, then casts back
    output[...] = xp.sqrt(_float_for(xp, output))
    return output


def gaussian_gradient_magnitude(input, sigma, output=None, mode="reflect", cval=0.0, *,
                                axes=None, **kwargs):
    input = as_input(input, _like(input, output), "gaussian_gradient_magnitude")

    def derivative(input, axis, output, mode, cval, sigma, **kwargs):
        order = [0] * input.ndim
        order[axis] = 1
        return gaussian_filter(input, sigma, order, output, mode, cval, **kwargs)

    return generic_gradient_magnitude(input, derivative, output, mode, cval,
                                      extra_arguments=(sigma,), extra_keywords=kwargs,
                                      axes=axes)


# ---- minimum / maximum ---------------------------------------------------------------------

def _minmax1d(fname, input, size, axis, output, mode, cval, origin, op):
    input = as_input(input, _like(input, output), fname)
    if _is_complex(input):
        raise TypeError("Complex type not supported")
    axis = normalize_axis(axis, input.ndim)
    if size < 1:
        raise RuntimeError("incorrect filter size")
    output = get_output(output, input, fname=fname)
    if (size // 2 + origin < 0) or (size // 2 + origin >= size):
        raise ValueError("invalid origin")
    size = int(size)
    fshape, lo, modes = _line(input.ndim, axis, size, -(size // 2) - origin, mode_of(mode))
    return run_pass(fname, input, output, op, fshape, lo, modes, np.ones(size), cval,
                    line=True)


def minimum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    return _minmax1d("minimum_filter1d", input, size, axis, output, mode, cval, origin, "min")


def maximum_filter1d(input, size, axis=-1, output=None, mode="reflect", cval=0.0, origin=0):
    return _minmax1d("maximum_filter1d", input, size, axis, output, mode, cval, origin, "max")


def _expand(ndim, axes, fp, name):
    if len(axes) < ndim:
        if fp.ndim != len(axes):
            raise RuntimeError(f"{name}.ndim ({fp.ndim}) must match len(axes) ({len(axes)})")
        fp = np.expand_dims(fp, tuple(ax for ax in range(ndim) if ax not in axes))
    return fp


def _expand_origin(ndim, axes, origin):
    origins = normalize_sequence(origin, len(axes))
    if len(axes) < ndim:
        full = [0] * ndim
        for o, ax in zip(origins, axes):
            full[ax] = o
        origins = full
    return origins


def _check_origins(origins, fshape):
    for o, n in zip(origins, fshape):
        if (n // 2 + o < 0) or (n // 2 + o >= n):
            raise ValueError("invalid origin")


def _min_or_max_filter(fname, input, size, footprint, structure, output, mode, cval, origin,
                       op, axes=None):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    like = _like(input, footprint, structure, output)
    if structure is None:
        if footprint is None:
            if size is None:
                raise RuntimeError("no footprint provided")
            separable_ = True
        else:
            footprint = host_small(footprint, bool)
            if not footprint.any():
                raise ValueError("All-zero footprint is not supported.")
            if footprint.all():
                size, footprint, separable_ = footprint.shape, None, True
            else:
                separable_ = False
    else:
        structure = host_small(structure, np.float64)
        separable_ = False
        footprint = (np.ones(structure.shape, bool) if footprint is None
                     else host_small(footprint, bool))
    input = as_input(input, like, fname)
    if _is_complex(input):
        raise TypeError("Complex type not supported")
    output = get_output(output, input, fname=fname)
    axes = check_axes(axes, input.ndim)
    k = len(axes)
    if separable_:
        origins, sizes = normalize_sequence(origin, k), normalize_sequence(size, k)
        modes = normalize_sequence(mode, k)
        todo = [(axes[i], int(sizes[i]), origins[i], modes[i]) for i in range(k)
                if sizes[i] > 1]
        for ax, sz, o, md in todo:
            _check_origins([o], [sz])
            mode_of(md)
        passes = [lambda i, o, a=a: _minmax1d(fname, i, a[1], a[0], o, a[3], cval, a[2], op)
                  for a in todo]
        return separable(input, output, passes)
    footprint = _expand(input.ndim, axes, footprint, "footprint")
    origins = _expand_origin(input.ndim, axes, origin)
    fshape = [n for n in footprint.shape if n > 0]
    if len(fshape) != input.ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match len(axes) ({k})")
    _check_origins(origins, fshape)
    if structure is not None:
        if structure.ndim != k:
            raise RuntimeError("structure array has incorrect shape")
        if D.coerce(input.dtype) == D.bool_:
            # SciPy's C sums bool + double in its bool type, with results this kernel
            # does not reproduce
            raise limit(fname, "a structure on bool data")
        if D.coerce(input.dtype).kind in "iu" and not np.array_equal(structure,
                                                                      np.trunc(structure)):
            # C adds the structure in double and truncates each sum into the input's
            # integer type; the kernel adds in that type
            raise limit(fname, "a non-integer structure on integer data")
        structure = _expand(input.ndim, axes, structure, "structure")
        if op == "min":   # grey erosion subtracts the structure (SciPy negates it)
            structure = -structure
    if not isinstance(mode, str):
        raise RuntimeError("A sequence of modes is not supported for non-separable "
                           "footprints")
    m = mode_of(mode)
    lo = [-(n // 2) - o for n, o in zip(footprint.shape, origins)]
    return run_pass(fname, input, output, op, footprint.shape, lo, [m] * input.ndim,
                    footprint.astype(np.float64), cval, struct=structure)


def minimum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    return _min_or_max_filter("minimum_filter", input, size, footprint, None, output, mode,
                              cval, origin, "min", axes)


def maximum_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                   origin=0, *, axes=None):
    return _min_or_max_filter("maximum_filter", input, size, footprint, None, output, mode,
                              cval, origin, "max", axes)


# ---- rank filters --------------------------------------------------------------------------

def _rank_filter(fname, input, rank, size, footprint, output, mode, cval, origin, operation,
                 axes):
    if size is not None and footprint is not None:
        warnings.warn("ignoring size because footprint is set", UserWarning, stacklevel=3)
    input = as_input(input, _like(input, footprint, output), fname)
    if _is_complex(input):
        raise TypeError("Complex type not supported")
    axes = check_axes(axes, input.ndim)
    k = len(axes)
    if footprint is None:
        if size is None:
            raise RuntimeError("no footprint or filter size provided")
        footprint = np.ones(normalize_sequence(size, k), dtype=bool)
    else:
        footprint = host_small(footprint, bool)
    footprint = _expand(input.ndim, axes, footprint, "footprint")
    origins = _expand_origin(input.ndim, axes, origin)
    if not isinstance(mode, str) and np.iterable(mode):
        modes = normalize_sequence(mode, k)
        full = ["constant"] * input.ndim
        for md, ax in zip(modes, axes):
            full[ax] = md
        mode = full
    fshape = [n for n in footprint.shape if n > 0]
    if len(fshape) != input.ndim:
        raise RuntimeError(f"footprint.ndim ({footprint.ndim}) must match len(axes) ({k})")
    _check_origins(origins, fshape)
    filter_size = int(np.where(footprint, 1, 0).sum())
    if operation == "median":
        rank = filter_size // 2
    elif operation == "percentile":
        percentile = rank
        if percentile < 0.0:
            percentile += 100.0
        if percentile < 0 or percentile > 100:
            raise RuntimeError("invalid percentile")
        rank = filter_size - 1 if percentile == 100.0 else \
            int(float(filter_size) * percentile / 100.0)
    if rank < 0:
        rank += filter_size
    if rank < 0 or rank >= filter_size:
        raise RuntimeError("rank not within filter footprint size")
    if rank == 0 and D.coerce(input.dtype) != D.float16:
        return minimum_filter(input, None, footprint, output, mode, cval, origins)
    if rank == filter_size - 1 and D.coerce(input.dtype) != D.float16:
        return maximum_filter(input, None, footprint, output, mode, cval, origins)
    kmax = next((b for b in run.KMAX if b >= filter_size), None)
    if kmax is None:
        raise limit(fname, f"a footprint of {filter_size} elements (at most {run.KMAX[-1]})")
    output = get_output(output, input, fname=fname)
    if not isinstance(mode, str):
        raise RuntimeError("A sequence of modes is not supported by non-separable rank "
                           "filters")
    m = mode_of(mode)
    lo = [-(n // 2) - o for n, o in zip(footprint.shape, origins)]
    return run_pass(fname, input, output, "rank", footprint.shape, lo, [m] * input.ndim,
                    footprint.astype(np.float64), cval, rk=rank, kmax=kmax)


def rank_filter(input, rank, size=None, footprint=None, output=None, mode="reflect",
                cval=0.0, origin=0, *, axes=None):
    rank = operator.index(rank)
    return _rank_filter("rank_filter", input, rank, size, footprint, output, mode, cval,
                        origin, "rank", axes)


def median_filter(input, size=None, footprint=None, output=None, mode="reflect", cval=0.0,
                  origin=0, *, axes=None):
    return _rank_filter("median_filter", input, 0, size, footprint, output, mode, cval,
                        origin, "median", axes)


def percentile_filter(input, percentile, size=None, footprint=None, output=None,
                      mode="reflect", cval=0.0, origin=0, *, axes=None):
    return _rank_filter("percentile_filter", input, percentile, size, footprint, output,
                        mode, cval, origin, "percentile", axes)
