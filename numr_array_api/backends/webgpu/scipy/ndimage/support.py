"""SciPy's ndimage argument rules for numr webgpu arrays, and the passes they run.

Mirrors ``scipy/ndimage/_ni_support.py`` (outputs, modes, sequences, axes) with numr arrays
in place of NumPy ones, so the filters in filters.py read as SciPy's own Python does: the
same checks, the same errors (RuntimeError / ValueError / TypeError where SciPy raises
them), the same order of 1-D passes and the same intermediate dtypes.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Iterable

import numpy as np

from ....._core import dtypes as D
from ....._core.array import Array
from ....._core.errors import BackendLimitation
from . import run

__all__ = ["limit", "as_input", "get_output", "mode_of", "normalize_sequence", "check_axes",
           "normalize_axis", "host_small", "run_pass", "separable", "xp_of"]

_MODES = {"nearest": "nearest", "wrap": "wrap", "grid-wrap": "wrap", "reflect": "reflect",
          "grid-mirror": "reflect", "mirror": "mirror", "constant": "constant",
          "grid-constant": "constant"}


def limit(fname, what):
    """BackendLimitation naming the function and the argument webgpu does not cover."""
    return BackendLimitation("webgpu", f"scipy.ndimage.{fname} with {what}",
                             "numr's webgpu kernels do not cover it")


def xp_of(a):
    return a.__array_namespace__()


def as_input(input, like, fname):
    """``input`` as a numr array of ``like``'s namespace and device (host data goes up)."""
    if isinstance(input, Array):
        return input
    if like is None:
        raise limit(fname, "no numr webgpu array among the arguments")
    a = np.asarray(input)
    if a.dtype == object:
        raise TypeError(f"scipy.ndimage.{fname}: input of object dtype")
    return xp_of(like).asarray(a, device=like.device)


def dtype_of(spec):
    """numr DType for an ``output=`` dtype (numr dtype, NumPy dtype or type, string)."""
    d = D.coerce(spec) if not isinstance(spec, (str, type, np.dtype)) else None
    if d is None:
        d = D.from_numpy(np.dtype(spec))
    if d is None:
        raise RuntimeError(f"output dtype {spec!r} not supported")
    return d


def _complex_of(d):
    return D.complex128 if d in (D.float64, D.int64, D.uint64, D.int32, D.uint32,
                                 D.complex128) else D.complex64


def get_output(output, input, shape=None, complex_output=False, fname=""):
    """SciPy's ``_get_output`` for numr arrays: a new array, or the caller's, checked."""
    xp = xp_of(input)
    if shape is None:
        shape = input.shape
    if output is None:
        d = input.dtype if not complex_output else _complex_of(D.coerce(input.dtype))
        return xp.empty(shape, dtype=d, device=input.device)
    if isinstance(output, Array):
        if tuple(output.shape) != tuple(shape):
            raise RuntimeError("output shape not correct")
        if complex_output and D.coerce(output.dtype).kind != "c":
            raise RuntimeError("output must have complex dtype")
        if output.device != input.device or xp_of(output) is not xp:
            raise limit(fname, "an output= array of another namespace or device")
        return output
    if isinstance(output, np.ndarray):
        raise limit(fname, "a NumPy output= array for a webgpu input")
    if isinstance(output, str):
        d = np.dtype(output)
        if complex_output and d.kind != "c":
            raise RuntimeError("output must have complex dtype")
        if not issubclass(d.type, np.number):
            raise RuntimeError("output must have numeric dtype")
        return xp.empty(shape, dtype=dtype_of(d), device=input.device)
    d = dtype_of(output)
    if complex_output and d.kind != "c":
        warnings.warn("promoting specified output dtype to complex", stacklevel=3)
        d = _complex_of(d)
    return xp.empty(shape, dtype=d, device=input.device)


def mode_of(mode):
    """The kernel's boundary mode for a SciPy filter mode name."""
    try:
        return _MODES[mode]
    except (KeyError, TypeError):
        raise RuntimeError("boundary mode not supported") from None


def normalize_sequence(input, rank):
    if not isinstance(input, str) and np.iterable(input):
        out = list(input)
        if len(out) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return out
    return [input] * rank


def check_axes(axes, ndim):
    if axes is None:
        return tuple(range(ndim))
    if np.isscalar(axes):
        axes = (operator.index(axes),)
    elif isinstance(axes, Iterable):
        axes = tuple(operator.index(ax) for ax in axes)
        for ax in axes:
            if ax < -ndim or ax > ndim - 1:
                raise ValueError(f"specified axis: {ax} is out of range")
        axes = tuple(ax % ndim if ax < 0 else ax for ax in axes)
    else:
        raise ValueError("axes must be an integer, iterable of integers, or None")
    if len(set(axes)) != len(axes):
        raise ValueError("axes must be unique")
    return axes


def normalize_axis(axis, ndim):
    try:
        from numpy.lib.array_utils import normalize_axis_index
    except ImportError:  # NumPy 1.x
        from numpy.core.multiarray import normalize_axis_index
    return normalize_axis_index(axis, ndim)


def host_small(a, dtype=None):
    """A small parameter array (footprint, structure) as NumPy: an explicit, tiny read of a
    device array (the filters branch on its values as SciPy does), never the image."""
    if isinstance(a, Array):
        a = np.asarray(a.to_device("cpu")._data)
    return np.asarray(a, dtype=dtype)


def _check_dtype(d, op, fname):
    # SciPy's C filters refuse float16 (its 1-D rank filter converts it) and complex
    # (complex filters are real filters of the parts, done before this point)
    if (d == D.float16 and op != "rank") or d.kind == "c":
        raise RuntimeError("array type not supported")


def run_pass(fname, inp, out, op, fshape, lo, modes, weights=None, cval=0.0, div=1.0,
             rk=0, struct=None, nf=None, kmax=0, line=False):
    """One stencil pass from numr array ``inp`` into numr array ``out``.

    ``weights``: host values or a numr array (correlations); footprint mask for min / max /
    rank. SciPy's n-d min / max / rank filters compare in the input's type with cval cast
    to it (a C cast); its 1-D min / max (``line``) compare in double, cval uncast (a uint8
    minimum with cval=-1 is -1.0, stored as 255).
    """
    sd, od = D.coerce(inp.dtype), D.coerce(out.dtype)
    _check_dtype(sd, op, fname)
    _check_dtype(od, op, fname)
    s, o = inp._data, out._data
    client = s.client
    if op in ("min", "max", "rank") and not line:
        val = run.order_type(sd)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            c = np.asarray(cval, np.float64).astype(sd.np if sd != D.float16 else np.float32)
            cval = c.astype(run._NP[val]) if val[0] != "f" else float(c)
    else:
        val = run.compute_type(sd, od, client)
    if isinstance(weights, Array):
        xp = xp_of(inp)
        head = inp._ctx.wrap(run.params(val, client, cval, div))
        wd = xp.reshape(xp.astype(weights, run._DT[val]), (-1,))
        w = xp.concat([head, wd])._data
    else:
        w = run.params(val, client, cval, div, weights, struct)

    def assign(dst, y):
        out[...] = inp._ctx.wrap(y)

    run.stencil(s, o, op, val, fshape, lo, modes, w, nf=nf, rk=rk, kmax=kmax,
                struct=struct is not None, assign=assign, line=line)
    return out


def separable(input, output, passes):
    """Run 1-D passes one after another as SciPy does (each pass's result in the output
    dtype); intermediates are fresh arrays, only the last pass writes ``output``."""
    xp = xp_of(input)
    if not passes:
        output[...] = input
        return output
    cur = input
    for i, p in enumerate(passes):
        dst = output if i == len(passes) - 1 else xp.empty(input.shape, dtype=output.dtype,
                                                             device=input.device)
        p(cur, dst)
        cur = dst
    return output
