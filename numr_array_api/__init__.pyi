from numr_array_api import errors as errors
from numr_array_api._core.array import Array as Array
from numr_array_api._core.config import (
    get_host_conversion as get_host_conversion,
    host_conversion as host_conversion,
    set_host_conversion as set_host_conversion,
)
from numr_array_api._core.device import Device as Device
from numr_array_api._core.progress import progress as progress, show_progress as show_progress
from numr_array_api._core.semantics import (
    get_semantics as get_semantics,
    semantics as semantics,
    set_semantics as set_semantics,
)

__version__: str
__all__ = ["Array", "Device", "errors", "set_host_conversion", "get_host_conversion",
           "host_conversion", "set_semantics", "get_semantics", "semantics", "show_progress",
           "progress"]
