"""scipy.ndimage's Fourier-domain filters for numr webgpu arrays.

Each filter multiplies the (already transformed) input by a separable factor: one small
table per axis, computed on the host from the shape and the parameters exactly as SciPy's
``ni_fourier.c`` computes it (frequency k for k < (n + 1) / 2, then k - n; along ``axis``
with ``n >= 0`` the real-transform frequencies 0 .. len - 1 of a length-n signal), sent to
the device and combined there by broadcasting elementwise kernels; the data never leaves
the device. The products are formed in float64 (SciPy computes in double) where the
adapter has it.
"""

from __future__ import annotations

import numpy as np

from ....._core import dtypes as D
from ....._core.array import Array
from .support import limit, normalize_axis, normalize_sequence, xp_of

__all__ = ["fourier_gaussian", "fourier_uniform", "fourier_ellipsoid", "fourier_shift"]


def _freqs(dim, real_axis):
    if real_axis:
        return np.arange(dim, dtype=np.float64)
    return np.concatenate([np.arange((dim + 1) // 2), np.arange(-(dim // 2), 0)]).astype(
        np.float64)


def _length(input, kk, axis, n):
    return (input.shape[kk] if n < 0 else n) if kk == axis else input.shape[kk]


def _wide(xp, input):
    f64 = input._data.client.has("shader-f64")
    return xp.float64 if f64 else xp.float32, xp.complex128 if f64 else xp.complex64


def _output(output, input, complex_only, fname):
    xp = xp_of(input)
    d = D.coerce(input.dtype)
    allowed = (D.complex64, D.complex128) if complex_only else \
        (D.complex64, D.complex128, D.float32, D.float64)
    if output is None:
        keep = (D.complex64, D.complex128) if complex_only else \
            (D.complex64, D.complex128, D.float32)
        od = d if d in keep else (D.complex128 if complex_only else D.float64)
        return xp.empty(input.shape, dtype=od, device=input.device)
    if isinstance(output, Array):
        if tuple(output.shape) != tuple(input.shape):
            raise RuntimeError("output shape not correct")
        if D.coerce(output.dtype) not in allowed:
            raise RuntimeError("data type not supported")
        return output
    if isinstance(output, type):
        od = D.from_numpy(np.dtype(output))
        if od not in allowed:
            raise RuntimeError("output type not supported")
        return xp.empty(input.shape, dtype=od, device=input.device)
    raise limit(fname, f"output={output!r}")


def _apply(input, output, tables, factor=None):
    """output = input x (the product over axes of ``tables[k]`` broadcast along axis k,
    times ``factor``, a device array, when given)."""
    xp = xp_of(input)
    real, cplx = _wide(xp, input)
    nd = input.ndim
    for k, t in enumerate(tables):
        if t is None:
            continue
        shape = [1] * nd
        shape[k] = t.shape[0]
        dt = cplx if np.iscomplexobj(t) else real
        tk = xp.reshape(xp.asarray(t, dtype=dt, device=input.device), tuple(shape))
        factor = tk if factor is None else xp.multiply(factor, tk)
    d = D.coerce(input.dtype)
    x = input if d.kind == "c" else xp.astype(input, real)
    if d.kind == "c" and D.coerce(x.dtype) != D.coerce(cplx):
        x = xp.astype(x, cplx)
    y = x if factor is None else xp.multiply(x, factor)
    od = D.coerce(output.dtype)
    if od.kind != "c" and D.coerce(y.dtype).kind == "c":
        y = xp.real(y)
    output[...] = xp.astype(y, output.dtype)
    return output


def _check_input(input, fname):
    if not isinstance(input, Array):
        raise limit(fname, "a non-numr input")
    if D.coerce(input.dtype) == D.float16:
        raise RuntimeError("data type not supported")


def fourier_gaussian(input, sigma, n=-1, axis=-1, output=None):
    _check_input(input, "fourier_gaussian")
    output = _output(output, input, False, "fourier_gaussian")
    axis = normalize_axis(axis, input.ndim)
    sigmas = np.asarray(normalize_sequence(sigma, input.ndim), dtype=np.float64)
    tables = []
    for kk in range(input.ndim):
        dim = input.shape[kk]
        if dim <= 1:
            tables.append(None)
            continue
        p = sigmas[kk] * np.pi / float(_length(input, kk, axis, n))
        p = -2.0 * p * p
        t = p * _freqs(dim, kk == axis and n >= 0) ** 2
        tables.append(np.where(np.abs(t) > 50.0, 0.0, np.exp(t)))
    return _apply(input, output, tables)


def fourier_uniform(input, size, n=-1, axis=-1, output=None):
    _check_input(input, "fourier_uniform")
    output = _output(output, input, False, "fourier_uniform")
    axis = normalize_axis(axis, input.ndim)
    sizes = np.asarray(normalize_sequence(size, input.ndim), dtype=np.float64)
    tables = []
    for kk in range(input.ndim):
        dim = input.shape[kk]
        if dim <= 1:
            tables.append(None)
            continue
        real_axis = kk == axis and n >= 0
        tmp = np.pi * sizes[kk] / (n if real_axis else dim)
        f = _freqs(dim, real_axis)
        with np.errstate(all="ignore"):
            t = np.where(tmp > 0.0, np.sin(tmp * f) / (tmp * f), 0.0)
        t[0] = 1.0
        tables.append(t)
    return _apply(input, output, tables)


def _ellipsoid_radius(input, sizes, n, axis):
    """sqrt(sum_k (f_k pi size_k / shape_k)^2) on the device, as SciPy's tables."""
    xp = xp_of(input)
    real, _ = _wide(xp, input)
    r2 = None
    for kk in range(input.ndim):
        real_axis = kk == axis and n >= 0
        tmp = np.pi * sizes[kk] / (n if real_axis else input.shape[kk])
        t = (_freqs(input.shape[kk], real_axis) * tmp) ** 2
        shape = [1] * input.ndim
        shape[kk] = t.shape[0]
        tk = xp.reshape(xp.asarray(t, dtype=real, device=input.device), tuple(shape))
        r2 = tk if r2 is None else xp.add(r2, tk)
    return xp.sqrt(r2)


def fourier_ellipsoid(input, size, n=-1, axis=-1, output=None):
    _check_input(input, "fourier_ellipsoid")
    if input.ndim > 3:
        raise NotImplementedError("Only 1d, 2d and 3d inputs are supported")
    if input.ndim == 2:
        # the 2-d factor is 2 J1(r) / r: no Bessel kernel in this package
        raise limit("fourier_ellipsoid", "a 2-d input (its factor needs the Bessel J1)")
    output = _output(output, input, False, "fourier_ellipsoid")
    if input.size == 0:
        return output
    axis = normalize_axis(axis, input.ndim)
    sizes = np.asarray(normalize_sequence(size, input.ndim), dtype=np.float64)
    if input.ndim == 1:
        real_axis = n >= 0
        tmp = np.pi * sizes[0] / (n if real_axis else input.shape[0])
        r = _freqs(input.shape[0], real_axis) * tmp
        with np.errstate(all="ignore"):
            t = np.where(r != 0, np.sin(r) / r, 1.0)
        return _apply(input, output, [t])
    xp = xp_of(input)
    r = _ellipsoid_radius(input, sizes, n, axis)
    safe = xp.where(r > 0, r, xp.ones_like(r))
    f = xp.divide(xp.multiply(xp.subtract(xp.sin(safe), xp.multiply(safe, xp.cos(safe))),
                              3.0), xp.multiply(xp.multiply(safe, safe), safe))
    f = xp.where(r > 0, f, xp.ones_like(f))
    return _apply(input, output, [], factor=f)


def fourier_shift(input, shift, n=-1, axis=-1, output=None):
    _check_input(input, "fourier_shift")
    output = _output(output, input, True, "fourier_shift")
    axis = normalize_axis(axis, input.ndim)
    shifts = np.asarray(normalize_sequence(shift, input.ndim), dtype=np.float64)
    tables = []
    for kk in range(input.ndim):
        dim = input.shape[kk]
        if dim <= 1:
            tables.append(None)
            continue
        s = -2.0 * np.pi * shifts[kk] / float(_length(input, kk, axis, n))
        phase = s * _freqs(dim, kk == axis and n >= 0)
        tables.append(np.cos(phase) + 1j * np.sin(phase))
    return _apply(input, output, tables)
