#!/bin/bash
# 2026-11-26, H100: whole-array reductions through rows on NVIDIA:
# the reduction tests, the sum probe and the reduction rows of the sweep.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step red-tests 60 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_reduction_kernels.py tests/webgpu_kernels/test_reduction_big.py tests/test_statistical.py
step sum-probe 30 python3 benchmarks/gpu/sum_rows_probe.py
step sweep-red 60 python3 benchmarks/sweep.py --families reductions,scans --backends numr-webgpu,cupy --sizes large --reps-large 20 --json $L/sweep-red.json
pack
cat $L/summary.txt; grep -v Warning $L/sum-probe.log; grep -E "large" $L/sweep-red.log
