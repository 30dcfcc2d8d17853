#!/bin/bash
# gemm helper (issue 14): WebGPU GEMM kernel variants next to CuPy / cuBLAS in one process,
# correctness of every variant against NumPy (float64 reference), the cooperative-matrix
# float16 path (tensor cores) with its self-test (float16 cases last: a broken coop kernel
# cannot hide the others). Run from the repository root after benchmarks/gpu/prep.sh was
# sourced (step is defined there). < 90 s.
export NUMR_WEBGPU_GEMM_COOP=1   # the device asks for cooperative-matrix (off by default)
step gemm_variants 58 python3 benchmarks/gemm_variants.py --repeats 5
step gemm_tests 28 python3 -m pytest -q -p no:cacheprovider -s tests/webgpu_kernels/test_gemm_kernels.py
