#!/usr/bin/env python3
"""numr's WebGPU FFT next to CuPy (cuFFT) and PyTorch, measured in the same run.

    python benchmarks/suite/fft.py [--small] [--repeats 10] [--json out.json]
                                    [--libs cupy,torch]

Tuning knobs of the WebGPU FFT (numr_array_api/tuning/knobs/fft.py: FFT_PAD, FFT_EPT,
FFT_WGT, FFT_CAP; NUMR_TUNING="FFT_PAD=3" for one run):
``--variants 'name:FFT_PAD=3;name2:FFT_EPT=16,FFT_WGT=128'`` times several settings in one
process (plans are cached per tuning epoch); ``--chain K`` adds K calls per synchronisation,
the GPU time of one call (its dispatches captured as a graph and replayed K times per
synchronisation) and the host time (the call with its dispatches dropped); ``--check``
only compares many lengths / functions / axes against NumPy.

Cases (``--small`` divides them for CPU machines / lavapipe):
  c64_2^22        1-D complex64 fft of 2^22          (nested four-step: three dispatches)
  c64_2^20+7      1-D complex64 fft of 2^20 + 7      (Bluestein, m = 2,099,520)
  c64_batch       complex64 fft of 4096 x 1024 along the last axis (workgroup-memory kernel)
  rfft2_4096      rfftn of a 4096 x 4096 float32 array over both axes (half-length trick,
                  then a four-step down the strided columns)
  c128_2^20       1-D complex128 fft of 2^20
Each library's best of --repeats (after one warm-up, which builds plans / compiles
pipelines), synchronised; numr's result is checked against NumPy (relative L2 error) so
a wrong answer is never timed. Ratios are numr / other (greater than 1: numr is slower).
Missing libraries are reported and skipped; nothing here asserts a timing.
"""

import argparse
import json
import os
import sys

import numpy as np

sys.path.append(str(__import__("pathlib").Path(__file__).resolve().parents[2]))
os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")


def cases(small):
    if small:
        return [("c64_2^14", "fft", (1 << 14,), "complex64"),
                ("c64_2^12+7", "fft", ((1 << 12) + 7,), "complex64"),
                ("c64_batch", "fft", (64, 1024), "complex64"),
                ("rfft2_256", "rfft2", (256, 256), "float32"),
                ("c128_2^12", "fft", (1 << 12,), "complex128")]
    return [("c64_2^22", "fft", (1 << 22,), "complex64"),
            ("c64_2^20+7", "fft", ((1 << 20) + 7,), "complex64"),
            ("c64_batch", "fft", (4096, 1024), "complex64"),
            ("rfft2_4096", "rfft2", (4096, 4096), "float32"),
            ("c128_2^20", "fft", (1 << 20,), "complex128")]


def host_data(shape, dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


from _timing import best_of as _best_s  # noqa: E402


def best_of(fn, sync, repeats):
    """Milliseconds (see _timing.best_of)."""
    return _best_s(fn, sync, repeats) * 1e3


def chained(fn, sync, repeats, k):
    """Milliseconds per call of ``k`` calls recorded back to back, one synchronisation
    (best of ``repeats``): the GPU time of one call with the host's per-call overhead and
    the submit / wait round trip overlapped."""
    def many():
        for _ in range(k):
            fn()
    return best_of(many, sync, repeats) / k


def reference(op, a):
    return np.fft.fft(a.astype(np.complex128)) if op == "fft" else \
        np.fft.rfftn(a.astype(np.float64), axes=(0, 1))


def gpu_and_host(op, x, fn, repeats, k):
    """(GPU ms, host ms) of one call: the call captured as a graph and replayed ``k``
    times per synchronisation (no host work but the replay), and the call with its
    dispatches dropped (the host's planning / binding / recording alone)."""
    import time
    import numr_array_api.backends.webgpu as W
    import numr_array_api.webgpu as xp
    from numr_array_api._core import dtypes as dt
    from numr_array_api.backends.webgpu.ops.fft import real
    s = x._data

    def g_fn(st):
        if op == "fft":
            return real.one_d("fft", st, None, st.ndim - 1, "backward", st.dtype)
        return real.n_d("rfftn", st, (None, None), (0, 1), "backward", dt.complex64)
    try:
        g = W.capture_graph(g_fn, s)
        slot = g.inputs[0]
        gpu = chained(lambda: g(slot), xp.synchronize, max(repeats // 4, 2), k)
    except Exception as e:
        print(f"  graph: {type(e).__name__}: {e}")
        gpu = float("nan")
    xp.synchronize()
    rec = s.client.recorder
    orig = rec.dispatch
    rec.dispatch = lambda *a, **kw: None
    try:
        best = float("inf")
        for _ in range(3):
            t = time.perf_counter()
            for _ in range(k):
                fn()
            best = min(best, (time.perf_counter() - t) / k)
    finally:
        rec.dispatch = orig
    return gpu, best * 1e3


def numr_case(op, a, repeats, chain=0, ref=None):
    import numr_array_api.webgpu as xp
    x = xp.asarray(a)
    fn = (lambda: xp.fft.fft(x)) if op == "fft" else (lambda: xp.fft.rfftn(x, axes=(0, 1)))
    ms = best_of(fn, xp.synchronize, repeats)
    if chain:
        numr_case.chain_ms = chained(fn, xp.synchronize, max(repeats // 4, 2), chain)
        numr_case.gpu_ms, numr_case.host_ms = gpu_and_host(op, x, fn, repeats, chain)
    got = np.asarray(fn().to_device("cpu"))
    if ref is None:
        ref = reference(op, a)
    err = float(np.linalg.norm(got - ref) / np.linalg.norm(ref))
    return ms, err


def cupy_case(op, a, repeats, chain=0):
    import cupy as cp
    x = cp.asarray(a)
    fn = (lambda: cp.fft.fft(x)) if op == "fft" else (lambda: cp.fft.rfftn(x, axes=(0, 1)))
    sync = cp.cuda.Device().synchronize
    if chain:
        cupy_case.chain_ms = chained(fn, sync, max(repeats // 4, 2), chain)
    return best_of(fn, sync, repeats)


def check(small):
    """Relative L2 errors of numr's transforms against NumPy's float64 ones over lengths
    that reach every kernel path of the current knob values (each line: error / bound)."""
    import math
    import numr_array_api.webgpu as xp
    rng = np.random.default_rng(1)
    import time
    lengths = [1, 2, 3, 8, 60, 97, 1024, 2048, 4096, 8192, 1 << 14, 3 * 4096 + 3]
    if not small:
        lengths += [1 << 20, (1 << 20) + 7, 1 << 22]
    worst, fails = 0.0, 0
    t0 = time.perf_counter()
    for cd in ("complex64", "complex128"):
        for n in lengths:
            if cd == "complex128" and n > 1 << 20:
                continue
            print(f"check {cd} n={n} ({time.perf_counter() - t0:.1f} s, worst error / "
                  f"bound so far {worst:.3f})", flush=True)
            for name, shape, axis in (("fft", (2, n), -1), ("ifft", (n, 3), 0),
                                      ("rfft", (2, n), -1), ("irfft", (3, n // 2 + 1), -1),
                                      ("fft", (n, 20), 0)):
                if n > 1 << 16 and shape[0] != 2:
                    continue
                a = rng.standard_normal(shape)
                if name != "rfft":
                    a = a + 1j * rng.standard_normal(shape)
                a = a.astype(cd if name != "rfft" else ("float32" if cd == "complex64"
                                                        else "float64"))
                kw = {"n": n} if name == "irfft" else {}
                try:
                    got = np.asarray(getattr(xp.fft, name)(xp.asarray(a), axis=axis,
                                                           **kw).to_device("cpu"))
                except Exception as e:
                    print(f"check {name} {shape} {cd}: {type(e).__name__}: {e}")
                    fails += 1
                    continue
                ref = getattr(np.fft, name)(a.astype(np.complex128 if a.dtype.kind == "c"
                                                     else np.float64), axis=axis, **kw)
                err = float(np.linalg.norm(got - ref) / max(np.linalg.norm(ref), 1e-300))
                tol = (1e-6 if cd == "complex64" else 1e-14) * max(math.log2(max(n, 2)), 1)
                worst = max(worst, err / tol)
                if err > tol:
                    fails += 1
                    print(f"check FAIL {name} {shape} axis={axis} {cd}: {err:.3g} > {tol:.3g}")
    print(f"check: {fails} failures, worst error / bound {worst:.3f}")
    return fails


def torch_case(op, a, repeats):
    import torch
    dev = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.from_numpy(a).to(dev)
    fn = (lambda: torch.fft.fft(x)) if op == "fft" else (lambda: torch.fft.rfftn(x, dim=(0, 1)))
    sync = torch.cuda.synchronize if dev == "cuda" else (lambda: None)
    return best_of(fn, sync, repeats), dev


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--small", action="store_true", help="small sizes (CPU machines)")
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--json", help="write the results here")
    p.add_argument("--chain", type=int, default=0,
                   help="also time K calls per synchronisation (GPU time per call)")
    p.add_argument("--check", action="store_true",
                   help="only check errors against NumPy over many lengths (exit 1 on any)")
    p.add_argument("--variants", default="",
                   help="'name:KNOB=V,KNOB=V;name2:...': time numr once per variant in this "
                        "process, each under tuning.override(KNOB=V) (plans are cached per "
                        "tuning epoch), the references once per case")
    p.add_argument("--libs", default="cupy,torch",
                   help="reference libraries to time next to numr (comma list; '' for none)")
    args = p.parse_args(argv)
    out = {"small": args.small, "cases": {}}
    try:
        import numr_array_api.webgpu as xp
        out["webgpu_device"] = str(xp.__array_namespace_info__().default_device())
        client = xp.asarray([0])._data.client
        out["adapter"] = f"{client.info['name']} ({client.info['backend']})"
    except Exception as e:
        print(f"numr webgpu unavailable: {e}")
        return 1
    print(f"numr webgpu on {out['adapter']}")
    from numr_array_api import tuning
    knobs = {k: tuning.get(k, client) for k in sorted(tuning.knobs("fft"))}
    out["knobs"] = knobs
    print("knobs:", " ".join(f"{k}={v}" for k, v in knobs.items()))
    if args.check:
        return 1 if check(args.small) else 0
    variants = [("", {})]
    if args.variants:
        variants = []
        for part in args.variants.split(";"):
            vname, _, kvs = part.partition(":")
            kv = dict(item.split("=", 1) for item in kvs.split(",") if item)
            variants.append((vname.strip(), {k.strip(): v.strip() for k, v in kv.items()}))
    print(f"{'case':<14}{'variant':<12}{'numr ms':>10}{'rel err':>10}{'cupy ms':>10}"
          f"{'torch ms':>10}{'numr/cupy':>11}{'numr/torch':>11}")
    for name, op, shape, dtype in cases(args.small):
        a = host_data(shape, dtype)
        ref = reference(op, a)
        refs = {}
        for lib, fn in (("cupy", cupy_case), ("torch", torch_case)):
            if lib not in args.libs.split(","):
                continue
            try:
                if lib == "torch":
                    refs["torch_ms"], refs["torch_device"] = fn(op, a, args.repeats)
                else:
                    refs["cupy_ms"] = fn(op, a, args.repeats, args.chain)
                    if args.chain:
                        refs["cupy_chain_ms"] = cupy_case.chain_ms
            except Exception as e:
                refs[lib] = f"unavailable: {type(e).__name__}: {str(e)[:80]}"
        for vname, knobs in variants:
            row = {"shape": shape, "dtype": dtype, "op": op, "variant": vname,
                   "knobs": knobs, **refs}
            try:
                with tuning.override(**knobs):
                    row["numr_ms"], row["rel_err"] = numr_case(op, a, args.repeats,
                                                               args.chain, ref)
                if args.chain:
                    row["numr_chain_ms"] = numr_case.chain_ms
                    row["numr_gpu_ms"] = numr_case.gpu_ms
                    row["numr_host_ms"] = numr_case.host_ms
            except Exception as e:  # e.g. complex128 without shader-f64
                row["numr"] = f"{type(e).__name__}: {e}"
            for lib in ("cupy", "torch"):
                if "numr_ms" in row and f"{lib}_ms" in row:
                    row[f"numr_over_{lib}"] = row["numr_ms"] / row[f"{lib}_ms"]
            if args.chain and "numr_chain_ms" in row and "cupy_chain_ms" in row:
                row["chain_numr_over_cupy"] = row["numr_chain_ms"] / row["cupy_chain_ms"]
            out["cases"][name + (f"/{vname}" if vname else "")] = row

            def f(k, fmt, row=row):
                return format(row[k], fmt) if k in row else "-".rjust(int(fmt.split(".")[0]))
            print(f"{name:<14}{vname:<12}{f('numr_ms', '10.3f')}{f('rel_err', '10.1e')}"
                  f"{f('cupy_ms', '10.3f')}{f('torch_ms', '10.3f')}"
                  f"{f('numr_over_cupy', '11.1f')}{f('numr_over_torch', '11.1f')}")
            if args.chain:
                print(f"  chained x{args.chain}: numr {f('numr_chain_ms', '9.3f')} ms/call, "
                      f"cupy {f('cupy_chain_ms', '9.3f')} ms/call, "
                      f"ratio {f('chain_numr_over_cupy', '5.1f')}; numr GPU (graph replay) "
                      f"{f('numr_gpu_ms', '7.3f')} ms, host {f('numr_host_ms', '7.3f')} ms")
            if "numr" in row:
                print(f"  numr: {row['numr']}")
            sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
