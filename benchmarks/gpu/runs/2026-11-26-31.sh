#!/bin/bash
# 2026-11-26, H100: official test_linalg + test_fft at 200 examples on webgpu,
# scikit-learn's and SciPy's array-API suites on webgpu arrays (final code).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=.suite/array-api-tests
step off-linfft-200 150 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-fft-200 --tests test_linalg.py test_fft.py -- -n 16
cp conformance/results/*-h100-linalg-fft-200.* $L/ 2>/dev/null; pack
step sk-webgpu 150 python3 conformance/consumers/run.py --backend webgpu --suite sklearn -n 16 --time-budget 140 --tag h100-sklearn
cp conformance/results/consumers-webgpu-h100-sklearn.* $L/ 2>/dev/null; pack
step scipy-webgpu 260 python3 conformance/consumers/run.py --backend webgpu --suite scipy -n 16 --time-budget 250 --tag h100-scipy
cp conformance/results/consumers-webgpu-h100-scipy.* $L/ 2>/dev/null; pack
cat $L/summary.txt
