"""Custom CUDA kernels on numr arrays, numr's own kernels (Sobol) and their preloading."""

import numpy as np

from ..._core.errors import InvalidArgument

__all__ = ["CustomKernel", "NUMR_MODULE_SOURCE", "numr_module", "sobol", "warmup_sobol"]


class CustomKernel:
    """A compiled ``__global__`` function launched on numr arrays.

    ``kernel(grid, block, args, shared_mem=0)``: ``args`` may hold numr cuda arrays (passed
    as device pointers; they must be C-contiguous), CuPy arrays, NumPy scalars (exact C
    types: ``numpy.int32(n)`` for an ``int``) or Python scalars (CuPy passes int as
    ``long long``, float as ``double``). Launches go to the compute stream of the device of
    the first array argument (else the current device), in order with numr's own work.
    """

    def __init__(self, runtime, source, name, options=(), backend="nvrtc",
                 name_expressions=None, jitify=False):
        cupy = runtime.require()
        self._runtime = runtime
        self.name = name
        kw = {"options": tuple(options), "backend": backend}
        if jitify:  # deprecated in CuPy 14: passed only when asked for
            kw["jitify"] = True
        if name_expressions:
            self._module = cupy.RawModule(code=source, name_expressions=tuple(name_expressions),
                                          **kw)
            self._kernel = None
        else:
            self._module = None
            self._kernel = cupy.RawKernel(source, name, **kw)
        self._per_device = {}

    def _function(self, index):
        if self._kernel is not None:
            return self._kernel
        fn = self._per_device.get(index)
        if fn is None:
            fn = self._per_device[index] = self._module.get_function(self.name)
        return fn

    def compile(self, device=None):
        """Compile (and load) now for ``device`` instead of at the first launch."""
        client = self._runtime.client(_index(device))
        with self._runtime.cupy.cuda.Device(client.index):
            fn = self._function(client.index)
            if self._kernel is not None:
                fn.compile()
        return self

    def __call__(self, grid, block, args, *, shared_mem=0):
        cupy = self._runtime.cupy
        index = None
        conv = []
        for i, a in enumerate(args):
            data = getattr(a, "_data", None)
            if data is not None and hasattr(a, "_ctx"):
                a = data
            if isinstance(a, cupy.ndarray):
                if not a.flags.c_contiguous:
                    raise InvalidArgument(f"args[{i}]", f"{self.name}: array arguments must be "
                                                        f"C-contiguous (copy it first)")
                if index is None:
                    index = a.device.id
                elif a.device.id != index:
                    raise InvalidArgument(f"args[{i}]", f"{self.name}: arrays are on cuda:"
                                                        f"{index} and cuda:{a.device.id}")
            conv.append(a)
        client = self._runtime.client(index)
        grid = grid if isinstance(grid, tuple) else (int(grid),)
        block = block if isinstance(block, tuple) else (int(block),)
        with cupy.cuda.Device(client.index):
            client.bind_thread()
            self._function(client.index)(grid, block, tuple(conv), shared_mem=shared_mem)


def _index(device):
    if device is None:
        return None
    return getattr(device, "index", device)


# numr's own CUDA kernels. Sobol: point k = shift ^ XOR of v[b] over the set bits b of the
# Gray code k ^ (k >> 1), then scaled exactly as numr_array_api/ext/_qmc/sobol.py says, so
# cuda agrees with cpu bit for bit.
NUMR_MODULE_SOURCE = r"""
extern "C" __global__ void numr_sobol_f64(
        const unsigned int* __restrict__ v, const unsigned int* __restrict__ shift,
        const int has_shift, const long long n, const int d, const long long skip,
        const int bits, const double mult, double* __restrict__ out) {
    const long long total = n * (long long)d;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
         i += (long long)blockDim.x * gridDim.x) {
        const long long row = i / d;
        const int j = (int)(i - row * d);
        const unsigned long long k = (unsigned long long)(skip + row);
        unsigned long long g = k ^ (k >> 1);
        unsigned int x = has_shift ? shift[j] : 0u;
        for (int b = 0; b < bits && g; ++b, g >>= 1) {
            if (g & 1ull) x ^= v[(long long)b * d + j];
        }
        out[i] = (double)x * mult;
    }
}

extern "C" __global__ void numr_sobol_f32(
        const unsigned int* __restrict__ v, const unsigned int* __restrict__ shift,
        const int has_shift, const long long n, const int d, const long long skip,
        const int bits, const int rshift, const float mult, float* __restrict__ out) {
    const long long total = n * (long long)d;
    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < total;
         i += (long long)blockDim.x * gridDim.x) {
        const long long row = i / d;
        const int j = (int)(i - row * d);
        const unsigned long long k = (unsigned long long)(skip + row);
        unsigned long long g = k ^ (k >> 1);
        unsigned int x = has_shift ? shift[j] : 0u;
        for (int b = 0; b < bits && g; ++b, g >>= 1) {
            if (g & 1ull) x ^= v[(long long)b * d + j];
        }
        // x >> rshift < 2**24: exact in float32, and mult is a power of two
        out[i] = (float)(x >> rshift) * mult;
    }
}
"""

NUMR_KERNELS = ("numr_sobol_f64", "numr_sobol_f32")
_modules = {}


def numr_module(client):
    """numr's RawModule, compiled and loaded on ``client``'s device (once)."""
    m = _modules.get(client.index)
    if m is None:
        cupy = client.cupy
        with cupy.cuda.Device(client.index):
            m = cupy.RawModule(code=NUMR_MODULE_SOURCE, options=("-std=c++14",))
            for name in NUMR_KERNELS:
                m.get_function(name)  # compiles and loads the module now
        _modules[client.index] = m
    return m


def warmup_sobol(client, d, bits=32):
    """Upload the unscrambled direction numbers of ``d`` dimensions to ``client``'s device
    once, so ``sobol`` needs no host-to-device copy afterwards (inside graph capture)."""
    from ...ext._qmc import directions
    key = (int(d), int(bits))
    cached = client.sobol_cache.get(key)
    if cached is not None:
        return cached
    if client.capturing:
        from .graphs import CaptureError, H2D_REASON
        raise CaptureError(f"sobol with d={d}, bits={bits} has no device direction numbers "
                           f"yet: {H2D_REASON}")
    cupy = client.cupy
    v = directions.direction_numbers(int(d), int(bits))
    with cupy.cuda.Device(client.index):
        client.bind_thread()
        dv = cupy.asarray(np.ascontiguousarray(v, dtype=np.uint32))
        numr_module(client)
        client.compute.synchronize()
    client.sobol_cache[key] = dv
    return dv


def sobol(client, n, skip, v, shift, *, bits, out_dtype):
    """[n, d] CuPy array of Sobol points (the ext dispatch's cuda implementation)."""
    cupy = client.cupy
    d = int(v.shape[1])
    if shift is None:
        dv = warmup_sobol(client, d, bits)
    else:
        if client.capturing:
            from .graphs import CaptureError, H2D_REASON
            raise CaptureError("scrambled sobol draws its scramble on the host: " + H2D_REASON)
        dv = None
    with cupy.cuda.Device(client.index):
        client.bind_thread()
        if dv is None:
            dv = cupy.asarray(np.ascontiguousarray(v, dtype=np.uint32))
        sh = dv if shift is None else cupy.asarray(np.ascontiguousarray(shift, dtype=np.uint32))
        out = cupy.empty((n, d), dtype=out_dtype)
        total = n * d
        if total == 0:
            return out
        m = numr_module(client)
        block = 256
        grid = max(1, min((total + block - 1) // block, 1 << 16))
        if np.dtype(out_dtype) == np.float32:
            rshift = max(bits - 24, 0)
            mult = np.float32(2.0 ** -min(bits, 24))
            m.get_function("numr_sobol_f32")(
                (grid,), (block,),
                (dv, sh, np.int32(shift is not None), np.int64(n), np.int32(d), np.int64(skip),
                 np.int32(bits), np.int32(rshift), mult, out))
        else:
            m.get_function("numr_sobol_f64")(
                (grid,), (block,),
                (dv, sh, np.int32(shift is not None), np.int64(n), np.int32(d), np.int64(skip),
                 np.int32(bits), np.float64(2.0 ** -bits), out))
    return out
