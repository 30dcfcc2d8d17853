#!/usr/bin/env bash
# Reliability acceptance on the GPU machine: threads, interrupts, fuzzing, the
# reproducers and the soak, on cpu, webgpu (NVIDIA adapter) and cuda. Run from the repository
# root after the usual environment snippet (/work/shared/device/README.md: carry
# [".whl", ".gl"], PYTHONPATH, VK_DRIVER_FILES=nvidia ICD). Needs pytest-xdist (in .whl).
# Total < 5 minutes (each step has its own timeout). Logs: $OUT/rel-*.log, summary
# $OUT/rel-summary.txt.
set -u
OUT=${OUT:-./gpu-out}; mkdir -p "$OUT"
PY=${PYTHON:-python3}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp} NUMR_STRESS=full
S="$OUT/rel-summary.txt"; : > "$S"
T="-p no:cacheprovider -q -rfEs"
step() {  # name, timeout, pytest args...
  local name=$1 limit=$2; shift 2
  local t0=$SECONDS
  timeout "$limit" $PY -m pytest $T "$@" > "$OUT/rel-$name.log" 2>&1
  echo "$name rc=$? $((SECONDS - t0))s: $(tail -1 "$OUT/rel-$name.log")" >> "$S"
}
$PY -c "import numr_array_api.webgpu as w, numr_array_api.cuda as c; print('webgpu', w.__array_namespace_info__().devices(), w.asarray([0.])._data.client.info['name']); print('cuda', c.__array_namespace_info__().devices())" >> "$S" 2>&1
# 1. threads: 16 threads x 2000 mixed ops vs NumPy, 10 runs, on cpu, webgpu and cuda
NUMR_TEST_BACKENDS=cpu,webgpu,cuda step threads 100 tests/reliability/test_threads.py \
  -k "mixed_ops_equal_numpy or reproducer_1"
# 2. interrupts: 50 runs of random SIGINTs (every 5-300 ms) into a webgpu loop, watchdog
#    60 s each; 4 s of interrupts per run, 8 runs at a time
NUMR_INTERRUPT_SECONDS=4 step interrupts 60 -n 8 tests/reliability/test_interrupts.py \
  -k reproducer_2
# 3. the fuzz suite on webgpu and cuda (and cpu): 25 examples per function, random seeds
NUMR_TEST_BACKENDS=cpu,webgpu,cuda NUMR_FUZZ_EXAMPLES=25 step fuzz 75 -n 8 \
  tests/reliability/test_fuzz_invalid_input.py
# 4. reproducers 1-7 (192 MB, 2^32-element views) and the 10^5-op soak
NUMR_TEST_BACKENDS=cpu,webgpu,cuda NUMR_TEST_SLOW=1 step reproducers 60 -n 4 \
  tests/reliability/test_reported_reproducers.py tests/reliability/test_soak.py
cat "$S"
