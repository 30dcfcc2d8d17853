"""ctypes bindings to cuBLASLt for the GEMM epilogue: one ``cublasLtMatmul`` call computes
``act(a @ b + bias)`` (+ ``residual`` through C when there is no activation).

Nothing here fails at import. :func:`status` loads libcublasLt on first use and reports
``(True, version)`` or ``(False, reason)``; callers go to the fused-elementwise path when
it is unavailable or cannot serve a request (:func:`plan_key` returns None).

Row-major trick: a C-contiguous ``D[M, N] = A[M, K] @ B[K, N]`` is, read as column-major,
``D^T[N, M] = B^T[N, K] @ A^T[K, M]``. So cuBLASLt's A operand is our ``b`` (N x K, ld N),
its B operand our ``a`` (K x M, ld K), no transposes, m = N, n = M; and cuBLASLt's bias,
one value per row of its D (length m = N), is exactly our bias over the last axis.

Enum values and struct layouts come from NVIDIA's ``cublasLt.h`` / ``cublas_api.h`` /
``library_types.h`` (CUDA 12/13; values unchanged since CUDA 11.x), cross-checked against
public bindings (e.g. cupy_backends/cuda/libs/cublas.pxd for cublasComputeType_t) -- see the
comment on each group.
"""

import ctypes
import functools
import glob
import os
import threading

from ..._core import environment

__all__ = ["status", "library", "epilogue_for", "compute_type_for", "CublasLtError", "matmul",
           "WORKSPACE_BYTES"]

# ---- enums --------------------------------------------------------------------------------
# cublasStatus_t (cublas_api.h)
CUBLAS_STATUS_SUCCESS = 0
_STATUS_NAMES = {0: "CUBLAS_STATUS_SUCCESS", 1: "CUBLAS_STATUS_NOT_INITIALIZED",
                 3: "CUBLAS_STATUS_ALLOC_FAILED", 7: "CUBLAS_STATUS_INVALID_VALUE",
                 8: "CUBLAS_STATUS_ARCH_MISMATCH", 11: "CUBLAS_STATUS_MAPPING_ERROR",
                 13: "CUBLAS_STATUS_EXECUTION_FAILED", 14: "CUBLAS_STATUS_INTERNAL_ERROR",
                 15: "CUBLAS_STATUS_NOT_SUPPORTED", 16: "CUBLAS_STATUS_LICENSE_ERROR"}

# cudaDataType_t (library_types.h): CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_R_16F = 2
CUDA_R_32F, CUDA_R_64F, CUDA_R_16F = 0, 1, 2

# cublasComputeType_t (cublas_api.h; same values in cupy_backends' cublas.pxd)
CUBLAS_COMPUTE_32F = 68
CUBLAS_COMPUTE_32F_FAST_TF32 = 77
CUBLAS_COMPUTE_64F = 70

# cublasOperation_t (cublas_api.h)
CUBLAS_OP_N = 0

# cublasLtMatmulDescAttributes_t (cublasLt.h): TRANSA (int32) = 3, TRANSB (int32) = 4,
# EPILOGUE (uint32) = 7, BIAS_POINTER (const void*) = 8
CUBLASLT_MATMUL_DESC_TRANSA = 3
CUBLASLT_MATMUL_DESC_TRANSB = 4
CUBLASLT_MATMUL_DESC_EPILOGUE = 7
CUBLASLT_MATMUL_DESC_BIAS_POINTER = 8

# cublasLtMatrixLayoutAttribute_t (cublasLt.h): BATCH_COUNT (int32) = 5,
# STRIDED_BATCH_OFFSET (int64, elements) = 6
CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT = 5
CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET = 6

# cublasLtMatmulPreferenceAttributes_t (cublasLt.h): MAX_WORKSPACE_BYTES (uint64) = 1,
# MIN_ALIGNMENT_{A,B,C,D}_BYTES (uint32, default 256) = 5, 6, 7, 8
CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES = 1
CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES = 5
CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES = 6
CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES = 7
CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES = 8

# cublasLtEpilogue_t (cublasLt.h): DEFAULT = 1, RELU = 2, BIAS = 4, RELU_BIAS = RELU | BIAS,
# GELU = 32, GELU_BIAS = GELU | BIAS ("apply Bias and then GELU transform")
CUBLASLT_EPILOGUE_DEFAULT = 1
CUBLASLT_EPILOGUE_RELU = 2
CUBLASLT_EPILOGUE_BIAS = 4
CUBLASLT_EPILOGUE_RELU_BIAS = 6
CUBLASLT_EPILOGUE_GELU = 32
CUBLASLT_EPILOGUE_GELU_BIAS = 36


class _Algo(ctypes.Structure):
    # cublasLtMatmulAlgo_t: struct { uint64_t data[8]; }
    _fields_ = [("data", ctypes.c_uint64 * 8)]


class _HeuristicResult(ctypes.Structure):
    # cublasLtMatmulHeuristicResult_t: { cublasLtMatmulAlgo_t algo; size_t workspaceSize;
    # cublasStatus_t state; float wavesCount; int reserved[4]; }  (96 bytes)
    _fields_ = [("algo", _Algo), ("workspaceSize", ctypes.c_size_t), ("state", ctypes.c_int),
                ("wavesCount", ctypes.c_float), ("reserved", ctypes.c_int * 4)]


# Workspace handed to every cublasLtMatmul (per device and stream): 32 MiB is what cuBLAS
# itself reserves on Hopper, enough for every split-K / stream-K algorithm the heuristic picks.
WORKSPACE_BYTES = 32 * 1024 * 1024
_PLAN_CACHE_MAX = 256


class CublasLtError(RuntimeError):
    """A cuBLASLt call returned a non-zero cublasStatus_t."""

    def __init__(self, call, code):
        self.call = call
        self.code = int(code)
        self.status_name = _STATUS_NAMES.get(self.code, f"status {self.code}")
        super().__init__(f"{call} returned {self.status_name} ({self.code})")


# ---- loading -------------------------------------------------------------------------------

_load_lock = threading.Lock()
_state = {}  # "lib", "reason", "version"


def _candidate_paths():
    """Names / paths tried in order. Sonames first: CuPy loads libcublas, which depends on
    libcublasLt, so once CuPy has used cuBLAS the soname resolves to that very copy."""
    names = ["libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"]
    yield from names
    dirs = []
    try:  # pip wheels: nvidia-cublas(-cu12) puts the library in nvidia/cublas/lib, the CUDA
        # 13 wheels in nvidia/cu13/lib
        import nvidia
        for base in getattr(nvidia, "__path__", []):
            dirs += [os.path.join(base, "cublas", "lib"), os.path.join(base, "cu13", "lib"),
                     os.path.join(base, "cu12", "lib")]
    except Exception:
        pass
    try:
        from cupy import _environment
        p = _environment.get_cuda_path()
        if p:
            dirs += [os.path.join(p, "lib64"), os.path.join(p, "lib")]
    except Exception:
        pass
    for env in ("CUDA_PATH", "CUDA_HOME"):
        p = environment.external(env)
        if p:
            dirs += [os.path.join(p, "lib64"), os.path.join(p, "lib")]
    dirs += ["/usr/local/cuda/lib64", "/usr/lib/x86_64-linux-gnu"]
    for d in dirs:
        for pattern in ("libcublasLt.so.13*", "libcublasLt.so.12*", "libcublasLt.so"):
            yield from sorted(glob.glob(os.path.join(d, pattern)))


def _bind(lib):
    c_void_p, c_int, c_size_t = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
    P = ctypes.POINTER
    sigs = {
        "cublasLtCreate": [P(c_void_p)],
        "cublasLtMatmulDescCreate": [P(c_void_p), c_int, c_int],
        "cublasLtMatmulDescDestroy": [c_void_p],
        "cublasLtMatmulDescSetAttribute": [c_void_p, c_int, c_void_p, c_size_t],
        "cublasLtMatrixLayoutCreate": [P(c_void_p), c_int, ctypes.c_uint64, ctypes.c_uint64,
                                       ctypes.c_int64],
        "cublasLtMatrixLayoutDestroy": [c_void_p],
        "cublasLtMatrixLayoutSetAttribute": [c_void_p, c_int, c_void_p, c_size_t],
        "cublasLtMatmulPreferenceCreate": [P(c_void_p)],
        "cublasLtMatmulPreferenceDestroy": [c_void_p],
        "cublasLtMatmulPreferenceSetAttribute": [c_void_p, c_int, c_void_p, c_size_t],
        "cublasLtMatmulAlgoGetHeuristic": [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                                           c_void_p, c_void_p, c_int, P(_HeuristicResult),
                                           P(c_int)],
        "cublasLtMatmul": [c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                           c_void_p, c_void_p, c_void_p, c_void_p, c_void_p, c_void_p,
                           P(_Algo), c_void_p, c_size_t, c_void_p],
    }
    for name, args in sigs.items():
        fn = getattr(lib, name)
        fn.argtypes = args
        fn.restype = c_int
    lib.cublasLtGetVersion.argtypes = []
    lib.cublasLtGetVersion.restype = c_size_t


def _load():
    try:  # make CuPy load its cuBLAS first (see _candidate_paths)
        import cupy_backends.cuda.libs.cublas  # noqa: F401
    except Exception:
        pass
    errors = []
    for cand in _candidate_paths():
        try:
            lib = ctypes.CDLL(cand)
        except OSError as e:
            errors.append(f"{cand}: {e}")
            continue
        try:
            _bind(lib)
        except AttributeError as e:  # a libcublasLt too old for this API
            errors.append(f"{cand}: {e}")
            continue
        return lib, None, int(lib.cublasLtGetVersion())
    detail = "; ".join(errors[:3])
    return None, f"libcublasLt could not be loaded (tried sonames and pip/CUDA paths: {detail})", None


def status():
    """``(True, version)`` when libcublasLt is usable, else ``(False, reason)``."""
    if "reason" not in _state:
        with _load_lock:
            if "reason" not in _state:
                if environment.get("NUMR_CUBLASLT_DISABLE").lower() in ("1", "true", "yes"):
                    lib, reason, version = None, "disabled by NUMR_CUBLASLT_DISABLE", None
                else:
                    lib, reason, version = _load()
                _state.update(lib=lib, reason=reason, version=version)
    if _state["lib"] is None:
        return False, _state["reason"]
    return True, _state["version"]


def library():
    ok, _ = status()
    return _state["lib"] if ok else None


def _reset_for_tests():
    """Forget the loaded library (tests monkeypatch the loader and start over)."""
    with _load_lock:
        _state.clear()
        _devices.clear()


# ---- what cuBLASLt can serve -------------------------------------------------------------

_EPILOGUES = {("none", False): CUBLASLT_EPILOGUE_DEFAULT, ("none", True): CUBLASLT_EPILOGUE_BIAS,
              ("relu", False): CUBLASLT_EPILOGUE_RELU, ("relu", True): CUBLASLT_EPILOGUE_RELU_BIAS,
              ("gelu", False): CUBLASLT_EPILOGUE_GELU, ("gelu", True): CUBLASLT_EPILOGUE_GELU_BIAS}


def epilogue_for(activation, has_bias, dtype_char):
    """The cublasLtEpilogue_t for the request, or None when cuBLASLt cannot give numr's
    result.

    GELU: cuBLASLt documents its GELU as the tanh approximation but not its constants.
    numr uses sqrt(2/pi) truncated to 0.7978845608 (relative difference 3e-12 from the
    exact value): invisible in float32 / float16 (ulp 6e-8 / 5e-4), visible in float64,
    so float64 gelu always takes the fused path. Whether cuBLASLt's float32 GELU is exact
    enough (it may use a fast tanh) is checked by the tests against numr's tolerances.
    """
    if activation == "gelu" and dtype_char == "d":
        return None
    return _EPILOGUES.get((activation, bool(has_bias)))


_DATA_TYPES = {"e": CUDA_R_16F, "f": CUDA_R_32F, "d": CUDA_R_64F}


@functools.lru_cache(maxsize=None)
def _cupy_uses_tf32():
    """Whether CuPy's float32 matmul runs on TF32 (CUPY_TF32=1; off by default): cuBLASLt's
    float32 compute type follows it so the fused and unfused results agree. Read once, as
    every numr setting is."""
    return environment.external("CUPY_TF32", "0").strip() not in ("", "0")


def compute_type_for(dtype_char):
    """(cublasComputeType_t, scale cudaDataType_t): float16 and float32 accumulate in
    float32 with float32 alpha / beta (as CuPy's float16 matmul does), float64 in float64."""
    if dtype_char == "d":
        return CUBLAS_COMPUTE_64F, CUDA_R_64F
    if dtype_char == "f" and _cupy_uses_tf32():
        return CUBLAS_COMPUTE_32F_FAST_TF32, CUDA_R_32F
    return CUBLAS_COMPUTE_32F, CUDA_R_32F


def _alignment(*values):
    """Largest power of two <= 256 dividing every value (byte addresses and strides)."""
    al = 256
    for v in values:
        while al > 1 and v % al:
            al //= 2
    return al


# ---- plans ---------------------------------------------------------------------------------

class _Plan:
    """Descriptors and the heuristic's algorithm for one (shape, dtype, epilogue, alignment)."""

    __slots__ = ("desc", "layouts", "algo", "ws_size", "lock")

    def __init__(self, lib, handle, key):
        (dchar, M, N, K, batch, epilogue, has_c, align, compute, scale) = key
        dtype = _DATA_TYPES[dchar]
        self.desc = None
        self.layouts = []
        self.lock = threading.Lock()
        try:
            self._build(lib, handle, dtype, M, N, K, batch, epilogue, has_c, align, compute, scale)
        except BaseException:
            self.destroy(lib)
            raise

    def _build(self, lib, handle, dtype, M, N, K, batch, epilogue, has_c, align, compute, scale):
        desc = ctypes.c_void_p()
        _check(lib.cublasLtMatmulDescCreate(ctypes.byref(desc), compute, scale),
               "cublasLtMatmulDescCreate")
        self.desc = desc
        op = ctypes.c_int32(CUBLAS_OP_N)
        for attr in (CUBLASLT_MATMUL_DESC_TRANSA, CUBLASLT_MATMUL_DESC_TRANSB):
            _check(lib.cublasLtMatmulDescSetAttribute(desc, attr, ctypes.byref(op), 4),
                   "cublasLtMatmulDescSetAttribute(TRANS)")
        ep = ctypes.c_uint32(epilogue)
        _check(lib.cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE,
                                                  ctypes.byref(ep), 4),
               "cublasLtMatmulDescSetAttribute(EPILOGUE)")
        # column-major views (module docstring): Lt-A = b as N x K, Lt-B = a as K x M,
        # C = D as N x M
        shapes = ((N, K, N, N * K), (K, M, K, M * K), (N, M, N, M * N))
        for rows, cols, ld, stride in shapes:
            lay = ctypes.c_void_p()
            _check(lib.cublasLtMatrixLayoutCreate(ctypes.byref(lay), dtype, rows, cols, ld),
                   "cublasLtMatrixLayoutCreate")
            self.layouts.append(lay)
            if batch > 1:
                bc = ctypes.c_int32(batch)
                st = ctypes.c_int64(stride)
                _check(lib.cublasLtMatrixLayoutSetAttribute(
                    lay, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, ctypes.byref(bc), 4),
                    "cublasLtMatrixLayoutSetAttribute(BATCH_COUNT)")
                _check(lib.cublasLtMatrixLayoutSetAttribute(
                    lay, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, ctypes.byref(st), 8),
                    "cublasLtMatrixLayoutSetAttribute(STRIDED_BATCH_OFFSET)")
        pref = ctypes.c_void_p()
        _check(lib.cublasLtMatmulPreferenceCreate(ctypes.byref(pref)),
               "cublasLtMatmulPreferenceCreate")
        try:
            ws = ctypes.c_uint64(WORKSPACE_BYTES)
            _check(lib.cublasLtMatmulPreferenceSetAttribute(
                pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, ctypes.byref(ws), 8),
                "cublasLtMatmulPreferenceSetAttribute(MAX_WORKSPACE_BYTES)")
            al = ctypes.c_uint32(align)
            for attr in (CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
                         CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
                         CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
                         CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES):
                _check(lib.cublasLtMatmulPreferenceSetAttribute(pref, attr, ctypes.byref(al), 4),
                       "cublasLtMatmulPreferenceSetAttribute(MIN_ALIGNMENT)")
            result = _HeuristicResult()
            count = ctypes.c_int(0)
            la, lb, ld = self.layouts
            _check(lib.cublasLtMatmulAlgoGetHeuristic(handle, desc, la, lb, ld, ld, pref, 1,
                                                      ctypes.byref(result), ctypes.byref(count)),
                   "cublasLtMatmulAlgoGetHeuristic")
        finally:
            lib.cublasLtMatmulPreferenceDestroy(pref)
        if count.value < 1:
            raise CublasLtError("cublasLtMatmulAlgoGetHeuristic (no algorithm)", 15)
        self.algo = _Algo()
        ctypes.memmove(ctypes.byref(self.algo), ctypes.byref(result.algo), ctypes.sizeof(_Algo))
        self.ws_size = int(result.workspaceSize)

    def destroy(self, lib):
        for lay in self.layouts:
            lib.cublasLtMatrixLayoutDestroy(lay)
        self.layouts = []
        if self.desc is not None:
            lib.cublasLtMatmulDescDestroy(self.desc)
            self.desc = None


def _check(code, call):
    if code != CUBLAS_STATUS_SUCCESS:
        raise CublasLtError(call, code)


class _DeviceState:
    """Handle, plans and workspaces of one device."""

    def __init__(self, lib, index):
        self.index = index
        handle = ctypes.c_void_p()
        _check(lib.cublasLtCreate(ctypes.byref(handle)), "cublasLtCreate")
        self.handle = handle
        self.plans = {}
        self.failed = {}  # plan key -> CublasLtError, so a failing shape is not re-queried
        self.workspaces = {}  # stream handle -> cupy array (one per stream: no cross-stream race)
        self.lock = threading.Lock()

    def plan(self, lib, key):
        p = self.plans.get(key)
        if p is not None:
            return p
        err = self.failed.get(key)
        if err is not None:
            raise err
        with self.lock:
            p = self.plans.get(key)
            if p is None:
                try:
                    p = _Plan(lib, self.handle, key)
                except CublasLtError as e:
                    self.failed[key] = e
                    raise
                if len(self.plans) >= _PLAN_CACHE_MAX:  # drop the oldest
                    old = self.plans.pop(next(iter(self.plans)))
                    with old.lock:
                        old.destroy(lib)
                self.plans[key] = p
        return p

    def workspace(self, cupy, stream_ptr):
        ws = self.workspaces.get(stream_ptr)
        if ws is None:
            ws = self.workspaces[stream_ptr] = cupy.empty(WORKSPACE_BYTES, dtype=cupy.uint8)
        return ws


_devices = {}


def _device_state(lib, index):
    st = _devices.get(index)
    if st is None:
        with _load_lock:
            st = _devices.get(index)
            if st is None:
                st = _devices[index] = _DeviceState(lib, index)
    return st


def plan_key(out, a, b, c, epilogue, batch, M, N, K):
    """The plan key for C-contiguous cupy arrays ``a [batch?, M, K]``, ``b [batch?, K, N]``,
    ``out`` (and optional ``c``) ``[batch?, M, N]``, all of one dtype."""
    dchar = out.dtype.char
    isz = out.dtype.itemsize
    ptrs = [out.data.ptr, a.data.ptr, b.data.ptr] + ([c.data.ptr] if c is not None else [])
    strides = [M * N * isz, M * K * isz, K * N * isz] if batch > 1 else []
    align = _alignment(*ptrs, *strides)
    compute, scale = compute_type_for(dchar)
    return (dchar, M, N, K, batch, epilogue, c is not None, align, compute, scale)


def matmul(cupy, stream_ptr, out, a, b, bias, c, *, epilogue, batch, M, N, K):
    """``out = epilogue(a @ b + c + bias)`` on ``stream_ptr`` through cuBLASLt (current
    device). Raises CublasLtError when cuBLASLt refuses; nothing has been launched then."""
    lib = library()
    index = out.device.id
    st = _device_state(lib, index)
    plan = st.plan(lib, plan_key(out, a, b, c, epilogue, batch, M, N, K))
    ws = st.workspace(cupy, stream_ptr)
    if out.dtype.char == "d":
        one, beta = ctypes.c_double(1.0), ctypes.c_double(1.0 if c is not None else 0.0)
    else:
        one, beta = ctypes.c_float(1.0), ctypes.c_float(1.0 if c is not None else 0.0)
    cptr = c.data.ptr if c is not None else out.data.ptr
    la, lb, ld = plan.layouts
    with plan.lock:  # the bias pointer lives in the shared descriptor
        if bias is not None:
            bp = ctypes.c_void_p(bias.data.ptr)
            _check(lib.cublasLtMatmulDescSetAttribute(plan.desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER,
                                                      ctypes.byref(bp), ctypes.sizeof(bp)),
                   "cublasLtMatmulDescSetAttribute(BIAS_POINTER)")
        _check(lib.cublasLtMatmul(st.handle, plan.desc, ctypes.byref(one),
                                  b.data.ptr, la, a.data.ptr, lb, ctypes.byref(beta),
                                  cptr, ld, out.data.ptr, ld, ctypes.byref(plan.algo),
                                  ws.data.ptr, WORKSPACE_BYTES, stream_ptr),
               "cublasLtMatmul")
    return out
