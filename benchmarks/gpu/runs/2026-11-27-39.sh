#!/bin/bash
# 2026-11-27, H100: LarftSpec's products four independent loads a step; the spectral
# test files; the eigh and svd rows with 5 repeats; the profile of eigh 512 float64.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=140"
step tests 150 python3 -m pytest $T -n 16 tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_linalg_gpu.py
pack
step spectral 170 python3 benchmarks/webgpu_linalg_spectral.py --only eigh,svd --repeats 5
pack
step prof 45 python3 benchmarks/gpu_profile.py --case eigh:512:float64 --case eigh:2048:float32 --top 6
pack; cat $L/summary.txt; grep -E "passed|failed" $L/tests.log | tail -2; tail -24 $L/spectral.log; cat $L/prof.log
