#!/bin/bash
# 2026-11-27, H100: the warp tests whole (inv now takes them from n = 2; runs/2026-11-27-07.sh's
# step limit left their float64 cases out), the namespace-level tests, the official
# test_linalg.py at 200 examples.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
S=.suite/array-api-tests
NUMR_TEST_BACKENDS=webgpu step warp 200 python3 -m pytest $T --junitxml=$L/warp.xml -n 12 tests/webgpu_kernels/test_warp_small.py tests/webgpu_kernels/test_big_matmul.py
pack
NUMR_TEST_BACKENDS=webgpu step ns 250 python3 -m pytest $T --junitxml=$L/ns.xml -n 16 tests/test_*.py tests/webgpu_namespace tests/wgsl_math tests/architecture -m "not (gpu and slow)"
pack
step off-lin-200 90 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-200 --tests test_linalg.py -- -n 16
cp conformance/results/*h100-linalg-200* $L/ 2>/dev/null
pack; cat $L/summary.txt
