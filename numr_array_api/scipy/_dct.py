"""Discrete cosine and sine transforms (types 1 to 4) on any array namespace, through its FFT.

SciPy's DCT / DST have no array API counterpart, so on a device array SciPy computes them
on the host. Here they are a few namespace calls around one complex FFT of the same length
(Makhoul's reordering), so the data stays where it is:

    DCT-II   y = 2 Re(w * FFT(v)),  v = x[0::2] followed by x[1::2] reversed,  w_k = e^(-i pi k / 2N)
    DCT-III  its inverse: V_k = (X_k - i X_(N-k)) conj(w_k) / 2, v = IFFT(V), x from v
    DST-II   DCT-II of x_n (-1)^n, reversed
    DST-III  (-1)^k DCT-III of x reversed
    DCT-I    Re(RFFT(x_0 .. x_(N-1), x_(N-2) .. x_1)), the even extension of length 2N-2
    DST-I    -Im(FFT(0, x, 0, -x reversed))[1:N+1], the odd extension of length 2N+2
    DCT-IV   2 Re(e^(-i pi (2k+1) / 4N) FFT_2N(x_n e^(-i pi n / 2N))_k), k < N
    DST-IV   -2 Im of the same

with SciPy's normalisations ("backward", "forward", "ortho" and ``orthogonalize``).
"""

from __future__ import annotations

import math
import operator

from .._core.errors import InvalidArgument

__all__ = ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn", "supported"]

_NORMS = (None, "backward", "forward", "ortho")
_INVERSE_NORM = {None: "forward", "backward": "forward", "forward": "backward",
                 "ortho": "ortho"}
_INVERSE_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}


def supported(type=2, norm=None, orthogonalize=None) -> bool:
    """Whether these options are computed here (else SciPy's own code must run)."""
    return type in (1, 2, 3, 4) and norm in _NORMS


def _check(type, norm, orthogonalize, fname):
    if norm not in _NORMS:
        raise InvalidArgument("norm", f"{fname}: must be None, 'backward', 'forward' or "
                              f"'ortho', got {norm!r}")
    if type not in (1, 2, 3, 4):
        raise InvalidArgument("type", f"{fname}: must be 1, 2, 3 or 4, got {type!r}")


def _namespace(x):
    import array_api_compat
    return array_api_compat.array_namespace(x)


def _real_dtype(xp, x):
    """SciPy's result dtype: float32 stays (float16 computes in it), other reals float64."""
    dt = x.dtype
    if dt in (xp.float32, xp.float64):
        return dt
    if dt == xp.float16:
        return xp.float32
    return xp.float64


def _resize(xp, x, n):
    """``x`` cut or zero-padded to ``n`` along its last axis."""
    N = x.shape[-1]
    if n is None or n == N:
        return x
    n = _length(n, "n")
    if n < N:
        return x[..., :n]
    pad = xp.zeros(x.shape[:-1] + (n - N,), dtype=x.dtype, device=x.device)
    return xp.concat([x, pad], axis=-1)


def _angles(xp, N, dtype, device):
    k = xp.arange(N, dtype=dtype, device=device)
    return k * (math.pi / (2 * N))


def _dct2(xp, x):
    """SciPy's unnormalised DCT-II over the last axis of a real array."""
    N = x.shape[-1]
    v = xp.concat([x[..., ::2], xp.flip(x[..., 1::2], axis=-1)], axis=-1)
    V = xp.fft.fft(v)
    a = _angles(xp, N, x.dtype, x.device)
    # 2 Re((cos a - i sin a) V)
    return 2 * (xp.cos(a) * xp.real(V) + xp.sin(a) * xp.imag(V))


def _dct3(xp, X):
    """SciPy's unnormalised DCT-III over the last axis (2N times the inverse of DCT-II)."""
    N = X.shape[-1]
    zero = xp.zeros(X.shape[:-1] + (1,), dtype=X.dtype, device=X.device)
    Xs = xp.concat([zero, xp.flip(X[..., 1:], axis=-1)], axis=-1)   # X_(N-k), X_N = 0
    a = _angles(xp, N, X.dtype, X.device)
    c, s = xp.cos(a), xp.sin(a)
    # V = (X - i Xs)(c + i s) / 2, times N: the 2N of DCT-III over ifft's 1/N
    re = (X * c + Xs * s) * N
    im = (X * s - Xs * c) * N
    v = xp.real(xp.fft.ifft(re + 1j * im))
    h = (N + 1) // 2
    even, odd = v[..., :h], xp.flip(v[..., h:], axis=-1)
    if N % 2:
        odd = xp.concat([odd, zero], axis=-1)
    out = xp.reshape(xp.stack([even, odd], axis=-1), X.shape[:-1] + (2 * h,))
    return out[..., :N]


def _signs(xp, N, dtype, device):
    k = xp.arange(N, device=device)
    return xp.astype(1 - 2 * (k % 2), dtype)


def _scaled_first(xp, y, factor, last=False):
    """``y`` with its first (``last``: last) element along the last axis times ``factor``."""
    if y.shape[-1] == 1:
        return y * factor
    if last:
        return xp.concat([y[..., :-1], y[..., -1:] * factor], axis=-1)
    return xp.concat([y[..., :1] * factor, y[..., 1:]], axis=-1)


def _type2(xp, x, norm, orth):
    N = x.shape[-1]
    y = _dct2(xp, x)
    if orth:   # SciPy's orthogonalize: the first output over sqrt(2), whatever the norm
        y = _scaled_first(xp, y, 1 / math.sqrt(2))
    return y * _norm_factor(norm, 2 * N)


def _type3(xp, x, norm, orth):
    N = x.shape[-1]
    if orth:   # the inverse of type 2's: the first input times sqrt(2)
        x = _scaled_first(xp, x, math.sqrt(2))
    return _dct3(xp, x) * _norm_factor(norm, 2 * N)


def _norm_factor(norm, length):
    """SciPy's scale of an unnormalised transform whose inverse divides by ``length``."""
    if norm == "forward":
        return 1 / length
    if norm == "ortho":
        return math.sqrt(1 / length)
    return 1.0


def _type1(xp, x, kind, norm, orth, fname):
    N = x.shape[-1]
    if kind == "dct":
        if N < 2:
            raise InvalidArgument("x", f"{fname}: the type-1 DCT needs at least 2 points "
                                       f"along the axis, got {N}")
        if orth:
            x = _scaled_first(xp, _scaled_first(xp, x, math.sqrt(2)), math.sqrt(2), last=True)
        v = xp.concat([x, xp.flip(x[..., 1:N - 1], axis=-1)], axis=-1)
        y = xp.real(xp.fft.rfft(v))
        if orth:
            y = _scaled_first(xp, _scaled_first(xp, y, 1 / math.sqrt(2)), 1 / math.sqrt(2),
                              last=True)
        return y * _norm_factor(norm, 2 * (N - 1))
    zero = xp.zeros(x.shape[:-1] + (1,), dtype=x.dtype, device=x.device)
    v = xp.concat([zero, x, zero, -xp.flip(x, axis=-1)], axis=-1)
    y = -xp.imag(xp.fft.rfft(v))[..., 1:N + 1]
    return y * _norm_factor(norm, 2 * (N + 1))


def _type4(xp, x, kind, norm):
    N = x.shape[-1]
    ctype = xp.complex64 if x.dtype == xp.float32 else xp.complex128
    n = xp.arange(N, dtype=x.dtype, device=x.device)
    a = n * (math.pi / (2 * N))
    z = xp.astype(x * xp.cos(a), ctype) - 1j * xp.astype(x * xp.sin(a), ctype)
    Z = xp.fft.fft(z, n=2 * N)[..., :N]
    b = (2 * n + 1) * (math.pi / (4 * N))
    c, s = xp.cos(b), xp.sin(b)
    # e^(-i b) Z = (c Re Z + s Im Z) + i (c Im Z - s Re Z)
    if kind == "dct":
        y = 2 * (c * xp.real(Z) + s * xp.imag(Z))
    else:
        y = -2 * (c * xp.imag(Z) - s * xp.real(Z))
    return y * _norm_factor(norm, 2 * N)


def _transform(x, kind, type, n, axis, norm, orthogonalize, fname):
    _check(type, norm, orthogonalize, fname)
    xp = _namespace(x)
    orth = (norm == "ortho") if orthogonalize is None else bool(orthogonalize)
    if xp.isdtype(x.dtype, "complex floating"):
        return (_transform(xp.real(x), kind, type, n, axis, norm, orthogonalize, fname) +
                1j * _transform(xp.imag(x), kind, type, n, axis, norm, orthogonalize, fname))
    if x.ndim == 0:
        raise InvalidArgument("x", f"{fname}: needs at least one dimension")
    x = xp.moveaxis(xp.astype(x, _real_dtype(xp, x)), axis, -1)
    x = _resize(xp, x, n)
    N = x.shape[-1]
    if type == 1:
        y = _type1(xp, x, kind, norm, orth, fname)
    elif type == 4:
        y = _type4(xp, x, kind, norm)
    elif kind == "dct":
        y = _type2(xp, x, norm, orth) if type == 2 else _type3(xp, x, norm, orth)
    elif type == 2:     # DST-II: DCT-II of x_n (-1)^n, reversed
        y = xp.flip(_type2(xp, x * _signs(xp, N, x.dtype, x.device), norm, orth), axis=-1)
    else:               # DST-III: (-1)^k DCT-III of x reversed
        y = _signs(xp, N, x.dtype, x.device) * _type3(xp, xp.flip(x, axis=-1), norm, orth)
    return xp.moveaxis(y, -1, axis)


def dct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
        orthogonalize=None):
    """scipy.fft.dct on ``x``'s own namespace (its device)."""
    return _transform(x, "dct", type, n, axis, norm, orthogonalize, "dct")


def idct(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None):
    """scipy.fft.idct: the DCT of the inverse type with the inverse normalisation."""
    _check(type, norm, orthogonalize, "idct")
    return _transform(x, "dct", _INVERSE_TYPE[type], n, axis, _INVERSE_NORM[norm],
                      orthogonalize, "idct")


def dst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
        orthogonalize=None):
    """scipy.fft.dst on ``x``'s own namespace (its device)."""
    return _transform(x, "dst", type, n, axis, norm, orthogonalize, "dst")


def idst(x, type=2, n=None, axis=-1, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None):
    """scipy.fft.idst: the DST of the inverse type with the inverse normalisation."""
    _check(type, norm, orthogonalize, "idst")
    return _transform(x, "dst", _INVERSE_TYPE[type], n, axis, _INVERSE_NORM[norm],
                      orthogonalize, "idst")


def _length(n, name):
    """A transform length as SciPy takes it: any integer (NumPy's too), at least 1."""
    try:
        if isinstance(n, bool):
            raise TypeError
        n = operator.index(n)
    except TypeError:
        raise InvalidArgument(name, f"must be a positive int, got {n!r}") from None
    if n < 1:
        raise InvalidArgument(name, f"must be a positive int, got {n!r}")
    return n


def _ints(v):
    """An int or a sequence of them (NumPy integers and 0-d integer arrays included)."""
    try:
        return (operator.index(v),)
    except TypeError:
        return tuple(v)


def _nd(one, x, type, s, axes, norm, orthogonalize):
    if s is not None:
        s = tuple(None if v is None else _length(v, "s") for v in _ints(s))
    if axes is None:
        axes = tuple(range(x.ndim)) if s is None else tuple(range(x.ndim - len(s), x.ndim))
    else:
        axes = tuple(operator.index(a) for a in _ints(axes))
    if s is None:
        s = (None,) * len(axes)
    if len(s) != len(axes):
        raise InvalidArgument("s", f"has {len(s)} lengths for {len(axes)} axes")
    for n, ax in zip(s, axes):
        x = one(x, type=type, n=n, axis=ax, norm=norm, orthogonalize=orthogonalize)
    return x


def dctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None):
    """scipy.fft.dctn: dct over each of ``axes``."""
    return _nd(dct, x, type, s, axes, norm, orthogonalize)


def idctn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
          orthogonalize=None):
    """scipy.fft.idctn: idct over each of ``axes``."""
    return _nd(idct, x, type, s, axes, norm, orthogonalize)


def dstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
         orthogonalize=None):
    """scipy.fft.dstn: dst over each of ``axes``."""
    return _nd(dst, x, type, s, axes, norm, orthogonalize)


def idstn(x, type=2, s=None, axes=None, norm=None, overwrite_x=False, workers=None,
          orthogonalize=None):
    """scipy.fft.idstn: idst over each of ``axes``."""
    return _nd(idst, x, type, s, axes, norm, orthogonalize)
