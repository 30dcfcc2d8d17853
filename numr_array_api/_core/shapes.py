"""Shape, axis and broadcasting validation shared by every backend."""

import operator

import math
import numbers
import os
import sys

from .errors import InvalidArgument, InvalidIndex, InvalidType, OutOfMemory, ShapeMismatch

__all__ = ["broadcast_shapes", "broadcast_named", "normalize_axis", "normalize_axes", "check_shape", "as_int"]


def as_int(value, argname):
    """An exact Python int from an int-like (bool rejected), or a clear TypeError."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise InvalidType(f"'{argname}' must be an integer, got {type(value).__name__}")
    if hasattr(value, "ndim") and not isinstance(value, numbers.Integral) and (
            value.ndim or hasattr(value, "__array_namespace__")):
        # arrays have __index__ too; an axis or a size is a Python int (a NumPy integer scalar or
        # 0-d host array), never a numr array, whose value may need a device read
        raise InvalidType(f"'{argname}' must be an integer, got an array "
                          f"({type(value).__module__}.{type(value).__name__})")
    return operator.index(value)


def check_shape(shape, argname="shape"):
    """Normalise a shape argument (int or sequence of non-negative ints) to a tuple."""
    if type(shape) is tuple:
        for s in shape:
            if type(s) is not int or s < 0:
                break
        else:
            return shape
    if isinstance(shape, (int,)) and not isinstance(shape, bool):
        shape = (shape,)
    elif hasattr(shape, "__index__") and not isinstance(shape, bool):
        shape = (operator.index(shape),)
    try:
        out = tuple(as_int(s, argname) for s in shape)
    except TypeError:
        raise InvalidType(f"'{argname}' must be an int or a sequence of ints, got {shape!r}") from None
    for s in out:
        if s < 0:
            raise InvalidArgument(argname, f"dimensions must be non-negative, got {out}")
    return out


# The most elements one array (or view) may have: 2**58 elements of 16 bytes take 2**62
# bytes, so any result computed from such an array, in any dtype, has a byte count that
# fits a signed 64 bits. CuPy computes element and byte counts in wrapping 64-bit integers, so a
# larger request allocates a tiny block and its kernel writes past it (a poisoned CUDA
# context); NumPy refuses such requests itself, a bound checked here holds for every backend.
MAX_ELEMENTS = 1 << 58


_HOST_BYTES = []


def host_memory_bytes():
    """Bytes this process could ever hold: physical memory plus swap, lowered by a cgroup
    limit; None where unknown. An allocation beyond it is accepted by an overcommitting
    kernel and the process is then killed when the pages are touched (np.ones(2**41, int8)
    on the 128 GiB GPU machine): refused up front instead."""
    if not _HOST_BYTES:
        total = None
        try:
            with open("/proc/meminfo") as f:
                info = {ln.split(":")[0]: int(ln.split()[1]) * 1024 for ln in f
                        if ln.split(":")[0] in ("MemTotal", "SwapTotal")}
            total = info.get("MemTotal", 0) + info.get("SwapTotal", 0) or None
        except (OSError, ValueError, IndexError):
            try:
                total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            except (ValueError, OSError, AttributeError):
                total = None
        for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
            try:
                with open(path) as f:
                    raw = f.read().strip()
                if raw.isdigit():
                    total = int(raw) if total is None else min(total, int(raw))
            except OSError:
                pass
        _HOST_BYTES.append(total)
    return _HOST_BYTES[0]


def check_host_memory(backend, fname, nbytes, what):
    """OutOfMemory naming the request when ``nbytes`` exceed host_memory_bytes()."""
    cap = host_memory_bytes()
    if cap is not None and nbytes > cap:
        raise OutOfMemory(backend, nbytes, f"{fname}: {what} is more than this machine's "
                                           f"memory and swap ({cap} bytes)")


def check_addressable(backend, fname, shape, itemsize=None, what=None):
    """OutOfMemory naming the request unless an array of ``shape`` (``itemsize``-byte
    elements, or any work array of the operation; None: unknown, up to 16) stays within
    MAX_ELEMENTS and a 64-bit byte count, and, on a backend that allocates host memory
    (``backend.host_memory``), within the host's memory (at least one byte an element);
    checked before a backend allocates. ``backend``: the backend or its name."""
    name = getattr(backend, "name", backend)
    count = math.prod(shape)
    what = what or f"shape {tuple(shape)}"
    if count > MAX_ELEMENTS or count * (itemsize or 16) > sys.maxsize:
        nbytes = count * max(itemsize or 16, 1)
        raise OutOfMemory(name, nbytes, f"{fname}: {what} is more than any address space "
                                        f"(numr arrays hold at most 2**58 elements)")
    if getattr(backend, "host_memory", False):
        check_host_memory(name, fname, count * (itemsize or 1), what)
    return shape


def broadcast_shapes(*shapes):
    """The broadcast of shapes, or ShapeMismatch naming both offending shapes."""
    if not shapes:
        return ()
    if len(shapes) == 1:
        return tuple(shapes[0])
    ndim = max(len(s) for s in shapes)
    out = [1] * ndim
    for s in shapes:
        off = ndim - len(s)
        for i, d in enumerate(s):
            j = off + i
            o = out[j]
            if d == o or d == 1:
                continue
            if o == 1:
                out[j] = d
            elif d is None or o is None:
                out[j] = None
            else:
                raise ShapeMismatch(
                    f"shapes {' and '.join(str(tuple(x)) for x in shapes)} cannot be broadcast "
                    f"together (dimension {j - ndim} has sizes {o} and {d})", expected=o, got=d)
    return tuple(out)


def normalize_axis(axis, ndim, argname="axis"):
    """A non-negative axis for an array of ``ndim`` dimensions (IndexError when out of range)."""
    if type(axis) is not int:
        axis = as_int(axis, argname)
    if axis < -ndim or axis >= ndim:
        raise InvalidIndex(f"'{argname}' {axis} is out of range for an array of {ndim} dimension(s)")
    return axis + ndim if axis < 0 else axis


def normalize_axes(axis, ndim, argname="axis", allow_none=True):
    """A sorted tuple of unique non-negative axes; None means all axes."""
    if axis is None:
        if not allow_none:
            raise InvalidType(f"'{argname}' must not be None")
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        axes = tuple(normalize_axis(a, ndim, argname) for a in axis)
        if len(set(axes)) != len(axes):
            raise InvalidArgument(argname, f"repeated axes in {tuple(axis)}")
        return tuple(sorted(axes))
    return (normalize_axis(axis, ndim, argname),)


def broadcast_named(fname, **shapes):
    """broadcast_shapes with an error naming the function and each argument's shape."""
    try:
        return broadcast_shapes(*shapes.values())
    except ShapeMismatch as e:
        parts = ", ".join(f"'{k}' has shape {tuple(v)}" for k, v in shapes.items())
        raise ShapeMismatch(f"{fname}: shapes cannot be broadcast together: {parts}",
                            e.expected, e.got) from None
