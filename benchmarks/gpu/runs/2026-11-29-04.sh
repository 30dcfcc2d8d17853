#!/bin/bash
# 2026-11-29, H200: the whole test suite on webgpu (NVIDIA adapter) and cuda, then the tune
# command on the H200 for the families with quick workloads (its table:
# numr_array_api/tuning/tables/nvidia-h200-vulkan.json).
source benchmarks/gpu/prep.sh
NUMR_TEST_BACKENDS=webgpu,cuda step tests 380 python3 -m pytest -p no:cacheprovider -q -rfE -n 16 --dist loadfile tests
grep -E "^(FAILED|ERROR)" $OUT/tests.log | head -60
step tune 100 python3 -m numr_array_api.tuning --families reduction,fft,primitives --out $OUT/tuning-h200.json
cat $OUT/summary.txt
