#!/bin/bash
# cudafix: cuda backend fixes (read-only broadcast views, NumPy complex division /
# reciprocal, fftfreq bit-identical, C2R edge bins). Run from the repository root (< 2 min).
set -o pipefail
OUT=${OUT:-./gpu-out}
mkdir -p "$OUT"
NUMR_TEST_BACKENDS=cuda python3 -m pytest -p no:cacheprovider -q -n 8 \
    tests/test_numpy_scalars_and_keys.py tests/test_elementwise.py \
    tests/webgpu_kernels/test_fft_gpu.py tests/test_fft.py tests/test_indexing.py \
    tests/test_manipulation.py 2>&1 | tee "$OUT/cudafix-tests.log"
