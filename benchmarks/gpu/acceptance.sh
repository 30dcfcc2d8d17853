#!/usr/bin/env bash
# Acceptance on the GPU machine, in two parts that each fit one device command (10 minutes):
#   bash benchmarks/gpu/acceptance.sh tests       the whole suite (CI's selection) on cpu,
#                                                 webgpu (NVIDIA adapter) and cuda
#   bash benchmarks/gpu/acceptance.sh consumers   scikit-learn's and SciPy's array-API suites,
#                                                 whole, on webgpu and cuda (side by side)
# Run from the repository root after the environment snippet of the device README (carry
# [".whl", ".gl"]). Logs and results go to $OUT (default ./gpu-out); the consumers' results
# are written to $OUT/results/consumers-<backend>-h200.md|json (copy them to
# conformance/results/).
set -u
OUT=${OUT:-./gpu-out}; mkdir -p "$OUT"
PY=${PYTHON:-python3}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
limit=${ACCEPTANCE_SECONDS:-540}
case "${1:-}" in
  tests)
    $PY -c "import numr_array_api.webgpu as w; print(w.asarray([0.])._data.client.info['name'])" \
      > "$OUT/adapter.txt" 2>&1
    NUMR_TEST_BACKENDS=cpu,webgpu,cuda timeout "$limit" $PY -m pytest -p no:cacheprovider -q \
      -rfE -n 16 --dist loadfile --durations=15 tests > "$OUT/tests.log" 2>&1
    echo "tests rc=$?: $(tail -1 "$OUT/tests.log")" | tee "$OUT/summary.txt"
    ;;
  consumers)
    mkdir -p "$OUT/results"
    for b in webgpu cuda; do
      timeout "$limit" $PY conformance/consumers/run.py --backend "$b" -n 8 --no-write \
        --json "$OUT/results/consumers-$b-h200.json" > "$OUT/consumers-$b.log" 2>&1 &
    done
    wait
    for b in webgpu cuda; do
      echo "consumers $b: $(grep -E '^\[|wall time' "$OUT/consumers-$b.log" | tr '\n' ' ')" \
        | tee -a "$OUT/summary.txt"
    done
    ;;
  *)
    echo "usage: $0 tests|consumers" >&2; exit 2 ;;
esac
