"""numr's error taxonomy, as subclasses of the built-in exceptions the array API expects.

Every exception raised on bad input is one of these, so callers can catch either the numr
class (``except numr.errors.ShapeMismatch``) or the standard one (``except ValueError``).
"""

__all__ = [
    "NumrError",
    "InvalidArgument",
    "InvalidType",
    "OutOfRange",
    "DeviceMismatch",
    "NamespaceMismatch",
    "InvalidIndex",
    "ShapeMismatch",
    "DTypeMismatch",
    "BackendLimitation",
    "BackendUnavailable",
    "OutOfMemory",
    "DeviceLost",
    "HostTransferError",
]


class NumrError(Exception):
    """Base class of every error numr raises."""


class InvalidArgument(NumrError, ValueError):
    """An argument has a value the function does not accept."""

    def __init__(self, arg, reason):
        self.arg = arg
        self.reason = reason
        super().__init__(f"invalid argument '{arg}': {reason}")


class InvalidType(NumrError, TypeError):
    """An argument has a type the function does not accept (a str where an array or an int
    belongs, a NumPy dtype where a numr dtype belongs)."""


class OutOfRange(NumrError, OverflowError):
    """A value does not fit where it must go: a Python int beyond the dtype's range, a size
    beyond what the platform can index."""


class DeviceMismatch(NumrError, ValueError):
    """Arrays on different devices were combined; nothing was computed (the standard asks
    for an explicit ``to_device``)."""

    def __init__(self, message, devices=()):
        self.devices = tuple(devices)
        super().__init__(message)


class NamespaceMismatch(DeviceMismatch, TypeError):
    """An array of another numr namespace (a cpu array given to a webgpu function). Both a
    DeviceMismatch (ValueError) and a TypeError: the standard leaves mixing libraries
    undefined, NumPy-style callers expect TypeError, device-aware callers DeviceMismatch."""


class InvalidIndex(NumrError, IndexError):
    """An index key is out of range or malformed."""


class ShapeMismatch(NumrError, ValueError):
    """Shapes that must agree (broadcasting, matmul, concatenation) do not."""

    def __init__(self, message, expected=None, got=None):
        self.expected = expected
        self.got = got
        super().__init__(message)


class DTypeMismatch(NumrError, TypeError):
    """A dtype is not accepted, or two dtypes cannot be combined."""

    def __init__(self, message, lhs=None, rhs=None):
        self.lhs = lhs
        self.rhs = rhs
        super().__init__(message)


class BackendLimitation(NumrError, NotImplementedError):
    """The backend cannot perform this operation (e.g. a dtype the adapter lacks)."""

    def __init__(self, backend, operation, reason):
        self.backend = backend
        self.operation = operation
        self.reason = reason
        super().__init__(f"{backend}: {operation} is not supported: {reason}")


class BackendUnavailable(NumrError, RuntimeError):
    """The backend cannot be used in this process (missing library, driver or device)."""

    def __init__(self, backend, reason):
        self.backend = backend
        self.reason = reason
        super().__init__(f"backend '{backend}' is unavailable: {reason}")


class OutOfMemory(NumrError, MemoryError):
    """An allocation failed even after caches were released."""

    def __init__(self, backend, nbytes, reason=""):
        self.backend = backend
        self.nbytes = nbytes
        msg = f"{backend}: out of memory allocating {nbytes} bytes"
        super().__init__(msg + (f": {reason}" if reason else ""))


class DeviceLost(NumrError, RuntimeError):
    """The device was lost (driver reset, removal); arrays on it are unusable."""


class HostTransferError(NumrError, RuntimeError):
    """An implicit device-to-host conversion was refused by the host-transfer policy."""


def from_builtin(exc, fname, backend=None):
    """numr's error for a built-in exception ``exc`` that escaped a function ``fname``
    (raised by the wrapped library, NumPy's allocator, a conversion): same built-in base,
    same message, prefixed with the function's name. ``exc`` itself when it is already a
    numr error or not one of the built-ins the standard names."""
    if isinstance(exc, NumrError):
        return exc
    msg = str(exc)
    if not msg.startswith(fname + ":"):
        msg = f"{fname}: {msg}"
    if isinstance(exc, MemoryError):
        nbytes = getattr(exc, "_total_size", None)
        shape, dtype = getattr(exc, "shape", None), getattr(exc, "dtype", None)
        what = f"an array of shape {shape} and dtype {dtype}" if shape is not None else msg
        return OutOfMemory(backend or "numr", nbytes if nbytes is not None else "?",
                           f"{fname}: {what}")
    for builtin, cls in ((OverflowError, OutOfRange), (IndexError, InvalidIndex),
                         (TypeError, InvalidType)):
        if isinstance(exc, builtin):
            return cls(msg)
    if isinstance(exc, ValueError) and "too big" in msg:
        # NumPy's "array is too big" (more bytes than the address space): out of memory
        return OutOfMemory(backend or "numr", "more than 2**63", msg)
    if isinstance(exc, ValueError):
        err = InvalidArgument.__new__(InvalidArgument)
        err.arg, err.reason = None, msg
        Exception.__init__(err, msg)
        return err
    return exc


# users meet these as numr_array_api.errors.X (where they are documented and pickled from),
# not under this private module
for _cls in list(globals().values()):
    if isinstance(_cls, type) and issubclass(_cls, NumrError):
        _cls.__module__ = "numr_array_api.errors"
del _cls
