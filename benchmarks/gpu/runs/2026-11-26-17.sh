#!/bin/bash
# 2026-11-26, H100: the row-per-invocation kernel for stacks of 9..32 systems
# (first-call compile time, kernel and call time next to CuPy), linalg tests, official
# test_linalg at 200 examples.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=.suite/array-api-tests
T="-p no:cacheprovider -q -rfE"
step lsmall 150 python3 benchmarks/gpu/linalg_small.py
pack
NUMR_TEST_BACKENDS=webgpu step tests 200 python3 -m pytest $T -n 8 tests/test_linalg.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_runtime/test_recipes.py
pack
step off-lin 150 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-fft-200 --tests test_linalg.py test_fft.py -- -n 16
cp conformance/results/*-h100-linalg-fft-200.* $L/ 2>/dev/null; pack
step table 100 python3 benchmarks/webgpu_linalg.py --repeats 3 --only solve,inv,cholesky --dtypes float32
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head
