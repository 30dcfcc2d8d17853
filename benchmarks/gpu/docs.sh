#!/usr/bin/env bash
# Docs on the GPU machine: run from the repository root, after the
# usual environment snippet (/work/shared/device/README.md: .whl/.gl carried, PYTHONPATH,
# VK_DRIVER_FILES=nvidia ICD). Under 2 minutes. Logs: $OUT/docs-*.log
#  1. docstrings / names / tracebacks of generated fast paths on the cuda namespace (CuPy
#     importable there) and webgpu on the NVIDIA adapter;
#  2. the guides' worked examples (docs/guides/*.md) on cpu, webgpu (NVIDIA) and cuda: each
#     example asserts against scikit-learn / SciPy on NumPy for every namespace; the printed
#     webgpu lines must equal the documented (lavapipe) ones. Skips itself if scikit-learn /
#     SciPy are not installed on the machine (say so in the report then).
#  3. the docs build (skips itself without Sphinx there).
set -u
OUT=${OUT:-./gpu-out}; mkdir -p "$OUT"
PY=${PYTHON:-python3}
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-/tmp}
timeout 60 $PY -m pytest -p no:cacheprovider -q -rs tests/architecture/test_public_api_docs.py \
  > "$OUT/docs-api.log" 2>&1; echo "api-docs rc=$?" >> "$OUT/docs-summary.txt"
timeout 150 $PY -m pytest -p no:cacheprovider -q -rs tests/test_docs_examples.py \
  > "$OUT/docs-examples.log" 2>&1; echo "examples rc=$?" >> "$OUT/docs-summary.txt"
timeout 120 $PY -m pytest -p no:cacheprovider -q -rs tests/test_docs_build.py \
  > "$OUT/docs-build.log" 2>&1; echo "build rc=$?" >> "$OUT/docs-summary.txt"
cat "$OUT/docs-summary.txt"; tail -6 "$OUT/docs-api.log"; tail -30 "$OUT/docs-examples.log"
tail -4 "$OUT/docs-build.log"
