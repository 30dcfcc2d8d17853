#!/usr/bin/env bash
# Size acceptance for sorting: sort / argsort of a 3 GiB float32 array
# on the NVIDIA adapter (2 GiB storage binding, 4 GiB max buffer), plus the beyond-one-binding
# sort tests at shrunken limits on the same adapter. Run from the repository root on the GPU
# machine after the usual device prelude (/work/shared/device/README.md: .whl/.gl carried,
# PYTHONPATH=/tmp/site:$PWD, VK_DRIVER_FILES=<nvidia icd>). Total < 2 minutes (timeout 110 s).
# Logs: $OUT/sort2-*.log
set -u
OUT=${OUT:-./gpu-out}; mkdir -p "$OUT"
PY=${PYTHON:-python3}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
timeout 110 $PY -m pytest -p no:cacheprovider -q -x -rs --durations=5 \
  tests/webgpu_kernels/test_gpu_sort_big.py tests/webgpu_kernels/test_sort_big.py \
  > "$OUT/sort2-tests.log" 2>&1
echo "sort2 tests rc=$?" | tee "$OUT/sort2-summary.log"
tail -15 "$OUT/sort2-tests.log"
