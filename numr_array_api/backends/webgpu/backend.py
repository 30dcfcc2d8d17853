"""WebGPUBackend: the backend object behind ``numr_array_api.webgpu``.

Composed of mixins from ``ops/``, one per family. Method resolution goes left to right, so
a GPU mixin listed before HostFallbackMixin replaces the host round trips of the methods it
defines: adding ``ops/manipulation.py`` is one line in ``_MIXINS`` below.

The namespace holds ``create()``'s LockedBackend: every interface method the front-end
calls runs under the runtime lock (runtime/concurrency.py), taken once per call there
rather than inside the ops, so any number of threads may use the namespace and its arrays
at once. ``_UNLOCKED`` lists the methods that only read metadata or make views, which touch
no runtime state.
"""

from ..interface import Backend
from ..ndlike.cpu import CPUBackend
from .ops.creation import CreationMixin
from .ops.cumulative import CumulativeMixin
from .ops.device import DeviceMixin
from .ops.elementwise import ElementwiseMixin
from .ops.fft import FFTMixin
from .ops.host_fallback import HostFallbackMixin
from .ops.indexing import IndexingMixin
from .ops.interop import InteropMixin
from .ops.linalg import LinalgMixin
from .ops.linalg_spectral import SpectralMixin
from .ops.manipulation import ManipulationMixin
from .ops.matmul import MatmulMixin
from .ops.reduction import ReductionMixin
from .ops.sorting import SortingMixin
from .ops.views import ViewsMixin
from .runtime.concurrency import LockedBackend
from .storage import WgpuStorage

__all__ = ["WebGPUBackend", "create"]

_MIXINS = (
    ElementwiseMixin,
    CreationMixin,
    ViewsMixin,
    InteropMixin,
    DeviceMixin,
    ManipulationMixin,
    IndexingMixin,
    MatmulMixin,
    ReductionMixin,
    CumulativeMixin,
    SortingMixin,
    FFTMixin,
    SpectralMixin,
    LinalgMixin,
    HostFallbackMixin,  # last: anything above overrides its host round trips
)

_UNLOCKED = frozenset({
    "device_of", "default_device", "check_device", "check_dtype_supported", "check_stream",
    "device_native_dtypes", "extra_capabilities", "fix_result", "dlpack_device",
    "getitem_basic", "permute", "broadcast_to", "flip",
})


class WebGPUBackend(*_MIXINS, Backend):
    name = "webgpu"
    device_kind = "webgpu"
    host_native = False
    scalars_native = False        # Python scalars arrive as 0-d storages (scalar_operand)
    trusted_result_dtypes = True  # kernels produce exactly the standard's result dtypes
    payload_type = WgpuStorage
    # real linspace as NumPy's separate multiply and add dispatches (api/creation.py): one
    # kernel's start + i * step became an fma on NVIDIA, an ulp off NumPy at some points
    compose_linspace = True

    def __init__(self):
        from ..._core import dtypes as dt
        self.dtype_table = {d: d for d in dt.ALL_DTYPES}  # storage.dtype is a numr DType
        self._cpu = CPUBackend()  # kernels of the host round trips
        self._init_devices()
        self._init_elementwise()
        self._mirrors = []  # item(): recent whole-buffer read-backs (see ops/interop.py)

    def device_ctx(self, device):
        import contextlib
        return contextlib.nullcontext()


def create():
    """The backend object of the ``numr_array_api.webgpu`` namespace."""
    return LockedBackend(WebGPUBackend(), Backend, _UNLOCKED)
