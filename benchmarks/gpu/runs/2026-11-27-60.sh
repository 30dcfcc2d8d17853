#!/bin/bash
# 2026-11-27, H100: the final code (TrdUpdSpec one row per slice by default): the eigh
# table and the eigh / svd tests on the GPU (slow sizes included).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step eigh 120 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 5
pack
NUMR_TEST_SLOW=1 NUMR_TEST_BACKENDS=webgpu step tests 240 python3 -m pytest -q -p no:cacheprovider -n 16 tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_runtime/test_native_batch.py tests/webgpu_runtime/test_recipes.py
pack; cat $L/summary.txt; cat $L/eigh.log; tail -3 $L/tests.log
