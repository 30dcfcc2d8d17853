"""Tuning knobs of the primitives family (see numr_array_api.tuning.registry): gather /
scatter and stream compaction (backends/webgpu/primitives/)."""

from ..registry import Knob, declare

FAMILY = "primitives"

declare(
    # 8 was the fastest take of 16M int64 indices on the H100 (benchmarks/suite/gather.py,
    # 2026-11-26: 710 us; 4: 746, 1: 773)
    Knob("GATHER_EPT", int, 8, "result elements per thread of a gather", FAMILY,
         choices=(1, 2, 4, 8, 16), lo=1, hi=16),
    Knob("GATHER_GROUPS", int, 16384, "most workgroups of a gather launch (grid-stride "
         "beyond)", FAMILY, choices=(4096, 8192, 16384, 32768, 65535), lo=1, hi=65536),
    Knob("MASK_BLOCK_MIN", int, 1 << 16, "mask length from which x[mask] takes the block "
         "compaction (no per-element ranks) instead of the ranks (fewer launches)", FAMILY,
         choices=(1 << 12, 1 << 14, 1 << 16, 1 << 18, 1 << 20), lo=0),
)


def workloads(xp, quick):
    """A take of 2^22 (quick: 2^14) int64 indices from 2^24 (2^16) float32 and x[mask] of
    a half-true mask over it: exact, so each choice must give the default's result."""
    import numpy as np
    rng = np.random.default_rng(0)
    n = 1 << 16 if quick else 1 << 24
    x = xp.asarray(rng.standard_normal(n).astype(np.float32))
    idx = xp.asarray(rng.integers(0, n, n // 4).astype(np.int64))
    mask = xp.asarray(rng.random(n) < 0.5)
    return [("take", lambda: xp.take(x, idx)), ("x[mask]", lambda: x[mask])]
