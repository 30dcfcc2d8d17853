from typing import Any

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

class NumrError(Exception): ...

class InvalidArgument(NumrError, ValueError):
    arg: str
    reason: str
    def __init__(self, arg: str, reason: str) -> None: ...

class InvalidType(NumrError, TypeError): ...
class OutOfRange(NumrError, OverflowError): ...

class DeviceMismatch(NumrError, ValueError):
    devices: tuple[Any, ...]
    def __init__(self, message: str, devices: Any = ()) -> None: ...

class NamespaceMismatch(DeviceMismatch, TypeError): ...
class InvalidIndex(NumrError, IndexError): ...

class ShapeMismatch(NumrError, ValueError):
    expected: Any
    got: Any
    def __init__(self, message: str, expected: Any = None, got: Any = None) -> None: ...

class DTypeMismatch(NumrError, TypeError):
    lhs: Any
    rhs: Any
    def __init__(self, message: str, lhs: Any = None, rhs: Any = None) -> None: ...

class BackendLimitation(NumrError, NotImplementedError):
    backend: str
    operation: str
    reason: str
    def __init__(self, backend: str, operation: str, reason: str) -> None: ...

class BackendUnavailable(NumrError, RuntimeError):
    backend: str
    reason: str
    def __init__(self, backend: str, reason: str) -> None: ...

class OutOfMemory(NumrError, MemoryError):
    backend: str
    nbytes: int
    def __init__(self, backend: str, nbytes: int, reason: str = "") -> None: ...

class DeviceLost(NumrError, RuntimeError): ...
class HostTransferError(NumrError, RuntimeError): ...

def from_builtin(exc: BaseException, fname: str, backend: str | None = None) -> BaseException: ...
