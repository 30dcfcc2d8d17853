#!/bin/bash
# 2026-11-26, H100: vector_norm ord 2 scaled (the
# scale sweep's float32 1e-20 cases failed in runs/2026-11-26-48.sh) and the warp test that ran past 170 s.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=110 --junitxml=$L/junit.xml"
NUMR_TEST_BACKENDS=webgpu step tests 115 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_linalg_scale_sweep.py tests/webgpu_kernels/test_warp_small.py -k "1e-20 or 1e+20 or float64-lu or float64-gj"
pack; cat $L/summary.txt
