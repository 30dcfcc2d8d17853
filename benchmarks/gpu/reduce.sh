#!/bin/bash
# reduce (webgpu reductions / scans at the memory bandwidth), second run.
# 1. row-mapping variants (the reduction family's tuning knobs, ops/reduction/plan.py) next
#    to raw CuPy in ONE process, large sizes, each result checked against NumPy float64
#    (BAD(...) = mismatch); h= is the host's recording time per call
# 2. the sweep's reductions + scans rows (numr webgpu with the new default vs CuPy)
# 3. the reduction tests on the NVIDIA adapter (variants, subgroup fallback, 2^24 / 2^32
#    indices, 300 MB on the adapter's own limits).
# benchmarks/gpu/prep.sh is sourced by the caller (step, PYTHONPATH). About 80 s.
step reduce_variants 36 python3 benchmarks/reduce_variants.py --sizes large
step reduce_sweep 30 python3 benchmarks/sweep.py --families reductions,scans --backends numr-webgpu,cupy --reps-small 100
step reduce_tests 22 python3 -m pytest -q -x -p no:cacheprovider tests/webgpu_kernels/test_reduction_kernels.py tests/webgpu_kernels/test_reduction_big.py -k "not 10_gib"
