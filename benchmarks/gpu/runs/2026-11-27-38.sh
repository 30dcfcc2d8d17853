#!/bin/bash
# 2026-11-27, H100: LarftSpec by doubling (the eigh back-transformation's T): the
# spectral test files, the eigh rows with 5 repeats, the profile of eigh 2048 float32.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=140"
step tests 150 python3 -m pytest $T -n 16 tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_linalg_gpu.py
pack
step eigh 150 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 5
pack
step prof 45 python3 benchmarks/gpu_profile.py --case eigh:2048:float32 --case eigh:512:float64 --top 6
pack; cat $L/summary.txt; tail -14 $L/eigh.log; cat $L/prof.log
