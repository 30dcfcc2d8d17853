"""Tuning knobs of the reduction family (see numr_array_api.tuning.registry): the row
mapping of backends/webgpu/ops/reduction/plan.py."""

from ..registry import Knob, declare

FAMILY = "reduction"

# benchmarks/results/reduce-variants-h100-2026-11-26.log (the reduction variants compared in one process):
# 4 or 8 loads a trip best on the H100; a 1024-thread workgroup slower
declare(
    Knob("REDUCE_UNROLL", int, 4, "16-byte loads per thread and trip on contiguous rows, "
         "each into its own state", FAMILY, choices=(1, 2, 4, 8), lo=1, hi=16),
    Knob("REDUCE_STRIDED_UNROLL", int, 4, "element loads per thread and trip elsewhere "
         "(strided rows, partial-state passes)", FAMILY, choices=(1, 2, 4, 8), lo=1, hi=16),
    Knob("REDUCE_GROUPS", int, 2048, "workgroups wanted in flight for big reductions "
         "(chunks per row)", FAMILY, choices=(512, 1024, 2048, 4096, 8192), lo=1),
    Knob("REDUCE_MIN_LOADS", int, 16, "fewest 16-byte loads per thread and chunk (below, "
         "more chunks only add partials)", FAMILY, choices=(4, 8, 16, 32, 64), lo=1),
    Knob("REDUCE_WG", int, 256, "largest row workgroup (a power of two; the adapter's "
         "limits and workgroup memory still apply)", FAMILY, choices=(256, 512, 1024),
         lo=32, hi=1024),
    # not raced by the tuner: that it is correct on an adapter is a property of the
    # adapter's memory model, not of speed (set in a table after tests ran there)
    Knob("REDUCE_TAIL", int, 0, "1: a reduction cut into chunks ends in one launch, the "
         "last workgroup of each output combining its chunks' states (device-scope "
         "storage barriers around an arrival counter, which WebGPU does not promise to "
         "order; tests/webgpu_kernels/test_reduce_tail.py checks an adapter); 0: a "
         "further pass over the states", FAMILY, choices=(0, 1), lo=0, hi=1,
         tunable=False),
    # as rows, then the row results: the row mapping read at 0.80 of CuPy's bandwidth where
    # the whole-array chunking reached 0.67 (H100, 256 MiB float32, benchmarks/suite/namespace.py)
    Knob("REDUCE_ROW_SPLIT", int, 8192, "row length a whole-array float sum / max / min / "
         "mean of a big contiguous array is reduced through (0: no split)", FAMILY,
         choices=(0, 2048, 4096, 8192, 16384), lo=0),
)


def workloads(xp, quick):
    """Sums over each axis and over the whole of a 2^24 (quick: 2^16) element float32
    array, and a max of 2^20 (quick: 2^14): values in {-1, 0, 1}, so every partial sum is
    exact and each knob choice must give the default's result bit for bit."""
    import numpy as np
    rng = np.random.default_rng(0)
    n = 1 << 16 if quick else 1 << 24
    rows = 1 << 8 if quick else 1 << 12
    a = xp.asarray(rng.integers(-1, 2, (rows, n // rows)).astype(np.float32))
    b = xp.asarray(rng.standard_normal(1 << (14 if quick else 20)).astype(np.float32))
    return [("sum axis=1", lambda: xp.sum(a, axis=1)),
            ("sum axis=0", lambda: xp.sum(a, axis=0)),
            ("sum", lambda: xp.sum(a)),
            ("max", lambda: xp.max(b))]
