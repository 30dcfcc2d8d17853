#!/bin/bash
# 2026-11-26, H100: the webgpu hang fix on NVIDIA (official suite whole at 50
# examples; test_linalg + test_fft at 200), the workgroup-memory planners at 16 KiB on
# NVIDIA, the demo's driver noise, the size acceptance (10 GiB, 3 GiB sort) and cuda's huge
# requests. Logs tarred to $OUT/logs.tgz after every step.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=./.suite/array-api-tests
T="-p no:cacheprovider -q -rfE"
step demo 25 python3 -m pytest $T tests/integration/test_demo_quiet.py; pack
step wgmem 60 python3 -m pytest $T tests/webgpu_runtime/test_workgroup_memory.py; pack
step off-linfft-200 130 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-fft-200 --tests test_linalg.py test_fft.py -- -n 16
cp conformance/results/*-h100-linalg-fft-200.* $L/ 2>/dev/null; pack
step off-webgpu 110 python3 conformance/run.py --backend webgpu --suite $S --max-examples 50 --derandomize --tag h100 -- -n 16
cp conformance/results/webgpu-h100.* $L/ 2>/dev/null; pack
NUMR_TEST_BACKENDS=webgpu NUMR_TEST_SLOW=1 step fftgpu 50 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_fft_gpu.py; pack
NUMR_TEST_BACKENDS=webgpu NUMR_TEST_SLOW=1 step size 110 python3 -m pytest $T tests/webgpu_kernels/test_gpu_size_acceptance.py tests/webgpu_kernels/test_reduction_big.py tests/webgpu_kernels/test_gather_big.py tests/webgpu_kernels/test_gpu_sort_big.py -k "gib"; pack
NUMR_TEST_BACKENDS=cuda step huge-cuda 40 python3 -m pytest $T tests/reliability/test_huge_requests.py tests/test_creation.py; pack
cat $L/summary.txt
