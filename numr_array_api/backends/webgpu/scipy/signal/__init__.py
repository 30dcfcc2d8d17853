"""scipy.signal on webgpu arrays: numr's kernels behind ``numr_array_api.scipy.signal``.

_common.py      argument checks, dtype rules and device placement the modules share
direct.py       the direct n-dimensional correlation kernel (workgroup-memory tiles; fill,
                wrap, symmetric, mirror and nearest boundaries)
convolution.py  convolve, correlate, fftconvolve, oaconvolve, convolve2d, correlate2d,
                choose_conv_method (direct kernel or the namespace's FFT)
recurrence.py   the chunked parallel scan of linear recurrences (IIR filters)
filtering.py    lfilter, sosfilt, their initial states (lfilter_zi, sosfilt_zi, lfiltic),
                filtfilt, sosfiltfilt, deconvolve
spectral.py     detrend, hilbert, hilbert2, vectorstrength
resampling.py   upfirdn, resample_poly, decimate, resample
smoothing.py    wiener, savgol_filter
density.py      csd, welch, periodogram, coherence, spectrogram (segments by one
                gather, FFT, average)
stft.py         stft, istft (overlap-add as shifted sums)
waveforms.py    sawtooth, square, chirp, gausspulse, sweep_poly (elementwise in t)
ranks.py        medfilt, medfilt2d, order_filter (numr's webgpu ndimage rank filter)
"""

from .convolution import (choose_conv_method, convolve, convolve2d, correlate, correlate2d,
                          fftconvolve, oaconvolve)
from .density import coherence, csd, periodogram, spectrogram, welch
from .filtering import (deconvolve, filtfilt, lfilter, lfilter_zi, lfiltic, sosfilt,
                        sosfilt_zi, sosfiltfilt)
from .ranks import medfilt, medfilt2d, order_filter
from .resampling import decimate, resample, resample_poly, upfirdn
from .smoothing import savgol_filter, wiener
from .spectral import detrend, hilbert, hilbert2, vectorstrength
from .stft import istft, stft
from .waveforms import chirp, gausspulse, sawtooth, square, sweep_poly

FUNCTIONS = {
    "convolve": convolve, "correlate": correlate, "fftconvolve": fftconvolve,
    "oaconvolve": oaconvolve, "convolve2d": convolve2d, "correlate2d": correlate2d,
    "choose_conv_method": choose_conv_method, "lfilter": lfilter, "sosfilt": sosfilt,
    "lfilter_zi": lfilter_zi, "sosfilt_zi": sosfilt_zi, "filtfilt": filtfilt,
    "sosfiltfilt": sosfiltfilt, "detrend": detrend, "hilbert": hilbert,
    "upfirdn": upfirdn, "resample_poly": resample_poly, "decimate": decimate,
    "resample": resample, "wiener": wiener, "savgol_filter": savgol_filter,
    "medfilt": medfilt, "medfilt2d": medfilt2d, "order_filter": order_filter,
    "hilbert2": hilbert2, "csd": csd, "welch": welch, "periodogram": periodogram,
    "coherence": coherence, "spectrogram": spectrogram, "stft": stft, "istft": istft,
    "deconvolve": deconvolve, "sawtooth": sawtooth, "square": square, "chirp": chirp,
    "gausspulse": gausspulse, "sweep_poly": sweep_poly, "lfiltic": lfiltic,
    "vectorstrength": vectorstrength,
}
