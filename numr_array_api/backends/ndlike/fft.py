"""Kernels of the ``fft`` extension over a NumPy-like module (NumPy or CuPy).

The front-end (``_api/fft.py``) has validated ``n`` / ``s``, normalised the axes and the
norm, and chosen the result dtype; kernels cast to it, since CuPy (and NumPy before 2.0)
compute float32 input in double precision.
"""

import numpy as np

__all__ = ["NdFFTMixin"]


class NdFFTMixin:
    """Mixed into NdBackend; uses ``self.xp``."""

    # cuFFT's complex-to-real transforms read the imaginary parts of the DC and (even n)
    # Nyquist bins; NumPy's pocketfft ignores them. Backends on cuFFT set this to clear them.
    _c2r_clears_edge_bins = False

    def _fft_call(self, fn, *args, **kwargs):
        """Run one library transform (backends on cuFFT add a retry: ndlike/cuda.py)."""
        return fn(*args, **kwargs)

    def fft_1d(self, name, a, n, axis, norm, out_dtype):
        if a.dtype == np.float16:
            a = a.astype(np.float32)
        if self._c2r_clears_edge_bins and name in ("irfft", "hfft") and a.dtype.kind == "c":
            n = 2 * (a.shape[axis] - 1) if n is None else n
            a = _hermitian_edges(self.xp, a, n, axis)
        r = self._fft_call(getattr(self.xp.fft, name), a, n=n, axis=axis, norm=norm)
        return r.astype(out_dtype.np, copy=False)

    def fft_nd(self, name, a, s, axes, norm, out_dtype):
        if a.dtype == np.float16:
            a = a.astype(np.float32)
        if not axes:
            # a transform over no axes is the identity, but NumPy rejects an empty list
            return a.astype(out_dtype.np, copy=True)
        if self._c2r_clears_edge_bins and name == "irfftn" and a.dtype.kind == "c":
            return self._irfftn_as_numpy(a, s, axes, norm).astype(out_dtype.np, copy=False)
        r = self._fft_call(getattr(self.xp.fft, name), a, s=s, axes=axes, norm=norm)
        return r.astype(out_dtype.np, copy=False)

    def _irfftn_as_numpy(self, a, s, axes, norm):
        # NumPy's order: complex inverse transforms over the leading axes, then irfft on the
        # last, whose edge bins lose their imaginary parts only at that point (cuFFT's
        # multi-dimensional C2R assumes Hermitian symmetry across every axis instead)
        xp = self.xp
        axes = tuple(axes)
        if s is None:
            s = tuple(a.shape[ax] for ax in axes[:-1]) + (2 * (a.shape[axes[-1]] - 1),)
        s = tuple(s)
        if len(axes) > 1:
            a = self._fft_call(xp.fft.ifftn, a, s=s[:-1], axes=axes[:-1], norm=norm)
        n, axis = s[-1], axes[-1]
        return self._fft_call(xp.fft.irfft, _hermitian_edges(xp, a, n, axis), n=n, axis=axis,
                              norm=norm)

    def fft_freq(self, n, d, rfft, dtype, device):
        # NumPy's expression, integers * (1.0 / (n * d)), in float64 and rounded once, so
        # the frequencies are bit-identical to NumPy's (CuPy divides by n * d: 1 ulp apart)
        xp = self.xp
        val = 1.0 / (n * d)
        with self.device_ctx(device):
            if rfft:
                k = xp.arange(0, n // 2 + 1, dtype=np.int64)
            else:
                k = xp.concatenate((xp.arange(0, (n - 1) // 2 + 1, dtype=np.int64),
                                    xp.arange(-(n // 2), 0, dtype=np.int64)))
            return (k * val).astype(dtype.np, copy=False)

    def fft_shift(self, a, axes, inverse):
        if not axes:  # nothing to shift (NumPy's own fails on a 0-d array); never an alias
            return a.copy()
        xp = self.xp
        fn = xp.fft.ifftshift if inverse else xp.fft.fftshift
        return fn(a, axes=axes)


def _hermitian_edges(xp, a, n, axis):
    """``a`` cut or zero-padded to n // 2 + 1 bins along ``axis`` (as the C2R transform
    would), with the imaginary parts of bin 0 and, for even n, bin n // 2 set to zero: the
    input NumPy's irfft effectively transforms. Always a new array."""
    m = n // 2 + 1
    have = a.shape[axis]
    shape = list(a.shape)
    shape[axis] = m
    out = xp.zeros(tuple(shape), dtype=a.dtype)
    keep = [slice(None)] * a.ndim
    keep[axis] = slice(0, min(m, have))
    keep = tuple(keep)
    out[keep] = a[keep]
    edges = (0, m - 1) if n % 2 == 0 and m > 1 else (0,)
    for i in edges:
        at = [slice(None)] * a.ndim
        at[axis] = slice(i, i + 1)
        at = tuple(at)
        out[at] = out[at].real.copy()
    return out
