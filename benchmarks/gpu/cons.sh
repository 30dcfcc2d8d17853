#!/usr/bin/env bash
# Consumers on the GPU machine: scikit-learn's / SciPy's own array-API suites on
# numr cuda and numr webgpu (NVIDIA Vulkan), and the whole official array-API suite on webgpu
# and cuda at 50 examples. Run from the repository root after the usual device prelude
# (shared/device/README.md: .gl debs unpacked, .whl installed into /tmp/site -- it includes
# pytest-xdist, array-api-strict, pytest-json-report --, PYTHONPATH=/tmp/site:$PWD,
# VK_DRIVER_FILES=<nvidia icd>). Logs and results under $OUT. Budget: < 5 minutes in all
# (each step has its own time budget / timeout; a consumer run that hits its budget still
# writes the tests it ran, marked "incomplete").
#   FULL=1: the whole SciPy selection instead of the CI subset (about 55k tests; allow 10 min).
set -u
OUT=${OUT:-./gpu-out}
PY=${PYTHON:-python3}
SUITE=${SUITE:-./.suite/array-api-tests}
N=${N:-16}
mkdir -p "$OUT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
S="$OUT/cons-summary.log"
: > "$S"

# 1. official suite, whole, 50 examples, on webgpu (NVIDIA) and cuda (~40 s each with -n 16)
if [ -d "$SUITE" ]; then
  for b in webgpu cuda; do
    timeout 150 $PY conformance/run.py --backend $b --suite "$SUITE" --max-examples 50 \
      --derandomize --tag h100 -- -n $N > "$OUT/cons-official-$b.log" 2>&1
    echo "official $b rc=$? $(tail -1 "$OUT/cons-official-$b.log")" >> "$S"
  done
  cp conformance/results/webgpu-h100.* conformance/results/cuda-h100.* "$OUT/" 2>/dev/null
else
  echo "official suite skipped: no checkout at $SUITE" >> "$S"
fi

# 2. consumers: scikit-learn's whole array-API selection + SciPy's (CI subset unless FULL=1),
#    numr cuda and numr webgpu, array-api-strict baseline in the same runs
sub="--subset ci"; budget=45
if [ "${FULL:-0}" = 1 ]; then sub=""; budget=280; fi
for b in cuda webgpu; do
  timeout $((budget * 2 + 40)) $PY conformance/consumers/run.py --backend $b --suite sklearn \
    -n $N --time-budget $budget --tag h100-sklearn > "$OUT/cons-consumers-$b-sklearn.log" 2>&1
  echo "consumers $b sklearn rc=$? $(grep '^\[sklearn\]' "$OUT/cons-consumers-$b-sklearn.log")" >> "$S"
  timeout $((budget * 2 + 40)) $PY conformance/consumers/run.py --backend $b --suite scipy $sub \
    -n $N --time-budget $budget --tag h100-scipy > "$OUT/cons-consumers-$b-scipy.log" 2>&1
  echo "consumers $b scipy rc=$? $(grep '^\[scipy\]' "$OUT/cons-consumers-$b-scipy.log")" >> "$S"
done
for b in cuda webgpu; do  # one results file per backend (both suites)
  $PY conformance/consumers/run.py --backend $b --tag h100 --combine \
    conformance/results/consumers-$b-h100-sklearn.json conformance/results/consumers-$b-h100-scipy.json \
    >> "$S" 2>&1
done
cp conformance/results/consumers-*-h100*.md conformance/results/consumers-*-h100*.json "$OUT/" 2>/dev/null
cat "$S"
