#!/usr/bin/env python3
"""numr's WebGPU FFT next to CuPy (cuFFT) and PyTorch, measured in the same run.

    python benchmarks/webgpu_fft.py [--small] [--repeats 10] [--json out.json]
                                    [--libs cupy,torch]

A/B switches of the WebGPU FFT (environment; see ops/fft/plan.py): NUMR_WEBGPU_FFT_DEEP=0|1
(nested four-step beyond cap^2), NUMR_WEBGPU_FFT_COLS=tile|strided (coalesced column
loads / stores), NUMR_WEBGPU_FFT_WG=fit|full (workgroups sized to their rows),
NUMR_WEBGPU_FFT_LOADS=batch|loop (8 global loads in flight per thread).

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

sys.path.append(str(__import__("pathlib").Path(__file__).resolve().parents[1]))
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


def numr_case(op, a, repeats):
    import numr_array_api.webgpu as xp
    x = xp.asarray(a)
    fn = (lambda: xp.fft.fft(x)) if op == "fft" else (lambda: xp.fft.rfftn(x, axes=(0, 1)))
    ms = best_of(fn, xp.synchronize, repeats)
    got = np.asarray(fn().to_device("cpu"))
    ref = np.fft.fft(a.astype(np.complex128)) if op == "fft" else \
        np.fft.rfftn(a.astype(np.float64), axes=(0, 1))
    err = float(np.linalg.norm(got - ref) / np.linalg.norm(ref))
    return ms, err


def cupy_case(op, a, repeats):
    import cupy as cp
    x = cp.asarray(a)
    fn = (lambda: cp.fft.fft(x)) if op == "fft" else (lambda: cp.fft.rfftn(x, axes=(0, 1)))
    return best_of(fn, cp.cuda.Device().synchronize, repeats)


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
    print(f"{'case':<14}{'numr ms':>10}{'rel err':>10}{'cupy ms':>10}{'torch ms':>10}"
          f"{'numr/cupy':>11}{'numr/torch':>11}")
    for name, op, shape, dtype in cases(args.small):
        a = host_data(shape, dtype)
        row = {"shape": shape, "dtype": dtype, "op": op}
        try:
            row["numr_ms"], row["rel_err"] = numr_case(op, a, args.repeats)
        except Exception as e:  # e.g. complex128 without shader-f64
            row["numr"] = f"{type(e).__name__}: {e}"
        for lib, fn in (("cupy", cupy_case), ("torch", torch_case)):
            if lib not in args.libs.split(","):
                continue
            try:
                r = fn(op, a, args.repeats)
                if lib == "torch":
                    row["torch_ms"], row["torch_device"] = r
                else:
                    row["cupy_ms"] = r
            except Exception as e:
                row[lib] = f"unavailable: {type(e).__name__}: {str(e)[:80]}"
        for lib in ("cupy", "torch"):
            if "numr_ms" in row and f"{lib}_ms" in row:
                row[f"numr_over_{lib}"] = row["numr_ms"] / row[f"{lib}_ms"]
        out["cases"][name] = row

        def f(k, fmt):
            return format(row[k], fmt) if k in row else "-".rjust(int(fmt.split(".")[0]))
        print(f"{name:<14}{f('numr_ms', '10.3f')}{f('rel_err', '10.1e')}"
              f"{f('cupy_ms', '10.3f')}{f('torch_ms', '10.3f')}"
              f"{f('numr_over_cupy', '11.1f')}{f('numr_over_torch', '11.1f')}")
        if "numr" in row:
            print(f"  numr: {row['numr']}")
        sys.stdout.flush()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(out, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
