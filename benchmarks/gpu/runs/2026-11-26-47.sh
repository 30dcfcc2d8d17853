#!/bin/bash
# 2026-11-26, H100: main with the warp kernels merged: the scale sweep (8 of 57
# tests failed in the run before, unreported: the step ran out of time) and the linalg GPU files
# with a per-test timeout and a junit report, the official test_linalg.py at 200 examples,
# the stacks' rows.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=150 --junitxml=$L/junit.xml"
NUMR_TEST_BACKENDS=webgpu step tests 280 python3 -m pytest $T -n 16 tests/webgpu_kernels/test_linalg_scale_sweep.py tests/webgpu_kernels/test_warp_small.py tests/webgpu_kernels/test_linalg_gpu.py tests/test_linalg.py
pack
S=.suite/array-api-tests
step off-lin-200 100 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-200 --tests test_linalg.py -- -n 16
cp conformance/results/*-h100-linalg-200.* $L/ 2>/dev/null; pack
step stacks 60 python3 benchmarks/linalg_variants.py --variants "default;BWARP=0" --repeats 5 --cases cholesky:10000x32:float32,cholesky:10000x16:float32,solve:10000x16:float32,inv:10000x16:float32,solve:100000x8:float32,inv:100000x8:float32
pack; cat $L/summary.txt
