#!/usr/bin/env python3
"""What a chain of dependent tiny dispatches costs the GPU: wgpu (Vulkan) against CUDA.

Every numr linalg path that walks columns (the wide QR panel, the tridiagonalisation)
issues one or two dependent dispatches a column, each a few microseconds of work. This
probe times N dispatches of one trivial kernel on one buffer (each reads what the
previous wrote: wgpu puts a barrier between them), recorded into ONE command buffer and
submitted once (the host's recording is not timed), against the same kernel launched N
times by CuPy (the host's launch loop included, as a cuSOLVER-style library pays it).

    python benchmarks/gpu/dispatch_chain.py [--n 2000] [--groups 1,132,1024]
        [--bufs 1,9] [--alt]

--bufs K binds K storage buffers that every dispatch updates (numr's per-column kernels bind
8-9); --alt alternates two pipelines and re-sets the bind group with a dynamic uniform
offset before every dispatch, as numr's recorder does for such a chain.

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


def _wgsl(k, c):
    """K storage buffers updated, a uniform word added (the per-dispatch parameters)."""
    decl = "".join(f"@group(0) @binding({i}) var<storage, read_write> a{i}: array<f32>;\n"
                   for i in range(k))
    body = "".join(f"    a{i}[g.x] = a{i}[g.x] * 0.999 + {c} + f32(u.j);\n" for i in range(k))
    return (decl + f"struct U {{ j: u32 }}\n@group(0) @binding({k}) var<uniform> u: U;\n"
            "@compute @workgroup_size(256)\n"
            "fn main(@builtin(global_invocation_id) g: vec3<u32>) {\n"
            "  if (g.x < arrayLength(&a0)) {\n" + body + "  }\n}\n")


def wgpu_chain(n, groups, reps, nbuf=1, alt=False):
    import wgpu
    adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
    dev = adapter.request_device_sync()
    size = groups * 256
    U = wgpu.BufferUsage
    bufs = [dev.create_buffer(size=size * 4, usage=U.STORAGE | U.COPY_SRC)
            for _ in range(nbuf)]
    buf = bufs[0]
    uni = dev.create_buffer(size=256 * 64, usage=U.UNIFORM | U.COPY_DST)
    S = wgpu.ShaderStage.COMPUTE
    bgl = dev.create_bind_group_layout(entries=[
        {"binding": i, "visibility": S, "buffer": {"type": "storage"}} for i in range(nbuf)] + [
        {"binding": nbuf, "visibility": S,
         "buffer": {"type": "uniform", "has_dynamic_offset": True}}])
    pl = dev.create_pipeline_layout(bind_group_layouts=[bgl])
    pipes = [dev.create_compute_pipeline(
        layout=pl, compute={"module": dev.create_shader_module(code=_wgsl(nbuf, c)),
                            "entry_point": "main"}) for c in ("1.0", "2.0")]
    ents = [{"binding": i, "resource": {"buffer": b}} for i, b in enumerate(bufs)]
    bgs = [dev.create_bind_group(layout=bgl, entries=ents + [
        {"binding": nbuf, "resource": {"buffer": uni, "offset": 0, "size": 16}}])
        for _ in range(2)]
    pipe, bg = pipes[0], bgs[0]

    def timed(count):
        # the wait is a 4-byte read back after the chain (submit, copy, map): timed alone
        # with count 0 and subtracted
        best = float("inf")
        for _ in range(reps):
            enc = dev.create_command_encoder()
            cp = enc.begin_compute_pass()
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, bg, [0])
            for i in range(count):
                if alt:
                    cp.set_pipeline(pipes[i % 2])
                    cp.set_bind_group(0, bgs[i % 2], [256 * (i % 64)])
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
    p.add_argument("--bufs", default="1")
    p.add_argument("--alt", action="store_true")
    args = p.parse_args()
    for k in (int(x) for x in args.bufs.split(",")):
        for g in (int(x) for x in args.groups.split(",")):
            name, w = wgpu_chain(args.n, g, args.reps, k, args.alt)
            print(f"{g:5d} workgroups of 256, {k} buffers{', alternating' if args.alt else ''}:"
                  f" wgpu {w:.2f} us a dispatch ({name})", flush=True)
    if args.bufs != "1" or args.alt:
        return
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
