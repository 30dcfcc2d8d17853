"""The backend interface: everything the shared front-end (``numr_array_api._api``) calls.

A backend object supplies payloads (NumPy / CuPy ndarrays, ``WgpuStorage``) and kernels.
The front-end has already validated every argument: dtypes are numr ``DType`` objects of the
promoted result, axes are non-negative tuples (or ints) in range, shapes are checked and
broadcast where the standard says so, devices are the backend's own ``Device`` objects, and
operands live on one device. A backend raises numr errors only for what it alone can know
(an adapter lacking a feature: ``BackendLimitation``; allocation failure: ``OutOfMemory``;
out-of-range integer indices: ``InvalidIndex``).

``NdBackend`` (cpu, cuda) and ``WebGPUBackend`` subclass ``Backend``; the webgpu host
fallbacks are checked against it too (tests/architecture/test_backend_interface.py). Families
below follow the front-end's modules. Every method returns payloads (or tuples of them)
unless it says otherwise.
"""

from __future__ import annotations

import abc
from typing import Any, Callable, Mapping, Optional, Sequence

from .._core.device import Device
from .._core.dtypes import DType

__all__ = ["Backend", "ATTRIBUTES"]

Payload = Any
Axes = Optional[tuple]

# Class or instance attributes every backend defines.
ATTRIBUTES: dict[str, str] = {
    "name": "str: the backend's name ('cpu', 'cuda', 'webgpu')",
    "device_kind": "str: Device.kind of its devices",
    "host_native": "bool: payloads are host memory (implicit NumPy conversion is free)",
    "scalars_native": "bool: kernels take Python scalars directly (else scalar_operand)",
    "trusted_result_dtypes": "bool: kernels already return the standard's result dtypes",
    "max_dimensions": "int or None: the most dimensions an array may have",
    "payload_type": "type: the class of payloads (fast-path identity checks)",
    "dtype_table": "Mapping: payload dtype -> numr DType",
    "native_dtypes": "frozenset[DType]: dtypes kernels compute on (default device)",
    "default_float": "DType", "default_int": "DType", "default_index": "DType",
}


class Backend(abc.ABC):
    """The contract between the front-end and a backend (see the module docstring)."""

    name: str
    device_kind: str
    host_native: bool
    scalars_native: bool
    trusted_result_dtypes: bool
    max_dimensions: Optional[int]
    payload_type: type
    dtype_table: Mapping[Any, DType]
    native_dtypes: frozenset
    default_float: DType
    default_int: DType
    default_index: DType

    # ---- devices and payloads ----------------------------------------------------------
    @abc.abstractmethod
    def devices(self) -> tuple[Device, ...]:
        """Every device arrays can live on (may be empty: the backend is unavailable)."""

    @abc.abstractmethod
    def default_device(self) -> Device:
        """The device of arrays created without ``device=`` (raises BackendUnavailable)."""

    @abc.abstractmethod
    def check_device(self, device: Device, argname: str = "device") -> Device:
        """``device`` if it is one of ``devices()``, else InvalidArgument naming it."""

    @abc.abstractmethod
    def device_of(self, data: Payload) -> Device:
        """The device a payload lives on."""

    @abc.abstractmethod
    def check_dtype_supported(self, dtype: DType) -> DType:
        """``dtype`` if kernels can compute on it, else BackendLimitation."""

    @abc.abstractmethod
    def check_stream(self, stream: Any) -> Any:
        """Validate a ``stream=`` argument (to_device / DLPack)."""

    @abc.abstractmethod
    def fix_result(self, r: Any) -> Payload:
        """Turn a kernel result that is not a payload (e.g. a NumPy scalar) into one."""

    @abc.abstractmethod
    def item(self, data: Payload) -> Any:
        """The Python scalar of a 0-d payload (synchronises GPU work)."""

    def device_native_dtypes(self, device: Device) -> frozenset:
        """The dtypes kernels compute on for one device (backends whose devices differ, e.g.
        WebGPU adapters with and without shader-f64, override this)."""
        return self.native_dtypes

    @abc.abstractmethod
    def extra_capabilities(self) -> dict:
        """Backend-specific entries of ``__array_namespace_info__().capabilities()``."""

    # ---- host and device interop -------------------------------------------------------
    @abc.abstractmethod
    def to_numpy(self, data: Payload) -> Any:
        """A NumPy array with the payload's values (a copy for device payloads)."""

    @abc.abstractmethod
    def from_numpy(self, host: Any, device: Device, copy: Optional[bool]) -> Payload:
        """A payload on ``device`` holding the NumPy array ``host``."""

    @abc.abstractmethod
    def asarray_obj(self, obj: Any, dtype: Optional[DType], device: Device,
                    copy: Optional[bool], ctx: Any) -> Payload:
        """``asarray`` of a non-numr object (Python scalars, sequences, buffers, arrays of
        other libraries); ``dtype`` None means inferred with the namespace's defaults."""

    @abc.abstractmethod
    def to_device(self, data: Payload, device: Device) -> Payload:
        """The payload on another device of this backend (a copy unless the same)."""

    @abc.abstractmethod
    def dlpack(self, data: Payload, *, stream: Any = None, max_version: Any = None,
               dl_device: Any = None, copy: Optional[bool] = None) -> Any:
        """A DLPack capsule (``__dlpack__``); a host copy when ``dl_device`` asks for CPU."""

    @abc.abstractmethod
    def dlpack_device(self, data: Payload) -> tuple[int, int]:
        """``__dlpack_device__``: (device type, device id)."""

    @abc.abstractmethod
    def from_dlpack(self, obj: Any, device: Optional[Device], copy: Optional[bool]) -> Payload:
        """A payload from a DLPack producer, on ``device`` (None: the producer's)."""

    # ---- creation ------------------------------------------------------------------------
    @abc.abstractmethod
    def empty(self, shape: tuple, dtype: DType, device: Device) -> Payload: ...

    @abc.abstractmethod
    def full(self, shape: tuple, value: Any, dtype: DType, device: Device) -> Payload:
        """``value`` is a Python scalar representable in ``dtype`` (checked)."""

    @abc.abstractmethod
    def arange(self, start: Any, stop: Any, step: Any, n: int, dtype: DType,
               device: Device) -> Payload:
        """``n`` elements ``start + i * step`` (``n`` computed by the front-end)."""

    @abc.abstractmethod
    def eye(self, n: int, m: int, k: int, dtype: DType, device: Device) -> Payload: ...

    @abc.abstractmethod
    def linspace(self, start: Any, stop: Any, num: int, endpoint: bool, dtype: DType,
                 device: Device) -> Payload: ...

    @abc.abstractmethod
    def tri(self, data: Payload, k: int, upper: bool) -> Payload:
        """tril (``upper`` False) / triu of the last two axes."""

    @abc.abstractmethod
    def copy(self, data: Payload) -> Payload:
        """A new contiguous payload with the same values."""

    @abc.abstractmethod
    def astype(self, data: Payload, dtype: DType, copy: bool = True) -> Payload:
        """NumPy's ``astype`` result values (the front-end decides casting legality)."""

    # ---- elementwise -----------------------------------------------------------------------
    @abc.abstractmethod
    def unary_kernel(self, name: str) -> Callable[[Payload], Payload]:
        """The kernel of a unary function of the standard (result dtype as the standard)."""

    @abc.abstractmethod
    def binary_kernel(self, name: str) -> Callable[[Payload, Payload], Payload]:
        """The kernel of a binary function; operands broadcast and already promoted (or a
        Python scalar where ``scalars_native``)."""

    @abc.abstractmethod
    def scalar_operand(self, value: Any, dtype: DType) -> Payload:
        """A Python scalar as an operand of ``dtype`` (backends without native scalars)."""

    @abc.abstractmethod
    def inplace(self, kernel: Callable, d1: Payload, d2: Any) -> Payload:
        """``d1 = kernel(d1, d2)`` written into ``d1``'s memory (views included)."""

    @abc.abstractmethod
    def where(self, cond: Payload, a: Payload, b: Payload) -> Payload: ...

    # ---- indexing --------------------------------------------------------------------------
    @abc.abstractmethod
    def getitem_basic(self, data: Payload, key: tuple) -> Payload:
        """Basic indexing (ints, slices, None, Ellipsis) as a view where possible."""

    @abc.abstractmethod
    def getitem(self, data: Payload, key: tuple) -> Payload:
        """Advanced keys: integer arrays and boolean masks (payloads inside ``key``)."""

    @abc.abstractmethod
    def is_readonly(self, data: Payload) -> bool:
        """Whether writes into ``data`` are refused (broadcast views, views of them, and
        read-only memory a user handed over)."""

    @abc.abstractmethod
    def readonly(self, data: Payload) -> Payload:
        """A read-only view of ``data`` (``data`` itself stays as it is). The front-end calls
        it for broadcast_to and for every view-returning function given a read-only array,
        so one rule holds on every backend, also where a backend had to copy."""

    @abc.abstractmethod
    def setitem(self, data: Payload, key: tuple, value: Any) -> None:
        """Write ``value`` (payload or Python scalar) at ``key``; nothing is written if it
        fails. Broadcast (read-only) views are refused by the front-end first."""

    @abc.abstractmethod
    def take(self, data: Payload, indices: Payload, axis: int) -> Payload:
        """Out-of-range indices raise InvalidIndex; negative ones wrap once."""

    @abc.abstractmethod
    def take_along_axis(self, data: Payload, indices: Payload, axis: int) -> Payload: ...

    # ---- manipulation ----------------------------------------------------------------------
    @abc.abstractmethod
    def reshape(self, data: Payload, shape: tuple, copy: Optional[bool] = None) -> Payload:
        """``copy=False`` raises when a view is impossible."""

    @abc.abstractmethod
    def broadcast_to(self, data: Payload, shape: tuple) -> Payload: ...

    @abc.abstractmethod
    def concat(self, datas: Sequence[Payload], axis: Optional[int]) -> Payload: ...

    @abc.abstractmethod
    def stack(self, datas: Sequence[Payload], axis: int) -> Payload: ...

    @abc.abstractmethod
    def flip(self, data: Payload, axes: Axes) -> Payload: ...

    @abc.abstractmethod
    def permute(self, data: Payload, axes: tuple) -> Payload: ...

    @abc.abstractmethod
    def roll(self, data: Payload, shifts: tuple, axes: Axes) -> Payload: ...

    @abc.abstractmethod
    def repeat(self, data: Payload, repeats: Any, axis: Optional[int]) -> Payload:
        """``repeats``: a Python int or an integer payload."""

    @abc.abstractmethod
    def tile(self, data: Payload, reps: tuple) -> Payload: ...

    @abc.abstractmethod
    def unstack(self, data: Payload, axis: int) -> tuple: ...

    # ---- reductions and statistics ---------------------------------------------------------
    @abc.abstractmethod
    def reduce(self, name: str, data: Payload, axes: Axes, keepdims: bool,
               dtype: Optional[DType] = None) -> Payload:
        """``name``: sum prod max min mean all any; ``dtype``: the accumulation dtype of
        sum / prod (the front-end applies the standard's rules)."""

    @abc.abstractmethod
    def sum_all(self, data: Payload) -> Payload:
        """The 0-d sum of every element in the data's own dtype (fast path)."""

    @abc.abstractmethod
    def var(self, data: Payload, axes: Axes, correction: float, keepdims: bool,
            std: bool) -> Payload: ...

    @abc.abstractmethod
    def cumulative(self, name: str, data: Payload, axis: int, dtype: DType,
                   include_initial: bool) -> Payload:
        """cumulative_sum / cumulative_prod along ``axis`` in ``dtype``."""

    @abc.abstractmethod
    def diff(self, data: Payload, axis: int, n: int, prepend: Optional[Payload],
             append: Optional[Payload]) -> Payload: ...

    # ---- searching, sorting, sets -------------------------------------------------------
    @abc.abstractmethod
    def argmax(self, data: Payload, axis: Optional[int], keepdims: bool) -> Payload:
        """First index of the maximum (the first NaN for floats), in ``default_index``."""

    @abc.abstractmethod
    def argmin(self, data: Payload, axis: Optional[int], keepdims: bool) -> Payload: ...

    @abc.abstractmethod
    def count_nonzero(self, data: Payload, axes: Axes, keepdims: bool) -> Payload: ...

    @abc.abstractmethod
    def nonzero(self, data: Payload) -> tuple:
        """One index payload per dimension (data-dependent size)."""

    @abc.abstractmethod
    def searchsorted(self, sorted_: Payload, values: Payload, side: str,
                     sorter: Optional[Payload]) -> Payload: ...

    @abc.abstractmethod
    def unique(self, data: Payload, counts: bool, inverse: bool, index: bool) -> tuple:
        """(values, indices or None, inverse or None, counts or None); NaNs each unique."""

    @abc.abstractmethod
    def isin(self, a: Payload, b: Payload, invert: bool) -> Payload: ...

    @abc.abstractmethod
    def sort(self, data: Payload, axis: int, descending: bool, stable: bool) -> Payload:
        """NaNs last (as NumPy) in both directions; stable keeps equal keys in order."""

    @abc.abstractmethod
    def argsort(self, data: Payload, axis: int, descending: bool, stable: bool) -> Payload: ...

    # ---- linear algebra --------------------------------------------------------------------
    @abc.abstractmethod
    def matmul(self, a: Payload, b: Payload) -> Payload: ...

    @abc.abstractmethod
    def tensordot(self, a: Payload, b: Payload, axes: tuple) -> Payload: ...

    @abc.abstractmethod
    def vecdot(self, a: Payload, b: Payload, axis: int) -> Payload: ...

    @abc.abstractmethod
    def linalg_cholesky(self, a: Payload, upper: bool) -> Payload: ...

    @abc.abstractmethod
    def linalg_cross(self, a: Payload, b: Payload, axis: int) -> Payload: ...

    @abc.abstractmethod
    def linalg_det(self, a: Payload) -> Payload: ...

    @abc.abstractmethod
    def linalg_diagonal(self, a: Payload, offset: int) -> Payload: ...

    @abc.abstractmethod
    def linalg_eig(self, a: Payload, vectors: bool) -> Any: ...

    @abc.abstractmethod
    def linalg_eigh(self, a: Payload, vectors: bool) -> Any: ...

    @abc.abstractmethod
    def linalg_inv(self, a: Payload) -> Payload: ...

    @abc.abstractmethod
    def linalg_matrix_norm(self, a: Payload, ord: Any, keepdims: bool) -> Payload: ...

    @abc.abstractmethod
    def linalg_matrix_power(self, a: Payload, n: int) -> Payload: ...

    @abc.abstractmethod
    def linalg_matrix_rank(self, a: Payload, rtol: Any, index_dtype: DType) -> Payload: ...

    @abc.abstractmethod
    def linalg_outer(self, a: Payload, b: Payload) -> Payload: ...

    @abc.abstractmethod
    def linalg_pinv(self, a: Payload, rtol: Any) -> Payload: ...

    @abc.abstractmethod
    def linalg_qr(self, a: Payload, mode: str) -> tuple: ...

    @abc.abstractmethod
    def linalg_slogdet(self, a: Payload) -> tuple: ...

    @abc.abstractmethod
    def linalg_solve(self, a: Payload, b: Payload, vector: bool) -> Payload:
        """``vector``: ``b`` is a stack of vectors (the standard's 1-D rule applied)."""

    @abc.abstractmethod
    def linalg_svd(self, a: Payload, full_matrices: bool) -> tuple: ...

    @abc.abstractmethod
    def linalg_svdvals(self, a: Payload) -> Payload: ...

    @abc.abstractmethod
    def linalg_trace(self, a: Payload, offset: int, dtype: Optional[DType]) -> Payload: ...

    @abc.abstractmethod
    def linalg_vector_norm(self, a: Payload, axes: Axes, keepdims: bool, ord: Any) -> Payload: ...

    # ---- fft -------------------------------------------------------------------------------
    @abc.abstractmethod
    def fft_1d(self, name: str, a: Payload, n: Optional[int], axis: int, norm: str,
               out_dtype: DType) -> Payload:
        """The 1-d transforms (``name``: fft, ifft, rfft, irfft, hfft, ihfft) along ``axis``
        with length ``n`` (None: the axis' length)."""

    @abc.abstractmethod
    def fft_nd(self, name: str, a: Payload, s: Optional[tuple], axes: tuple, norm: str,
               out_dtype: DType) -> Payload:
        """The n-d transforms (``name``: fftn, ifftn, rfftn, irfftn) over ``axes`` with
        sizes ``s``."""

    @abc.abstractmethod
    def fft_freq(self, n: int, d: float, rfft: bool, dtype: DType, device: Device) -> Payload: ...

    @abc.abstractmethod
    def fft_shift(self, a: Payload, axes: Axes, inverse: bool) -> Payload: ...

