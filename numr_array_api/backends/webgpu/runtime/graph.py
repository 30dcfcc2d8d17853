"""Graph capture: record the dispatches of a function once, replay them cheaply.

WebGPU command buffers are single-use, so a replay re-records the captured dispatches from
their cached pipelines, bind groups and params bytes straight into the open compute pass:
no Python kernel logic, no rendering, no allocation, no bind group lookups (~4 wgpu calls per
dispatch). Everything the captured dispatches touch (inputs, intermediates, outputs) stays
pinned by the graph, so the pool can never hand those buffers to anyone else.

What may change between replays: the *contents* of the inputs. What may not: their shapes
and dtypes, and anything the function decided in Python (control flow, scalars baked into
params, host reads made during capture). Each replay overwrites the same output storages;
copy them if an earlier result must survive the next replay.
"""

import numpy as np

from ...._core.errors import DeviceLost, DTypeMismatch, InvalidArgument, ShapeMismatch
from .concurrency import locked


class CapturedGraph:
    def __init__(self, client, fn, example_inputs):
        from ..storage import WgpuStorage
        from ..transfer import from_numpy

        self.client = client
        self.inputs = []
        for x in example_inputs:
            if isinstance(x, WgpuStorage):
                # the graph owns its input buffers; replays copy new data into them
                self.inputs.append(x.copy())
            else:
                self.inputs.append(from_numpy(np.asarray(x), client))
        rec = client.recorder
        if rec.capture is not None:
            raise InvalidArgument("fn", "graph captures cannot be nested")
        records = []
        rec.capture = records
        try:
            out = fn(*self.inputs)
        finally:
            rec.capture = None
        self.records = records
        # native handles for the fast replay loop; the records keep the objects (and the
        # params bytes the immediates pointers read) alive
        self._raw = rec.raw_records(records)
        self._ids = frozenset(id(b.buffer) for r in records for b in r[4])
        self.single = isinstance(out, WgpuStorage)
        self.outputs = (out,) if self.single else tuple(out)
        if not all(isinstance(o, WgpuStorage) for o in self.outputs):
            raise InvalidArgument("fn", "must return a WgpuStorage or a sequence of them")
        self.replays = 0

    @property
    def num_dispatches(self):
        return len(self.records)

    def _load_input(self, slot, x):
        from ..storage import WgpuStorage

        if isinstance(x, WgpuStorage):
            if x.shape != slot.shape or x.dtype is not slot.dtype:
                raise ShapeMismatch(f"graph input {x.shape} {x.dtype.name} does not match the "
                                    f"captured {slot.shape} {slot.dtype.name}")
            if x.block is slot.block:
                return
            from ..kernels._map import map_into_block
            map_into_block(x, slot)
            return
        a = np.asarray(x)
        if a.shape != slot.shape:
            raise ShapeMismatch(f"graph input shape {a.shape} != captured {slot.shape}",
                                expected=slot.shape, got=a.shape)
        if a.dtype != slot.dtype.np:
            raise DTypeMismatch(f"graph input dtype {a.dtype} != captured {slot.dtype.name}",
                                lhs=a.dtype, rhs=slot.dtype)
        if a.nbytes == 0:
            return
        flat = a.reshape(-1).view(np.uint8) if a.flags.c_contiguous else a.ravel().view(np.uint8)
        n = flat.nbytes
        if n % 4:
            flat = np.concatenate([flat, np.zeros(4 - n % 4, np.uint8)])
        self.client.write(slot.block, 0, flat)

    @locked
    def replay(self, *inputs):
        if len(inputs) != len(self.inputs):
            raise InvalidArgument("inputs", f"the graph takes {len(self.inputs)} inputs")
        for slot, x in zip(self.inputs, inputs):
            self._load_input(slot, x)
        client = self.client
        if self._raw is None or client.recorder.capture is not None:
            # uniform-ring params, or replayed inside another capture: the general path
            for pipe, bg, params, wg, blocks in self.records:
                client.launch_raw(pipe, bg, params, wg, blocks)
        else:
            client.check()
            try:
                client.recorder.replay(*self._raw, self._ids)
            except DeviceLost:
                client.lost = True
                raise
        self.replays += 1
        return self.outputs[0] if self.single else self.outputs

    __call__ = replay
