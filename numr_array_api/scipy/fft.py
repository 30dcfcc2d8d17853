"""scipy.fft for numr arrays on their own device: a backend for SciPy's public fft protocol.

    import scipy.fft
    import numr_array_api.scipy.fft as nfft

    with scipy.fft.set_backend(nfft):          # for a block
        y = scipy.fft.dct(x)                   # x a numr array: computed on x's device
    scipy.fft.set_global_backend(nfft)         # for the process

For a numr array, the transforms of the array API standard go to its namespace's ``fft``
(on the GPU for webgpu and cuda arrays), and the DCT / DST of types 1 to 4 are computed
from its FFT (``dct``, ``idct``, ``dst``, ``idst`` and their n-dimensional forms, usable
directly too). Anything else (other arrays, Hermitian
n-dimensional transforms, a ``plan``) is declined, and SciPy's own implementation runs (on
the host, under numr's host-conversion policy). With ``SCIPY_ARRAY_API=1`` SciPy already
sends the standard's transforms to the array's namespace; the backend adds the DCT / DST and
works without that switch.
"""

from __future__ import annotations

import inspect

from .._core.array import Array
from .._core.errors import InvalidArgument
from . import _dct
from ._dct import dct, dctn, dst, dstn, idct, idctn, idst, idstn

__all__ = ["dct", "idct", "dst", "idst", "dctn", "idctn", "dstn", "idstn",
           "__ua_domain__", "__ua_function__"]

__ua_domain__ = "numpy.scipy.fft"

# (fftshift and the frequency helpers are plain functions in scipy.fft, not dispatched)
_STANDARD = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2",
             "irfft2", "fftn", "ifftn", "rfftn", "irfftn")
_DCT = {"dct": dct, "idct": idct, "dst": dst, "idst": idst, "dctn": dctn, "idctn": idctn,
        "dstn": dstn, "idstn": idstn}
_2D = {"fft2": "fftn", "ifft2": "ifftn", "rfft2": "rfftn", "irfft2": "irfftn"}


_signatures: dict = {}   # a multimethod's signature: inspect.signature costs ~20 us a call


def _bound(method, args, kwargs):
    sig = _signatures.get(method)
    if sig is None:
        sig = _signatures[method] = inspect.signature(method)
    try:
        b = sig.bind(*args, **kwargs)
    except TypeError:
        return None
    b.apply_defaults()
    return b.arguments


def __ua_function__(method, args, kwargs):
    """SciPy's dispatch: the result for a numr array, NotImplemented for anything else."""
    name = getattr(method, "__name__", "")
    if name not in _DCT and name not in _STANDARD:
        return NotImplemented
    a = _bound(method, args, kwargs)
    if a is None or not isinstance(a.get("x"), Array):
        return NotImplemented
    if a.get("plan") is not None:
        return NotImplemented
    if a.get("workers") is not None and name in _STANDARD:
        # SciPy's own rule for the standard's transforms of arrays other than NumPy's (its
        # DCT / DST take the host path, where workers sizes a thread pool: accepted there)
        raise InvalidArgument("workers", f"scipy.fft.{name}: 'workers' is only supported "
                                         "for NumPy arrays")
    x = a["x"]
    if name in _DCT:
        if not _dct.supported(a["type"], a["norm"], a["orthogonalize"]):
            return NotImplemented
        shape = {"s": a["s"], "axes": a["axes"]} if name.endswith("n") else \
            {"n": a["n"], "axis": a["axis"]}
        return _DCT[name](x, type=a["type"], norm=a["norm"],
                          orthogonalize=a["orthogonalize"], **shape)
    fft = x.__array_namespace__().fft
    norm = a["norm"] or "backward"
    if name in _2D or name.endswith("n"):
        s, axes = a["s"], a["axes"]
        if name in _2D and axes is None:
            axes = (-2, -1)
        elif axes is None and isinstance(s, (tuple, list)):
            # SciPy transforms the last len(s) axes; the standard asks for axes with s
            axes = tuple(range(-len(s), 0))
        return getattr(fft, _2D.get(name, name))(x, s=s, axes=axes, norm=norm)
    return getattr(fft, name)(x, n=a["n"], axis=a["axis"], norm=norm)
