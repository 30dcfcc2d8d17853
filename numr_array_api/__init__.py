"""numr-array-api: numr's compute backends (cpu, cuda, webgpu) as array API namespaces.

    import numr_array_api.cpu as xp       # NumPy memory
    import numr_array_api.webgpu as xp    # any GPU through WebGPU (or lavapipe on the CPU)
    import numr_array_api.cuda as xp      # NVIDIA GPUs through CuPy
"""

from . import errors
from ._core.array import Array
from ._core.config import get_host_conversion, host_conversion, set_host_conversion
from ._core.device import Device
from ._core.progress import progress, show_progress
from ._core.semantics import get_semantics, semantics, set_semantics

__version__ = "0.1.0"
__all__ = ["Array", "Device", "errors", "set_host_conversion", "get_host_conversion",
           "host_conversion", "set_semantics", "get_semantics", "semantics", "show_progress",
           "progress"]
