"""Fill a new contiguous storage with one scalar (bit pattern computed by NumPy)."""

import dataclasses
import warnings

import numpy as np

from ...._core.errors import InvalidArgument
from ..codegen.layout import Buf, Layout, Words
from ..codegen.render import WG, workgroups
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from ..storage import WgpuStorage

_FRAME = Template("""${layout}
@compute @workgroup_size(${wg})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {
  let units = ${units};
  for (var u = g.x; u < units; u += nw.x * ${wg}u) {
    D[${D_off} + u] = ${word};
  }
}
""", "fill")


@dataclasses.dataclass(frozen=True)
class FillSpec(KernelSpec):
    """Write a pattern of ``period`` (1, 2 or 4) u32 words, repeated, into D."""

    period: int

    def layout(self, caps):
        # the pattern first: it fills P[0], which WGSL can index with a runtime value
        return Layout([Buf("D", "u32", "rw")], [Words("pattern", 4), "units"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        if self.period == 1:
            word = lay.word("pattern", 0)
        else:
            word = f"P[0][u & {self.period - 1}u]"
        return _FRAME.render(lay.tokens(), wg=WG, word=word)


def variants():
    return [FillSpec(p) for p in (1, 2, 4)]


def scalar_bytes(value, dtype):
    """The element bytes of ``value`` as NumPy converts it to ``dtype``."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # complex -> real drops the imaginary part, as astype
            return np.asarray(value).astype(dtype.np).tobytes()
    except (OverflowError, ValueError, TypeError) as exc:
        raise InvalidArgument("fill_value", f"{value!r} cannot be a {dtype.name}: {exc}") from None


def full(shape, value, dtype, client):
    out = WgpuStorage.empty(shape, dtype, client)
    if out.size == 0:
        return out
    raw = scalar_bytes(value, dtype)
    word_bytes = raw * (4 // len(raw)) if len(raw) < 4 else raw
    pattern = np.frombuffer(word_bytes, np.uint32).tolist()
    k = client.kernel(FillSpec(len(pattern)))
    units = -(-out.nbytes // 4)
    limit = client.max_binding
    if out.block.size <= limit:
        k.launch(workgroups(units, client), D=out, units=units, pattern=pattern)
        return out
    # beyond one binding (or one buffer): 256-byte-aligned windows of each buffer (a multiple
    # of 4 words, and segments are powers of two, so the pattern's phase is kept)
    segs = getattr(out.block, "segments", None) or [out.block]
    seg_words = (getattr(out.block, "seg_bytes", None) or out.block.size) // 4
    chunk = (limit - 256) // 1024 * 256
    for i, seg in enumerate(segs):
        seg_units = min(units - i * seg_words, seg_words, seg.size // 4)
        for w0 in range(0, seg_units, chunk):
            w1 = min(seg_units, w0 + chunk)
            size = min(-(-(w1 - w0) * 4 // 16) * 16, seg.size - w0 * 4)
            k.launch(workgroups(w1 - w0, client), D=(seg, w0 * 4, size), D_off=0,
                     units=w1 - w0, pattern=pattern)
    return out
