#!/bin/bash
# 2026-11-28, H100: the
# staged segment tests alone, verbose, within the limit (runs/2026-11-28-06.sh ran out of time in
# test_warp_small's float64 cases, ~130-150 s each on the H100).
source benchmarks/gpu/prep.sh >/dev/null 2>&1
NUMR_TEST_BACKENDS=webgpu timeout -s INT 80 python3 -m pytest -v -p no:cacheprovider -n 16 tests/webgpu_kernels/test_warp_seg.py -k staged 2>&1 | grep -E "PASSED|FAILED|ERROR| passed| failed" | sed 's/.*test_warp_seg.py:://' | tail -20
