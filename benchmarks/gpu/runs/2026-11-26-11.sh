#!/bin/bash
# 2026-11-26, H100: call recipes (fft, split-K GEMM) A/B, reduction row-mapping
# variants, matmul sweep, per-op chain, batched small linalg breakdown; recipe + fft + matmul
# tests on webgpu.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step tests 200 python3 -m pytest $T -n 8 tests/webgpu_runtime/test_recipes.py tests/test_fft.py tests/test_matmul.py tests/webgpu_kernels/test_fft_gpu.py
step fft 100 python3 benchmarks/webgpu_fft.py --chain 10 --json $L/fft.json
NUMR_WEBGPU_RECIPES=0 step fft-norec 100 python3 benchmarks/webgpu_fft.py --chain 10
step mm 100 python3 benchmarks/sweep.py --families matmul --backends numr-webgpu,cupy --sizes large
NUMR_WEBGPU_RECIPES=0 step mm-norec 100 python3 benchmarks/sweep.py --families matmul --backends numr-webgpu,cupy --sizes large
step red 200 python3 benchmarks/reduce_variants.py --sizes large --cases "sum f32,max(axis=1),sum(axis=1),mean" --variants "u4,s4,g2048,i16,w1,b256,f32;u4,w1,b128,f32;u4,w1,b64,f32;u8,w1,b128,f32;u8,w1,b64,f32;u2,w1,b64,f32;u4,w1,b32,f32"
step lsmall 120 python3 benchmarks/gpu/linalg_small.py
step core 100 python3 benchmarks/webgpu_core.py --mib 64 --chain 500 --repeats 20
(cd $L && tar czf $OUTSAVE/logs.tgz .); cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head
