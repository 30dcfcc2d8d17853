#!/bin/bash
# 2026-11-26, H100: consumers (scikit-learn, SciPy) and the official linalg / fft
# files on webgpu with svd_aug, the wide QR panel and the new LarftSpec; the linalg table
# (every row, 3 repeats) and the sweep.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=.suite/array-api-tests
step off-linfft-200 100 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-fft-200 --tests test_linalg.py test_fft.py -- -n 16
cp conformance/results/*-h100-linalg-fft-200.* $L/ 2>/dev/null; pack
step sk-webgpu 100 python3 conformance/consumers/run.py --backend webgpu --suite sklearn -n 16 --time-budget 90 --tag h100-sklearn
cp conformance/results/consumers-webgpu-h100-sklearn.* $L/ 2>/dev/null; pack
step scipy-webgpu 200 python3 conformance/consumers/run.py --backend webgpu --suite scipy -n 16 --time-budget 190 --tag h100-scipy
cp conformance/results/consumers-webgpu-h100-scipy.* $L/ 2>/dev/null; pack
step table 150 python3 benchmarks/webgpu_linalg_spectral.py --table --repeats 3 --json $L/linalg.json
pack
step sweep 150 python3 benchmarks/sweep.py --backends numr-webgpu,numr-cuda,cupy --reps-large 20 --json $L/sweep.json
pack; cat $L/summary.txt
