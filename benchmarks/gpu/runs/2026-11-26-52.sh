#!/bin/bash
# 2026-11-26, H100: the webgpu spectral failures in full; a baseline of the perf rows
# (reductions, scans, indexing, matmul), numr webgpu / cuda / CuPy.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
NUMR_TEST_SLOW=1 step spectral 150 python3 -m pytest -p no:cacheprovider -q -n 4 --tb=short tests/webgpu_kernels/test_linalg_spectral_gpu.py
step sweep 200 python3 benchmarks/sweep.py --families reductions,scans,indexing,matmul --backends numr-webgpu,numr-cuda,cupy --json $L/sweep.json
OUT=$OUTSAVE; cd $L && tar czf $OUT/logs.tgz . ; cat $L/summary.txt
