"""Tuning knobs of the runtime family (see numr_array_api.tuning.registry): how the webgpu
recorder batches and submits work (backends/webgpu/runtime/submit.py)."""

from ..registry import Knob, declare

FAMILY = "runtime"

declare(
    Knob("BATCH", int, 128, "dispatches the webgpu recorder batches before it submits",
         FAMILY, choices=(32, 64, 128, 256, 512), lo=1),
    Knob("SUBMIT_BYTES", int, 1 << 30, "bytes bound by unsubmitted dispatches at which a "
         "GPU is given the batch early (0: never)", FAMILY,
         choices=(256 << 20, 1 << 30, 4 << 30), lo=0, env="NUMR_WEBGPU_SUBMIT_BYTES"),
    Knob("SUBMIT_FIRST", int, 64 << 20, "the first early-submit threshold after the host "
         "waited (doubles at each early submit up to SUBMIT_BYTES)", FAMILY,
         choices=(16 << 20, 64 << 20, 256 << 20), lo=1),
    Knob("REPLAY_CHUNK", int, 64, "dispatches of a recipe replay submitted together (the "
         "GPU starts on a chunk while the host records the next)", FAMILY,
         choices=(16, 32, 64, 128, 256), lo=1),
)

# the client (backends/webgpu/runtime/client.py): read when an adapter's client is created,
# except MAP_SPIN_US (at every host wait) and KERNEL_CACHE_SIZE (at every compile)
declare(
    Knob("MAP_SPIN_US", int, 2000, "microseconds a host wait for the GPU polls before it "
         "sleeps (benchmarks/suite/gather.py on an H100, 2026-11-26: a synchronising take of 16M "
         "indices 862 us with 2000, 992 us with 300: the sleeps after the spin overshoot); "
         "1000 on CPU adapters (tables/cpu.json)", FAMILY,
         choices=(0, 300, 1000, 2000, 5000), lo=0),
    Knob("MAP_WAIT", str, "spin", "how a host wait polls during its first MAP_SPIN_US: "
         "spin (poll without pausing), yield (sched_yield between polls: the CPU adapters' "
         "table, whose work runs on the host's cores; lavapipe, 2 cores: x + 1 and "
         "synchronize 165 -> 117 us, a 1 MiB sum read 725 -> 650 us against sleeping at "
         "once) or block (one blocking device poll: returns when the queue is idle, and a "
         "Ctrl-C waits for that, so no table picks it; for measurements)", FAMILY,
         choices=("spin", "yield", "block"), tunable=False),
    Knob("WG_STORAGE", int, 0, "bytes of workgroup memory kernels are planned for (and the "
         "pipeline cache enforces) when below the adapter's limit; 16384 (WebGPU's minimum) "
         "shows on a large adapter what a small one gets; 0: the adapter's own", FAMILY,
         lo=0, tunable=False),
    Knob("SEGMENT_BYTES", int, 0, "bytes of one buffer of an array stored in several (a "
         "power of two >= 4096 below the adapter's max-buffer-size; tests exercise "
         "multi-buffer storage cheaply with it); 0: the adapter's largest", FAMILY,
         lo=0, tunable=False),
    Knob("PARAMS", str, "auto", "how kernel parameters reach a dispatch: auto (immediates "
         "where the adapter has them, else a uniform ring) or uniform (the ring always: "
         "exercises the path of adapters without immediates)", FAMILY,
         choices=("auto", "uniform"), tunable=False),
    Knob("KERNEL_CACHE_SIZE", int, 4096, "compiled kernels, pipelines and shader modules a "
         "webgpu client keeps (each cache least recently used first out); plans keep their "
         "own kernels, so an eviction only costs a later recompile", FAMILY, lo=1,
         tunable=False),
)


def workloads(xp, quick):
    """A chain of 200 small elementwise calls (the recorder's batching) and one of large
    ones (early submits): integer-valued float32, so every choice gives the same result."""
    import numpy as np
    small = xp.asarray(np.zeros(1 << 10, np.float32))
    big = xp.asarray(np.zeros(1 << (16 if quick else 24), np.float32))

    def chain(x, n):
        for _ in range(n):
            x = x + 1.0
        return x
    return [("200 small adds", lambda: chain(small, 200)),
            ("20 large adds", lambda: chain(big, 20))]
