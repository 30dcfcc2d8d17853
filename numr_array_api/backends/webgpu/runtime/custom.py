"""User WGSL kernels on storages.

Binding convention (group 0): ``inputs`` at @binding(0..), declared ``var<storage, read>``;
then ``outputs``, declared ``var<storage, read_write>``; then, if ``params`` is given, a
``var<uniform>`` at the next binding holding those bytes (padded to 16). Storages are bound
from their byte offset over exactly their bytes, so ``arrayLength`` is the element count for
4-byte and wider element types, and a kernel that stops at ``arrayLength`` cannot write past
an output view; sub-word dtypes appear as ``array<u32>`` words. An input's binding is rounded
up to whole 4-byte words (reading a few bytes more changes nothing); an output must span whole
words (WebGPU binds no less), so a sub-word view such as one uint8 element is refused.
Inputs that are non-contiguous or misaligned are copied first; outputs must be contiguous
and aligned to the adapter's min-storage-buffer-offset-alignment.
"""

import numpy as np

from ...._core.errors import InvalidArgument, InvalidType


def _bind(s, is_output):
    c = s.client
    if not s.is_contiguous or s.offset % c.storage_align:
        if is_output:
            raise InvalidArgument("outputs", "custom kernel outputs must be contiguous and "
                                  f"start at a multiple of {c.storage_align} bytes")
        s = s.copy()
    if is_output and (s.nbytes == 0 or s.nbytes % 4):
        raise InvalidArgument("outputs", f"a custom kernel output must span a whole number of "
                              f"4-byte words (WebGPU binds no less, and a kernel could write "
                              f"past the view); this one has {s.nbytes} bytes (shape "
                              f"{s.shape}, {s.dtype.name})")
    size = max(-(-s.nbytes // 4) * 4, 4)
    size = min(size, s.block.size - s.offset)
    if size > c.max_binding:
        raise InvalidArgument("inputs", f"a binding of {size} bytes exceeds the adapter's "
                              f"storage binding limit ({c.max_binding})")
    return s, (s.block, s.offset, size)


def custom_kernel(client, wgsl_source, entry_point, inputs, outputs, workgroups, params=None,
                  overrides=None):
    inputs, outputs = list(inputs), list(outputs)
    if overrides is not None and not (isinstance(overrides, dict) and all(
            isinstance(k, (str, int)) and isinstance(v, (bool, int, float))
            for k, v in overrides.items())):
        raise InvalidType(f"custom_kernel: 'overrides' must be None or a dict of override "
                          f"name (or id) -> bool / int / float, got {overrides!r}")
    for s in inputs + outputs:
        if s.client is not client:
            raise InvalidArgument("inputs", "all storages must live on the kernel's adapter")
    out_blocks = {id(o.block) for o in outputs}
    if any(id(i.block) in out_blocks for i in inputs):
        raise InvalidArgument("inputs", "a buffer cannot be bound read-only and writable in "
                              "one dispatch; pass a copy of the input")
    bindings = []
    keep = []
    for s in inputs:
        s2, b = _bind(s, False)
        keep.append(s2)
        bindings.append(b)
    for s in outputs:
        bindings.append(_bind(s, True)[1])
    kinds = ("read",) * len(inputs) + ("rw",) * len(outputs)
    pbytes = b""
    usize = 0
    if params is not None:
        raw = np.ascontiguousarray(params).reshape(-1).view(np.uint8).tobytes()
        usize = max(16, -(-len(raw) // 16) * 16)
        if usize > client.limits["max-uniform-buffer-binding-size"]:
            raise InvalidArgument("params", f"{len(raw)} bytes exceed the uniform binding limit")
        pbytes = raw + bytes(usize - len(raw))
        kinds += ("uniform",)
    wg = tuple(int(w) for w in (workgroups if isinstance(workgroups, (tuple, list))
                                else (workgroups,)))
    wg = wg + (1,) * (3 - len(wg))
    if len(wg) != 3 or not all(0 <= w <= client.max_groups for w in wg):
        raise InvalidArgument("workgroups", f"{workgroups}: at most 3 counts, each in "
                              f"[0, {client.max_groups}]")
    pipe = client.pipelines.get(source=wgsl_source, entry=entry_point, bindings=kinds,
                                uniform_size=usize, overrides=overrides,
                                label=f"custom:{entry_point}")
    client.launch(pipe, bindings, pbytes, wg)
    return outputs
