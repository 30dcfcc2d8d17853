#!/bin/bash
# 2026-11-26, H100: the whole test suite on the NVIDIA adapter (webgpu) and on
# cuda, with the final code of the day.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --hypothesis-profile=ci"
NUMR_TEST_BACKENDS=webgpu step tests-webgpu 300 python3 -m pytest $T -n 16 tests; pack
NUMR_TEST_BACKENDS=cuda step tests-cuda 220 python3 -m pytest $T -n 8 tests; pack
cat $L/summary.txt; grep -h "^FAILED\|^ERROR" $L/tests-*.log | head -40
