"""convolve, correlate, fftconvolve, oaconvolve, convolve2d, correlate2d and
choose_conv_method for webgpu arrays.

Two engines: the direct correlation kernel (direct.py: exact for integers, the only one
with 'wrap' / 'symm' boundaries) and the FFT product through the namespace's own
``fft`` (rfftn / irfftn, or fftn / ifftn for complex data) at lengths of the form
2^a 3^b 5^c 7^d, which numr's FFT computes without Bluestein's detour. ``method='auto'``
chooses as SciPy's ``choose_conv_method`` does from the shapes; integer and boolean data
always take the direct kernel (SciPy looks at the data's magnitude on the host to allow
the FFT; the direct result is the exact one SciPy rounds its FFT result to).
"""

from __future__ import annotations

import functools
import operator

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from . import _common as C
from .direct import correlate_direct

__all__ = ["convolve", "correlate", "fftconvolve", "oaconvolve", "convolve2d",
           "correlate2d", "choose_conv_method"]

_BOUNDARY = {"fill": "fill", "pad": "fill", "wrap": "wrap", "circular": "wrap",
             "symm": "symm", "symmetric": "symm"}

# the dtype the direct kernel computes a result dtype in (the rest are native)
_WIDEN = {D.int8: D.int32, D.int16: D.int32, D.uint8: D.uint32, D.uint16: D.uint32,
          D.bool_: D.uint32, D.float16: D.float32}


@functools.lru_cache(maxsize=1024)
def fast_length(n, real=False):
    """The smallest 2^a 3^b 5^c 7^d >= n (lengths numr's FFT runs without Bluestein); even
    for a real transform (an odd real length runs the full-length complex transform, not
    the half-length one)."""
    if real and n > 2:
        return 2 * fast_length(-(-n // 2))
    best = 1
    while best < n:
        best *= 2
    p7 = 1
    while p7 < 2 * n:
        p5 = p7
        while p5 < 2 * n:
            p3 = p5
            while p3 < 2 * n:
                m = p3
                while m < n:
                    m *= 2
                best = min(best, m)
                p3 *= 3
            p5 *= 5
        p7 *= 7
    return best


def _pair(in1, in2):
    xp, like = C.namespace(in1, in2)
    return xp, C.on_device(xp, in1, like), C.on_device(xp, in2, like)


# ---- direct ------------------------------------------------------------------------------

def _direct(xp, a, k, mode, *, flip, conj, boundary="fill", fillvalue=0, late=False):
    """The correlation of ``a`` with ``k`` (flipped for a convolution, conjugated for a
    complex correlation) in the result dtype of the two, through the direct kernel.
    'same' keeps the centre of the full result, starting (m - 1) // 2 in (m the kernel's
    length), or m // 2 with ``late`` (correlate2d's centring of even kernels)."""
    rt = xp.result_type(a.dtype, k.dtype)
    ct = _WIDEN.get(rt, rt)
    a = a if a.dtype == ct else xp.astype(a, ct)
    k = k if k.dtype == ct else xp.astype(k, ct)
    if conj and C.is_complex(ct):
        k = xp.conj(k)
    if flip:
        k = xp.flip(k)
    A, K = a.shape, k.shape
    if mode == "full":
        shape = tuple(n + m - 1 for n, m in zip(A, K))
        start = tuple(1 - m for m in K)
    elif mode == "same":
        shape = A
        start = tuple(1 - m + (m // 2 if late else (m - 1) // 2) for m in K)
    else:
        shape = tuple(n - m + 1 for n, m in zip(A, K))
        start = (0,) * len(A)
    fill = xp.full((1,), fillvalue, dtype=ct, device=a.device)
    out = a._ctx.wrap(correlate_direct(a._data, k._data, shape, start, boundary, fill._data))
    if rt == D.bool_:
        return out != 0
    return out if rt == ct else xp.astype(out, rt)


def _check_pair(a, k, fname):
    if a.ndim != k.ndim:
        raise InvalidArgument("in2", f"{fname}: volume and kernel should have the same "
                              f"dimensionality, got {a.ndim} and {k.ndim}")


def _direct_empty(a, k, mode, fname):
    """SciPy's direct convolution refuses an empty input except an empty first input in
    'same' mode (an empty result)."""
    if a.size == 0 and mode == "same":
        return True
    raise InvalidArgument("in1" if a.size == 0 else "in2",
                          f"{fname}: inputs cannot be empty")


# ---- method choice ----------------------------------------------------------------------

class _Shape:
    """What SciPy's cost model reads of an array: its shape (no data)."""

    def __init__(self, shape):
        self.shape = tuple(shape)
        self.ndim = len(shape)
        self.size = 1
        for n in shape:
            self.size *= n


def _fft_faster(s1, s2, mode):
    try:
        from scipy.signal._signaltools import _fftconv_faster
    except ImportError:          # a SciPy without the model: the larger product decides
        return _Shape(s1).size * _Shape(s2).size > 1 << 16
    return bool(_fftconv_faster(_Shape(s1), _Shape(s2), mode))


def choose_conv_method(in1, in2, mode="full", measure=False):
    xp, a, k = _pair(in1, in2)
    if measure:
        raise C.limitation("choose_conv_method", "measure=True",
                           "timing both methods is not implemented for webgpu arrays")
    return _choose(a, k, mode)


def _choose(a, k, mode):
    C.check_mode(mode)
    for dt in (a.dtype, k.dtype):
        if dt == D.bool_ or C.is_integral(dt):
            return "direct"
    return "fft" if _fft_faster(a.shape, k.shape, mode) else "direct"


# ---- convolve / correlate ---------------------------------------------------------------

def convolve(in1, in2, mode="full", method="auto"):
    xp, a, k = _pair(in1, in2)
    if a.ndim == k.ndim == 0:
        return a * k
    _check_pair(a, k, "convolve")
    C.check_mode(mode)
    if C.swap_needed(mode, a.shape, k.shape):
        a, k = k, a
    if method == "auto":
        method = _choose(a, k, mode)
    if method == "fft":
        return _fft_as_direct(xp, fftconvolve(a, k, mode=mode), a, k)
    if method != "direct":
        raise InvalidArgument("method", "acceptable method flags are 'auto', 'direct', or "
                              f"'fft', not {method!r}")
    if a.size == 0 or k.size == 0:
        if _direct_empty(a, k, mode, "convolve"):
            return xp.zeros((0,), dtype=xp.result_type(a.dtype, k.dtype), device=a.device)
    return _direct(xp, a, k, mode, flip=True, conj=False)


def _fft_as_direct(xp, out, a, k):
    """An FFT result in the dtype the direct method gives (integers rounded)."""
    rt = xp.result_type(a.dtype, k.dtype)
    if rt == D.bool_ or C.is_integral(rt):
        out = xp.round(out)
    return out if out.dtype == rt else xp.astype(out, rt)


def correlate(in1, in2, mode="full", method="auto"):
    xp, a, k = _pair(in1, in2)
    C.check_mode(mode)
    if a.ndim == k.ndim == 0:
        return a * (xp.conj(k) if C.is_complex(k.dtype) else k)
    _check_pair(a, k, "correlate")
    if method in ("fft", "auto"):
        kr = xp.flip(k)
        if C.is_complex(kr.dtype):
            kr = xp.conj(kr)
        return convolve(a, kr, mode, method)
    if method != "direct":
        raise InvalidArgument("method", "acceptable method flags are 'auto', 'direct', or "
                              f"'fft', not {method!r}")
    if a.size == 0 or k.size == 0:
        if _direct_empty(a, k, mode, "correlate"):
            return xp.zeros((0,), dtype=xp.result_type(a.dtype, k.dtype), device=a.device)
    if C.swap_needed(mode, a.shape, k.shape):
        z = _direct(xp, k, a, mode, flip=False, conj=True)
        z = xp.flip(z)
        return xp.conj(z) if C.is_complex(z.dtype) else z
    return _direct(xp, a, k, mode, flip=False, conj=True)


# ---- 2-D with boundaries ----------------------------------------------------------------

def _conv2(in1, in2, mode, boundary, fillvalue, fname, flip):
    xp, a, k = _pair(in1, in2)
    if not a.ndim == k.ndim == 2:
        raise InvalidArgument("in1", f"{fname} inputs must both be 2-D arrays")
    C.check_mode(mode)
    b = _BOUNDARY.get(boundary)
    if b is None:
        raise InvalidArgument("boundary", "acceptable boundary flags are 'fill', 'circular' "
                              f"(or 'wrap'), and 'symmetric' (or 'symm'), not {boundary!r}")
    if a.size == 0 or k.size == 0:
        raise C.limitation(fname, "an empty input", "SciPy's answer to it is "
                           "platform-defined; give non-empty arrays")
    swapped = C.swap_needed(mode, a.shape, k.shape)
    if swapped:
        a, k = k, a
    out = _direct(xp, a, k, mode, flip=flip, conj=not flip, boundary=b, fillvalue=fillvalue,
                  late=not flip)
    if swapped and not flip:
        out = xp.flip(out)
    return out


def convolve2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    return _conv2(in1, in2, mode, boundary, fillvalue, "convolve2d", True)


def correlate2d(in1, in2, mode="full", boundary="fill", fillvalue=0):
    return _conv2(in1, in2, mode, boundary, fillvalue, "correlate2d", False)


# ---- FFT ---------------------------------------------------------------------------------

def _fft_axes(a, k, axes, mode):
    s1, s2 = a.shape, k.shape
    nd = a.ndim
    if axes is None:
        ax = list(range(nd))
    else:
        items = axes if isinstance(axes, (list, tuple)) else [axes]
        if not items:
            raise InvalidArgument("axes", "when provided, axes cannot be empty")
        ax = []
        for v in items:
            try:
                i = operator.index(v)
            except TypeError:
                raise InvalidArgument("axes", f"must be ints, got {v!r}") from None
            if not -nd <= i < nd:
                raise InvalidArgument("axes", f"axis {v} is out of bounds for dimension {nd}")
            ax.append(i % nd)
        if len(set(ax)) != len(ax):
            raise InvalidArgument("axes", "all axes must be unique")
    ax = [i for i in ax if s1[i] != 1 and s2[i] != 1]
    if not all(s1[i] == s2[i] or s1[i] == 1 or s2[i] == 1 for i in range(nd) if i not in ax):
        raise InvalidArgument("in2", f"incompatible shapes for in1 and in2: {s1} and {s2}")
    return ax


def _apply_mode(xp, ret, s1, s2, mode, axes):
    if mode == "full":
        return ret
    if mode == "same":
        return C.centered(xp, ret, s1)
    valid = [ret.shape[i] if i not in axes else s1[i] - s2[i] + 1 for i in range(ret.ndim)]
    return C.centered(xp, ret, valid)


def _padded_pair(xp, a, k, fshape, ax):
    """``a`` and ``k`` zero-padded to ``fshape`` along ``ax``, stacked on a new first axis:
    one fill and one batched transform for both (whole rows take the FFT's four-step
    kernels; rows padded inside the transform take its Stockham passes, one dispatch per
    radix stage)."""
    shape = [max(m, n) for m, n in zip(a.shape, k.shape)]
    for n, i in zip(fshape, ax):
        shape[i] = n
    be = a._ctx.be   # (storage-level fill and stores: the front end already checked both)
    buf = be.full((2, *shape), 0, a.dtype, a.device)
    for j, v in enumerate((a, k)):
        # (the axes not transformed broadcast, as in the product of the two spectra)
        want = tuple(v.shape[i] if i in ax else shape[i] for i in range(v.ndim))
        if want != tuple(v.shape):
            v = xp.broadcast_to(v, want)
        be.store(buf[(j, *(slice(0, m) for m in want))], v._data)
    return a._ctx.wrap(buf)


def fftconvolve(in1, in2, mode="full", axes=None):
    xp, a, k = _pair(in1, in2)
    if a.ndim == k.ndim == 0:
        return a * k
    if a.ndim != k.ndim:
        raise InvalidArgument("in2", "in1 and in2 should have the same dimensionality")
    if a.size == 0 or k.size == 0:
        return C.empty_result(xp, a)
    C.check_mode(mode)
    ax = _fft_axes(a, k, axes, mode)
    if C.swap_needed(mode, a.shape, k.shape, ax):
        a, k = k, a
    s1, s2 = a.shape, k.shape
    rt = C.float_result(xp, a.dtype, k.dtype)
    a = a if a.dtype == rt else xp.astype(a, rt)
    k = k if k.dtype == rt else xp.astype(k, rt)
    if not ax:
        return _apply_mode(xp, a * k, s1, s2, mode, ax)
    shape = [s1[i] + s2[i] - 1 if i in ax else max(s1[i], s2[i]) for i in range(a.ndim)]
    real = not C.is_complex(rt)
    fshape = [fast_length(shape[i], real) for i in ax]
    f = xp.fft
    if not real:
        ret = f.ifftn(f.fftn(a, s=fshape, axes=ax) * f.fftn(k, s=fshape, axes=ax),
                      s=fshape, axes=ax)
    else:
        spec = f.rfftn(_padded_pair(xp, a, k, fshape, ax), axes=[i + 1 for i in ax])
        ret = f.irfftn(spec[0] * spec[1], s=fshape, axes=ax)
    ret = ret[tuple(slice(0, n) for n in shape)]
    return _apply_mode(xp, ret, s1, s2, mode, ax)


def oaconvolve(in1, in2, mode="full", axes=None):
    # one FFT product over the whole length: the same convolution as overlap-add's blocks
    # (numr's FFT runs any 2^a 3^b 5^c 7^d length on the device in one plan)
    return fftconvolve(in1, in2, mode=mode, axes=axes)
