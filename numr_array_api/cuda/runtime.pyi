from collections.abc import Callable, Iterable
from typing import Any, Generic, Literal, TypeVar, overload

from numr_array_api._core.device import Device
from numr_array_api._core.errors import BackendLimitation
from numr_array_api._typing.types import DeviceLike as _DeviceLike

from . import Array

__all__ = ["memory_stats", "empty_cache", "set_memory_limit", "synchronize", "capture_graph",
           "CapturedGraph", "CaptureError", "custom_kernel", "CustomKernel", "raw_handle",
           "RawHandle", "preload", "copy_from_device_pipelined", "PendingCopy", "warmup_sobol"]

_T = TypeVar("_T")
# a cuda device: a Device, its name ("cuda:1") or its index
_CudaDevice = _DeviceLike | int

class CaptureError(BackendLimitation):
    def __init__(self, reason: str) -> None: ...

class CapturedGraph(Generic[_T]):
    result: _T
    device: str
    def replay(self, *, sync: bool = False) -> _T: ...
    def __call__(self, *, sync: bool = False) -> _T: ...
    @property
    def nbytes(self) -> int: ...

class CustomKernel:
    name: str
    def compile(self, device: _CudaDevice | None = None) -> CustomKernel: ...
    def __call__(self, grid: int | tuple[int, ...], block: int | tuple[int, ...],
                 args: tuple[Any, ...], *, shared_mem: int = 0) -> None: ...

class RawHandle:
    device: Device
    device_id: int
    stream: Any
    stream_ptr: int
    copy_stream: Any
    copy_stream_ptr: int
    mempool_handle: Any

class PendingCopy:
    def ready(self) -> bool: ...
    def wait(self) -> Any: ...

def memory_stats(device: _CudaDevice | None = None) -> dict[str, Any]: ...
def empty_cache(device: _CudaDevice | None = None) -> None: ...
def set_memory_limit(nbytes: int | None, device: _CudaDevice | None = None) -> None: ...
def synchronize(device: _CudaDevice | None = None) -> None: ...
def capture_graph(fn: Callable[..., _T], /, *args: Any, device: _CudaDevice | None = None,
                  warmup: bool = True, **kwargs: Any) -> CapturedGraph[_T]: ...
def custom_kernel(cuda_source: str, name: str, /, *, options: tuple[str, ...] = (),
                  backend: Literal["nvrtc", "nvcc"] = "nvrtc",
                  name_expressions: Iterable[str] | None = None,
                  jitify: bool = False) -> CustomKernel: ...
def raw_handle(device: _CudaDevice | None = None) -> RawHandle: ...
def warmup_sobol(d: int, /, *, bits: int = 32, device: _CudaDevice | None = None) -> None: ...
def preload(*, device: _CudaDevice | None = None, elementwise: bool | Iterable[str] = False,
            dtypes: Iterable[str] = ("float32", "float64")) -> int: ...
# wait=True: a NumPy array in pinned memory; wait=False: the copy in flight
@overload
def copy_from_device_pipelined(x: Array, /, *, out: Any = None,
                               wait: Literal[True] = True) -> Any: ...
@overload
def copy_from_device_pipelined(x: Array, /, *, out: Any = None,
                               wait: Literal[False]) -> PendingCopy: ...
@overload
def copy_from_device_pipelined(x: Array, /, *, out: Any = None,
                               wait: bool = True) -> Any: ...
