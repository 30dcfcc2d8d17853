#!/usr/bin/env bash
# The cuda track's GPU session, in one command from the repository root of a checkout on a
# machine with an NVIDIA GPU, CuPy (cupy-cuda13x for CUDA 13 / cupy-cuda12x) and the test
# extras (pytest, hypothesis, ndindex, pytest-json-report; PyTorch optional):
#
#     bash benchmarks/gpu_session.sh [STEP ...]        # default: all steps, in this order
#
# Steps (each writes $OUT/<step>.log and appends "<step> rc=N (Ts)" to $OUT/summary.txt):
#   env          nvidia-smi, versions, what numr_array_api.cuda sees (devices, reason)
#   runtime      pytest tests/cuda_runtime (allocator, streams, graphs, kernels, DLPack)
#   shared       NUMR_TEST_BACKENDS=cuda pytest tests (the backend-parametrised tests; the
#                webgpu-only folders are left out)
#   conformance  conformance/run.py --backend cuda --max-examples 200 --derandomize on the
#                array-api-tests checkout in $SUITE (default ./.suite/array-api-tests);
#                results also copied to $OUT
#   bench        benchmarks/cuda_overhead.py (numr vs raw CuPy per op; graph replay)
#   wgpu_conformance  conformance/run.py --backend webgpu --tag $GPU_TAG (default gpu) on
#                the core test files (creation ... constants), 100 examples, derandomized
#                (WebGPU on this GPU: set VK_DRIVER_FILES to the NVIDIA ICD, see
#                ../shared/device/README.md)
#   wgpu_tests   NUMR_TEST_BACKENDS=webgpu pytest tests (plus webgpu_runtime, wgsl_math)
#   wgpu_bench   benchmarks/webgpu_core.py (bandwidth vs CuPy copy, chained ops, graph replay)
#   ext_bench    benchmarks/ext.py (fused vs unfused vs torch; Sobol vs SciPy / cuRAND)
#   cpu_bench    benchmarks/overhead.py on the idle host CPU
#
# XDIST=N spreads the test and conformance steps over N processes (carry pytest-xdist).
# The 10-minute limit of one device call fits about: env+runtime+conformance (XDIST=16),
# then shared+bench+wgpu_conformance, then wgpu_tests+wgpu_bench+ext_bench+cpu_bench.
#
# Environment: OUT (default ./gpu-session-out), PYTHON (default python3), SUITE,
# STEP_TIMEOUT seconds per step (default 3600), CONFORMANCE_ARGS (extra args for run.py,
# e.g. "--tests test_linalg.py" to run part of the suite, or "-- -x").
# The exit status is 0 when every step that ran succeeded, else 1.
set -u
cd "$(dirname "$0")/.."
ROOT=$PWD
OUT=${OUT:-$ROOT/gpu-session-out}
PY=${PYTHON:-python3}
SUITE=${SUITE:-$ROOT/.suite/array-api-tests}
STEP_TIMEOUT=${STEP_TIMEOUT:-3600}
mkdir -p "$OUT"
export PYTHONPATH="$ROOT${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONUNBUFFERED=1
failed=0

# The GPU machine has no network: test dependencies it lacks (array-api-tests needs ndindex;
# conformance/run.py needs pytest-json-report) are installed from wheels carried in
# ./.gpu-wheels (pip download ... --python-version of the GPU machine) into a fresh
# directory outside the checkout.
missing=$("$PY" - <<'PYEOF'
import importlib.util
need = {"ndindex": "ndindex", "pytest_jsonreport": "pytest-json-report",
        "pytest_metadata": "pytest-metadata", "array_api_compat": "array-api-compat",
        "array_api_strict": "array-api-strict"}
print(" ".join(d for m, d in need.items() if importlib.util.find_spec(m) is None))
PYEOF
)
if [ -n "$missing" ] && [ -d "$ROOT/.gpu-wheels" ]; then
  SITE=${TMPDIR:-/tmp}/numr-gpu-site
  rm -rf "$SITE"
  # shellcheck disable=SC2086
  "$PY" -m pip install -q --no-index --no-deps --find-links "$ROOT/.gpu-wheels" \
    --target "$SITE" $missing && export PYTHONPATH="$PYTHONPATH:$SITE"
  echo "installed from .gpu-wheels into $SITE: $missing"
fi

run_step() {
  local name=$1; shift
  local start rc
  start=$(date +%s)
  echo "== [$name] $*" | tee -a "$OUT/summary.txt"
  timeout "$STEP_TIMEOUT" "$@" >"$OUT/$name.log" 2>&1
  rc=$?
  echo "$name rc=$rc ($(( $(date +%s) - start ))s)" | tee -a "$OUT/summary.txt"
  tail -n 15 "$OUT/$name.log"
  [ "$rc" -eq 0 ] || failed=1
}

step_env() {
  run_step env bash -c '
    nvidia-smi || echo "nvidia-smi failed"
    '"$PY"' - <<PYEOF
import platform, sys
print("python", platform.python_version(), sys.executable)
for m in ("numpy", "cupy", "torch", "hypothesis", "pytest", "ndindex"):
    try:
        mod = __import__(m)
        print(m, getattr(mod, "__version__", "?"))
    except Exception as e:
        print(m, "MISSING", type(e).__name__, e)
import numr_array_api.cuda as xp
info = xp.__array_namespace_info__()
print("numr cuda devices:", info.devices(), "reason:", xp._backend.rt.reason)
if info.devices():
    x = xp.arange(10, dtype=xp.float32)
    print("smoke:", float(xp.sum(x * x)), xp.memory_stats())
    import cupy
    print("CUDA runtime", cupy.cuda.runtime.runtimeGetVersion(), "driver",
          cupy.cuda.runtime.driverGetVersion())
PYEOF'
}

step_runtime() {
  run_step runtime "$PY" -m pytest tests/cuda_runtime -ra -q -p no:cacheprovider \
    --junitxml="$OUT/runtime-junit.xml"
}

step_shared() {
  # shellcheck disable=SC2046
  run_step shared env NUMR_TEST_BACKENDS=cuda "$PY" -m pytest tests -ra -q -p no:cacheprovider $(xdist_args) \
    --ignore=tests/cuda_runtime --ignore=tests/webgpu_runtime --ignore=tests/wgsl_math \
    --junitxml="$OUT/shared-junit.xml"
}

step_conformance() {
  # shellcheck disable=SC2046
  if [ ! -d "$SUITE/array_api_tests" ]; then
    echo "conformance: no array-api-tests checkout at $SUITE (set SUITE=...)" | tee -a "$OUT/summary.txt"
    failed=1
    return
  fi
  # shellcheck disable=SC2086
  run_step conformance "$PY" conformance/run.py --backend cuda --suite "$SUITE" \
    --max-examples 200 --derandomize --keep-report "$OUT/conformance-report.json" \
    ${CONFORMANCE_ARGS:-} -- $(xdist_args)
  cp conformance/results/cuda*.md conformance/results/cuda*.json "$OUT/" 2>/dev/null || true
}

step_bench() {
  run_step bench "$PY" benchmarks/cuda_overhead.py --json "$OUT/cuda_overhead.json"
}

# --- webgpu on the machine's GPU, ext, cpu overhead on an idle host ------------------------
# XDIST=N runs the test suites and the conformance suite on N processes (pytest-xdist).
xdist_args() { [ -n "${XDIST:-}" ] && echo "-n $XDIST"; }

step_wgpu_conformance() {
  # shellcheck disable=SC2046
  run_step wgpu_conformance "$PY" conformance/run.py --backend webgpu --suite "$SUITE" \
    --max-examples 100 --derandomize --tag "${GPU_TAG:-gpu}" \
    --tests test_creation_functions.py test_data_type_functions.py \
    test_operators_and_elementwise_functions.py test_special_cases.py \
    test_manipulation_functions.py test_indexing_functions.py test_array_object.py \
    test_inspection_functions.py test_has_names.py test_signatures.py test_constants.py \
    -- $(xdist_args)
  cp conformance/results/webgpu-*.md conformance/results/webgpu-*.json "$OUT/" 2>/dev/null || true
}

step_wgpu_tests() {
  # shellcheck disable=SC2046
  run_step wgpu_tests env NUMR_TEST_BACKENDS=webgpu "$PY" -m pytest tests -q -p no:cacheprovider \
    --ignore=tests/cuda_runtime $(xdist_args) --junitxml="$OUT/wgpu-junit.xml"
}

step_wgpu_bench() {
  run_step wgpu_bench "$PY" benchmarks/webgpu_core.py --mib 256 --chain 500 \
    --json "$OUT/webgpu_core.json"
}

step_ext_cuda() {
  run_step ext_cuda "$PY" -m pytest tests/ext/test_cuda_gemm.py -q -rs -p no:cacheprovider
  run_step ext_cuda_bench "$PY" benchmarks/ext.py --cuda-only
}

step_ext_bench() {
  run_step ext_bench "$PY" benchmarks/ext.py
}

step_cpu_bench() {
  run_step cpu_bench "$PY" benchmarks/overhead.py --sizes 100 1000000 --json "$OUT/overhead.json"
}

ALL_STEPS="env runtime shared conformance bench wgpu_conformance wgpu_tests wgpu_bench ext_cuda ext_bench cpu_bench"
steps=("$@")
[ ${#steps[@]} -gt 0 ] || read -r -a steps <<< "$ALL_STEPS"
for s in "${steps[@]}"; do
  case " $ALL_STEPS " in
    *" $s "*) "step_$s" ;;
    *) echo "unknown step '$s' ($ALL_STEPS)"; exit 2 ;;
  esac
done
echo "logs in $OUT; summary:"; cat "$OUT/summary.txt"
exit $failed
