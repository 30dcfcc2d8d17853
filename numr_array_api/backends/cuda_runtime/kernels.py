"""Custom CUDA kernels on numr arrays, numr's own kernels (Sobol) and their preloading."""

import numpy as np

from ..._core.errors import InvalidArgument
from . import sobol_tables as _tables

__all__ = ["CustomKernel", "SOBOL_KERNELS", "module_source", "numr_module", "sobol",
           "warmup_sobol"]


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


# numr's own CUDA kernels. Sobol: point k = XOR of four per-byte table rows picked by the
# bytes of the Gray code g = k ^ (k >> 1) (sobol_tables.py builds the table, the digital
# shift folded into its first quarter), then scaled exactly as
# numr_array_api/_algorithms/qmc/sobol.py says, so cuda agrees with cpu bit for bit. One template
# for both float types and both table placements (shared memory for d <= 12, else __ldg).
# d >= RUN_MIN_D: each thread does a run of RPT consecutive rows of one column and reuses
# the three high-byte rows between them (~1 table load per element instead of 4: table
# reads, not the output, bounded float32); smaller d: a tile of BLOCK * EPT consecutive
# elements per block and grid-stride step, thread t doing elements t + e * BLOCK. Either
# way every store instruction of a warp covers whole 32-byte segments.
_SOURCE = r"""
#define SOBOL_BLOCK %(block)d
#define SOBOL_EPT %(ept)d
#define SOBOL_RPT %(rpt)d
#define SOBOL_RUN_MIN_D %(run_min_d)d

extern __shared__ uint4 numr_sobol_smem[];

template <typename F> struct numr_sobol_conv;
template <> struct numr_sobol_conv<double> {
    // exact: x < 2**32 and mult = 2**-bits
    static __device__ __forceinline__ double f(unsigned int x, int, double mult) {
        return (double)x * mult;
    }
};
template <> struct numr_sobol_conv<float> {
    // x >> rshift < 2**24: exact in float32, and mult is a power of two
    static __device__ __forceinline__ float f(unsigned int x, int rshift, float mult) {
        return (float)(x >> rshift) * mult;
    }
};

template <bool SMEM>
__device__ __forceinline__ unsigned int numr_sobol_ld(const unsigned int* __restrict__ table,
                                                      unsigned int off) {
    if (SMEM) return reinterpret_cast<const unsigned int*>(numr_sobol_smem)[off];
    return __ldg(table + off);
}

// XOR of the table rows of blocks 1..3 picked by hi = g >> 8 (shift-free: the shift lives
// in block 0 only)
template <bool SMEM>
__device__ __forceinline__ unsigned int numr_sobol_high(
        const unsigned int* __restrict__ table, unsigned int hi, unsigned int d,
        unsigned int j) {
    return numr_sobol_ld<SMEM>(table, (256u + (hi & 255u)) * d + j)
         ^ numr_sobol_ld<SMEM>(table, (512u + ((hi >> 8) & 255u)) * d + j)
         ^ numr_sobol_ld<SMEM>(table, (768u + (hi >> 16)) * d + j);
}

template <bool SMEM>
__device__ __forceinline__ unsigned int numr_sobol_point(
        const unsigned int* __restrict__ table, unsigned long long k, unsigned int d,
        unsigned int j) {
    // v has at most 32 rows: only the low 32 bits of the Gray code select anything
    const unsigned int g = (unsigned int)(k ^ (k >> 1));
    return numr_sobol_ld<SMEM>(table, (g & 255u) * d + j)
         ^ numr_sobol_high<SMEM>(table, g >> 8, d, j);
}

// d >= SOBOL_RUN_MIN_D: thread p owns a run of RPT consecutive rows of column j
// (p = run * d + j, so a warp's stores for one row offset are contiguous, >= 32 bytes per
// row). Consecutive Gray codes share bits 8..31 except once per 256 rows, so the run
// reuses the blocks-1..3 XOR (h) and pays 1 load per row instead of 4. Block 0 (which holds
// the shift) is still looked up every row, so the shift enters exactly once and every
// point is the same 4-row XOR as numr_sobol_point, bit for bit (g wrapping at 2**32, rows
// past n included).
template <typename F, bool SMEM>
__device__ __forceinline__ void numr_sobol_runs(
        const unsigned int* __restrict__ table, const long long n, const int d,
        const long long skip, const int rshift, const F mult, F* __restrict__ out) {
    const long long total = (n + SOBOL_RPT - 1) / SOBOL_RPT * (long long)d;
    const long long stride = (long long)gridDim.x * SOBOL_BLOCK;
    long long p = (long long)blockIdx.x * SOBOL_BLOCK + threadIdx.x;
    if (p >= total) return;
    const unsigned int ud = (unsigned int)d;
    // (first row r0, column j) of run p, advanced without division by divmod(stride, d)
    long long r0 = p / d * SOBOL_RPT;
    unsigned int j = (unsigned int)(p %% d);
    const long long sr = stride / d * SOBOL_RPT;
    const unsigned int sj = (unsigned int)(stride %% d);
    for (; p < total; p += stride) {
        unsigned int g[SOBOL_RPT], x[SOBOL_RPT];
        // block-0 loads first: independent of each other and of h, all in flight at once
#pragma unroll
        for (int e = 0; e < SOBOL_RPT; ++e) {
            const unsigned long long k = (unsigned long long)(skip + r0 + e);
            g[e] = (unsigned int)(k ^ (k >> 1));
            x[e] = numr_sobol_ld<SMEM>(table, (g[e] & 255u) * ud + j);
        }
        unsigned int hi = g[0] >> 8;
        unsigned int h = numr_sobol_high<SMEM>(table, hi, ud, j);
        F val[SOBOL_RPT];
#pragma unroll
        for (int e = 0; e < SOBOL_RPT; ++e) {
            if ((g[e] >> 8) != hi) {  // rare (a multiple of 256 crossed): reload
                hi = g[e] >> 8;
                h = numr_sobol_high<SMEM>(table, hi, ud, j);
            }
            val[e] = numr_sobol_conv<F>::f(x[e] ^ h, rshift, mult);
        }
        F* __restrict__ o = out + r0 * d + j;
        if (r0 + SOBOL_RPT <= n) {
#pragma unroll
            for (int e = 0; e < SOBOL_RPT; ++e) o[(long long)e * d] = val[e];
        } else {  // last, partial run: rows past n are computed (in-table), not stored
#pragma unroll
            for (int e = 0; e < SOBOL_RPT; ++e) {
                if (r0 + e < n) o[(long long)e * d] = val[e];
            }
        }
        r0 += sr;
        j += sj;
        if (j >= ud) { j -= ud; r0 += SOBOL_RPT; }
    }
}

// table: uint32 [1024, d]; out: [n, d] row-major. blockDim.x must be SOBOL_BLOCK; with
// SMEM the launch passes 1024 * d * 4 bytes of dynamic shared memory.
template <typename F, bool SMEM>
__device__ __forceinline__ void numr_sobol_body(
        const unsigned int* __restrict__ table, const long long n, const int d,
        const long long skip, const int rshift, const F mult, F* __restrict__ out) {
    if (SMEM) {
        const uint4* __restrict__ t4 = reinterpret_cast<const uint4*>(table);
        for (int e = threadIdx.x; e < 256 * d; e += SOBOL_BLOCK) {
            numr_sobol_smem[e] = __ldg(t4 + e);
        }
        __syncthreads();
    }
    if (d >= SOBOL_RUN_MIN_D) {
        numr_sobol_runs<F, SMEM>(table, n, d, skip, rshift, mult, out);
        return;
    }
    // small d: a row is < 32 bytes, runs of rows would scatter a warp's stores; instead
    // tiles of consecutive elements, 4 loads each
    const long long total = n * (long long)d;
    const long long tile = (long long)SOBOL_BLOCK * SOBOL_EPT;
    const long long stride = (long long)gridDim.x * tile;
    long long i = (long long)blockIdx.x * tile + threadIdx.x;
    if (i >= total) return;
    const unsigned int ud = (unsigned int)d;
    // (k, j) of element i, advanced without division: by divmod(BLOCK, d) from one element
    // of the thread to the next, by divmod(stride, d) from one tile to the next
    unsigned long long k = (unsigned long long)(skip + i / d);
    unsigned int j = (unsigned int)(i %% d);
    const unsigned int bk = SOBOL_BLOCK / ud, bj = SOBOL_BLOCK %% ud;
    const unsigned long long sk = (unsigned long long)(stride / d);
    const unsigned int sj = (unsigned int)(stride %% d);
    for (; i < total; i += stride) {
        F val[SOBOL_EPT];
        unsigned long long kk = k;
        unsigned int jj = j;
#pragma unroll
        for (int e = 0; e < SOBOL_EPT; ++e) {
            // past the end (last tile only) the lookups stay inside the table; not stored
            val[e] = numr_sobol_conv<F>::f(numr_sobol_point<SMEM>(table, kk, ud, jj), rshift,
                                           mult);
            kk += bk;
            jj += bj;
            if (jj >= ud) { jj -= ud; ++kk; }
        }
        if (i + (long long)(SOBOL_EPT - 1) * SOBOL_BLOCK < total) {
#pragma unroll
            for (int e = 0; e < SOBOL_EPT; ++e) out[i + e * SOBOL_BLOCK] = val[e];
        } else {
#pragma unroll
            for (int e = 0; e < SOBOL_EPT; ++e) {
                if (i + e * SOBOL_BLOCK < total) out[i + e * SOBOL_BLOCK] = val[e];
            }
        }
        k += sk;
        j += sj;
        if (j >= ud) { j -= ud; ++k; }
    }
}

#define SOBOL_KERNEL(NAME, F, SMEM)                                                   \
extern "C" __global__ void __launch_bounds__(SOBOL_BLOCK) NAME(                        \
        const unsigned int* __restrict__ table, const long long n, const int d,             \
        const long long skip, const int rshift, const F mult, F* __restrict__ out) {        \
    numr_sobol_body<F, SMEM>(table, n, d, skip, rshift, mult, out);                         \
}
SOBOL_KERNEL(numr_sobol_f64, double, false)
SOBOL_KERNEL(numr_sobol_f32, float, false)
SOBOL_KERNEL(numr_sobol_f64_smem, double, true)
SOBOL_KERNEL(numr_sobol_f32_smem, float, true)
"""

SOBOL_KERNELS = ("numr_sobol_f64", "numr_sobol_f32", "numr_sobol_f64_smem",
                "numr_sobol_f32_smem")
_modules = {}
_occupancy = {}


def module_source(cfg=None):
    """The CUDA source of numr's module for a Sobol kernel shape (``sobol_tables.Config``;
    default: the SOBOL_* knobs)."""
    return _SOURCE % (cfg or _tables.config())._asdict()


def numr_module(client, cfg=None):
    """numr's RawModule, compiled and loaded on ``client``'s device (once per kernel
    shape)."""
    cfg = cfg or _tables.config()
    m = _modules.get((client.index, cfg))
    if m is None:
        cupy = client.cupy
        with cupy.cuda.Device(client.index):
            m = cupy.RawModule(code=module_source(cfg), options=("-std=c++14",))
            for name in SOBOL_KERNELS:
                m.get_function(name)  # compiles and loads the module now
        _modules[(client.index, cfg)] = m
    return m


def _kernel_name(out_dtype, d):
    name = "numr_sobol_f32" if np.dtype(out_dtype) == np.float32 else "numr_sobol_f64"
    return name + "_smem" if _tables.uses_shared_memory(d) else name


def _max_grid(client, fn, name, smem, block):
    """Blocks resident at once on the device (one full wave: the grid-stride loop then gives
    every block the same work), from the occupancy API; cached per (device, kernel,
    shared memory, block size)."""
    key = (client.index, name, smem, block)
    g = _occupancy.get(key)
    if g is None:
        cupy = client.cupy
        with cupy.cuda.Device(client.index):
            sms = int(cupy.cuda.Device(client.index).attributes["MultiProcessorCount"])
            try:
                per_sm = int(cupy.cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(
                    fn.ptr, block, smem))
            except Exception:  # no occupancy API in this CuPy: a guess, several waves
                per_sm = 4 * max(1, min(8, (160 * 1024) // max(smem, 1)))
        g = _occupancy[key] = sms * max(per_sm, 1)
    return g


def _prepare(client, d):
    """Compile the module and size the grids for ``d`` (before any graph capture)."""
    cfg = _tables.config()
    m = numr_module(client, cfg)
    for dt in (np.float32, np.float64):
        name = _kernel_name(dt, d)
        smem = _tables.table_bytes(d) if name.endswith("_smem") else 0
        _max_grid(client, m.get_function(name), name, smem, cfg.block)
    return m


def warmup_sobol(client, d, bits=32):
    """Build the unscrambled per-byte table of ``d`` dimensions and upload it to
    ``client``'s device once, so ``sobol`` needs no host-to-device copy afterwards (inside
    graph capture)."""
    from ..._algorithms.qmc import directions
    key = (int(d), int(bits))
    cached = client.sobol_cache.get(key)
    if cached is not None:
        return cached
    if client.capturing:
        from .graphs import CaptureError, H2D_REASON
        raise CaptureError(f"sobol with d={d}, bits={bits} has no device direction numbers "
                           f"yet: {H2D_REASON}")
    cupy = client.cupy
    table = _tables.build_table(directions.direction_numbers(int(d), int(bits)))
    with cupy.cuda.Device(client.index):
        client.bind_thread()
        dt = cupy.asarray(table)
        _prepare(client, int(d))
        client.compute.synchronize()
    client.sobol_cache[key] = dt
    return dt


def sobol(client, n, skip, v, shift, *, bits, out_dtype):
    """[n, d] CuPy array of Sobol points (the ext dispatch's cuda implementation)."""
    cupy = client.cupy
    d = int(v.shape[1])
    if shift is None:
        dt = warmup_sobol(client, d, bits)
    else:
        if client.capturing:
            from .graphs import CaptureError, H2D_REASON
            raise CaptureError("scrambled sobol draws its scramble on the host: " + H2D_REASON)
        dt = None
    with cupy.cuda.Device(client.index):
        client.bind_thread()
        if dt is None:  # scrambled: this call's table, shift folded in, built on the host
            dt = cupy.asarray(_tables.build_table(v, shift))
        out = cupy.empty((n, d), dtype=out_dtype)
        total = n * d
        if total == 0:
            return out
        cfg = _tables.config()
        m = numr_module(client, cfg)
        name = _kernel_name(out_dtype, d)
        fn = m.get_function(name)
        smem = _tables.table_bytes(d) if name.endswith("_smem") else 0
        units, per_block = _tables.work_units(n, d, cfg)
        grid = max(1, min(-(-units // per_block), _max_grid(client, fn, name, smem,
                                                           cfg.block)))
        if np.dtype(out_dtype) == np.float32:
            rshift = max(bits - 24, 0)
            mult = np.float32(2.0 ** -min(bits, 24))
        else:
            rshift, mult = 0, np.float64(2.0 ** -bits)
        fn((grid,), (cfg.block,),
           (dt, np.int64(n), np.int32(d), np.int64(skip), np.int32(rshift), mult, out),
           shared_mem=smem)
    return out
