"""The library's environment variables: the only module that reads ``os.environ``.

Every variable is declared here once (name, default, what it does) and read once, on first
use; a hot path never consults the environment. The list is what users may set: adapter
choice, memory limits, host-conversion and semantics policies, debugging aids, and the
tuning table / overrides (``NUMR_TUNING``). Per-kernel variants and thresholds are not
environment variables: they live in ``numr_array_api.tuning`` (its registry and per-adapter
tables), reachable from the environment only through ``NUMR_TUNING``.

docs/configuration.md renders this table (tests check that it lists every name).
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass

__all__ = ["Variable", "VARIABLES", "get", "reload", "child_environ", "export", "external",
           "cache_dir"]


@dataclass(frozen=True)
class Variable:
    name: str
    default: str
    doc: str
    scope: str  # "all", "cpu", "cuda", "webgpu", "tuning", "debug"


VARIABLES = {v.name: v for v in (
    Variable("NUMR_HOST_CONVERSION", "warn", "implicit device-to-host conversion: allow, warn "
             "or raise (numr_array_api.set_host_conversion)", "all"),
    Variable("NUMR_SEMANTICS", "compatible", "compatible (NumPy 2's answers where the standard "
             "leaves a choice) or strict (numr_array_api.set_semantics)", "all"),
    Variable("NUMR_PROGRESS", "", "1: a progress bar (tqdm) for waits on a device that last "
             "half a second (numr_array_api.show_progress)", "all"),
    Variable("NUMR_CACHE_DIR", "", "folder of numr's on-disk caches (tuned tables); default "
             "$XDG_CACHE_HOME/numr or ~/.cache/numr", "all"),
    Variable("NUMR_TUNING", "", "tuning overrides, 'NAME=value,NAME=value' (names: "
             "numr_array_api.tuning.knobs()); applied after the adapter's table", "tuning"),
    Variable("NUMR_TUNING_TABLE", "", "a tuning table file to load instead of the one "
             "written by the tune command for this adapter; 'off': no table at all (shipped "
             "ones included), the portable defaults",
             "tuning"),
    Variable("NUMR_CUDA_DISABLE", "", "1: numr_array_api.cuda reports no device", "cuda"),
    Variable("NUMR_CUBLASLT_DISABLE", "", "1: GEMM epilogues never use cuBLASLt", "cuda"),
    Variable("NUMR_CUDA_GEMM_EPILOGUE", "auto", "fused GEMM epilogue path on cuda: auto, "
             "cublaslt or fused (cuBLAS product, then one elementwise kernel)", "cuda"),
    Variable("NUMR_CUDA_FREE_LIST_CAP_MB", "", "cap (MiB) on freed blocks the cuda pool "
             "keeps for reuse", "cuda"),
    Variable("NUMR_CUDA_POOL_RELEASE_THRESHOLD_MB", "", "bytes (MiB) the CUDA memory pool "
             "keeps reserved after synchronisation", "cuda"),
    Variable("NUMR_WEBGPU_ADAPTER", "", "the adapter of the default webgpu device (index, or "
             "a substring of 'name (backend)', e.g. 'vulkan', 'H200'; a choice naming OpenGL "
             "also lists the OpenGL twins of native adapters)", "webgpu"),
    Variable("NUMR_WEBGPU_POWER_PREFERENCE", "high-performance", "adapter preference when "
             "several match: high-performance or low-power", "webgpu"),
    Variable("NUMR_WEBGPU_MEMORY_BYTES", "", "cap on the bytes webgpu arrays may hold "
             "(numr_array_api.webgpu.set_memory_limit); default: the adapter's memory",
             "webgpu"),
    Variable("NUMR_WEBGPU_POOL_BYTES", "", "cap on the free bytes the webgpu buffer pool "
             "keeps for reuse (default: a quarter of the memory limit; without a limit, four "
             "times the adapter's largest buffer)", "webgpu"),
    Variable("NUMR_WEBGPU_SUBMIT_BYTES", "", "bytes of queued work after which webgpu "
             "submits early (latency against batching)", "webgpu"),
    Variable("NUMR_WEBGPU_RECIPES", "1", "0: never record or replay multi-dispatch calls",
             "webgpu"),
    Variable("NUMR_WEBGPU_FUSION", "0", "1: lazy elementwise fusion on from the start "
             "(numr_array_api.webgpu.set_fusion)", "webgpu"),
    Variable("NUMR_WEBGPU_INDEX_CHECK", "sync", "out-of-range gather indices: sync (raise at "
             "the call), lazy (raise at the next read) or off", "webgpu"),
    Variable("NUMR_WEBGPU_PROFILE", "", "1 (by kernel family) or label (by full "
             "label): time every dispatch with timestamp queries, report at exit "
             "(numr_array_api.webgpu.profile for a block)", "debug"),
    Variable("NUMR_WEBGPU_DUMP", "", "a folder: write every WGSL source compiled", "debug"),
    Variable("NUMR_WEBGPU_PROBE_STDERR", "", "keep: show the native driver's output while "
             "adapters are probed", "debug"),
)}

_lock = threading.Lock()
_values: dict[str, str] = {}


def get(name: str) -> str:
    """The value of a declared variable (its default where unset), read on first use."""
    try:
        return _values[name]
    except KeyError:
        pass
    var = VARIABLES[name]  # KeyError: an undeclared name is a bug in numr
    with _lock:
        v = os.environ.get(name)
        _values[name] = var.default if v is None or not v.strip() else v.strip()
        return _values[name]


def reload(*names: str) -> None:
    """Forget values read so far (all, or ``names``): the next ``get`` reads the
    environment again. For tests and tools that change the environment in-process."""
    with _lock:
        if names:
            for n in names:
                _values.pop(n, None)
        else:
            _values.clear()


def child_environ(**updates: str | None) -> dict[str, str]:
    """A copy of this process's environment with ``updates`` applied (None removes), for
    starting worker processes."""
    env = dict(os.environ)
    for k, v in updates.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def export(**updates: str | None) -> None:
    """Set (None: remove) variables in this process's environment, for libraries that read
    it themselves (Cubed's backend choice, Zarr's buffers); numr's values of those names are
    read again at their next ``get``."""
    with _lock:
        for k, v in updates.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
            _values.pop(k, None)


def external(name: str, default: str = "") -> str:
    """A variable numr does not own (another program's: CUDA_PATH, CUPY_TF32), as this
    process's environment holds it now."""
    return os.environ.get(name, default)


def cache_dir() -> str:
    """numr's on-disk cache folder (NUMR_CACHE_DIR, else XDG_CACHE_HOME/numr, else
    ~/.cache/numr)."""
    base = get("NUMR_CACHE_DIR")
    if base:
        return base
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    return os.path.join(xdg or os.path.join(os.path.expanduser("~"), ".cache"), "numr")
