"""GEMM epilogue on CUDA: ``act(a @ b + bias) + residual`` and its backward pass, on CuPy
arrays, for numr's cuda namespace (and plain CuPy namespaces).

Two paths (docs/ext.md, "CUDA"):

``cublaslt``  one ``cublasLtMatmul`` with a fused epilogue (bias, relu, gelu; a residual
              only without activation, through C with beta = 1). See cublaslt.py.
``fused``     cuBLAS (``cupy.matmul``) writes the product, then ONE elementwise kernel
              applies bias, activation and residual in place: the output makes one extra
              round trip through memory instead of one per unfused operation.

Selection: ``path=`` (internal, for tests and benchmarks) else ``NUMR_CUDA_GEMM_EPILOGUE``
= ``auto`` (default) | ``cublaslt`` | ``fused``. ``auto`` takes cuBLASLt where it can serve
the request and :func:`auto_prefers_cublaslt` says it is faster; the environment's
``cublaslt`` takes it wherever it can serve and falls back to fused elsewhere; ``path=
"cublaslt"`` is strict and raises BackendLimitation when cuBLASLt cannot serve the call.

Failures: a shape / dtype / epilogue that cuBLASLt refuses (heuristic finds no algorithm,
CUBLAS_STATUS_NOT_SUPPORTED) silently goes to the fused path (remembered per plan); any
other status is reported once per status by a RuntimeWarning and the call is served by the
fused path. Nothing is launched before cuBLASLt accepts, so a fallback never double-writes.

Arithmetic follows numpy_impl: inputs cast to the result dtype; the epilogue computes in
float32 for float16 (one rounding at the end, where NumPy's float16 rounds after every
step) and in the dtype otherwise; activation constants are activations.py's.
"""

import math
import threading
import warnings

import numpy as np

from ..._core import environment
from ..._core.errors import BackendLimitation, InvalidArgument
from ..._algorithms.gemm import activations as _act
from ..._algorithms.gemm.portable import reduce_to_shape
from . import cublaslt

__all__ = ["gemm_epilogue", "gemm_epilogue_bwd", "PATHS", "ENV_VAR", "selected_mode",
           "auto_prefers_cublaslt", "cublaslt_plan", "numr_impls", "cupy_impls"]

PATHS = ("auto", "cublaslt", "fused")
ENV_VAR = "NUMR_CUDA_GEMM_EPILOGUE"


def selected_mode():
    mode = environment.get(ENV_VAR).lower()
    if mode not in PATHS:
        raise InvalidArgument(ENV_VAR, f"expected one of {PATHS}, got {mode!r}")
    return mode


# Rule table for "auto": (activation, has bias) requests that go to cuBLASLt when it can
# serve them. Initial guess (cuBLASLt's epilogue saves the whole elementwise pass; its
# fast bias / relu / gelu epilogues are the common Hopper ones); to be revised from
# benchmarks/suite/ext.py on the target GPU.
AUTO_CUBLASLT = frozenset({("none", True), ("relu", True), ("gelu", True)})


def auto_prefers_cublaslt(activation, has_bias, dtype_char, M, N, K, batch):
    """Whether ``auto`` should use cuBLASLt for a request it can serve."""
    return (activation, bool(has_bias)) in AUTO_CUBLASLT


# ---- elementwise kernels -----------------------------------------------------------------

_PREAMBLE = r"""
// accumulation type of the epilogue: float for half and float, double for double
template <typename T> struct numr_acc { typedef float type; };
template <> struct numr_acc<double> { typedef double type; };
"""

_C, _A = repr(_act.GELU_C), repr(_act.GELU_A)
_INV_SQRT2 = repr(1.0 / math.sqrt(2.0))
_INV_SQRT_2PI = repr(1.0 / math.sqrt(2.0 * math.pi))

# v := act(v), in the accumulation type A (same operations as activations.forward)
_FWD = {
    "none": "",
    # maximum() semantics: NaN propagates
    "relu": "v = (v > (A)0 || v != v) ? v : (A)0;",
    "gelu": f"{{ A t = tanh((A){_C} * (v + (A){_A} * (v * v * v))); v = ((A)0.5 * v) * ((A)1 + t); }}",
    "gelu_erf": f"v = ((A)0.5 * v) * ((A)1 + erf(v * (A){_INV_SQRT2}));",
    "silu": "v = v / ((A)1 + exp(-v));",
    "sigmoid": "v = (A)1 / ((A)1 + exp(-v));",
    "tanh": "v = tanh(v);",
}

# d := act'(v) (activations.derivative)
_DERIV = {
    "relu": "A d = v > (A)0 ? (A)1 : (A)0;",
    "gelu": (f"A x2 = v * v; A t = tanh((A){_C} * (v + (A){_A} * (x2 * v))); "
             f"A d = (A)0.5 * ((A)1 + t) + ((A)0.5 * v) * ((A)1 - t * t) * "
             f"((A){_C} * ((A)1 + (A)(3.0 * {_A}) * x2));"),
    "gelu_erf": (f"A d = (A)0.5 * ((A)1 + erf(v * (A){_INV_SQRT2})) + "
                 f"v * ((A){_INV_SQRT_2PI} * exp((A)-0.5 * (v * v)));"),
    "silu": "A s = (A)1 / ((A)1 + exp(-v)); A d = s * ((A)1 + v * ((A)1 - s));",
    "sigmoid": "A s = (A)1 / ((A)1 + exp(-v)); A d = s * ((A)1 - s);",
    "tanh": "A t = tanh(v); A d = (A)1 - t * t;",
}

_kernels = {}
_kernels_lock = threading.Lock()


def _kernel(cupy, kind, activation, has_bias, has_res):
    """The ElementwiseKernel for (forward | backward, activation, bias?, residual?), built
    once. The product is passed as input ``x`` and as output ``y`` (the same array): each
    element is read and written by one thread, and ElementwiseKernel does not copy
    overlapping arguments, so this is an in-place update with full broadcasting of bias
    and residual."""
    key = (kind, activation, has_bias, has_res)
    k = _kernels.get(key)
    if k is not None:
        return k
    params = ["T x"]
    if kind == "bwd":
        params.append("G g")
    if has_bias:
        params.append("B bias")
    if has_res:
        params.append("R res")
    body = ["typedef numr_acc<T>::type A;", "A v = (A)x;"]
    if has_bias:
        body.append("v += (A)bias;")
    if kind == "fwd":
        body.append(_FWD[activation])
        if has_res:
            body.append("v += (A)res;")
        body.append("y = (T)v;")
    else:
        body.append(_DERIV[activation])
        body.append("y = (T)((A)g * d);")
    name = f"numr_gemm_{kind}_{activation}{'_b' if has_bias else ''}{'_r' if has_res else ''}"
    with _kernels_lock:
        k = _kernels.get(key)
        if k is None:
            k = _kernels[key] = cupy.ElementwiseKernel(", ".join(params), "T y", "\n".join(body),
                                                       name, preamble=_PREAMBLE)
    return k


# ---- forward -----------------------------------------------------------------------------

_warned = set()


def _warn_once(err):
    if err.code in _warned:
        return
    _warned.add(err.code)
    warnings.warn(f"numr cuda gemm_epilogue: cuBLASLt failed ({err}); using the fused "
                  f"elementwise path (reported once per status)", RuntimeWarning, stacklevel=4)


def _aligned(cupy, x):
    """``x`` C-contiguous with a 256-byte aligned start (a fresh copy when not)."""
    if x.flags.c_contiguous and x.data.ptr % 256 == 0:
        return x
    return cupy.array(x, copy=True, order="C")


def cublaslt_plan(a, b, bias, residual, activation, dtype_char, out_shape):
    """How cuBLASLt would serve the request: ``(epilogue, batch, M, N, K, use_c)`` or a
    string saying why it cannot (operands already cast to the result dtype)."""
    if dtype_char not in "efd":
        return f"dtype {np.dtype(dtype_char)} has no cuBLASLt path"
    epilogue = cublaslt.epilogue_for(activation, bias is not None, dtype_char)
    if epilogue is None:
        return f"no cuBLASLt epilogue gives numr's {activation!r} for {np.dtype(dtype_char)}"
    M, K = a.shape[-2:]
    N = b.shape[-1]
    if K == 0:
        return "K = 0"
    if not (a.flags.c_contiguous and b.flags.c_contiguous):
        return "non-contiguous operands"
    if b.ndim == 2:  # batch of a folded into rows: one 2-D GEMM
        batch, Mf = 1, math.prod(a.shape[:-1])
    elif a.shape[:-2] == b.shape[:-2]:
        batch, Mf = math.prod(a.shape[:-2]), M
    else:
        return "broadcast batch dimensions"
    if max(Mf, N, K) >= 2**31 or batch >= 2**31:
        return "dimensions beyond int32"
    use_c = False
    if residual is not None:
        if activation != "none":
            return "a residual after an activation"
        if (tuple(residual.shape) != tuple(out_shape) or residual.dtype.char != dtype_char
                or not residual.flags.c_contiguous):
            return "a residual that is not a full-shape C-contiguous array of the result dtype"
        use_c = True
    return epilogue, batch, Mf, N, K, use_c


def _run_cublaslt(cupy, a, b, bias, residual, plan, out_shape, dt):
    epilogue, batch, M, N, K, use_c = plan
    out = cupy.empty(out_shape, dtype=dt)
    if bias is not None:
        bias = _aligned(cupy, bias)
    c = residual if use_c else None
    stream_ptr = cupy.cuda.get_current_stream().ptr
    return cublaslt.matmul(cupy, stream_ptr, out, a, b, bias, c, epilogue=epilogue,
                           batch=batch, M=M, N=N, K=K)


def _matmul_into(cupy, a, b, out):
    M, K = a.shape[-2:]
    N = b.shape[-1]
    if out.size == 0:
        return out
    if K == 0:
        out.fill(0)
    elif b.ndim == 2 and a.ndim > 2 and a.flags.c_contiguous:
        # the batch is just more rows: one GEMM instead of a batched one
        cupy.matmul(a.reshape(-1, K), b, out=out.reshape(-1, N))
    else:
        cupy.matmul(a, b, out=out)
    return out


def gemm_epilogue(cupy, a, b, bias, residual, *, activation, dtype, path=None):
    """``act(a @ b + bias) + residual`` for CuPy arrays on CuPy's current device and stream.
    ``path``: None (environment), ``"auto"``, ``"cublaslt"`` (strict) or ``"fused"``."""
    dt = np.dtype(dtype)
    strict = path == "cublaslt"
    mode = selected_mode() if path is None else path
    if mode not in PATHS:
        raise InvalidArgument("path", f"expected one of {PATHS}, got {path!r}")
    a = a.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    M = a.shape[-2]
    N = b.shape[-1]
    batch = np.broadcast_shapes(tuple(a.shape[:-2]), tuple(b.shape[:-2]))
    out_shape = tuple(batch) + (M, N)
    if math.prod(out_shape) == 0:
        if strict:
            raise BackendLimitation("cuda", "gemm_epilogue", "cuBLASLt path: empty output")
        return cupy.empty(out_shape, dtype=dt)
    if bias is not None:
        bias = bias.astype(dt, copy=False)
    if mode != "fused":
        why = None
        ok, info = cublaslt.status()
        if not ok:
            why = f"cuBLASLt unavailable: {info}"
        else:
            plan = cublaslt_plan(a, b, bias, residual, activation, dt.char, out_shape)
            if isinstance(plan, str):
                why = plan
            elif mode == "auto" and not auto_prefers_cublaslt(activation, bias is not None,
                                                              dt.char, *plan[2:5], plan[1]):
                why = "the auto rule table prefers the fused path"
            else:
                try:
                    return _run_cublaslt(cupy, a, b, bias, residual, plan, out_shape, dt)
                except cublaslt.CublasLtError as err:
                    if strict:
                        raise BackendLimitation("cuda", "gemm_epilogue",
                                                f"cuBLASLt: {err}") from err
                    if err.code != 15:  # NOT_SUPPORTED / no algorithm: a plain refusal
                        _warn_once(err)
        if strict and why is not None:
            raise BackendLimitation("cuda", "gemm_epilogue", f"cuBLASLt path: {why}")
    out = _matmul_into(cupy, a, b, cupy.empty(out_shape, dtype=dt))
    if activation == "none" and bias is None and residual is None:
        return out
    k = _kernel(cupy, "fwd", activation, bias is not None, residual is not None)
    args = [out] + [x for x in (bias, residual) if x is not None] + [out]
    k(*args)
    return out


# ---- backward ----------------------------------------------------------------------------

def gemm_epilogue_bwd(cupy, grad, a, b, bias, *, activation, dtype):
    """``(d_a, d_b, d_bias)`` for CuPy arrays on CuPy's current device and stream."""
    dt = np.dtype(dtype)
    a = a.astype(dt, copy=False)
    b = b.astype(dt, copy=False)
    M, K = a.shape[-2:]
    N = b.shape[-1]
    batch = tuple(grad.shape[:-2])
    R = math.prod(batch) * M
    if activation == "none":
        g = grad.astype(dt, copy=False)
    else:
        # recompute the pre-activation with one GEMM, then turn it into grad * act'(pre)
        # in place with one elementwise kernel (bias added and grad cast in registers)
        g = _matmul_into(cupy, a, b, cupy.empty(batch + (M, N), dtype=dt))
        if g.size:
            k = _kernel(cupy, "bwd", activation, bias is not None, False)
            k(*([g, grad] + ([bias] if bias is not None else []) + [g]))
    g2 = g.reshape(R, N)
    if b.ndim == 2 and tuple(a.shape[:-2]) == batch:
        # the batch is just more rows: one GEMM each, and d_b needs no batch reduction
        d_a = cupy.matmul(g2, b.T).reshape(a.shape)
        d_b = cupy.matmul(a.reshape(R, K).T, g2)
    else:
        d_a = reduce_to_shape(cupy, cupy.matmul(g, cupy.swapaxes(b, -1, -2)), a.shape)
        d_b = reduce_to_shape(cupy, cupy.matmul(cupy.swapaxes(a, -1, -2), g), b.shape)
    if K == 0 or R == 0 or N == 0:  # cupy.matmul of empty operands: make the zeros explicit
        d_a = cupy.zeros(a.shape, dtype=dt) if K == 0 or N == 0 else d_a
        d_b = cupy.zeros(b.shape, dtype=dt) if R == 0 else d_b
    d_bias = None
    if bias is not None:
        # float16: accumulate in float32 (R may be large), round once
        acc = cupy.float32 if dt == np.float16 else dt
        d_bias = g2.sum(axis=0, dtype=acc).astype(dt, copy=False)
    return d_a, d_b, d_bias


# ---- namespace adapters ------------------------------------------------------------------

def _same_device(arrays):
    ids = {x.device.id for x in arrays if x is not None}
    if len(ids) > 1:
        raise InvalidArgument("a", f"gemm_epilogue: arrays are on different devices "
                                   f"(cuda:{', cuda:'.join(map(str, sorted(ids)))})")
    return ids.pop()


def numr_impls():
    """(forward, backward) implementations for numr's cuda namespace (_algorithms/dispatch.py
    signatures): payloads unwrapped, work on numr's compute stream of the arrays' device,
    results wrapped as arrays of the namespace."""

    def on_client(xp, arrays):
        datas = [None if x is None else x._data for x in arrays]
        return xp._ctx.be.rt.client(_same_device(datas)), datas

    def forward(xp, a, b, bias, residual, *, activation, dtype, path=None):
        client, (da, db, dbias, dres) = on_client(xp, (a, b, bias, residual))
        cupy = client.cupy
        with cupy.cuda.Device(client.index):
            client.bind_thread()
            out = gemm_epilogue(cupy, da, db, dbias, dres, activation=activation,
                                dtype=dtype.np, path=path)
        return xp._ctx.wrap(out)

    def backward(xp, grad, a, b, bias, *, activation, dtype):
        client, (dg, da, db, dbias) = on_client(xp, (grad, a, b, bias))
        cupy = client.cupy
        with cupy.cuda.Device(client.index):
            client.bind_thread()
            res = gemm_epilogue_bwd(cupy, dg, da, db, dbias, activation=activation,
                                    dtype=dtype.np)
        wrap = xp._ctx.wrap
        return tuple(None if r is None else wrap(r) for r in res)

    return forward, backward


def cupy_impls():
    """(forward, backward) for the plain CuPy namespaces (``cupy``, ``array_api_compat.cupy``):
    CuPy arrays in and out, on CuPy's current stream of the arrays' device."""

    def forward(xp, a, b, bias, residual, *, activation, dtype, path=None):
        import cupy
        with cupy.cuda.Device(_same_device((a, b, bias, residual))):
            return gemm_epilogue(cupy, a, b, bias, residual, activation=activation,
                                 dtype=np.dtype(dtype), path=path)

    def backward(xp, grad, a, b, bias, *, activation, dtype):
        import cupy
        with cupy.cuda.Device(_same_device((grad, a, b, bias))):
            return gemm_epilogue_bwd(cupy, grad, a, b, bias, activation=activation,
                                     dtype=np.dtype(dtype))

    return forward, backward
