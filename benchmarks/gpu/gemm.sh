#!/bin/bash
# gemm helper (issue 14): WebGPU GEMM kernel variants next to CuPy / cuBLAS in one process,
# each variant's error against a float64 NumPy reference; the cooperative-matrix float16
# path (tensor cores) with its device self-tests in a process of its own (a broken coop
# kernel cannot hide the rest); the GEMM kernel tests (odd shapes, batches, views, coop
# products) on the GPU. Run from the repository root after benchmarks/gpu/prep.sh was
# sourced (step is defined there). < 90 s.
export NUMR_WEBGPU_GEMM_COOP=1   # the device asks for cooperative-matrix (off by default)
step gemm_f32 38 python3 benchmarks/gemm_variants.py --cases f32_4096,f32_2048,f64_2048,skinny_wide,skinny_deep,batched_1000x64,small_64
step gemm_f16 22 python3 benchmarks/gemm_variants.py --cases f16_4096,f16_2048
step gemm_tests_coop 8 python3 -m pytest -q -p no:cacheprovider -s tests/webgpu_kernels/test_gemm_kernels.py -k "coop or plan"
step gemm_tests 18 python3 -m pytest -q -p no:cacheprovider tests/webgpu_kernels/test_gemm_kernels.py -k "not coop and not tuner"
