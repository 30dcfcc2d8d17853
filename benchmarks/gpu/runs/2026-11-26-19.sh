#!/bin/bash
# 2026-11-26, H100: the whole test suite on webgpu (H100), final code.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step alltests 540 python3 -m pytest $T -n 16 tests --maxfail=30
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -30
