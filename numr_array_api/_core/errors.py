"""numr's error taxonomy, as subclasses of the built-in exceptions the array API expects.

Every exception raised on bad input is one of these, so callers can catch either the numr
class (``except numr.errors.ShapeMismatch``) or the standard one (``except ValueError``).
"""

__all__ = [
    "NumrError",
    "InvalidArgument",
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
