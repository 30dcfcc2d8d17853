"""The cpu backend: NumPy arrays as payloads, zero-copy host interop."""

import numpy as np

from ..._core.device import Device
from ..._core.errors import DTypeMismatch, InvalidArgument
from .backend import NdBackend

CPU = Device("cpu", 0)


class CPUBackend(NdBackend):
    name = "cpu"
    # creation checks requests against the host's memory (_core/shapes.host_memory_bytes):
    # an overcommitting kernel accepts np.ones(2**41, int8) and then kills the process
    host_memory = True
    device_kind = "cpu"
    host_native = True
    single_device = True  # numr's cpu namespace has exactly one device
    trusted_result_dtypes = True  # NumPy >= 2 loops; verified by tests/test_result_dtypes.py

    def __init__(self):
        super().__init__(np)

    def device_of(self, data):
        return CPU

    def default_device(self):
        return CPU

    def devices(self):
        return (CPU,)

    def check_device(self, device, argname="device"):
        if device != CPU:
            raise InvalidArgument(argname, f"the cpu namespace has only the device 'cpu', got "
                                           f"{device}")
        return CPU

    def to_numpy(self, data):
        return data

    def from_numpy(self, host, device, copy):
        return np.array(host, copy=True if copy else None)

    def to_device(self, data, device):
        return data

    def dlpack(self, data, *, stream=None, max_version=None, dl_device=None, copy=None):
        if stream is not None:
            raise InvalidArgument("stream", "cpu arrays take no stream")
        kw = {}
        if max_version is not None:
            kw["max_version"] = max_version
        if dl_device is not None:
            kw["dl_device"] = dl_device
        if copy is not None:
            kw["copy"] = copy
        return data.__dlpack__(**kw)

    def dlpack_device(self, data):
        return data.__dlpack_device__()

    def from_dlpack(self, obj, device, copy):
        return np.from_dlpack(obj, device="cpu" if device is not None else None, copy=copy)

    def asarray_obj(self, obj, dtype, device, copy, ctx):
        npdt = None if dtype is None else dtype.np
        if isinstance(obj, (bytes, bytearray)):
            arr = np.frombuffer(obj, dtype=npdt or np.uint8)
            if copy is not False:
                arr = arr.copy()
        elif isinstance(obj, np.ndarray) or isinstance(obj, np.generic):
            arr = np.array(obj, dtype=npdt, copy=copy)
        elif hasattr(obj, "__dlpack__") and not isinstance(obj, (list, tuple)):
            try:
                arr = np.from_dlpack(obj, copy=copy)
            except (BufferError, RuntimeError, TypeError, ValueError):
                arr = np.asarray(obj)
            if npdt is not None and arr.dtype != npdt:
                if copy is False:
                    raise ValueError("asarray: copy=False but a cast is required")
                arr = arr.astype(npdt)
        else:
            if copy is False and not hasattr(obj, "__array__") and not isinstance(obj, memoryview):
                raise ValueError("asarray: copy=False is impossible for a Python sequence")
            try:
                arr = np.array(obj, dtype=npdt, copy=True if copy else None)
            except OverflowError:
                raise OverflowError("asarray: a Python int in 'obj' does not fit the dtype "
                                    f"{(dtype or ctx.default_int).name}") from None
            if dtype is None and arr.dtype == np.uint64 and _has_big_ints(obj):
                raise OverflowError("asarray: a Python int in 'obj' does not fit int64; pass "
                                    "dtype=uint64 explicitly")
        if arr.dtype not in self.dtype_table:
            if arr.dtype == object:
                raise TypeError("asarray: 'obj' is not a (nested) sequence of numbers of one "
                                "shape, a buffer or an array")
            raise DTypeMismatch(f"asarray: Unsupported dtype {arr.dtype}: numr has no equivalent of it")
        return arr


def _has_big_ints(obj):
    if isinstance(obj, int):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_has_big_ints(o) for o in obj)
    return False
