#!/bin/bash
# helper "reduce" (issue 14: webgpu reductions / scans at the memory bandwidth).
# Row-mapping variants (NUMR_WEBGPU_REDUCE, ops/reduction/plan.py) next to raw CuPy in ONE
# process, every result checked against NumPy float64 (BAD(...) marks a mismatch); then the
# variant / subgroup-fallback tests on the NVIDIA adapter. benchmarks/gpu/prep.sh is sourced
# by the caller (step, PYTHONPATH). About 60-80 s.
step reduce_variants 70 python3 benchmarks/reduce_variants.py --probe
step reduce_tests 20 python3 -m pytest -q -x -p no:cacheprovider tests/webgpu_kernels/test_reduction_kernels.py
