#!/bin/bash
# 2026-11-26, H100: the fixes after runs/2026-11-26-47.sh on the GPU (matrix_norm fro scaled,
# the warp tests' sizes, the row-kernel test with the warp path off) and the linalg files.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170 --junitxml=$L/junit.xml"
NUMR_TEST_BACKENDS=webgpu step tests 230 python3 -m pytest $T -n 16 tests/webgpu_kernels/test_linalg_scale_sweep.py tests/webgpu_kernels/test_warp_small.py tests/webgpu_kernels/test_linalg_gpu.py tests/test_linalg.py
pack; cat $L/summary.txt
