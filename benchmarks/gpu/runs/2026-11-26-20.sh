#!/bin/bash
# 2026-11-26, H100: the GiB GPU tests serialised by a file lock while 16
# workers run the rest of tests/webgpu_kernels on the same GPU.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step kernels 420 python3 -m pytest $T -n 16 tests/webgpu_kernels
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -30
