#!/bin/bash
# 2026-11-27, H100: the checks of runs/2026-11-26-49.sh, which was not run (vector_norm ord 2 at 1e+-20, the
# warp float64 tests), the reduction rows with recipes on / off interleaved with CuPy, and
# the sweep's acceptance families at the large size.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=110 --junitxml=$L/junit.xml"
NUMR_TEST_BACKENDS=webgpu step tests 115 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_linalg_scale_sweep.py tests/webgpu_kernels/test_warp_small.py -k "1e-20 or 1e+20 or float64-lu or float64-gj"
pack
step reduce_ab 150 python3 benchmarks/gpu/reduce_ab.py --rounds 10
pack
step sweep 240 python3 benchmarks/sweep.py --sizes large --families reductions,scans,indexing,matmul --reps-large 20 --backends numr-webgpu,numr-cuda,cupy --json $L/sweep.json
pack; cat $L/summary.txt
