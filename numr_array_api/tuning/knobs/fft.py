"""Tuning knobs of the fft family (see numr_array_api.tuning.registry): the workgroup-memory
kernel of the WebGPU FFT (backends/webgpu/ops/fft, FastSpec) and the length cap of its
plans."""

from ..registry import Knob, declare

FAMILY = "fft"

declare(
    Knob("FFT_PAD", int, 4,
         "padding shift of the workgroup-memory row (ph(i) = i + i >> pad; 0: none): a bank "
         "model of the 1024 / 2048 / 4096-point stages (16 eight-byte bank pairs per half "
         "warp) finds every access conflict-free but one 2-way write at 4; 3 makes most "
         "reads 2-way, none makes the first write 8-way",
         FAMILY, choices=(0, 3, 4, 5), lo=0, hi=8),
    Knob("FFT_EPT", int, 8,
         "elements of a row per thread of the workgroup-memory kernel (rounded down to a "
         "power of two; 8: one radix-8 butterfly a thread per stage)",
         FAMILY, choices=(4, 8, 16), lo=2, hi=64),
    Knob("FFT_WGT", int, 256,
         "threads per workgroup the workgroup-memory kernel aims at (rounded down to a power "
         "of two; short rows share a workgroup up to it)",
         FAMILY, choices=(64, 128, 256, 512), lo=32, hi=1024),
    Knob("FFT_CAP", int, 0,
         "the longest row one workgroup-memory dispatch takes, lowered to this power of two "
         "(0: the adapter's, from its workgroup storage): tests reach the four-step and "
         "nested four-step methods at small lengths with it",
         FAMILY, lo=0, tunable=False),
)


def workloads(xp, quick):
    """A 1-D complex64 fft (four-step, nested beyond the cap^2 of the adapter at full size),
    a Bluestein length, a batch of rows and rfft2 (the real trick, then strided columns)."""
    import numpy as np

    rng = np.random.default_rng(0)

    def cplx(shape):
        return xp.asarray((rng.standard_normal(shape)
                           + 1j * rng.standard_normal(shape)).astype("complex64"))
    n, blue, batch, side = ((1 << 12, (1 << 10) + 7, (64, 1024), 256) if quick else
                            (1 << 22, (1 << 20) + 7, (4096, 1024), 4096))
    x, xb, xr = cplx((n,)), cplx((blue,)), cplx(batch)
    r = xp.asarray(rng.standard_normal((side, side)).astype("float32"))
    return [(f"fft complex64 {n}", lambda: xp.fft.fft(x)),
            (f"fft complex64 {blue} (Bluestein)", lambda: xp.fft.fft(xb)),
            (f"fft complex64 {batch[0]} x {batch[1]}", lambda: xp.fft.fft(xr)),
            (f"rfft2 float32 {side} x {side}", lambda: xp.fft.rfftn(r, axes=(0, 1)))]
