#!/usr/bin/env bash
# Sorting on the GPU: run from the repository root on the GPU machine, after the
# usual environment snippet (/work/shared/device/README.md: .whl/.gl carried, PYTHONPATH,
# VK_DRIVER_FILES=nvidia ICD). Total under 3 minutes (timeouts 70 + 65 + 40 s; the benchmark prints each case as it finishes). Logs: $OUT/sort-*.log
set -u
OUT=${OUT:-./gpu-out}; mkdir -p "$OUT"
PY=${PYTHON:-python3}
SUITE=${SUITE:-./.suite/array-api-tests}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
# 1. the benchmark: numr webgpu vs CuPy vs PyTorch, same run (~1-1.5 min)
timeout 70 $PY benchmarks/webgpu_sort.py --repeats 3 --json "$OUT/sort-bench.json" \
  > "$OUT/sort-bench.log" 2>&1; echo "bench rc=$?" >> "$OUT/sort-summary.txt"
# 2. correctness on the NVIDIA adapter (the 2^24 + 5 element cases included)
NUMR_TEST_SLOW=1 timeout 65 $PY -m pytest -p no:cacheprovider -q -x \
  tests/webgpu_kernels/test_sort_gpu.py > "$OUT/sort-tests.log" 2>&1
echo "tests rc=$?" >> "$OUT/sort-summary.txt"
# 3. the official suite's sorting / searching / set files on the NVIDIA adapter
if [ -d "$SUITE" ]; then
  timeout 40 $PY conformance/run.py --backend webgpu --suite "$SUITE" --tests \
    test_sorting_functions.py test_searching_functions.py test_set_functions.py \
    --max-examples 200 --derandomize --tag h100-sort > "$OUT/sort-conformance.log" 2>&1
  echo "conformance rc=$?" >> "$OUT/sort-summary.txt"
  cp conformance/results/webgpu-h100-sort.* "$OUT/" 2>/dev/null
fi
cat "$OUT/sort-summary.txt"; cat "$OUT/sort-bench.log"; tail -3 "$OUT/sort-tests.log"
tail -1 "$OUT/sort-conformance.log" 2>/dev/null
