#!/bin/bash
# 2026-11-26, H100: the LU rework's final commits and its switches
# (leaf width, tournament threshold / block threads / barriers, subgroup pivot search),
# a profile of solve 4096, and the linalg test file on the GPU.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
step lu 300 python3 benchmarks/linalg_variants.py --cases solve:4096:float32,inv:4096:float32,solve:2048:float32,solve:512:float32,solve:4096:float64,inv:2048:float64 --repeats 2 --variants "default;LU_TSLU_DB=0;LU_LEAF=32;LU_TSLU=16;LU_TSLU=256;LU_TSLU_WG=128;LU_LEAF_SG=0" --check
pack
step luprof 120 python3 benchmarks/gpu/factor_profile.py solve:4096:float32 "default;LU_LEAF=32;LU_TSLU=16"
pack
NUMR_TEST_BACKENDS=webgpu step tests 150 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_linalg_gpu.py
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -30
