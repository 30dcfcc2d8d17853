#!/bin/bash
# 2026-11-26, H100: the rows kernel after its NaN fix (linalg tests, official
# test_linalg + test_fft at 200 examples, batched timings), then the whole webgpu test
# suite on the GPU.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=.suite/array-api-tests
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step lintests 200 python3 -m pytest $T -n 8 tests/test_linalg.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_runtime/test_recipes.py
pack
step off-lin 120 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-fft-200 --tests test_linalg.py test_fft.py -- -n 16
cp conformance/results/*-h100-linalg-fft-200.* $L/ 2>/dev/null; pack
step lsmall 100 python3 benchmarks/gpu/linalg_small.py
pack
NUMR_TEST_BACKENDS=webgpu step alltests 270 python3 -m pytest $T -n 16 tests --maxfail=30
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -30
