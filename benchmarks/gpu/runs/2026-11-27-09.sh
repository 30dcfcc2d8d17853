#!/bin/bash
# 2026-11-27, H100: the remaining test folders, the warp float64-lu test alone
# (runs/2026-11-27-07.sh and runs/2026-11-27-08.sh ran out of step time in its NVIDIA compiles), scikit-learn on webgpu, and the
# linalg table (cholesky / solve / inv / qr, large and stacks) next to CuPy.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
NUMR_TEST_BACKENDS=webgpu step misc 170 python3 -m pytest $T --junitxml=$L/misc.xml -n 16 tests/integration tests/reliability tests/scaleout tests/cuda_runtime -m "not (gpu and slow)"
pack
NUMR_TEST_BACKENDS=webgpu step warp64lu 130 python3 -m pytest $T --junitxml=$L/warp64.xml tests/webgpu_kernels/test_warp_small.py -k "float64-lu"
pack
step sk-webgpu 90 python3 conformance/consumers/run.py --backend webgpu --suite sklearn -n 16 --time-budget 80 --tag h100-sklearn
cp conformance/results/consumers-webgpu-h100-sklearn.* $L/ 2>/dev/null; pack
step table 150 python3 benchmarks/webgpu_linalg.py --repeats 2 --only cholesky,solve,inv,qr --json $L/linalg.json
pack; cat $L/summary.txt
