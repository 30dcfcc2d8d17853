#!/bin/bash
# 2026-11-26, H100: the second half of the whole webgpu test suite on the GPU
# (everything but tests/webgpu_kernels, which runs/2026-11-26-45.sh ran) and scikit-learn's array-API
# tests on webgpu.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --durations=25"
NUMR_TEST_BACKENDS=webgpu step rest 400 python3 -m pytest $T -n 16 tests --ignore=tests/webgpu_kernels -m "not (gpu and slow)"
pack
step sk-webgpu 100 python3 conformance/consumers/run.py --backend webgpu --suite sklearn -n 16 --time-budget 90 --tag h100-sklearn
cp conformance/results/consumers-webgpu-h100-sklearn.* $L/ 2>/dev/null; pack; cat $L/summary.txt
