# Type aliases shared by the namespace stubs (stub-only: import them under TYPE_CHECKING).
from typing import Any, Literal, Protocol, TypeAlias, TypedDict, TypeVar

from _typeshed import ReadableBuffer
from numr_array_api._core.device import Device
from numr_array_api._core.dtypes import DType

_T_co = TypeVar("_T_co", covariant=True)

class NestedSequence(Protocol[_T_co]):
    def __getitem__(self, key: int, /) -> _T_co | NestedSequence[_T_co]: ...
    def __len__(self, /) -> int: ...

class SupportsDLPack(Protocol):
    def __dlpack__(self, /, *, stream: Any = ...) -> Any: ...
    def __dlpack_device__(self, /) -> tuple[Any, int]: ...

class SupportsArray(Protocol):
    def __array__(self) -> Any: ...

Scalar: TypeAlias = bool | int | float | complex
# a device argument: a Device or its name ("cpu", "cuda:1", "webgpu:0")
DeviceLike: TypeAlias = Device | str
Shape: TypeAlias = int | tuple[int, ...]
Axes: TypeAlias = int | tuple[int, ...]
Kind: TypeAlias = Literal[
    "bool", "signed integer", "unsigned integer", "integral", "real floating",
    "complex floating", "numeric",
]
KindLike: TypeAlias = Kind | DType | tuple[Kind | DType, ...]
FFTNorm: TypeAlias = Literal["backward", "ortho", "forward"]
# what asarray accepts besides arrays: Python scalars and (nested) sequences, buffers,
# DLPack producers, objects with __array__ (NumPy arrays, ...)
Convertible: TypeAlias = (Scalar | NestedSequence[Any] | ReadableBuffer | SupportsDLPack
                          | SupportsArray)

DefaultDataTypes = TypedDict("DefaultDataTypes", {
    "real floating": DType,
    "complex floating": DType,
    "integral": DType,
    "indexing": DType,
})
Capabilities = TypedDict("Capabilities", {
    "boolean indexing": bool,
    "data-dependent shapes": bool,
    "max dimensions": int | None,
})

class FInfo:
    @property
    def bits(self) -> int: ...
    @property
    def eps(self) -> float: ...
    @property
    def max(self) -> float: ...
    @property
    def min(self) -> float: ...
    @property
    def smallest_normal(self) -> float: ...
    @property
    def dtype(self) -> DType: ...

class IInfo:
    @property
    def bits(self) -> int: ...
    @property
    def max(self) -> int: ...
    @property
    def min(self) -> int: ...
    @property
    def dtype(self) -> DType: ...

