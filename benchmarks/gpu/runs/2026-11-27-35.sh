#!/bin/bash
# 2026-11-27, H100: the final code on the H100: the official test_linalg.py at 200
# examples, the linalg / GEMM kernel test files, split-K on the skinny GEMM, the stack
# rows, the eigh rows.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); mkdir -p $OUTSAVE/results; cp conformance/results/*h100-s12* $OUTSAVE/results/ 2>/dev/null; }
T="-p no:cacheprovider -q -rfE --timeout=250"
step suite 100 python3 conformance/run.py --backend webgpu --suite .suite/array-api-tests --max-examples 200 --derandomize --tag h100-s12-linalg-200 --tests test_linalg.py -- -n 16
pack
step tests 250 python3 -m pytest $T -n 16 tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_qr_loop.py tests/webgpu_kernels/test_big_matmul.py tests/webgpu_kernels/test_gemm_kernels.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_linalg_scale_sweep.py tests/test_linalg.py
pack
step gemm 40 python3 benchmarks/gemm_variants.py --cases skinny_deep --repeats 5
pack
step stacks 70 python3 benchmarks/webgpu_linalg.py --stacks --repeats 7
pack
step spectral 100 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 2
pack; cat $L/summary.txt; cat $L/gemm.log | tail -8; tail -12 $L/stacks.log; tail -16 $L/spectral.log
