#!/bin/bash
# 2026-11-26, H100: the cuda checks of cuda_checks.sh, then SciPy's whole array-API selection on cuda
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
source benchmarks/gpu/cuda_checks.sh
step scipy-cuda 440 python3 conformance/consumers/run.py --backend cuda --suite scipy -n 16 --time-budget 400 --tag h100-scipy
cp conformance/results/consumers-cuda-h100-scipy.* $L/ 2>/dev/null
OUT=$OUTSAVE; cd $L && tar czf $OUT/logs.tgz . ; cat $L/summary.txt
