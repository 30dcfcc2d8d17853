#!/bin/bash
# linfix: webgpu spectral linalg (eigh / svd / eig) on the NVIDIA adapter, slow sizes included (< 2 min)
set -o pipefail
NUMR_TEST_SLOW=1 python3 -m pytest -p no:cacheprovider -q tests/webgpu_kernels/test_linalg_spectral_gpu.py 2>&1 | tee "${OUT:-.}/linfix-spectral.log"
