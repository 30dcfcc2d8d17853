
# runtime extras (numr_array_api.cuda.runtime, re-exported)
from . import runtime as runtime
from .runtime import (
    capture_graph as capture_graph,
    copy_from_device_pipelined as copy_from_device_pipelined,
    custom_kernel as custom_kernel,
    empty_cache as empty_cache,
    memory_stats as memory_stats,
    preload as preload,
    raw_handle as raw_handle,
    set_memory_limit as set_memory_limit,
    synchronize as synchronize,
    warmup_sobol as warmup_sobol,
)
