#!/usr/bin/env python3
"""What a chain of dependent tiny dispatches costs the GPU: wgpu (Vulkan) against CUDA.

Every numr linalg path that walks columns (the wide QR panel, the tridiagonalisation)
issues one or two dependent dispatches a column, each a few microseconds of work. This
probe times N dispatches of one trivial kernel on one buffer (each reads what the
previous wrote: wgpu puts a barrier between them), recorded into ONE command buffer and
submitted once (the host's recording is not timed), against the same kernel launched N
times by CuPy (the host's launch loop included, as a cuSOLVER-style library pays it).

    python benchmarks/gpu/dispatch_chain.py [--n 2000] [--groups 1,132,1024]

Reports microseconds a dispatch; never asserts.
"""

import argparse
import os
import time

import numpy as np

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

WGSL = """
@group(0) @binding(0) var<storage, read_write> a: array<f32>;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x < arrayLength(&a)) { a[g.x] = a[g.x] * 0.999 + 1.0; }
}
"""

CUDA = r"""
extern "C" __global__ void k(float* a, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { a[i] = a[i] * 0.999f + 1.0f; }
}
"""


def wgpu_chain(n, groups, reps):
    import wgpu
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    dev = adapter.request_device_sync()
    size = groups * 256
    buf = dev.create_buffer(size=size * 4,
                            usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
    mod = dev.create_shader_module(code=WGSL)
    pipe = dev.create_compute_pipeline(layout="auto", compute={"module": mod, "entry_point": "main"})
    bg = dev.create_bind_group(layout=pipe.get_bind_group_layout(0),
                               entries=[{"binding": 0, "resource": {"buffer": buf}}])

    def timed(count):
        # the wait is a 4-byte read back after the chain (submit, copy, map): timed alone
        # with count 0 and subtracted
        best = float("inf")
        for _ in range(reps):
            enc = dev.create_command_encoder()
            cp = enc.begin_compute_pass()
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, bg)
            for _ in range(count):
                cp.dispatch_workgroups(groups, 1, 1)
            cp.end()
            cb = enc.finish()
            dev.queue.read_buffer(buf, 0, 4)
            t0 = time.perf_counter()
            dev.queue.submit([cb])
            dev.queue.read_buffer(buf, 0, 4)
            best = min(best, time.perf_counter() - t0)
        return best

    base = timed(0)
    return adapter.info.get("device", "?"), (timed(n) - base) / n * 1e6


def cuda_chain(n, groups, reps):
    import cupy as cp
    k = cp.RawKernel(CUDA, "k")
    size = groups * 256
    a = cp.zeros(size, cp.float32)
    args = (a, np.uint32(size))
    k((groups,), (256,), args)
    cp.cuda.Device().synchronize()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            k((groups,), (256,), args)
        cp.cuda.Device().synchronize()
        best = min(best, time.perf_counter() - t0)
    return best / n * 1e6


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=2000)
    p.add_argument("--groups", default="1,132,1024")
    p.add_argument("--reps", type=int, default=5)
    args = p.parse_args()
    for g in (int(x) for x in args.groups.split(",")):
        name, w = wgpu_chain(args.n, g, args.reps)
        try:
            c = f"{cuda_chain(args.n, g, args.reps):.2f}"
        except Exception as e:   # no CUDA here
            c = f"- ({type(e).__name__})"
        print(f"{g:5d} workgroups of 256: wgpu {w:.2f} us a dispatch ({name}), "
              f"CUDA launch loop {c} us", flush=True)


if __name__ == "__main__":
    main()
