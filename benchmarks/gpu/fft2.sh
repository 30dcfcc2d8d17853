#!/usr/bin/env bash
# fft2 (after fft.sh): A/B of the webgpu FFT switches on the GPU machine, one run.
# Run from the repository root after the usual device prelude (PYTHONPATH=/tmp/site:$PWD,
# VK_DRIVER_FILES=<nvidia icd>). benchmarks/webgpu_fft.py --repeats 20 once per variant;
# the first also times CuPy (cuFFT) and torch (same-run references), the others numr only
# (--libs ''), so the whole script stays well under 90 s. Logs: $OUT/fft2-*.log.
#   base  : old behaviour (strided columns, widest splits, 256-thread workgroups, no nesting,
#           one load -> store at a time)
#   loads : base + batched loads (8 global loads in flight per thread in every
#           workgroup-memory kernel: the one change that touches the 4096 x 1024 batch)
#   tile2 : loads + tiled (coalesced) loads / stores where rows allow, widest splits,
#           workgroups sized to their rows (rfft2's column four-step, c128 steps change)
#   tile  : the defaults: tile2 with steps within cap/4 so every strided side is tiled
#           (2^22: 64 x 128 x 512, three passes instead of two; Bluestein's m likewise;
#           c128 2^20: 64 x 64 x 256)
# Pick per case: if "tile" loses to "tile2" on 2^22 / c128, the extra pass costs more than
# the strided sides (then make tile2 the default in ops/fft/plan.py cols_mode).
set -u
OUT=${OUT:-./gpu-out}
PY=${PYTHON:-python3}
mkdir -p "$OUT"
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
run() {
  local tag=$1 libs=$2; shift 2
  echo "== $tag: $*" | tee -a "$OUT/fft2-summary.log"
  env "$@" timeout 40 $PY benchmarks/webgpu_fft.py --repeats 20 --libs "$libs" \
    --json "$OUT/fft2-$tag.json" > "$OUT/fft2-$tag.log" 2>&1
  echo "rc=$?" | tee -a "$OUT/fft2-summary.log"
  grep -v indirect-validation "$OUT/fft2-$tag.log" | tail -7 | tee -a "$OUT/fft2-summary.log"
}
SECONDS=0
run base  cupy,torch NUMR_WEBGPU_FFT_DEEP=0 NUMR_WEBGPU_FFT_COLS=strided NUMR_WEBGPU_FFT_WG=full NUMR_WEBGPU_FFT_LOADS=loop
run loads "" NUMR_WEBGPU_FFT_DEEP=0 NUMR_WEBGPU_FFT_COLS=strided NUMR_WEBGPU_FFT_WG=full NUMR_WEBGPU_FFT_LOADS=batch
run tile2 "" NUMR_WEBGPU_FFT_DEEP=1 NUMR_WEBGPU_FFT_COLS=tile2 NUMR_WEBGPU_FFT_WG=fit NUMR_WEBGPU_FFT_LOADS=batch
run tile  "" NUMR_WEBGPU_FFT_DEEP=1 NUMR_WEBGPU_FFT_COLS=tile NUMR_WEBGPU_FFT_WG=fit NUMR_WEBGPU_FFT_LOADS=batch
echo "total ${SECONDS}s" | tee -a "$OUT/fft2-summary.log"
