"""Launch plans: the eager hot path of an N-ary kernel into a fresh contiguous output.

A chain of small ops repeats one launch (same kernel, same operand shapes and strides) over
and over. ``nary.launch`` re-derives its bindings and parameter words through several layers
each time (views, ``client.launch``, the bind group cache, ``launch_raw``); a plan keeps what
cannot change between such launches (pipeline, bind group layout, workgroups, the output's
byte size and strides, the parameter bytes up to the operands' element offsets), so a
repeated launch is: one pooled allocation, one whole-buffer binding per operand, one bind
group lookup, the parameter bytes (constant while every operand starts at element 0), one
recorded dispatch.

A plan covers only the common case: every operand a single-buffer Block within the storage
binding limit, parameters passed as immediates. ``run`` returns None before any side effect
otherwise, and the caller takes ``nary.launch``, which stays the reference (plans are built
from its geometry cache, so both record identical dispatches).
"""

import struct

from ...._core.errors import DeviceLost
from ..runtime.allocator import Block, size_class

# distinct launch signatures kept per kernel recipe (a program uses a handful of shapes)
MAX_PLANS = 256


class LaunchPlan:
    __slots__ = ("client", "pipe", "bgl", "bgl_id", "wg", "nbytes", "limit", "shape",
                 "strides", "dtype", "head", "tail", "eoff_fmt", "zero_params", "size",
                 "storage")

    def __init__(self, client, pipe, layout, head_words, n_inputs, wg, example, nbytes):
        """``example``: an output of the general launch (a fresh contiguous storage): its
        class, shape, strides and dtype are every planned output's."""
        self.client = client
        self.pipe = pipe
        self.bgl = pipe.bgl
        self.bgl_id = id(pipe.bgl)
        self.wg = wg
        self.nbytes = nbytes
        self.size = size_class(nbytes)  # the pool's class: eligible() checked it fits
        self.limit = client.max_binding
        self.storage = example.__class__
        self.shape = example.shape
        self.strides = example.strides
        self.dtype = example.dtype
        total = layout.vec4s * 4
        head = [w & 0xFFFFFFFF for w in head_words]
        # params = head words, one element offset per input, zero padding to whole vec4s
        self.head = struct.pack(f"<{len(head)}I", *head)
        self.eoff_fmt = struct.Struct(f"<{n_inputs}I")
        self.tail = bytes(4 * (total - len(head) - n_inputs))
        self.zero_params = self.head + bytes(4 * n_inputs) + self.tail

    def run(self, inputs):
        """The fresh output storage, its dispatch recorded; None when an operand (or the
        client's state) needs the general path."""
        client = self.client
        if client.lost:
            return None  # the general path raises DeviceLost
        limit = self.limit
        entries = []
        blocks = []
        offsets = None
        for s in inputs:
            b = s.block
            if b.__class__ is not Block or b.size > limit:
                return None
            entries.append((b.buffer, 0, b.size))
            blocks.append(b)
            if s.offset:
                offsets = inputs
        if offsets is None:
            params = self.zero_params
        else:
            params = self.head + self.eoff_fmt.pack(
                *[s.offset // s.dtype.itemsize for s in inputs]) + self.tail
        blk = client.pool.allocate_class(self.size)
        entries.append((blk.buffer, 0, blk.size))
        blocks.append(blk)
        entries = tuple(entries)
        client.pipelines.hits += 1  # as the general path counts a reused pipeline
        bgc = client.bindgroups
        bg = bgc._cache.get((self.bgl_id, entries))
        if bg is None:
            bg = bgc.get(self.bgl, entries)  # validates the entries, counts the miss
        else:
            bgc.hits += 1
        try:
            client.recorder.dispatch(self.pipe, bg, params, self.wg, blocks)
        except DeviceLost:
            client.lost = True
            raise
        return self.storage(blk, 0, self.shape, self.strides, self.dtype, client)


def eligible(client, pipe, n, nbytes, max_elems):
    """Whether launches of this geometry can take a plan (see the module docstring)."""
    return (0 < n <= max_elems and not pipe.uniform_size and 0 < nbytes
            and nbytes <= client.single_buffer_max
            and size_class(nbytes) <= client.max_binding)
