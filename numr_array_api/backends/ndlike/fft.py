"""Kernels of the ``fft`` extension over a NumPy-like module (NumPy or CuPy).

The front-end (``_api/fft.py``) has validated ``n`` / ``s``, normalised the axes and the
norm, and chosen the result dtype; kernels cast to it, since CuPy (and NumPy before 2.0)
compute float32 input in double precision.
"""

import numpy as np

__all__ = ["NdFFTMixin"]


class NdFFTMixin:
    """Mixed into NdBackend; uses ``self.xp``."""

    def fft_1d(self, name, a, n, axis, norm, out_dtype):
        if a.dtype == np.float16:
            a = a.astype(np.float32)
        r = getattr(self.xp.fft, name)(a, n=n, axis=axis, norm=norm)
        return r.astype(out_dtype.np, copy=False)

    def fft_nd(self, name, a, s, axes, norm, out_dtype):
        if a.dtype == np.float16:
            a = a.astype(np.float32)
        if not axes:
            # a transform over no axes is the identity, but NumPy rejects an empty list
            return a.astype(out_dtype.np, copy=True)
        r = getattr(self.xp.fft, name)(a, s=s, axes=axes, norm=norm)
        return r.astype(out_dtype.np, copy=False)

    def fft_freq(self, n, d, rfft, dtype, device):
        # computed in float64 and rounded once, so float32 frequencies are correctly rounded
        with self.device_ctx(device):
            fn = self.xp.fft.rfftfreq if rfft else self.xp.fft.fftfreq
            return fn(n, d).astype(dtype.np, copy=False)

    def fft_shift(self, a, axes, inverse):
        xp = self.xp
        fn = xp.fft.ifftshift if inverse else xp.fft.fftshift
        r = fn(a, axes=axes)
        # results never alias their input, whatever the wrapped module does for no axes
        return r.copy() if not axes else r
