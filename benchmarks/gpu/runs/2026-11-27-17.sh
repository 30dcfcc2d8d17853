#!/bin/bash
# 2026-11-27, H100: the final code: spectral tests, the official test_linalg at
# 200 examples, the spectral table (eigh / eigh-cov / svd) against CuPy, and the profile
# of eigh of a covariance.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
S=.suite/array-api-tests
NUMR_TEST_BACKENDS=webgpu step tests 150 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_small_spectral.py tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_linalg_spectral_gpu.py
pack
step off-lin-200 90 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-200-s8 --tests test_linalg.py -- -n 16
pack
step spectral 200 python3 benchmarks/webgpu_linalg_spectral.py --only eigh,eigh-cov,svd --repeats 2 --backends numr-webgpu,cupy --json $L/spectral.json
pack
step prof 60 python3 benchmarks/gpu_profile.py --case eigh+cov:2048:float32 --case eigh+cov:2048:float64 --top 8
pack; cat $L/summary.txt
