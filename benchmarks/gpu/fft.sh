#!/usr/bin/env bash
# webgpu fft on the GPU machine; run from the repository root after the usual
# device prelude (shared/device/README.md: .gl debs unpacked, .whl installed into
# /tmp/site, PYTHONPATH=/tmp/site:$PWD, VK_DRIVER_FILES=<nvidia icd>). Logs: $OUT/fft-*.log.
# Expected total under 3 minutes on an H100 (each step capped at 100 s).
set -u
OUT=${OUT:-./gpu-out}
PY=${PYTHON:-python3}
SUITE=${SUITE:-./.suite/array-api-tests}
mkdir -p "$OUT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}

# 1. benchmark: numr webgpu vs CuPy (cuFFT) vs PyTorch, same run (~30 s)
timeout 100 $PY benchmarks/webgpu_fft.py --repeats 20 --json "$OUT/fft-bench.json" \
  > "$OUT/fft-bench.log" 2>&1; echo "bench rc=$?" >> "$OUT/fft-summary.log"

# 2. accuracy tests on the NVIDIA adapter, long lengths included (2^22, 2^20+7, 65537)
NUMR_TEST_SLOW=1 NUMR_TEST_BACKENDS=webgpu timeout 100 $PY -m pytest -p no:cacheprovider -q \
  tests/webgpu_kernels/test_fft_gpu.py tests/test_fft.py \
  "tests/webgpu_kernels/test_render_compile.py::test_variants_compile_on_the_adapter[ops.fft.specs]" \
  > "$OUT/fft-tests.log" 2>&1; echo "tests rc=$?" >> "$OUT/fft-summary.log"

# 3. official suite test_fft.py on WebGPU / NVIDIA (200 examples, derandomized)
if [ -d "$SUITE" ]; then
  timeout 100 $PY conformance/run.py --backend webgpu --suite "$SUITE" --tests test_fft.py \
    --max-examples 200 --derandomize --tag fft-nvidia > "$OUT/fft-conformance.log" 2>&1
  echo "conformance rc=$?" >> "$OUT/fft-summary.log"
  cp conformance/results/webgpu-fft-nvidia.* "$OUT/" 2>/dev/null
else
  echo "conformance skipped: no suite checkout at $SUITE" >> "$OUT/fft-summary.log"
fi
cat "$OUT/fft-summary.log"; tail -12 "$OUT/fft-bench.log"
