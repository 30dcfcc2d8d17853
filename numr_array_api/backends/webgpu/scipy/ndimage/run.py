"""Launching the stencil kernel on storages: compute types, the parameter buffer, outputs.

The frontend (filters.py) speaks SciPy's language; this module speaks storages: an input
view (any strides), a footprint shape, per-axis low offsets and modes, the parameter vector
(already in the compute type, on the device) and a destination storage. The result goes
straight into the destination when it is contiguous, of a non-packed dtype and not the
input's buffer; otherwise into a temporary that the caller's storage receives by one cast /
copy kernel (``assign``). Both entry points hold the runtime lock, as every numr webgpu
function does (allocation, recording and the caches are single-threaded).
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import BackendLimitation
from ...codegen.render import workgroups
from ...codegen.types import WTYPES
from ...runtime import caches
from ...runtime.concurrency import locked
from ...storage import new_output
from ...transfer import from_numpy
from ...codegen.caps import Caps
from .linepass import LineSpec, tile_shape
from .stencil import StencilSpec

__all__ = ["compute_type", "order_type", "params", "stencil", "KMAX"]

# rank filters keep the footprint's values in private memory: a bounded array per thread
KMAX = (16, 64, 256, 1024)

_ORDER = {D.bool_: "i32", D.int8: "i32", D.int16: "i32", D.int32: "i32", D.uint8: "u32",
          D.uint16: "u32", D.uint32: "u32", D.int64: "i64", D.uint64: "u64",
          D.float16: "f32", D.float32: "f32", D.float64: "f64"}
_NP = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "u32": np.uint32,
       "i64": np.int64, "u64": np.uint64}
_DT = {"f32": D.float32, "f64": D.float64, "i32": D.int32, "u32": D.uint32,
       "i64": D.int64, "u64": D.uint64}


def compute_type(src, dst, client):
    """WGSL type a weighted sum accumulates in: float64 where the adapter has it, as SciPy
    sums in double (float32 sums drifted past SciPy's own float32 tests: a 100 x 100
    Gaussian's total off by 1.75 in 5e7), float32 on adapters without shader-f64."""
    if client.has("shader-f64") and client.has("shader-int64"):
        return "f64"
    return "f32"


def order_type(src):
    """WGSL type min / max / rank filters compare in: the input's own values."""
    return _ORDER[src]


# parameter vectors of recent calls: a repeated filter uploads nothing (a host write per
# call would also cost a flush when its buffer is still in use by queued work)
_PARAMS = OrderedDict()
_PARAMS_MAX = 64
caches.register("scipy.ndimage.params", _PARAMS.clear)


@locked
def params(val, client, cval, div=1.0, weights=None, extra=None):
    """The parameter vector [cval, divisor, weights..., extra...] as a storage of the
    compute type; host values only (device weights are joined by the frontend). The
    storage is shared between calls with equal values: kernels only read it."""
    with np.errstate(all="ignore"):
        parts = [np.asarray([cval], np.float64).astype(_NP[val]),
                 np.asarray([div], np.float64).astype(_NP[val])]
        for p in (weights, extra):
            if p is not None:
                parts.append(np.asarray(p).reshape(-1).astype(_NP[val]))
    host = np.concatenate(parts)
    key = (id(client), val, host.tobytes())
    hit = _PARAMS.get(key)
    if hit is not None:
        _PARAMS.move_to_end(key)
        return hit
    s = from_numpy(host, client)
    _PARAMS[key] = s
    if len(_PARAMS) > _PARAMS_MAX:
        _PARAMS.popitem(last=False)
    return s


def _direct(out, x, w):
    if out is None or not out.is_contiguous or WTYPES[out.dtype].packed or not out.writable:
        return False
    return out.block is not x.block and out.block is not w.block


def _temp_dtype(val, out_dtype):
    """Dtype of the kernel's own output buffer when it cannot write the destination."""
    if out_dtype == D.bool_:
        return D.int32           # C's (npy_bool)tmp truncates first: 0.5 -> False
    if WTYPES[out_dtype].packed:
        return _DT[val]
    return out_dtype


def _line_plan(x, op, val, fshape, line):
    """(axis, (TI, TA, rows)) when the pass can run through workgroup-memory tiles."""
    if op not in ("corr", "uniform", "min", "max") or val not in ("f32", "f64"):
        return None
    if op in ("min", "max") and not line:   # n-d min / max: a footprint mask, input type
        return None
    if not x.is_contiguous:
        return None
    axes = [a for a, n in enumerate(fshape) if n > 1]
    if len(axes) > 1:
        return None
    axis = axes[0] if axes else len(fshape) - 1
    inner = int(np.prod(x.shape[axis + 1:]))
    shape = tile_shape(inner, fshape[axis], val, Caps.of(x.client))
    return None if shape is None else (axis, shape)


def _launch_line(x, y, op, val, fshape, lo, modes, w, axis, tile):
    ti, ta, rows = tile
    shape = x.shape
    n = shape[axis]
    inner = int(np.prod(shape[axis + 1:]))
    outer = int(np.prod(shape[:axis]))
    tiles_i, tiles_a = -(-inner // ti), -(-n // ta)
    ntiles = outer * tiles_a * tiles_i
    if ntiles >= 2 ** 32:
        return False
    spec = LineSpec(x.dtype, val, y.dtype, modes[axis], op, ti, ta, rows)
    k = x.client.kernel(spec)
    groups = (max(1, min(ntiles, x.client.max_groups)), 1, 1)
    k.launch(groups, x=x, w=w, y=y, outer=outer, n=n, inner=inner, k=fshape[axis],
             lo=lo[axis], tiles_a=tiles_a, tiles_i=tiles_i, ntiles=ntiles)
    return True


@locked
def stencil(x, out, op, val, fshape, lo, modes, w, nf=None, rk=0, kmax=0, struct=False,
            assign=None, line=False):
    """Run one stencil pass of ``x`` into storage ``out`` (same shape).

    ``fshape`` / ``lo`` / ``modes``: per axis footprint extent, offset of the footprint's
    first element from the output coordinate, boundary mode. ``w``: the parameter storage.
    ``assign(dst, src)`` writes a temporary into ``out`` (a cast / copy kernel) when the
    kernel cannot write ``out`` directly. A pass along one axis of a contiguous input
    (correlate1d, uniform, 1-D min / max when ``line``) runs through workgroup-memory
    tiles (linepass.py), anything else through the stencil kernel.
    """
    client = x.client
    n = x.size
    if n == 0:
        return out
    if n >= 2 ** 32 - 2 ** 20:
        raise BackendLimitation("webgpu", "scipy.ndimage filters of 2^32 elements or more",
                                "the stencil kernel indexes with u32")
    shape, strides = tuple(x.shape), tuple(x.strides)
    fshape, lo, modes = tuple(fshape), tuple(lo), tuple(modes)
    if not shape:  # a 0-d array filters as one element
        shape, strides, fshape, lo, modes = (1,), (0,), (1,), (0,), ("nearest",)
    if nf is None:
        nf = int(np.prod(fshape))
    direct = _direct(out, x, w)
    y = out if direct else new_output(x.shape, _temp_dtype(val, out.dtype), client)
    plan = _line_plan(x, op, val, fshape, line) if x.shape else None
    if plan is not None and _launch_line(x, y, op, val, fshape, lo, modes, w, *plan):
        if not direct:
            assign(out, y)
        return out
    spec = StencilSpec(x.dtype, val, y.dtype, len(shape), modes, op, kmax, struct)
    k = client.kernel(spec)
    k.launch(workgroups(n, client), x=x, w=w, y=y, n=n, nf=nf, rk=rk, S=list(shape),
             T=list(strides), F=list(fshape), L=list(lo))
    if not direct:
        assign(out, y)
    return out
