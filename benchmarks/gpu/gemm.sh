#!/bin/bash
# GEMM, second run: the new defaults (db kernels, unrolled) in the sweep's
# matmul rows next to CuPy; GEMM variants next to CuPy / cuBLAS with their errors against
# a float64 NumPy reference (per-call time with calls queued, as the sweep; and latency);
# float16; GPU kernel tests.
# Run from the repository root after benchmarks/gpu/prep.sh was sourced. < 90 s.
step gemm_sweep 25 python3 benchmarks/sweep.py --families matmul --backends numr-webgpu,cupy
step gemm_f32 30 python3 benchmarks/gemm_variants.py --cases f32_4096,f32_2048,f64_2048,skinny_wide,skinny_deep,batched_1000x64,small_64
step gemm_f16 12 python3 benchmarks/gemm_variants.py --cases f16_4096,f16_2048
step gemm_tests 20 python3 -m pytest -q -p no:cacheprovider -s tests/webgpu_kernels/test_gemm_kernels.py -k "not tuner"
