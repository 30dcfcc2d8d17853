"""WebGPU kernels registered in :mod:`numr_array_api._algorithms.dispatch`.

* ``gemm_epilogue``: the tiled GEMM of ops/matmul.py with an epilogue hook: bias add,
  activation, then + residual (broadcast to the output) applied to each accumulator in
  registers before its single store. One dispatch. float16 computes in f32 (packed
  storage), float64 needs shader-f64 (+ shader-int64 for the math library).
* ``gemm_epilogue_bwd``: the same fused kernel in "derivative" mode computes
  ``g = grad * act'(a @ b + bias)`` in one dispatch; ``d_a = g @ b^T``, ``d_b = a^T @ g`` by
  the GEMM on transposed views; batch dimensions and ``d_bias`` summed by the namespace.
* ``sobol``: one thread per output element, Gray-code XOR of the (host-scrambled) direction
  numbers; direction buffers cached per device; exact integer -> float scaling.

The activation formulas are those of _algorithms/gemm/activations.py (same operations, same order);
exp / tanh / erf come from the WGSL math library (wgsl/math.py).
"""

import dataclasses
from collections import OrderedDict

import numpy as np

from ..._core import dtypes as dt
from .codegen.layout import Buf, Layout, Words
from .codegen.render import collapse
from .codegen.spec import KernelSpec
from .codegen.template import Template
from .codegen.types import WTYPES, WType, load, wtype
from .runtime import caches as _caches
from .storage import WgpuStorage
from .wgsl.math import math_library

__all__ = ["register"]

_GELU_C = 0.7978845608
_GELU_A = 0.044715
_INV_SQRT2 = 0.7071067811865476
_INV_SQRT_2PI = 0.3989422804014327


def _lit(x, F):
    return f"{float(x)!r}{'lf' if F == 'f64' else 'f'}"


def _act_src(activation, F, deriv):
    """WGSL body of ``fn act(x: F) -> F`` (or its derivative)."""
    L = lambda v: _lit(v, F)  # noqa: E731
    ex, th, ef = f"numr_exp_{F}", f"numr_tanh_{F}", f"numr_erf_{F}"
    sig = f"{L(1.0)} / ({L(1.0)} + {ex}(-x))"
    if not deriv:
        body = {
            "none": "return x;",
            # NaN stays NaN, like maximum; the bit test keeps NVIDIA's compiler from
            # folding the select into max(), whose NaN result WGSL leaves undefined
            "relu": f"return select(x, {L(0.0)}, x < {L(0.0)} && !numr_is_nan_{F}(x));",
            "gelu": f"let t = {th}({L(_GELU_C)} * (x + {L(_GELU_A)} * (x * x * x)));\n"
                    f"  return ({L(0.5)} * x) * ({L(1.0)} + t);",
            "gelu_erf": f"return ({L(0.5)} * x) * ({L(1.0)} + {ef}(x * {L(_INV_SQRT2)}));",
            "silu": f"return x / ({L(1.0)} + {ex}(-x));",
            "sigmoid": f"return {sig};",
            "tanh": f"return {th}(x);",
        }[activation]
    else:
        body = {
            "none": f"return {L(1.0)};",
            "relu": f"return select({L(0.0)}, {L(1.0)}, x > {L(0.0)});",
            "gelu": f"let x2 = x * x;\n  let t = {th}({L(_GELU_C)} * (x + {L(_GELU_A)} * (x2 * x)));\n"
                    f"  return {L(0.5)} * ({L(1.0)} + t) + ({L(0.5)} * x) * ({L(1.0)} - t * t) * "
                    f"({L(_GELU_C)} * ({L(1.0)} + {L(3.0 * _GELU_A)} * x2));",
            "gelu_erf": f"let cdf = {L(0.5)} * ({L(1.0)} + {ef}(x * {L(_INV_SQRT2)}));\n"
                        f"  return cdf + x * ({L(_INV_SQRT_2PI)} * {ex}({L(-0.5)} * (x * x)));",
            "silu": f"let s = {sig};\n  return s * ({L(1.0)} + x * ({L(1.0)} - s));",
            "sigmoid": f"let s = {sig};\n  return s * ({L(1.0)} - s);",
            "tanh": f"let t = {th}(x);\n  return {L(1.0)} - t * t;",
        }[activation]
    return f"fn act(x: {F}) -> {F} {{\n  {body}\n}}"


def _math_funcs(activation, deriv):
    if activation in ("gelu", "tanh"):
        return ["tanh"]
    if activation == "gelu_erf":
        return ["erf", "exp"] if deriv else ["erf"]
    if activation in ("silu", "sigmoid"):
        return ["exp"]
    if activation == "relu" and not deriv:
        return ["is_nan"]
    return []


@dataclasses.dataclass(frozen=True)
class EpilogueSpec:
    """The fused epilogue as a fragment of the GEMM's spec: ``epilogue(x, r, c, bi)`` is
    ``act(x + Bias[c]) + Res[r, c]`` or, with ``deriv``, ``Res[r, c] * act'(x + Bias[c])``
    (Res = grad). It declares its own bindings (Bias, Res) and words; Res is a view
    broadcast to the output, its batch offset decomposed from the GEMM's batch index."""

    activation: str
    deriv: bool
    bias: bool
    res: bool
    res_rank: int  # collapsed batch rank of Res

    @property
    def label(self):
        return (f"{self.activation}{'_d' if self.deriv else ''}{'_b' if self.bias else ''}"
                f"{'_r' + str(self.res_rank) if self.res else ''}")

    def bufs(self, t):
        return ([Buf("Bias", t.arr)] if self.bias else []) + \
               ([Buf("Res", t.arr)] if self.res else [])

    def words(self):
        w = ["bias_s"] if self.bias else []
        if self.res:
            w += ["res_rs", "res_cs", Words("res_batch", max(1, 2 * self.res_rank))]
        return w

    def render(self, lay, t, helpers):
        F = t.val
        body = ["  var y = x;"]
        if self.bias:
            body.append(f"  let ib = {lay.word('Bias_off')} + c * {lay.word('bias_s')};")
            body.append(f"  y = y + {load(t, 'Bias', 'ib', helpers)};")
        if self.res:
            body.append(f"  var ir = {lay.word('Res_off')} + r * {lay.word('res_rs')} + "
                        f"c * {lay.word('res_cs')};")
            body.append("  var q = bi;")
            for d in reversed(range(self.res_rank)):
                n, st = lay.word("res_batch", 2 * d), lay.word("res_batch", 2 * d + 1)
                if d == 0:
                    body.append(f"  ir += q * {st};")
                else:
                    body.append(f"  let q{d} = q / {n}; ir += (q - q{d} * {n}) * {st}; "
                                f"q = q{d};")
            body.append(f"  let rv = {load(t, 'Res', 'ir', helpers)};")
        if self.deriv:
            body.append("  return rv * act(y);")
        elif self.res:
            body.append("  return act(y) + rv;")
        else:
            body.append("  return act(y);")
        funcs = _math_funcs(self.activation, self.deriv)
        lib = math_library(funcs, F) if funcs else ""
        return "\n".join([lib, _act_src(self.activation, F, self.deriv),
                          f"fn epilogue(x: {F}, r: u32, c: u32, bi: u32) -> {F} {{"]
                         + body + ["}"])


class EpilogueCall:
    """An epilogue with its operands for one GEMM launch (``args``); ``sub(key)`` narrows it
    to a part of the output (batch chunks, M x N panels of big data)."""

    def __init__(self, activation, deriv, bias, res, out_batch):
        if res is not None and res.shape[:-2] != tuple(out_batch):
            res = res.broadcast_to(tuple(out_batch) + res.shape[-2:])
        self.activation, self.deriv, self.bias, self.res = activation, deriv, bias, res
        rank = len(collapse(res.shape[:-2], res.strides[:-2])[0]) if res is not None else 0
        self.spec = EpilogueSpec(activation, deriv, bias is not None, res is not None, rank)

    def sub(self, key):
        """The epilogue of ``out[key]`` (key: leading batch indices / slices, or the
        (rows, cols) slices of a 2-D output)."""
        c = EpilogueCall.__new__(EpilogueCall)
        c.activation, c.deriv = self.activation, self.deriv
        res = self.res
        nbatch = 0 if res is None else res.ndim - 2
        bias = self.bias
        if len(key) == 2 and nbatch == 0:  # a panel: rows and columns
            if bias is not None:
                bias = bias[key[1]]
        if res is not None:
            res = res[key]
        c.bias, c.res = bias, res
        rank = len(collapse(res.shape[:-2], res.strides[:-2])[0]) if res is not None else 0
        c.spec = EpilogueSpec(self.activation, self.deriv, bias is not None,
                              res is not None, rank)
        return c

    def views(self):
        return tuple(v for v in (self.bias, self.res) if v is not None)

    def args(self):
        a = {}
        if self.bias is not None:
            a.update(Bias=self.bias, bias_s=self.bias.strides[0])
        if self.res is not None:
            r = self.res
            words = []
            for n, st in zip(*collapse(r.shape[:-2], r.strides[:-2])):
                words += [n, st]
            a.update(Res=r, res_rs=r.strides[-2], res_cs=r.strides[-1],
                     res_batch=words or [0])
        return a


def _store(x):
    return x._data


def _fused(xp, a, b, bias, res, activation, dtype, deriv):
    """One fused GEMM dispatch; returns a WgpuStorage of the matmul shape and ``dtype``."""
    from .ops.matmul import gemm
    from ..._core.shapes import broadcast_shapes
    a, b = _store(xp.astype(a, dtype, copy=False)), _store(xp.astype(b, dtype, copy=False))
    bias = None if bias is None else _store(xp.astype(bias, dtype, copy=False))
    res = None if res is None else _store(xp.astype(res, dtype, copy=False))
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    M, N = a.shape[-2], b.shape[-1]
    if res is not None:
        full = tuple(batch) + (M, N)
        if tuple(res.shape) != full:
            res = res.broadcast_to(full)
    wtype(dtype, a.client, "gemm_epilogue")
    return gemm(a, b, epilogue=EpilogueCall(activation, deriv, bias, res, batch))


def _unsupported(xp, a, b):
    return a.shape[-1] == 0


def gemm_epilogue(xp, a, b, bias, residual, *, activation, dtype):
    if _unsupported(xp, a, b):
        from ..._algorithms.gemm import portable
        return portable.gemm_epilogue(xp, a, b, bias, residual, activation=activation,
                                      dtype=dtype)
    return xp._ctx.wrap(_fused(xp, a, b, bias, residual, activation, dtype, False))


def gemm_epilogue_bwd(xp, grad, a, b, bias, *, activation, dtype):
    from ..._algorithms.gemm import portable
    if _unsupported(xp, a, b):
        return portable.gemm_epilogue_bwd(xp, grad, a, b, bias, activation=activation,
                                          dtype=dtype)
    a = xp.astype(a, dtype, copy=False)
    b = xp.astype(b, dtype, copy=False)
    grad = xp.astype(grad, dtype, copy=False)
    if activation == "none":
        g = grad
    else:
        g = xp._ctx.wrap(_fused(xp, a, b, bias, grad, activation, dtype, True))
    red = portable.reduce_to_shape
    d_a = red(xp, xp.matmul(g, xp.matrix_transpose(b)), a.shape)
    d_b = red(xp, xp.matmul(xp.matrix_transpose(a), g), b.shape)
    d_bias = None
    if bias is not None:
        d_bias = red(xp, g, (1,) * (g.ndim - 1) + (g.shape[-1],))
        d_bias = xp.reshape(d_bias, (g.shape[-1],))
    return d_a, d_b, d_bias


# ---- Sobol ----------------------------------------------------------------------------

_DIR_CACHE = OrderedDict()   # (client id, d, bits, directions bytes) -> WgpuStorage
_DIR_CACHE_MAX = 16
_caches.register("ext direction tables", _DIR_CACHE.clear)


def _directions(client, v):
    key = (id(client), v.shape[1], v.shape[0], v.tobytes())
    s = _DIR_CACHE.get(key)
    if s is None:
        from .transfer import from_numpy
        s = _DIR_CACHE[key] = from_numpy(np.ascontiguousarray(v, dtype=np.uint32), client)
        if len(_DIR_CACHE) > _DIR_CACHE_MAX:
            _DIR_CACHE.popitem(last=False)
    else:
        _DIR_CACHE.move_to_end(key)
    return s


_SOBOL = Template("""${layout}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let d = ${d}; let total = ${total};
  let stride = nw.x * 256u;
  for (var e = gid.x + gid.y * stride; e < total; e += stride * nw.y) {
    let i = e / d; let j = e - i * d;
    let k = ${skip} + i;
    let g = k ^ (k >> 1u);
    var x = ${shift};
    for (var bit = 0u; bit < ${bits}u; bit++) {
      if (((g >> bit) & 1u) != 0u) { x ^= V[${V_off} + bit * d + j]; }
    }
    O[${O_off} + e] = ${conv};
  }
}
""", "sobol")


@dataclasses.dataclass(frozen=True)
class SobolSpec(KernelSpec):
    """Points skip + i (Gray code) of a Sobol sequence: one thread per output element,
    the XOR of the (host-scrambled) direction numbers, exact integer -> float scaling."""

    out_t: WType
    bits: int
    shifted: bool
    rshift: int
    mult: float

    def layout(self, caps):
        bufs = [Buf("V", "u32"), Buf("O", self.out_t.arr, "rw")]
        if self.shifted:
            bufs.append(Buf("S", "u32"))
        return Layout(bufs, ["d", "skip", "total"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        if self.out_t.val == "f64":
            conv = f"f64(x) * {self.mult!r}lf"
        else:
            conv = f"f32(x >> {self.rshift}u) * {self.mult!r}f"
        shift = f"S[{lay.word('S_off')} + j]" if self.shifted else "0u"
        return _SOBOL.render(lay.tokens(), bits=self.bits, shift=shift, conv=conv)


def variants():
    from ..._algorithms.qmc.sobol import scale_of
    out = []
    for d in (dt.float32, dt.float64):
        for bits in (30, 32):
            rshift, mult = scale_of(bits, d == dt.float32)
            for shifted in (False, True):
                out.append(SobolSpec(WTYPES[d], bits, shifted, rshift, mult))
    return out


def sobol(xp, n, skip, v, shift, *, bits, dtype, device):
    from ..._algorithms.qmc.sobol import scale_of
    ctx = xp._ctx
    client = xp._backend._client(ctx.resolve_device(device))
    d = v.shape[1]
    out_t = wtype(dtype, client, "sobol")
    out = WgpuStorage._new((n, d), dtype, client)
    if n * d == 0:
        return ctx.wrap(out)
    if n * d >= 2**32 or dtype not in (dt.float32, dt.float64):
        raise ValueError("sobol kernel: unsupported size or dtype")
    rshift, mult = scale_of(bits, dtype == dt.float32)
    shifted = shift is not None
    k = client.kernel(SobolSpec(out_t, bits, shifted, rshift, mult))
    args = dict(V=_directions(client, v), d=d)
    if shifted:
        args["S"] = _directions(client, np.asarray(shift, dtype=np.uint32)[None, :])
    # runs of whole rows whose output window fits one binding (big outputs, several buffers)
    r0 = 0
    while r0 < n:
        rows = n - r0
        while rows > 1 and not out[r0:r0 + rows].fits_binding():
            rows = (rows + 1) // 2
        total = rows * d
        groups = -(-total // 256)
        gx = min(groups, client.max_groups)
        gy = min(-(-groups // gx), client.max_groups)
        k.launch((gx, gy, 1), O=out[r0:r0 + rows], skip=skip + r0, total=total, **args)
        r0 += rows
    return ctx.wrap(out)


def _sobol_entry(xp, n, skip, v, shift, *, bits, dtype, device):
    if n * v.shape[1] >= 2**32 or dtype not in (dt.float32, dt.float64):
        from ..._algorithms.qmc.sobol import sobol_portable
        return sobol_portable(xp, n, skip, v, shift, bits=bits, dtype=dtype, device=device)
    return sobol(xp, n, skip, v, shift, bits=bits, dtype=dtype, device=device)


def register(name="numr_array_api.webgpu"):
    from ..._algorithms import dispatch as _dispatch
    from .runtime.concurrency import locked
    # each under the runtime lock, like every backend call (runtime/concurrency.py)
    _dispatch.register("gemm_epilogue", name, locked(gemm_epilogue))
    _dispatch.register("gemm_epilogue_bwd", name, locked(gemm_epilogue_bwd))
    _dispatch.register("sobol", name, locked(_sobol_entry))
