#!/usr/bin/env bash
# fft2 (after fft.sh): A/B of the webgpu FFT tuning knobs on the GPU machine, one process.
# Run from the repository root after the usual device prelude (PYTHONPATH=/tmp/site:$PWD,
# VK_DRIVER_FILES=<nvidia icd>). benchmarks/webgpu_fft.py --repeats 20 with one variant per
# knob value away from the defaults (numr_array_api/tuning/knobs/fft.py), next to CuPy
# (cuFFT) and torch timed once per case; the whole script stays well under 90 s.
# Logs: $OUT/fft2-*.log. A value that wins on every case belongs in this adapter's table
# (numr_array_api/tuning/tables/), or run `python -m numr_array_api.tuning --families fft`.
set -u
OUT=${OUT:-./gpu-out}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
SECONDS=0
timeout 80 $PY benchmarks/webgpu_fft.py --repeats 20 --libs cupy,torch \
  --variants 'default:;pad3:FFT_PAD=3;pad0:FFT_PAD=0;ept16:FFT_EPT=16;ept4:FFT_EPT=4;wgt128:FFT_WGT=128;wgt512:FFT_WGT=512' \
  --json "$OUT/fft2-knobs.json" > "$OUT/fft2-knobs.log" 2>&1
echo "rc=$?" | tee -a "$OUT/fft2-summary.log"
grep -v indirect-validation "$OUT/fft2-knobs.log" | tail -40 | tee -a "$OUT/fft2-summary.log"
echo "total ${SECONDS}s" | tee -a "$OUT/fft2-summary.log"
