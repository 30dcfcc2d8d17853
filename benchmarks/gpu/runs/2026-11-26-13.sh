#!/bin/bash
# 2026-11-26, H100: status-read round trip (wait modes), CuPy copy paths of a
# strided view, batched 16 x 16 solve / inv on the one-invocation kernel, the consumers
# (SciPy, scikit-learn) on webgpu with call recipes.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step rd-spin 60 python3 benchmarks/gpu/read_diag.py
NUMR_WEBGPU_MAP_WAIT=block step rd-block 60 python3 benchmarks/gpu/read_diag.py
NUMR_WEBGPU_BTINY_N=16 step lsmall16 60 python3 benchmarks/gpu/linalg_small.py
pack
step sk-webgpu 125 python3 conformance/consumers/run.py --backend webgpu --suite sklearn -n 16 --time-budget 110 --tag h100-sklearn
cp conformance/results/consumers-webgpu-h100-sklearn.* $L/ 2>/dev/null; pack
step scipy-webgpu 280 python3 conformance/consumers/run.py --backend webgpu --suite scipy -n 16 --time-budget 260 --tag h100-scipy
cp conformance/results/consumers-webgpu-h100-scipy.* $L/ 2>/dev/null; pack
cat $L/summary.txt
