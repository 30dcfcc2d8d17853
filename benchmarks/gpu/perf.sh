#!/usr/bin/env bash
# perf: the webgpu eager per-op cost on the H100 after the launch-plan /
# scalar fast-path changes, next to CuPy in the same process. Run from the repository root
# after the usual device prelude (.gl debs unpacked, wheels in /tmp/site, PYTHONPATH with
# the repo, VK_DRIVER_FILES=<nvidia icd> if no driver is found). About 1 minute.
# Prints, per run: eager chain us/op (webgpu), CuPy chain us/op, graph replay us/op; then
# one --host-only run (host side split: loop with batched submits / recording only, and
# CuPy's loop without synchronisation). Logs: $OUT/perf-*.log.
set -u
OUT=${OUT:-./gpu-out}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
S="$OUT/perf-summary.log"
: > "$S"
for i in 1 2 3; do
  timeout 60 $PY benchmarks/webgpu_core.py --mib 64 --chain 500 --repeats 20 \
    --json "$OUT/perf-run$i.json" > "$OUT/perf-run$i.log" 2>&1
  echo "run $i rc=$? $(grep -E '^(webgpu_chain_us_per_op|cupy_chain_us_per_op|webgpu_graph_us_per_op)' \
    "$OUT/perf-run$i.log" | awk '{printf "%s=%s ", $1, $2}')" | tee -a "$S"
done
# the batch size decides how much of the chain's last batch runs after the host is done
# (default 128); informs whether a smaller default helps now that recording is cheaper
for b in 32 64; do
  NUMR_TUNING="BATCH=$b" timeout 60 $PY benchmarks/webgpu_core.py --mib 16 --chain 500 \
    --repeats 20 > "$OUT/perf-batch$b.log" 2>&1
  echo "batch $b rc=$? $(grep -E '^(webgpu_chain_us_per_op|cupy_chain_us_per_op)' \
    "$OUT/perf-batch$b.log" | awk '{printf "%s=%s ", $1, $2}')" | tee -a "$S"
done
timeout 60 $PY benchmarks/webgpu_core.py --host-only --chain 500 --repeats 20 \
  --json "$OUT/perf-host.json" > "$OUT/perf-host.log" 2>&1
echo "host-only rc=$?" | tee -a "$S"
grep -E 'us_per_op' "$OUT/perf-host.log" | tee -a "$S"
