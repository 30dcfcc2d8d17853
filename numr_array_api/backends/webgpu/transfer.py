"""Host transfers: plain byte copies, because every dtype's device layout is NumPy's.

``from_numpy``: one ``queue.write_buffer`` (two when the byte count is not a multiple of 4:
the aligned prefix, then the padded tail), no per-element work, no submit.
``to_numpy``: strided views are first made contiguous by the copy kernel; then one submit
(all pending work + a buffer-to-staging copy), one map of a pooled staging buffer, one
host copy.
"""

import numpy as np

from ..._core import dtypes as D
from ..._core.errors import DTypeMismatch
from .storage import WgpuStorage


def from_numpy(array, client):
    a = np.asarray(array)
    dt = D.from_numpy(a.dtype)
    if dt is None:
        raise DTypeMismatch(f"Unsupported dtype {a.dtype}: numr has no equivalent of it", lhs=a.dtype)
    if a.dtype != dt.np:  # non-native byte order
        a = a.astype(dt.np)
    if not a.flags.c_contiguous:
        a = a.copy(order="C")  # (np.ascontiguousarray would turn 0-d into 1-d)
    out = WgpuStorage.empty(a.shape, dt, client, host_write=True)
    n = a.nbytes
    if n:
        flat = a.reshape(-1).view(np.uint8)
        head = n - n % 4
        if head:
            client.write(out.block, 0, flat[:head])
        if n % 4:
            tail = np.zeros(4, np.uint8)
            tail[: n % 4] = flat[head:]
            client.write(out.block, head, tail)
    return out


def to_numpy(storage):
    return storage.to_numpy()
