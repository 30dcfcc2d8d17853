#!/bin/bash
# 2026-11-27, H100: SciPy's array-API tests on webgpu, and the sweep's acceptance
# families with the day's code.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step scipy-webgpu 200 python3 conformance/consumers/run.py --backend webgpu --suite scipy -n 16 --time-budget 190 --tag h100-scipy
cp conformance/results/consumers-webgpu-h100-scipy.* $L/ 2>/dev/null; pack
step sweep 150 python3 benchmarks/sweep.py --sizes large --families reductions,scans,indexing,matmul --reps-large 20 --backends numr-webgpu,numr-cuda,cupy --json $L/sweep.json
pack; cat $L/summary.txt
