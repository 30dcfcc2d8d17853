#!/bin/bash
# 2026-11-27, H100: the segmented warp kernels (opt-in) on the H100: their
# tests (w = 2 .. 16 compile here for the first time) and their times against the defaults.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=200"
step stacks 120 python3 benchmarks/linalg_variants.py --check --repeats 5 --cases inv:100000x8:float32,solve:100000x8:float32,inv:100000x8:float64,solve:100000x8:float64,inv:10000x16:float32,solve:10000x16:float32,solve:100000x4:float32,inv:100000x4:float32 --variants "default;BWARP_SEG=1;default;BWARP_SEG=1"
pack
NUMR_TEST_BACKENDS=webgpu step segtests 240 python3 -m pytest $T --junitxml=$L/seg.xml -n 12 tests/webgpu_kernels/test_warp_seg.py
pack; cat $L/summary.txt
