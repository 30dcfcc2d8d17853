"""Tuning knobs of the sorting family (see numr_array_api.tuning.registry): the carried-key
radix sort of backends/webgpu/primitives/radix_keys.py.

The defaults are the portable choices: reduce-then-scan (WebGPU promises no forward
progress between workgroups, which the one-sweep variant, SORT_SWEEP, needs; a table turns
it on for an adapter that has it).
"""

from ..registry import Knob, declare

FAMILY = "sorting"

declare(
    Knob("SORT_KEYS", bool, True, "sort real keys of 8 to 64 bits by radix passes that move "
         "the keys (and u32 indices) themselves instead of positions re-reading the source",
         FAMILY, choices=(True, False)),
    # benchmarks/results/h200-2026-11-29-sort-rank.json (benchmarks/suite/sort.py, one H200):
    # sort float32 2^24 2.02 ms with workgroup bitmasks against 4.62 ms with subgroup
    # ballots, argsort 3.13 against 5.73; lavapipe the same way round (714 against 802 ms)
    Knob("SORT_RANK", str, "workgroup", "in-tile ranking of the key scatter: subgroup ballots "
         "(auto: where the adapter has subgroups and the workgroup memory) or per-digit "
         "thread bitmasks in workgroup memory", FAMILY,
         choices=("auto", "subgroup", "workgroup")),
    # not raced by the tuner: whether it may run is the adapter's forward progress
    Knob("SORT_SWEEP", bool, False, "radix passes of the key sort in one launch each, by "
         "decoupled look-back over tile counts (primitives/radix_sweep.py) instead of tile "
         "histograms, their scan and the scatter; needs forward progress between "
         "workgroups, which WebGPU does not promise: set in a table once "
         "tests/webgpu_kernels/test_sort_sweep.py passed on the adapter", FAMILY,
         choices=(False, True), tunable=False),
    Knob("SORT_TILE", int, 2048, "keys per tile of a radix pass (one histogram column, one "
         "scatter workgroup)", FAMILY, choices=(1024, 2048, 4096), lo=1024, hi=4096),
    Knob("SORT_PREP_GROUPS", int, 1024, "most workgroups of the key preparation (grid-stride "
         "beyond; each adds its digit histograms to the global ones by atomics)", FAMILY,
         choices=(256, 512, 1024, 2048, 4096), lo=1, hi=65535),
    Knob("SEARCH_CACHE", int, 1024, "evenly spaced keys of the sorted array a searchsorted "
         "workgroup holds in workgroup memory (the first log2 levels of every search); 0: "
         "plain binary search in global memory", FAMILY, choices=(0, 256, 1024, 2048, 4096),
         lo=0, hi=8192),
    Knob("SEARCH_GROUPS", int, 4096, "most workgroups of a searchsorted with cached samples "
         "(needles by grid stride: each workgroup's samples serve many)", FAMILY,
         choices=(1024, 4096, 16384), lo=1, hi=65535),
)


def workloads(xp, quick):
    """sort / argsort of 2^22 (quick: 2^16) float32 and int64, unique of a quarter as many
    int32 with repeats: exact, so every choice must give the default's result."""
    import numpy as np
    rng = np.random.default_rng(0)
    n = 1 << 16 if quick else 1 << 22
    f = xp.asarray(rng.standard_normal(n).astype(np.float32))
    i = xp.asarray(rng.integers(-1 << 40, 1 << 40, n).astype(np.int64))
    u = xp.asarray(rng.integers(0, n // 16, n // 4).astype(np.int32))
    s = xp.sort(f)
    return [("sort float32", lambda: xp.sort(f)),
            ("searchsorted float32", lambda: xp.searchsorted(s, f)),
            ("argsort int64", lambda: xp.argsort(i)),
            ("unique_values int32", lambda: xp.unique_values(u))]
