"""Fill a new contiguous storage with one scalar (bit pattern computed by NumPy)."""

import warnings

import numpy as np

from ...._core.errors import InvalidArgument
from ..codegen.render import WG, Params, workgroups
from ..storage import WgpuStorage


def _render(params, period):
    P = params.P
    if period == 1:
        word = P(4)
    else:
        word = f"P[1][u & {period - 1}u]"
    src = f"""{params.decl()}
@group(0) @binding(0) var<storage, read_write> D: array<u32>;
@compute @workgroup_size({WG})
fn main(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) nw: vec3<u32>) {{
  let units = {P(0)};
  for (var u = g.x; u < units; u += nw.x * {WG}u) {{
    D[u] = {word};
  }}
}}
"""
    return {"source": src, "entry": "main", "bindings": params.layout(("rw",)),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": f"fill_p{period}"}


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
    period = len(pattern)
    params = Params.of(client, 8, binding=1)
    pipe = client.pipelines.get_rendered(("fill", period, params.immediate),
                                         lambda: _render(params, period))
    units = -(-out.nbytes // 4)
    limit = client.max_binding
    if out.block.size <= limit:
        client.launch(pipe, [out.out_binding()], params.pack([units, 0, 0, 0] + pattern),
                      workgroups(units, client))
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
            client.launch(pipe, [(seg, w0 * 4, size)],
                          params.pack([w1 - w0, 0, 0, 0] + pattern),
                          workgroups(w1 - w0, client))
    return out
