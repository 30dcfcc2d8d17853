#!/bin/bash
# 2026-11-28, H100: the test steps of runs/2026-11-28-01.sh and runs/2026-11-28-02.sh were stopped by their
# time limits a few
# tests short (323 of 340, 383 of 397): the segment kernels' tests (direct and staged) and
# tests/test_linalg.py again, whole, with a longer limit.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
NUMR_TEST_BACKENDS=webgpu step tests 230 python3 -m pytest -q -p no:cacheprovider -n 16 --durations=8 tests/webgpu_kernels/test_warp_seg.py tests/webgpu_kernels/test_warp_small.py tests/test_linalg.py
pack; cat $L/summary.txt; tail -14 $L/tests.log
