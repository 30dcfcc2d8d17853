#!/usr/bin/env bash
# Scale-out (numr arrays as the chunks of Cubed arrays on Dask), GPU run on one
# H100 / H200. Run from the repository root on the GPU machine, carrying
#     [".whl", ".gl", ".whl-cubed"]
# (.whl / .gl: /work/shared/device/prepare.sh; .whl-cubed: benchmarks/gpu/cubed-wheels.sh,
# Cubed 0.27 + Dask 2026.6 and their pure-Python / manylinux deps for Python 3.12, which the
# GPU machine lacks). numr comes from the checkout through PYTHONPATH only.
#
# What it does (logs in $OUT/cubed-*.log, results in $OUT/cubed-*.json), < 6 min in all:
#  1. the example over an array of 2x one GPU's memory (generated chunk by chunk on the GPU,
#     mean / std / matrix-vector product, Cubed progress bars in the logs), one worker on GPU
#     0, with numr cuda chunks, numr webgpu chunks (Vulkan) and CuPy chunks
#     (array_api_compat.cupy), each verified against NumPy on a subsample, throughput printed,
#     then one comparison table. Each backend gets a time budget (CUBED_BUDGET_S, default 50 s
#     of computation): a calibration measures the time per chunk; if not even one op over 2x
#     fits, the array is made smaller (printed: "array reduced to ..."), and ops that would
#     end past the budget are skipped (printed: "skipped").
#  2. the several-GPU code path on one GPU: tests/scaleout/test_cubed_dask.py with two Dask
#     workers pinned to GPU 0 (cuda and webgpu chunks; chunk types, pinning, every worker ran
#     tasks, results equal to NumPy), and the example with --devices 0,0 (each worker's device
#     in the log) over 1x the GPU's memory, mean only, for the 1-worker / 2-worker figures.
#  3. a summary block with everything docs/benchmarks.md needs.
set -uo pipefail
START=$SECONDS
LIMIT=${CUBED_LIMIT_S:-350}           # the whole script
BUDGET=${CUBED_BUDGET_S:-50}          # computation seconds per backend in step 1
BACKENDS=${CUBED_BACKENDS:-"cuda webgpu cupy"}
SIZE=${CUBED_SIZE:-2x}
export BACKENDS
OUT=${OUT:-$PWD/out-cubed}
mkdir -p "$OUT"
say() { echo "[cubed.sh +$((SECONDS - START))s] $*"; }
left() { echo $((LIMIT - (SECONDS - START))); }

# --- set-up ------------------------------------------------------------------------------
if [ -z "${CUBED_SKIP_SETUP:-}" ]; then      # CUBED_SKIP_SETUP=1: a dry run elsewhere
for f in .gl/*.deb; do dpkg -x "$f" /; done; ldconfig
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || { echo "cannot install .whl/"; exit 1; }
SITE=/tmp/site
if PYTHONPATH=/tmp/site python3 -c "import cubed, distributed, zarr" 2>/dev/null; then
  say "cubed / dask already installed on this machine"
else
  [ -d .whl-cubed ] || { echo "no .whl-cubed/: run benchmarks/gpu/cubed-wheels.sh on the development machine and carry .whl-cubed"; exit 1; }
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
      --target /tmp/site-cubed .whl-cubed/*.whl || { echo "cannot install .whl-cubed/"; exit 1; }
  SITE=/tmp/site:/tmp/site-cubed
fi
export PYTHONPATH=$SITE:$PWD
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
else
export PYTHONPATH=$PWD
fi
export PYTHONUNBUFFERED=1
unset CUBED_BACKEND_ARRAY_API_MODULE ZARR_BUFFER ZARR_NDBUFFER
say "set-up done"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$OUT/cubed-gpu.txt"
python3 - <<'PY' 2>&1 | tee -a "$OUT/cubed-gpu.txt"
import importlib, platform, os
print("python", platform.python_version(), "| cpus", os.cpu_count())
for m in ("numpy", "cupy", "wgpu", "cubed", "dask", "distributed", "zarr", "numcodecs", "array_api_compat"):
    try:
        print(f"  {m} {importlib.import_module(m).__version__}")
    except Exception as e:
        print(f"  {m}: {type(e).__name__}: {e}")
from numr_array_api.distributed.cluster import available_devices
from numr_array_api.backends.webgpu.runtime import adapters
print("  webgpu adapters:", [(a["index"], a["name"], a["backend"], a["type"]) for a in adapters.list_adapters()])
for b in ("cuda", "webgpu"):
    try:
        print(f"  {b} devices for workers:", available_devices(b))
    except Exception as e:
        print(f"  {b} devices: {type(e).__name__}: {e}")
from distributed.system import MEMORY_LIMIT
print(f"  host memory for workers: {MEMORY_LIMIT / 2**30:.1f} GiB")
PY

# --- 1. 2x one GPU's memory, three chunk backends ----------------------------------------
for b in $BACKENDS; do
  t=$(left)
  if [ "$t" -lt $((BUDGET + 40)) ]; then say "$b: skipped, only ${t}s left"; continue; fi
  say "example --backend $b --size $SIZE --time-budget $BUDGET  (log $OUT/cubed-example-$b.log)"
  timeout -k 10 $((BUDGET + 50)) python3 -m numr_array_api.distributed.example --backend "$b" \
      --size "$SIZE" --time-budget "$BUDGET" --json "$OUT/cubed-$b.json" > "$OUT/cubed-example-$b.log" 2>&1
  rc=$?
  grep -a -E "^\[$b\]|^  $b:|Error|error:|Traceback" "$OUT/cubed-example-$b.log" | grep -v XDG_RUNTIME | head -40
  say "$b: exit code $rc"
done

# --- 2. several workers on one GPU --------------------------------------------------------
t=$(left)
if [ "$t" -gt 70 ]; then
  say "tests/scaleout: two Dask workers pinned to GPU 0 (cuda, webgpu)  (log $OUT/cubed-two-workers.log)"
  NUMR_TEST_BACKENDS=cuda,webgpu timeout -k 10 $((t - 45)) python3 -m pytest -p no:cacheprovider -q -rA \
      tests/scaleout/test_cubed_dask.py -k "two_dask_workers or generated_values" \
      > "$OUT/cubed-two-workers.log" 2>&1
  say "pytest exit code $?"
  grep -a -E "^(PASSED|FAILED|SKIPPED|ERROR)|passed|failed" "$OUT/cubed-two-workers.log" | tail -12
else
  say "two-worker tests skipped, only ${t}s left"
fi
t=$(left)
if [ "$t" -gt 60 ]; then
  b2=$((t - 45 < 40 ? t - 45 : 40))
  say "example --backend cuda --devices 0,0 --size 1x --ops mean --time-budget $b2  (log $OUT/cubed-example-cuda-2workers.log)"
  timeout -k 10 $((b2 + 40)) python3 -m numr_array_api.distributed.example --backend cuda --devices 0,0 \
      --size 1x --ops mean --time-budget "$b2" --json "$OUT/cubed-cuda-2workers.json" \
      > "$OUT/cubed-example-cuda-2workers.log" 2>&1
  rc=$?
  grep -a -E "^\[cuda\]|^  cuda:|Error|Traceback" "$OUT/cubed-example-cuda-2workers.log" | head -20
  say "cuda, two workers on GPU 0: exit code $rc"
else
  say "two-worker example skipped, only ${t}s left"
fi

# --- 3. summary -----------------------------------------------------------------------------
python3 - "$OUT" <<'PY' 2>&1 | tee "$OUT/cubed-summary.txt"
import glob, json, os, sys
from numr_array_api.distributed.example import _table, _fmt_bytes
out = sys.argv[1]
res = []
for b in os.environ["BACKENDS"].split() + ["cuda-2workers"]:
    p = os.path.join(out, f"cubed-{b}.json")
    if not os.path.exists(p):
        print(f"{b}: no result (see cubed-example-{b}.log)")
        continue
    r = json.load(open(p))
    r["backend"] = b
    res.append(r)
    w = r.get("workers", {})
    print(f"== {b}: chunks {r['namespace']}, ok={r['ok']}")
    for name, d in w.items():
        print(f"   worker {name}: {d.get('device')} = {d.get('name')}, memory "
              f"{_fmt_bytes(d['memory_bytes']) if d.get('memory_bytes') else '?'}, "
              f"CUDA_VISIBLE_DEVICES={d.get('CUDA_VISIBLE_DEVICES')} "
              f"NUMR_WEBGPU_ADAPTER={d.get('NUMR_WEBGPU_ADAPTER')} pid {d.get('pid')}")
    mem = r.get("device_memory")
    print(f"   array {_fmt_bytes(r['size_bytes'])} {r['dtype']}"
          + (f" = {r['size_bytes'] / mem:.2f}x device memory ({_fmt_bytes(mem)})" if mem else "")
          + f", chunks {_fmt_bytes(r['chunk_bytes'])}, allowed_mem {_fmt_bytes(r['allowed_mem'])}"
          + f", stored in Cubed's work_dir {_fmt_bytes(r.get('stored_bytes') or 0)}"
          + (", SIZE REDUCED to fit the budget" if r.get("size_reduced") else "")
          + (f", skipped {r['skipped_ops']}" if r.get("skipped_ops") else ""))
    if r.get("calibration"):
        c = r["calibration"]
        print(f"   calibration: {c['seconds_per_chunk'] * 1e3:.1f} ms per chunk "
              f"({r['chunk_bytes'] / c['seconds_per_chunk'] / 1e9:.1f} GB/s), "
              f"{c['seconds_per_computation']:.2f} s per computation")
    for op, o in r.get("ops", {}).items():
        print(f"   {op}: {o['seconds']:.2f} s, {o['gbps']:.2f} GB/s, ok={o['ok']}: {o['check']}")
print()
print(_table([r for r in res if r["backend"] != "cuda-2workers"]))
two = [r for r in res if r["backend"] == "cuda-2workers"]
one = [r for r in res if r["backend"] == "cuda"]
if two and one and "mean" in two[0]["ops"] and "mean" in one[0]["ops"]:
    print(f"cuda mean, 2 workers on one GPU vs 1 worker: {two[0]['ops']['mean']['gbps']:.2f} vs "
          f"{one[0]['ops']['mean']['gbps']:.2f} GB/s")
PY
say "done (limit ${LIMIT}s)"
