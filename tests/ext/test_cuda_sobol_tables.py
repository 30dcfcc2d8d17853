"""The CUDA Sobol kernel's per-byte tables without a GPU: the NumPy table builder and an
emulation of the kernel (same integer operations and thread mapping) against the cpu Sobol
and SciPy bit for bit; the kernel's own CUDA C++ source compiled for the host with g++
(shimmed CUDA keywords, threads run one after another) against the same references; and,
where numr cuda has a device, the real kernel."""

import ctypes
import importlib
import shutil
import subprocess
import warnings

import numpy as np
import pytest

from numr_array_api.backends.cuda_runtime import sobol_tables as T
from numr_array_api.ext import random as R
from numr_array_api._algorithms.qmc import directions, seeding

cpu = pytest.importorskip("numr_array_api.cpu")


def _cases():
    # (n, skip) per bits: skip + n <= 2**bits; near the top of the range (all Gray-code
    # bytes set), across 2**31, at the very end of a 32-bit sequence
    spans = {1: [(2, 0), (1, 1)], 8: [(200, 50), (256, 0)], 24: [(3000, 2**23 - 1000)],
             30: [(2000, 2**30 - 2000)],
             32: [(2000, 2**31 - 1000), (1500, 2**32 - 1500), (1000, 0)]}
    out = []
    for d in (1, 5, 12, 13, 100):
        for bits, ns in spans.items():
            for n, skip in ns:
                for scramble in (False, True):
                    out.append((n, d, skip, bits, scramble))
    return out


CASES = _cases()
DTYPES = ["float64", "float32"]


def _inputs(n, d, skip, bits, scramble, seed=11):
    v = directions.direction_numbers(d, bits)
    shift = None
    if scramble:
        v, shift = directions.scramble(v, bits, seeding.generator(seed))
    return v, shift


def _cpu_ref(n, d, skip, bits, scramble, dtype, seed=11):
    kw = dict(scramble=True, seed=seed) if scramble else {}
    return np.asarray(R.sobol(n, d, skip=skip, bits=bits, dtype=getattr(cpu, dtype), xp=cpu,
                              **kw))


def _max_degree_ok(d, bits):
    poly, _ = directions._table()
    return all(int(p).bit_length() - 1 <= bits for p in poly[:d])


def test_table_rows_are_xors_of_direction_numbers():
    rng = np.random.default_rng(0)
    for bits in (1, 7, 8, 9, 17, 24, 31, 32):
        v = rng.integers(0, 2**32, size=(bits, 3), dtype=np.uint64).astype(np.uint32)
        shift = rng.integers(0, 2**32, size=3, dtype=np.uint64).astype(np.uint32)
        t = T.build_table(v, shift)
        assert t.shape == (1024, 3) and t.dtype == np.uint32 and t.flags.c_contiguous
        for q in range(4):
            for byte in (0, 1, 2, 3, 128, 129, 170, 255):
                want = shift.copy() if q == 0 else np.zeros(3, dtype=np.uint32)
                for i in range(8):
                    if (byte >> i) & 1 and 8 * q + i < bits:  # rows >= bits count as 0
                        want ^= v[8 * q + i]
                np.testing.assert_array_equal(t[256 * q + byte], want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,d,skip,bits,scramble", CASES)
def test_emulated_kernel_equals_cpu_sobol(n, d, skip, bits, scramble, dtype):
    v, shift = _inputs(n, d, skip, bits, scramble)
    got = T.emulate_kernel(T.build_table(v, shift), n, skip, bits=bits, dtype=np.dtype(dtype))
    np.testing.assert_array_equal(got, _cpu_ref(n, d, skip, bits, scramble, dtype))
    # SciPy's fast_forward walks the sequence: only for small skips
    if not scramble and dtype == "float64" and skip < 2**20 and _max_degree_ok(d, bits):
        from scipy.stats import qmc
        eng = qmc.Sobol(d, scramble=False, bits=bits)
        if skip:
            eng.fast_forward(skip)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            np.testing.assert_array_equal(got, eng.random(n))


@pytest.mark.parametrize("grid", [1, 2, 3, 7])
@pytest.mark.parametrize("d", [1, 3, 13, 255, 256, 257, 1000])
def test_emulated_thread_mapping_any_grid(grid, d):
    # strides that d does and does not divide, d above and below the block size; the
    # emulation itself asserts every element is written exactly once
    n = max(1, 9000 // d)
    v, shift = _inputs(n, d, 5, 32, True)
    got = T.emulate_kernel(T.build_table(v, shift), n, 5, bits=32, dtype=np.float64,
                           grid=grid)
    np.testing.assert_array_equal(got, _cpu_ref(n, d, 5, 32, True, "float64"))


# runs of RPT rows (d >= RUN_MIN_D): n not a multiple of RPT, runs starting at odd rows and
# crossing multiples of 256 (and of 2**16, 2**24), the last rows of a 32-bit sequence
_CFG = T.config()
RUN_CASES = [(n, d, skip, bits, scramble)
             for d in (_CFG.run_min_d - 1, _CFG.run_min_d, 32, 33)
             for n, skip, bits in [(1, 0, 32), (_CFG.rpt - 1, 3, 32), (517, 2**16 - 250, 32),
                                   (1003, 2**24 - 501, 32), (777, 2**32 - 777, 32),
                                   (300, 2**10 - 300, 10)]
             for scramble in (False, True)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,d,skip,bits,scramble", RUN_CASES)
def test_emulated_runs_equal_cpu_sobol(n, d, skip, bits, scramble, dtype):
    v, shift = _inputs(n, d, skip, bits, scramble)
    for grid in (None, 1, 5):
        got = T.emulate_kernel(T.build_table(v, shift), n, skip, bits=bits,
                               dtype=np.dtype(dtype), grid=grid)
        np.testing.assert_array_equal(got, _cpu_ref(n, d, skip, bits, scramble, dtype))


# ---- the CUDA source itself, compiled for the host ---------------------------------------

_SHIM = r"""
#include <cstdint>
struct uint4 { unsigned int x, y, z, w; };
struct dim3 { unsigned int x, y, z; };
static dim3 threadIdx, blockIdx, blockDim, gridDim;
#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__
#define __launch_bounds__(x)
template <typename T> static inline T __ldg(const T* p) { return *p; }
static inline void __syncthreads() {}
"""

_HARNESS = r"""
uint4 numr_sobol_smem[256 * 21201];
typedef void (*kf64)(const unsigned int*, long long, int, long long, int, double, double*);
typedef void (*kf32)(const unsigned int*, long long, int, long long, int, float, float*);

static void launch_setup(int b, int t, int grid) {
    blockIdx.x = b; threadIdx.x = t; gridDim.x = grid; blockDim.x = SOBOL_BLOCK;
    blockIdx.y = blockIdx.z = threadIdx.y = threadIdx.z = 0;
    gridDim.y = gridDim.z = blockDim.y = blockDim.z = 1;
}

// thread by thread; for the shared-memory kernels the harness stages the whole table
// first, standing in for the other threads' part of the cooperative copy
extern "C" int run(int which, const unsigned int* table, long long n, int d, long long skip,
                   int rshift, double mult, void* out, int grid) {
    int smem = which >= 2;
    if (smem) {
        for (long long e = 0; e < 256LL * d; ++e)
            numr_sobol_smem[e] = reinterpret_cast<const uint4*>(table)[e];
    }
    for (int b = 0; b < grid; ++b) {
        for (int t = 0; t < SOBOL_BLOCK; ++t) {
            launch_setup(b, t, grid);
            switch (which) {
                case 0: numr_sobol_f64(table, n, d, skip, rshift, mult, (double*)out); break;
                case 1: numr_sobol_f32(table, n, d, skip, rshift, (float)mult, (float*)out); break;
                case 2: numr_sobol_f64_smem(table, n, d, skip, rshift, mult, (double*)out); break;
                case 3: numr_sobol_f32_smem(table, n, d, skip, rshift, (float)mult, (float*)out); break;
            }
        }
    }
    return 0;
}
"""


@pytest.fixture(scope="module")
def host_kernel(tmp_path_factory):
    cxx = shutil.which("g++") or shutil.which("clang++")
    if cxx is None:
        pytest.skip("no C++ compiler to build the CUDA source for the host")
    from numr_array_api.backends.cuda_runtime import kernels as K
    d = tmp_path_factory.mktemp("sobol_host")
    src = d / "sobol_host.cpp"
    src.write_text(_SHIM + K.module_source() + _HARNESS)
    lib = d / "sobol_host.so"
    r = subprocess.run([cxx, "-std=c++14", "-O1", "-shared", "-fPIC", "-Wall", "-Werror",
                        "-Wno-unused-function", "-Wno-unknown-pragmas", "-o", str(lib),
                        str(src)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    so = ctypes.CDLL(str(lib))
    so.run.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_longlong, ctypes.c_int,
                       ctypes.c_longlong, ctypes.c_int, ctypes.c_double, ctypes.c_void_p,
                       ctypes.c_int]
    return so


def _host_run(so, n, skip, v, shift, bits, dtype, grid=None):
    d = v.shape[1]
    table = np.ascontiguousarray(T.build_table(v, shift))
    out = np.full((n, d), np.nan, dtype=dtype)
    f32 = np.dtype(dtype) == np.float32
    which = (1 if f32 else 0) + (2 if T.uses_shared_memory(d) else 0)
    rshift = max(bits - 24, 0) if f32 else 0
    mult = 2.0 ** -min(bits, 24) if f32 else 2.0 ** -bits
    units, per_block = T.work_units(n, d)
    if grid is None:
        grid = max(1, min(-(-units // per_block), 16))
    so.run(which, table.ctypes.data, n, d, skip, rshift, mult, out.ctypes.data, grid)
    return out


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,d,skip,bits,scramble", [c for c in CASES if c[0] * c[1] <= 2**17])
def test_cuda_source_on_host_equals_cpu_sobol(host_kernel, n, d, skip, bits, scramble, dtype):
    v, shift = _inputs(n, d, skip, bits, scramble)
    got = _host_run(host_kernel, n, skip, v, shift, bits, np.dtype(dtype))
    np.testing.assert_array_equal(got, _cpu_ref(n, d, skip, bits, scramble, dtype))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,d,skip,bits,scramble", RUN_CASES)
def test_cuda_source_on_host_runs(host_kernel, n, d, skip, bits, scramble, dtype):
    v, shift = _inputs(n, d, skip, bits, scramble)
    for grid in (None, 1, 5):
        got = _host_run(host_kernel, n, skip, v, shift, bits, np.dtype(dtype), grid=grid)
        np.testing.assert_array_equal(got, _cpu_ref(n, d, skip, bits, scramble, dtype))


@pytest.mark.parametrize("grid", [1, 3])
@pytest.mark.parametrize("d", [1, 7, 8, 12, 13, 257, 1000])
def test_cuda_source_on_host_any_grid(host_kernel, grid, d):
    n = max(1, 9000 // d)
    v, shift = _inputs(n, d, 5, 32, True)
    for dtype in DTYPES:
        got = _host_run(host_kernel, n, 5, v, shift, 32, np.dtype(dtype), grid=grid)
        np.testing.assert_array_equal(got, _cpu_ref(n, d, 5, 32, True, dtype))


# ---- the real kernel, where numr cuda has a device ----------------------------------------

def _cuda():
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cx = importlib.import_module("numr_array_api.cuda")
            cx.asarray([1.0])
        return cx
    except Exception:
        return None


@pytest.mark.gpu
@pytest.mark.cuda
@pytest.mark.parametrize("dtype", DTYPES)
def test_cuda_kernel_equals_cpu_sobol(dtype):
    cx = _cuda()
    if cx is None:
        pytest.skip("numr_array_api.cuda has no usable device here")
    for n, d, skip, bits, scramble in CASES + [(70001, 3, 7, 32, False), (3001, 700, 0, 32, True)]:
        kw = dict(scramble=True, seed=11) if scramble else {}
        got = R.sobol(n, d, skip=skip, bits=bits, dtype=getattr(cx, dtype), xp=cx, **kw)
        np.testing.assert_array_equal(np.asarray(got.to_device("cpu")),
                                      _cpu_ref(n, d, skip, bits, scramble, dtype),
                                      err_msg=f"n={n} d={d} skip={skip} bits={bits} "
                                              f"scramble={scramble}")

