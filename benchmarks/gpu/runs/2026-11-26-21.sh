#!/bin/bash
# 2026-11-26, H100: final code: linalg / recipes / fft / matmul tests on webgpu,
# the GiB tests alone (serialised), official test_linalg + test_fft at 200 examples.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=.suite/array-api-tests
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step tests 240 python3 -m pytest $T -n 16 tests/test_linalg.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_runtime tests/test_fft.py tests/webgpu_kernels/test_fft_gpu.py tests/test_matmul.py tests/webgpu_kernels/test_gpu_size_acceptance.py tests/integration/test_scipy.py
pack
step off-lin 120 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-fft-200 --tests test_linalg.py test_fft.py -- -n 16
cp conformance/results/*-h100-linalg-fft-200.* $L/ 2>/dev/null; pack
cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -30
