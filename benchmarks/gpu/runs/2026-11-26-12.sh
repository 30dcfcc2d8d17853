#!/bin/bash
# 2026-11-26, H100: batched linalg through recipes (status diag, breakdown), GEMM
# variants, official test_fft + test_linalg at 200 examples, recipe / linalg tests, the
# whole sweep (large) for the table of the sweep's acceptance rows.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=.suite/array-api-tests
T="-p no:cacheprovider -q -rfE"
step sdiag 60 python3 benchmarks/gpu/status_diag.py
step lsmall 90 python3 benchmarks/gpu/linalg_small.py
pack
step off-linfft-200 150 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-fft-200 --tests test_linalg.py test_fft.py -- -n 16
cp conformance/results/*-h100-linalg-fft-200.* $L/ 2>/dev/null; pack
NUMR_TEST_BACKENDS=webgpu step tests 120 python3 -m pytest $T -n 8 tests/webgpu_runtime/test_recipes.py tests/test_linalg.py tests/webgpu_kernels/test_linalg_gpu.py
pack
step sweep 120 python3 benchmarks/sweep.py --backends numr-webgpu,numr-cuda,cupy --sizes large --json $L/sweep.json
pack
step gemmv 120 python3 benchmarks/gemm_variants.py --cases f32_4096,skinny_deep --repeats 3
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head
