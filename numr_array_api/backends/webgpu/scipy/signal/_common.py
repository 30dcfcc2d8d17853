"""What the webgpu signal functions share: argument checks, dtypes, arrays on the device.

Data arrays stay on the device: a host array given next to a webgpu array (a NumPy kernel,
a list) is uploaded, never the other way. Filter coefficients are the exception the
functions document: they are small, their design is host work (SciPy's own filter design
returns NumPy arrays), and the recurrences need them as numbers to build their matrices,
so a coefficient array given as a webgpu array is read back explicitly (``to_device``).
"""

from __future__ import annotations

import operator

import numpy as np

from ....._core import dtypes as D
from ....._core.array import Array
from ....._core.errors import BackendLimitation, InvalidArgument

MODES = ("full", "same", "valid")


def limitation(fname, what, why):
    return BackendLimitation("webgpu", f"scipy.signal.{fname} with {what}", why)


def namespace(*objs):
    """The namespace (and one array) of the first numr array among ``objs``."""
    for o in objs:
        if isinstance(o, Array):
            return o.__array_namespace__(), o
    raise InvalidArgument("arrays", "no numr array among the arguments")


def on_device(xp, v, like):
    """``v`` as an array of ``like``'s namespace and device (host values are uploaded)."""
    if isinstance(v, Array):
        return v
    arr = np.asarray(v)
    if arr.dtype == object:
        raise InvalidArgument("input", f"cannot make an array of {type(v).__name__}")
    return xp.asarray(arr, device=like.device)


def host_coefficients(v, name):
    """Filter coefficients as a NumPy array (see the module note)."""
    if isinstance(v, Array):
        return np.asarray(v.to_device("cpu"))
    return np.asarray(v)


def check_mode(mode):
    if mode not in MODES:
        raise InvalidArgument("mode", f"acceptable mode flags are 'valid', 'same', or "
                              f"'full', not {mode!r}")


def swap_needed(mode, s1, s2, axes=None):
    """'valid' needs the first input at least as large as the second on every axis; the
    inputs swap when the second is the larger one, and mixed sizes are refused."""
    if mode != "valid" or not s1:
        return False
    axes = range(len(s1)) if axes is None else axes
    ok1 = all(s1[i] >= s2[i] for i in axes)
    ok2 = all(s2[i] >= s1[i] for i in axes)
    if not (ok1 or ok2):
        raise InvalidArgument("in2", "for 'valid' mode, one must be at least as large as "
                              "the other in every dimension")
    return not ok1


def norm_axis(axis, ndim, fname):
    try:
        a = operator.index(axis)
    except TypeError:
        raise InvalidArgument("axis", f"{fname}: must be an int, got {axis!r}") from None
    if not -ndim <= a < ndim:
        raise InvalidArgument("axis", f"{fname}: axis {axis} is out of bounds for an array "
                              f"of dimension {ndim}")
    return a % ndim


def is_complex(dt):
    return dt in (D.complex64, D.complex128)


def is_integral(dt):
    return dt in (D.int8, D.int16, D.int32, D.int64, D.uint8, D.uint16, D.uint32, D.uint64)


def float_result(xp, *dtypes):
    """SciPy's floating result of a transform-based function: float32 / complex64 stay
    (float16 computes in float32), integers and booleans become float64."""
    out = None
    for dt in dtypes:
        if dt == D.float16:
            dt = D.float32
        elif dt == D.bool_ or is_integral(dt):
            dt = D.float64
        out = dt if out is None else xp.result_type(out, dt)
    return out


def centered(xp, arr, newshape):
    """The centre ``newshape`` block of ``arr`` (SciPy's rounding: start (n - m) // 2)."""
    idx = tuple(slice((n - m) // 2, (n - m) // 2 + m) for n, m in zip(arr.shape, newshape))
    return arr[idx]


def empty_result(xp, like):
    """SciPy's answer to an empty input of the FFT convolutions: a float64 ``[]``."""
    return xp.zeros((0,), dtype=xp.float64, device=like.device)
