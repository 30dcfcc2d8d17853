#!/usr/bin/env bash
# linB (spectral linalg on the GPU: eigh / eigvalsh / svd / svdvals / pinv /
# matrix_rank / eig / eigvals): run from the repository root on the GPU machine after the usual
# device prelude (WebGPU on the NVIDIA GPU, see benchmarks/gpu_session.sh for VK_DRIVER_FILES;
# CuPy and PyTorch optional). Logs in $OUT/linB-*.log. Expected total under 3 minutes on an
# H100 (each step has its own timeout; the 2048 rows run last: ~10 n dispatches each).
set -u
OUT=${OUT:-./gpu-session-out}
PY=${PYTHON:-python3}
SUITE=${SUITE:-./.suite/array-api-tests}
mkdir -p "$OUT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
# 1. accuracy vs NumPy float64 on the NVIDIA adapter, slow sizes included (~30 s)
NUMR_TEST_SLOW=1 timeout 150 $PY -m pytest -p no:cacheprovider -q \
    tests/webgpu_kernels/test_linalg_spectral_gpu.py > "$OUT/linB-tests.log" 2>&1
echo "tests rc=$?" >> "$OUT/linB-summary.log"
# 2. benchmark: numr webgpu vs CuPy (cuSOLVER) vs PyTorch, same run; 512 and batched rows
timeout 100 $PY benchmarks/webgpu_linalg_spectral.py --repeats 3 \
    --exclude " 2048x2048" \
    --json "$OUT/linB-bench.json" > "$OUT/linB-bench.log" 2>&1
echo "bench rc=$?" >> "$OUT/linB-summary.log"
# 3. the 2048 rows alone (timed once when a call exceeds 2 s)
timeout 90 $PY benchmarks/webgpu_linalg_spectral.py --repeats 1 \
    --match " 2048x2048" \
    --json "$OUT/linB-bench-2048.json" > "$OUT/linB-bench-2048.log" 2>&1
echo "bench-2048 rc=$?" >> "$OUT/linB-summary.log"
cat "$OUT/linB-summary.log"; cat "$OUT/linB-bench.log" "$OUT/linB-bench-2048.log"
tail -5 "$OUT/linB-tests.log"
