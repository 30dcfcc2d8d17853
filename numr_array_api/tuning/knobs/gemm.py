"""Tuning knobs of the gemm family (see numr_array_api.tuning.registry): the webgpu GEMM of
backends/webgpu/ops/matmul/ (its tile configurations per shape bucket are the tables'
"gemm" section, written by ops/matmul/tune.py)."""

from ..registry import Knob, declare

FAMILY = "gemm"

declare(
    Knob("GEMM_STYLE", str, "auto", "code style of the double-buffered kernels: u (K loop "
         "unrolled), uf (unrolled, explicit fma); auto: uf for float32, u otherwise", FAMILY,
         choices=("auto", "u", "uf")),
    # CPU adapters compile every process's kernels with LLVM, where an erf / tanh epilogue
    # unrolled once a register took minutes; GPUs keep the unrolled stores they were timed
    # with (the CPU table turns it on)
    Knob("GEMM_EPI_LOOP", bool, False, "fused-epilogue stores as one loop rather than one "
         "copy per register", FAMILY, choices=(False, True)),
    # H100, qr 2048 (batch-of-one V^H V / Y C products): a minimum of 2048 -> 1024 took
    # float32 2.70x -> 2.20x and float64 4.12x -> 3.09x of cuSOLVER; with pieces of 64,
    # 1024 -> 256 took qr float64 512 / 2048 / 4096 3.50x / 3.06x / 3.34x -> 3.20x / 2.66x /
    # 3.16x (2026-11-27)
    Knob("SPLITK_MIN", int, 256, "least K for which a product with few output tiles is cut "
         "into K pieces (split-K)", FAMILY, choices=(128, 256, 512, 1024, 2048), lo=1),
    Knob("SPLITK_DEPTH", int, 64, "least K each split-K piece keeps", FAMILY,
         choices=(32, 64, 128, 256), lo=16, hi=4096),
    # 64 x 16384 @ 16384 x 64 on the H100: 256 pieces of 64 took 0.071 ms against 64
    # pieces' 0.046 (the partials' sum outgrew what the pieces saved)
    Knob("SPLITK_PIECES", int, 64, "most split-K pieces", FAMILY, choices=(16, 32, 64, 128),
         lo=4),
    # an H100 holds ~2 per SM x 132
    Knob("SPLITK_GROUPS", int, 512, "workgroups a split-K product wants in flight", FAMILY,
         choices=(128, 256, 512, 1024), lo=1),
)


def workloads(xp, quick):
    """A 512^2 (quick: 64^2) float32 product and a skinny deep one (split-K): small
    integers, so every sum is exact and each choice must give the default's result."""
    import numpy as np
    rng = np.random.default_rng(0)
    n = 64 if quick else 512
    k = 1024 if quick else 16384
    a = xp.asarray(rng.integers(-3, 4, (n, n)).astype(np.float32))
    b = xp.asarray(rng.integers(-3, 4, (n, n)).astype(np.float32))
    c = xp.asarray(rng.integers(-3, 4, (64, k)).astype(np.float32))
    d = xp.asarray(rng.integers(-3, 4, (k, 64)).astype(np.float32))
    return [(f"matmul {n}^2 float32", lambda: xp.matmul(a, b)),
            (f"matmul 64 x {k} @ {k} x 64", lambda: xp.matmul(c, d))]
