#!/bin/bash
# 2026-11-29, H200: the compatible / strict semantics. Part 1: the whole test suite on webgpu
# (NVIDIA adapter) and cuda, in the default (compatible) semantics.
source benchmarks/gpu/prep.sh
python3 -c "import numr_array_api.webgpu as w; print(w.asarray([0.])._data.client.info['name'])" > $OUT/adapter.txt 2>&1
NUMR_TEST_BACKENDS=webgpu,cuda step tests 560 python3 -m pytest -p no:cacheprovider -q -rfE -n 16 --dist loadfile tests
grep -E "^(FAILED|ERROR)" $OUT/tests.log | head -60
cat $OUT/summary.txt
