"""Mapping of wgpu exceptions onto numr's error taxonomy.

wgpu-py raises ``GPUValidationError`` synchronously for almost everything (shader parse
errors, limits, lost devices); the message text is the only thing that tells these apart.
"""

import contextlib
import re

import wgpu

from ...._core.errors import (
    BackendLimitation,
    DeviceLost,
    InvalidArgument,
    NumrError,
    OutOfMemory,
)

BACKEND = "webgpu"

_LOST_MARKERS = ("device is lost", "device lost", "parent device is lost", "device has been lost",
                 "device is invalid", "destroyed")
_OOM_MARKERS = ("out of memory", "outofmemory", "not enough memory")


class WgslCompileError(InvalidArgument):
    """A WGSL shader failed to compile; ``line`` and ``source_line`` point at the culprit."""

    def __init__(self, message, line=None, source_line=None):
        self.line = line
        self.source_line = source_line
        where = f" at line {line}: {source_line.strip()!r}" if source_line is not None else ""
        super().__init__("wgsl_source", f"WGSL compilation failed{where}\n{message}")


def _is_lost(msg):
    m = msg.lower()
    return any(k in m for k in _LOST_MARKERS)


def _is_oom(msg):
    m = msg.lower()
    return any(k in m for k in _OOM_MARKERS)


def compile_error(exc, source):
    msg = str(exc)
    if _is_lost(msg):
        return DeviceLost(f"{BACKEND}: device lost while compiling a shader: {msg}")
    # naga reports "┌─ wgsl:LINE:COL"; surface that line of the generated source.
    m = re.search(r"wgsl:(\d+):(\d+)", msg)
    line = src_line = None
    if m:
        line = int(m.group(1))
        lines = source.splitlines()
        if 0 < line <= len(lines):
            src_line = lines[line - 1]
    return WgslCompileError(msg, line, src_line)


def translate(exc, operation, nbytes=0):
    """The numr error for a wgpu exception raised while doing ``operation``."""
    if isinstance(exc, NumrError):
        return exc
    msg = str(exc)
    if _is_lost(msg):
        return DeviceLost(f"{BACKEND}: device lost during {operation}: {msg}")
    if isinstance(exc, (wgpu.GPUOutOfMemoryError, MemoryError)) or _is_oom(msg):
        return OutOfMemory(BACKEND, nbytes, f"{operation}: {msg}")
    if isinstance(exc, (wgpu.GPUValidationError, wgpu.GPUPipelineError)):
        return InvalidArgument(operation, f"rejected by wgpu validation: {msg}")
    if isinstance(exc, wgpu.GPUError):
        return BackendLimitation(BACKEND, operation, msg)
    return exc


@contextlib.contextmanager
def translating(operation, nbytes=0):
    try:
        yield
    except NumrError:
        raise
    except (wgpu.GPUError, wgpu.GPUPipelineError, MemoryError) as exc:
        raise translate(exc, operation, nbytes) from exc
    except Exception as exc:  # wgpu-native surfaces some failures as plain RuntimeError
        if _is_lost(str(exc)):
            raise DeviceLost(f"{BACKEND}: device lost during {operation}: {exc}") from exc
        raise
