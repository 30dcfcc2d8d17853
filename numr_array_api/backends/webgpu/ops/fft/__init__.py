"""The ``fft`` extension on the GPU: every transform, fftfreq / rfftfreq and the shifts.

  wgsl.py    WGSL fragments: complex helpers, butterflies, row loaders / storers (the batch
             layouts and load / store modes)
  specs.py   kernel specs: Stockham stage, workgroup-memory transform (FastSpec), Bluestein
             chirp and filter product, real-transform twiddle pass, frequencies
  plan.py    Plan: one complex transform length / dtype / direction on one adapter (shared,
             fourstep, stockham or bluestein), cached on the client with its tables
  real.py    the transforms the standard names, built from plans: padding / truncation,
             norms, real transforms (half-length complex trick for even n), n-d transforms,
             slabs of rows beyond one binding
  *.wgsl     the fixed kernels (Stockham stage, chirp multiply, real twiddle pass)

Nothing here reads data back to the host; only plan-time tables (twiddles, chirps, the
chirp filter's spectrum) are computed on the host in float64 and uploaded once per plan.
Tuning values: the FFT_* knobs (numr_array_api/tuning/knobs/fft.py).
"""

from ...codegen.render import workgroups
from ...storage import WgpuStorage
from . import real
from .specs import FreqSpec

__all__ = ["FFTMixin"]


def _f32_parts(v):
    import numpy as np
    a = np.float32(v)
    r1 = v - float(a)
    b = np.float32(r1)
    c = np.float32(r1 - float(b))
    return [int(x.view(np.uint32)) for x in (a, b, c)]


class FFTMixin:
    # a repeated call replays its recorded dispatches (runtime/recipes.py): the planning
    # above them costs as much host time as a batch of short rows takes on a GPU
    def fft_1d(self, name, a, n, axis, norm, out_dtype):
        return a.client.recipes.call(
            ("fft_1d", name, n, axis, norm, out_dtype), (a,),
            lambda: real.one_d(name, a, n, axis, norm, out_dtype))

    def fft_nd(self, name, a, s, axes, norm, out_dtype):
        return a.client.recipes.call(
            ("fft_nd", name, tuple(s), tuple(axes), norm, out_dtype),
            (a,), lambda: real.n_d(name, a, s, axes, norm, out_dtype))

    def fft_freq(self, n, d, rfft, dtype, device):
        client = self._client(device)
        count = n // 2 + 1 if rfft else n
        out = WgpuStorage._new((count,), dtype, client)
        wide = client.has("shader-f64")
        k = client.kernel(FreqSpec(dtype.name, wide))
        v = _f32_parts(1.0 / (n * d))
        k.launch(workgroups(count, client), y=out, n=n, count=count, full=0 if rfft else 1,
                 v0=v[0], v1=v[1], v2=v[2])
        return out

    def fft_shift(self, a, axes, inverse):
        # a roll by n // 2 (fftshift) or -(n // 2) (ifftshift) along each axis: the GPU roll
        # of ops/manipulation.py (raw copies, every dtype), never aliasing its input
        shifts = tuple((-(a.shape[ax] // 2)) if inverse else a.shape[ax] // 2 for ax in axes)
        return self.roll(a, shifts, tuple(axes))

