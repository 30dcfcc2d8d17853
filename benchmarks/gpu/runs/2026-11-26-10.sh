#!/bin/bash
# 2026-11-26, H100: the cuFFT plan-failure retry (cuda runtime memory tests, the
# cuda fft tests).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=cuda step cufft 90 python3 -m pytest $T tests/cuda_runtime/test_memory.py tests/test_fft.py
(cd $L && tar czf $OUTSAVE/logs.tgz .); cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head
