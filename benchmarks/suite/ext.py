"""Benchmarks for numr_array_api.ext.

    python benchmarks/suite/ext.py            # full set
    python benchmarks/suite/ext.py --quick    # fewer shapes / repeats
    python benchmarks/suite/ext.py --cuda-only [--dtype float16]   # the CUDA part alone

GEMM epilogue: fused ``ext.linalg.gemm_epilogue`` against the unfused
``matmul + add + activation`` in the same namespace, and against PyTorch
(``torch.nn.functional.linear`` + activation) when torch imports. Sobol: ``ext.random.sobol``
against ``scipy.stats.qmc.Sobol``; on CUDA (numr_array_api.cuda + CuPy) against
cupy.cuda.curand's SOBOL32 generator. Parts whose library or device is missing are skipped.
Ratios > 1 mean the ext function is faster. Timings interleave the contenders and keep the
minimum of the repeats, which is the most stable figure on a shared machine.
"""

import argparse
import importlib
import os
import sys
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from numr_array_api.ext import linalg, random as qrandom  # noqa: E402
from numr_array_api._algorithms.gemm import activations  # noqa: E402

GEMM_SHAPES = [  # (M, K, N); the first four are the memory-bound goal shapes (M*N >= 2**22)
    (4096, 64, 1024),
    (4096, 256, 1024),
    (16384, 128, 256),
    (2048, 1024, 2048),
    (512, 512, 512),
    (8, 4096, 4096),
]
ACTS = ("none", "relu", "gelu", "silu", "sigmoid", "tanh", "gelu_erf")


def _min_times(fns, repeat, sync=None):
    for f in fns:
        f()
    if sync:
        sync()
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, f in enumerate(fns):
            t = time.perf_counter()
            f()
            if sync:
                sync()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


def _optional(name):
    try:
        return importlib.import_module(name)
    except Exception:
        return None


def _namespaces():
    # NumPy >= 2 is itself an array API namespace; array_api_compat's wrapper when present
    out = [("numpy", _optional("array_api_compat.numpy") or np)]
    cpu = _optional("numr_array_api.cpu")
    if cpu is not None:
        try:
            cpu.asarray([1.0])
            out.append(("numr.cpu", cpu))
        except Exception:
            pass
    return out


def _unfused(xp, a, b, bias, act):
    with np.errstate(over="ignore"):
        return activations.forward(act, xp, xp.matmul(a, b) + bias)


def _torch_act(torch, act):
    F = torch.nn.functional
    return {"none": lambda y: y, "relu": F.relu, "gelu": lambda y: F.gelu(y, approximate="tanh"),
            "gelu_erf": F.gelu, "silu": F.silu, "sigmoid": torch.sigmoid, "tanh": torch.tanh}[act]


def bench_gemm(shapes, acts, dtype, repeat):
    torch = _optional("torch")
    print(f"\n== gemm_epilogue, {np.dtype(dtype).name}, CPU (min of {repeat}) ==")
    hdr = f"{'ns':9s} {'M x K x N':>17s} {'act':8s} {'fused ms':>9s} {'unfused':>9s} {'ratio':>6s}"
    print(hdr + (f" {'torch ms':>9s} {'vs torch':>8s}" if torch else "  (torch not installed)"))
    rng = np.random.default_rng(0)
    rows = []
    for M, K, N in shapes:
        a0 = rng.standard_normal((M, K)).astype(dtype)
        b0 = (rng.standard_normal((K, N)) / np.sqrt(K)).astype(dtype)
        bias0 = rng.standard_normal(N).astype(dtype)
        for nsname, xp in _namespaces():
            a, b, bias = xp.asarray(a0), xp.asarray(b0), xp.asarray(bias0)
            for act in acts:
                fns = [lambda: linalg.gemm_epilogue(a, b, bias, activation=act),
                       lambda: _unfused(xp, a, b, bias, act)]
                t = _min_times(fns, repeat)
                if torch is not None and nsname == "numpy":
                    # timed on its own: torch's OpenMP workers spin after each call and
                    # would slow whatever OpenBLAS call is interleaved right after it
                    ta, tw, tb = (torch.from_numpy(a0), torch.from_numpy(np.ascontiguousarray(b0.T)),
                                  torch.from_numpy(bias0))
                    tact = _torch_act(torch, act)
                    time.sleep(0.05)
                    t += _min_times([lambda: tact(torch.nn.functional.linear(ta, tw, tb))], repeat)
                    time.sleep(0.3)
                line = (f"{nsname:9s} {f'{M}x{K}x{N}':>17s} {act:8s} {t[0]*1e3:9.2f} {t[1]*1e3:9.2f} "
                        f"{t[1]/t[0]:6.2f}")
                if len(t) > 2:
                    line += f" {t[2]*1e3:9.2f} {t[2]/t[0]:8.2f}"
                print(line, flush=True)
                rows.append((nsname, (M, K, N), act, t[1] / t[0]))
    # gelu_erf is left out of the summary: the unfused side has no erf in non-NumPy
    # namespaces (the array API lacks it) and falls back to a slow series
    for nsname in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == nsname and r[2] != "gelu_erf"]
        goal = np.array([r[3] for r in mine if r[1][0] * r[1][2] >= 2**22 and r[1][1] <= 1024])
        allr = np.array([r[3] for r in mine])
        if goal.size:
            print(f"{nsname}: memory-bound shapes (M*N >= 2**22, K <= 1024) fused/unfused speed-up "
                  f"min {goal.min():.2f}, median {np.median(goal):.2f}; all shapes min "
                  f"{allr.min():.2f}, median {np.median(allr):.2f}")


def bench_sobol(cases, repeat):
    from scipy.stats import qmc

    print(f"\n== sobol, float64, CPU (min of {repeat}) ==")
    print(f"{'ns':9s} {'n':>8s} {'d':>6s} {'ext ms':>9s} {'scipy ms':>9s} {'ratio':>6s}")
    for n, d in cases:
        def scipy_run():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return qmc.Sobol(d, scramble=False).random(n)

        for nsname, xp in _namespaces():
            t = _min_times([lambda: qrandom.sobol(n, d, dtype=xp.float64, xp=xp), scipy_run], repeat)
            print(f"{nsname:9s} {n:8d} {d:6d} {t[0]*1e3:9.2f} {t[1]*1e3:9.2f} {t[1]/t[0]:6.2f}", flush=True)


def bench_cuda(repeat, quick=False, dtype=np.float32):
    cuda = _optional("numr_array_api.cuda")
    cupy = _optional("cupy")
    if cuda is None or cupy is None:
        print("\n== CUDA: skipped (numr_array_api.cuda or cupy not importable) ==")
        return
    try:
        cuda.asarray([1.0])
    except Exception as exc:  # no device / driver
        print(f"\n== CUDA: skipped ({exc}) ==")
        return
    bench_cuda_sobol(cuda, cupy, repeat)
    bench_cuda_gemm(cuda, cupy, GEMM_SHAPES if not quick else GEMM_SHAPES[:2],
                    ACTS if not quick else ("none", "relu", "gelu"), dtype, repeat)


SOBOL_BW_CASES = [(1 << 28, 1), (1 << 24, 16), (1 << 18, 1024)]  # n * d = 2**28


def bench_cuda_sobol(cuda, cupy, repeat):
    """numr cuda Sobol: 2**22 x 1 float64 vs cuRAND SOBOL32, then n * d = 2**28 points per
    dtype against the device's write bandwidth (cupy ndarray.fill of a buffer of the same
    size, on the same stream, in the same run): goal >= 70 %. GPU times behind a spin
    kernel (_cuda_timer)."""
    from cupy.cuda import curand
    from numr_array_api.backends.cuda_runtime import get as _rt

    timer = _cuda_timer(cupy)
    s = _rt().client(0).compute
    print(f"\n== CUDA Sobol, GPU ms behind a spin kernel (min of {repeat}) ==")
    n, d = 1 << 22, 1
    out = cupy.empty(n * d, dtype=cupy.float64)
    gen = curand.createGenerator(curand.CURAND_RNG_QUASI_SOBOL32)
    curand.setStream(gen, s.ptr)  # numr's compute stream, where the events are recorded

    def curand_run():
        curand.generateUniformDouble(gen, out.data.ptr, out.size)

    cuda.warmup_sobol(d)
    (t_ext, t_cur), _ = timer([lambda: qrandom.sobol(n, d, dtype=cuda.float64, xp=cuda),
                               curand_run], repeat)
    print(f"sobol n={n} d={d} float64: ext {t_ext*1e3:.3f} ms, curand {t_cur*1e3:.3f} ms, "
          f"curand/ext {t_cur/t_ext:.2f}", flush=True)
    curand.destroyGenerator(gen)
    out = None  # freed before the 2 GiB cases
    ratios = []
    for dt in (np.float32, np.float64):
        cdt = getattr(cuda, np.dtype(dt).name)
        for n, d in SOBOL_BW_CASES:
            cuda.warmup_sobol(d)
            buf = cupy.empty(n * d, dtype=dt)
            fill_value = dt(0.5)  # not 0: that would be a memset, not a kernel

            def fill():
                with s:
                    buf.fill(fill_value)

            def memset():  # the copy engine's write bandwidth: the strongest write reference
                buf.data.memset_async(0, buf.nbytes, s)

            (t_sob, t_fill, t_set), _ = timer(
                [lambda: qrandom.sobol(n, d, dtype=cdt, xp=cuda), fill, memset], repeat)
            nbytes = n * d * np.dtype(dt).itemsize
            t_ref = min(t_fill, t_set)
            ratio = t_ref / t_sob
            ratios.append(ratio)
            print(f"sobol {np.dtype(dt).name} n=2^{n.bit_length() - 1} d={d}: "
                  f"{t_sob*1e3:.3f} ms, {nbytes/t_sob/1e9:.0f} GB/s; fill {nbytes/t_fill/1e9:.0f} "
                  f"GB/s, memset {nbytes/t_set/1e9:.0f} GB/s; sobol / best write bandwidth "
                  f"{ratio:.2f} {'PASS' if ratio >= 0.7 else 'FAIL'}", flush=True)
            buf = None  # freed between cases (2 GiB at 2**28 float64)
            cuda.empty_cache()
            cupy.get_default_memory_pool().free_all_blocks()
    print(f"numr.cuda Sobol n*d = 2**28: min {min(ratios):.2f} of the device write bandwidth "
          f"(goal >= 0.70): {'PASS' if min(ratios) >= 0.7 else 'FAIL'}", flush=True)


_SPIN_MS = 5.0


def _spin_kernel(cupy):
    """A one-thread kernel that keeps the GPU busy for ``cycles`` clock ticks."""
    return cupy.RawKernel(r"""
extern "C" __global__ void numr_bench_spin(long long cycles) {
    long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
}""", "numr_bench_spin")


def _cuda_timer(cupy):
    """Per callable: (GPU time, wall time per call), each the min of the repeats.

    GPU time: CUDA events around one call on numr's compute stream, behind a 5 ms spin
    kernel, so the host has queued the whole call before the GPU reaches the first event:
    the events bracket device work only, not Python and launch overhead (events around a
    bare call measure the host whenever the host is the slower side, as it is for small
    GEMMs). Wall time: 20 back-to-back calls and one synchronisation, per call: what a
    Python loop sees, host overhead included."""
    def run(fns, repeat):
        from numr_array_api.backends.cuda_runtime import get as _rt
        client = _rt().client(0)
        client.bind_thread()
        s = client.compute
        spin = _spin_kernel(cupy)
        khz = cupy.cuda.runtime.getDeviceProperties(0)["clockRate"]
        cycles = np.int64(_SPIN_MS * khz)
        for f in fns:
            f()
        s.synchronize()
        gpu = [float("inf")] * len(fns)
        wall = [float("inf")] * len(fns)
        start, stop = cupy.cuda.Event(), cupy.cuda.Event()
        for _ in range(repeat):
            for i, f in enumerate(fns):
                with s:
                    spin((1,), (1,), (cycles,))
                start.record(s)
                f()
                stop.record(s)
                stop.synchronize()
                gpu[i] = min(gpu[i], cupy.cuda.get_elapsed_time(start, stop) * 1e-3)
        for _ in range(3):
            for i, f in enumerate(fns):
                s.synchronize()
                t = time.perf_counter()
                for _ in range(20):
                    f()
                s.synchronize()
                wall[i] = min(wall[i], (time.perf_counter() - t) / 20)
        return gpu, wall

    return run


def bench_cuda_gemm(cuda, cupy, shapes, acts, dtype, repeat):
    """numr cuda gemm_epilogue: auto, forced cuBLASLt, forced fused kernel, unfused numr,
    unfused raw CuPy, torch (F.linear + activation) -- GPU time from CUDA events."""
    from numr_array_api.backends.cuda_runtime import cublaslt, gemm
    from numr_array_api._algorithms import dispatch as _dispatch

    torch = _optional("torch")
    if torch is not None and not torch.cuda.is_available():
        torch = None
    impl = _dispatch.lookup("gemm_epilogue", cuda)
    timer = _cuda_timer(cupy)
    ok, lt = cublaslt.status()
    print(f"\n== CUDA gemm_epilogue, {np.dtype(dtype).name}, bias, GPU ms behind a spin kernel "
          f"(min of {repeat}); "
          f"cuBLASLt: {'version ' + str(lt) if ok else 'unavailable (' + str(lt) + ')'} ==")
    print(f"{'M x K x N':>17s} {'act':8s} {'auto':>7s} {'lt':>7s} {'fused':>7s} {'unfused':>7s} "
          f"{'cupy':>7s} {'torch':>7s} {'unf/auto':>8s} {'unf/best':>8s} {'tch/auto':>8s} | "
          f"wall ms/call: {'auto':>7s} {'unfused':>7s} {'cupy':>7s} {'torch':>7s} unf/auto")
    rng = np.random.default_rng(0)
    rows, wrows = [], []
    cdt = getattr(cuda, np.dtype(dtype).name)
    for M, K, N in shapes:
        a0 = rng.standard_normal((M, K)).astype(dtype)
        b0 = (rng.standard_normal((K, N)) / np.sqrt(K)).astype(dtype)
        bias0 = rng.standard_normal(N).astype(dtype)
        a, b, bias = cuda.asarray(a0), cuda.asarray(b0), cuda.asarray(bias0)
        ca, cb, cbias = a._data, b._data, bias._data  # the CuPy payloads, same memory
        if torch is not None:
            ta, tw, tbias = (torch.from_numpy(a0).cuda(), torch.from_numpy(np.ascontiguousarray(b0.T)).cuda(),
                             torch.from_numpy(bias0).cuda())
        for act in acts:
            fns = {"auto": lambda: linalg.gemm_epilogue(a, b, bias, activation=act),
                   "fused": lambda: impl(cuda, a, b, bias, None, activation=act, dtype=cdt,
                                         path="fused"),
                   "unfused": lambda: _unfused(cuda, a, b, bias, act),
                   "cupy": lambda: _unfused(cupy, ca, cb, cbias, act)}
            plan = gemm.cublaslt_plan(ca, cb, cbias, None, act, np.dtype(dtype).char, (M, N)) if ok else "-"
            if not isinstance(plan, str):
                fns["lt"] = lambda: impl(cuda, a, b, bias, None, activation=act, dtype=cdt,
                                         path="cublaslt")
                try:
                    fns["lt"]()
                except Exception as exc:  # cuBLASLt declined on this GPU
                    print(f"  (cuBLASLt {act}: {exc})")
                    del fns["lt"]
            names = list(fns)
            g, w = timer([fns[n] for n in names], repeat)
            t, tw_ = dict(zip(names, g)), dict(zip(names, w))
            if torch is not None:
                tact = _torch_act(torch, act)
                s = torch.cuda.Stream()
                with torch.cuda.stream(s):
                    t["torch"], tw_["torch"] = _torch_time(
                        torch, lambda: tact(torch.nn.functional.linear(ta, tw, tbias)), repeat)
            best = min(t[k] for k in ("auto", "fused", "lt") if k in t)
            f = lambda k: f"{t[k]*1e3:7.3f}" if k in t else f"{'-':>7s}"
            line = (f"{f'{M}x{K}x{N}':>17s} {act:8s} {f('auto')} {f('lt')} {f('fused')} "
                    f"{f('unfused')} {f('cupy')} {f('torch')} {t['unfused']/t['auto']:8.2f} "
                    f"{t['unfused']/best:8.2f}")
            line += f" {t['torch']/t['auto']:8.2f}" if "torch" in t else f" {'-':>8s}"
            wl = lambda k: f"{tw_[k]*1e3:7.3f}" if k in tw_ else f"{'-':>7s}"  # noqa: E731
            line += (f" | wall {wl('auto')} {wl('unfused')} {wl('cupy')} {wl('torch')} "
                     f"{tw_['unfused']/tw_['auto']:6.2f}")
            print(line, flush=True)
            rows.append(((M, K, N), act, t["unfused"] / t["auto"]))
            wrows.append(tw_["unfused"] / tw_["auto"])
    goal = np.array([r for s_, act, r in rows if s_[0] * s_[2] >= 2**22 and s_[1] <= 1024
                     and act != "gelu_erf"])
    allr = np.array([r for _, _, r in rows])
    if goal.size:
        print(f"numr.cuda: memory-bound shapes (M*N >= 2**22, K <= 1024) unfused/auto speed-up "
              f"min {goal.min():.2f}, median {np.median(goal):.2f}; all shapes min "
              f"{allr.min():.2f}, median {np.median(allr):.2f} (goal: >= 1.3 and never < 1; "
              f"GPU time)")
        print(f"numr.cuda wall time per call (host overhead included), unfused/auto: min "
              f"{min(wrows):.2f}, median {np.median(wrows):.2f}")


def _torch_time(torch, fn, repeat):
    """(GPU time, wall time per call) as in _cuda_timer, on torch's current stream."""
    s = torch.cuda.current_stream()
    fn()
    s.synchronize()
    khz = torch.cuda.get_device_properties(0).clock_rate if hasattr(
        torch.cuda.get_device_properties(0), "clock_rate") else 1_980_000
    gpu = wall = float("inf")
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(repeat):
        torch.cuda._sleep(int(_SPIN_MS * khz))
        start.record(s)
        fn()
        stop.record(s)
        stop.synchronize()
        gpu = min(gpu, start.elapsed_time(stop) * 1e-3)
    for _ in range(3):
        s.synchronize()
        t = time.perf_counter()
        for _ in range(20):
            fn()
        s.synchronize()
        wall = min(wall, (time.perf_counter() - t) / 20)
    return gpu, wall


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--repeat", type=int, default=None)
    p.add_argument("--dtype", default="float32", choices=("float32", "float64", "float16"))
    p.add_argument("--only", choices=("gemm", "sobol", "cuda"), default=None)
    p.add_argument("--cuda-only", action="store_true",
                   help="skip the CPU parts (same as --only cuda)")
    args = p.parse_args(argv)
    if args.cuda_only:
        args.only = "cuda"
    repeat = args.repeat or (3 if args.quick else 7)
    shapes = GEMM_SHAPES[:2] if args.quick else GEMM_SHAPES
    acts = ("none", "relu", "gelu") if args.quick else ACTS
    print(f"numpy {np.__version__}, {os.cpu_count()} CPUs")
    if args.only in (None, "gemm"):
        bench_gemm(shapes, acts, np.dtype(args.dtype).type, repeat)
    if args.only in (None, "sobol"):
        cases = [(1 << 16, 2), (1 << 20, 2), (1 << 18, 16), (4096, 1000)]
        bench_sobol(cases[:2] if args.quick else cases, repeat)
    if args.only in (None, "cuda"):
        bench_cuda(repeat, quick=args.quick, dtype=np.dtype(args.dtype).type)


if __name__ == "__main__":
    main()
