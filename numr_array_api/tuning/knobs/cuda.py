"""Tuning knobs of the cuda family (see numr_array_api.tuning.registry): the shape of numr's
own CUDA Sobol kernel (backends/cuda_runtime/kernels.py, sobol_tables.py); the module is
compiled once per shape."""

from ..registry import Knob, declare

FAMILY = "cuda"

declare(
    Knob("SOBOL_BLOCK", int, 256, "threads per block of the Sobol kernel", FAMILY,
         choices=(128, 256, 512), lo=32, hi=1024),
    Knob("SOBOL_EPT", int, 4, "elements per thread and tile of the Sobol kernel (d below "
         "SOBOL_RUN_MIN_D)", FAMILY, choices=(1, 2, 4, 8), lo=1, hi=16),
    # each row of a run reuses the three high-byte table rows: (rpt + 3) / rpt table loads
    # per element instead of 4 (table reads, not the output, bounded float32)
    Knob("SOBOL_RPT", int, 8, "consecutive rows one thread computes of a column (d from "
         "SOBOL_RUN_MIN_D)", FAMILY, choices=(8, 16), lo=6, hi=64),
    # from 8 dimensions a row is >= 32 bytes: runs keep a warp's stores in whole sectors
    Knob("SOBOL_RUN_MIN_D", int, 8, "least dimension count whose Sobol points are computed "
         "in runs of rows", FAMILY, choices=(4, 8, 16), lo=1),
)
