#!/bin/bash
# helper "reduce" (issue 14: webgpu reductions / scans at the memory bandwidth).
# Row-mapping variants (NUMR_WEBGPU_REDUCE, ops/reduction/plan.py) next to raw CuPy in ONE
# process, every result checked against NumPy float64 (BAD(...) marks a mismatch).
# benchmarks/gpu/prep.sh is sourced by the caller (step, PYTHONPATH). About 40-60 s.
step reduce_variants 85 python3 benchmarks/reduce_variants.py
