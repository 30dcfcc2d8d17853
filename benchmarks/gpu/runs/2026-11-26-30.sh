#!/bin/bash
# 2026-11-26, H100: the whole test suite on webgpu (H100), final code: the
# GiB-sized tests (gpu and slow: 10-40 GiB each) alone after the 16 parallel workers,
# whose pools held enough of the 80 GB to run them out of memory.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step alltests 480 python3 -m pytest $T -n 16 tests --maxfail=30 -m "not (gpu and slow)"
NUMR_TEST_BACKENDS=webgpu step gibtests 200 python3 -m pytest $T tests/webgpu_kernels -m "gpu and slow"
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -30
