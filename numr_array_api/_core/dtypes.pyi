from typing import Any, Final, Literal

__all__ = ["DType", "ALL_DTYPES", "STANDARD_DTYPES", "from_numpy", "coerce", "by_name",
           "KIND_NAMES"]

# The dtype objects are shared by every namespace (cpu.float32 is webgpu.float32), so one
# class types them all; values are compared by identity.
class DType:
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> Literal["b", "i", "u", "f", "c"]: ...
    @property
    def itemsize(self) -> int: ...
    @property
    def np(self) -> Any: ...
    @property
    def __numpy_dtype__(self) -> Any: ...
    @property
    def dtype(self) -> Any: ...
    @property
    def bits(self) -> int: ...
    @property
    def is_float(self) -> bool: ...
    @property
    def is_complex(self) -> bool: ...
    @property
    def is_integer(self) -> bool: ...

bool_: Final[DType]
int8: Final[DType]
int16: Final[DType]
int32: Final[DType]
int64: Final[DType]
uint8: Final[DType]
uint16: Final[DType]
uint32: Final[DType]
uint64: Final[DType]
float16: Final[DType]
float32: Final[DType]
float64: Final[DType]
complex64: Final[DType]
complex128: Final[DType]
STANDARD_DTYPES: Final[tuple[DType, ...]]
ALL_DTYPES: Final[tuple[DType, ...]]
KIND_NAMES: Final[dict[str, str]]
REAL_FLOAT_OF_COMPLEX: Final[dict[DType, DType]]
COMPLEX_OF_REAL_FLOAT: Final[dict[DType, DType]]

def by_name(name: str) -> DType: ...
def coerce(value: object) -> DType | None: ...
def spelling_note(value: object) -> str: ...
def from_numpy(npdtype: Any) -> DType | None: ...
