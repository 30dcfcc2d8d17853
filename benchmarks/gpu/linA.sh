#!/usr/bin/env bash
# linA (linalg on the GPU): run from the repository root on the GPU machine
# (WebGPU on the NVIDIA GPU, see benchmarks/gpu_session.sh for VK_DRIVER_FILES; CuPy and
# PyTorch optional). Under 4 minutes whatever happens (timeouts 100 + 130 s; expected about 2); logs in $OUT/linA-*.log.
set -u
OUT=${OUT:-./gpu-session-out}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
# 1. correctness on the NVIDIA adapter, sizes up to 1024 included (NUMR_TEST_SLOW)
NUMR_TEST_SLOW=1 timeout 100 $PY -m pytest -p no:cacheprovider -q \
    tests/webgpu_kernels/test_linalg_gpu.py > "$OUT/linA-tests.log" 2>&1
echo "tests rc=$?" >> "$OUT/linA-summary.log"
# 2. the benchmark: numr webgpu vs CuPy vs PyTorch, same run (batched and small cases first,
#    so a run cut by the timeout still has every row; rows print as they finish)
timeout 130 $PY benchmarks/webgpu_linalg.py --repeats 3 \
    --json "$OUT/linA-bench.json" > "$OUT/linA-bench.log" 2>&1
echo "bench rc=$?" >> "$OUT/linA-summary.log"
