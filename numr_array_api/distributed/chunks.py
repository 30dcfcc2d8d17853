"""Chunk sizes from device memory.

A Cubed task holds a few chunks on its device at once: its inputs, the result and the
temporaries of the chunk function (a fused generate-and-reduce step keeps about four
chunk-sized arrays alive, a tree-reduction step ``split_every`` partial results). The chunk
is therefore a fraction of the device's memory, bounded by the largest buffer the device
accepts and by a cap that keeps each task's trip through Cubed's host storage short.
"""

import math

__all__ = ["chunk_bytes", "chunk_shape", "DEFAULT_CAP"]

DEFAULT_CAP = 1 << 30  # 1 GiB per chunk: large enough to keep a GPU busy for ~1 ms per op


def chunk_bytes(device_memory=None, *, max_buffer_bytes=None, working_set=16, cap=DEFAULT_CAP,
                minimum=1 << 20):
    """Bytes per chunk: ``device_memory / working_set`` (unknown memory: ``cap``), at most
    half of ``max_buffer_bytes`` (a WebGPU adapter's largest buffer; temporaries of wider
    dtypes than the chunk's need room) and ``cap``, at least ``minimum``."""
    b = cap if device_memory is None else min(cap, int(device_memory) // working_set)
    if max_buffer_bytes:
        b = min(b, int(max_buffer_bytes) // 2)
    return max(int(minimum), b)


def chunk_shape(shape, itemsize, target_bytes):
    """A chunk shape for an array of ``shape``: whole trailing axes (rows stay contiguous,
    a matrix-vector product needs no cross-chunk sum), axis 0 split so a chunk holds at
    most ``target_bytes``; a trailing extent too large for that is split as well."""
    shape = tuple(int(s) for s in shape)
    if not shape:
        return ()
    out = list(shape)
    budget = max(1, int(target_bytes) // int(itemsize))
    # from the last axis backwards: keep whole axes while they fit, split the first that
    # does not, and give every axis before it extent 1
    for k in range(len(shape) - 1, -1, -1):
        rest = math.prod(out[k + 1:])
        fits = max(1, budget // max(1, rest))
        if shape[k] > fits:
            out[k] = fits
            for j in range(k):
                out[j] = 1
            break
    return tuple(out)
