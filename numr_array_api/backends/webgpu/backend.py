"""WebGPUBackend: the backend object behind ``numr_array_api.webgpu``.

Composed of mixins from ``ops/``, one per family. Method resolution goes left to right, so
a GPU mixin listed before HostFallbackMixin replaces the host round trips of the methods it
defines: adding ``ops/manipulation.py`` is one line in ``_MIXINS`` below.
"""

from ..._core.errors import BackendUnavailable
from ..interface import Backend
from ..ndlike.cpu import CPUBackend
from .ops.creation import CreationMixin
from .ops.cumulative import CumulativeMixin
from .ops.device import DeviceMixin
from .ops.elementwise import ElementwiseMixin
from .ops.host_fallback import HostFallbackMixin
from .ops.indexing import IndexingMixin
from .ops.interop import InteropMixin
from .ops.manipulation import ManipulationMixin
from .ops.matmul import MatmulMixin
from .ops.reduction import ReductionMixin
from .ops.views import ViewsMixin
from .storage import WgpuStorage

__all__ = ["WebGPUBackend"]

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
    HostFallbackMixin,  # last: anything above overrides its host round trips
)


class WebGPUBackend(*_MIXINS, Backend):
    name = "webgpu"
    device_kind = "webgpu"
    host_native = False
    scalars_native = False        # Python scalars arrive as 0-d storages (scalar_operand)
    trusted_result_dtypes = True  # kernels produce exactly the standard's result dtypes
    payload_type = WgpuStorage

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
