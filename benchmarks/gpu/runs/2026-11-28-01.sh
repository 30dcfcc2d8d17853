#!/bin/bash
# 2026-11-28, H100: segments staged through workgroup memory (BWARP_SSTAGE) for the
# stacked solve / inv kernels, and the memoised route of a stacked call: the kernels'
# tests on NVIDIA's 32-lane subgroups, kernel times direct / staged, numr / CuPy.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
export NUMR_TEST_BACKENDS=webgpu
step tests 170 python3 -m pytest -q -n 8 -p no:cacheprovider tests/webgpu_kernels/test_warp_seg.py tests/webgpu_kernels/test_warp_small.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_runtime/test_recipes.py
pack
C="--case inv:100000x8:float32 --case solve:100000x8:float32 --case inv:100000x8:float64 --case solve:100000x8:float64 --case inv:10000x16:float32 --case inv:100000x4:float32"
NUMR_WEBGPU_BWARP_SSTAGE=0 step prof0 60 python3 benchmarks/gpu_profile.py $C
NUMR_WEBGPU_BWARP_SSTAGE=1 step prof1 60 python3 benchmarks/gpu_profile.py $C
pack
step var 150 python3 benchmarks/linalg_variants.py --cases inv:100000x8:float32,solve:100000x8:float32,inv:100000x8:float64,inv:10000x16:float32 --variants "default;BWARP_SSTAGE=0;default;BWARP_SSTAGE=0" --repeats 21 --check
pack
step stacks 120 python3 benchmarks/webgpu_linalg.py --stacks --repeats 21
step phases 60 python3 benchmarks/gpu/phases.py
pack; cat $L/summary.txt; tail -5 $L/tests.log; grep -A4 "== \|WarpSolve" $L/prof0.log | grep "==\|WarpSolve\|busy"; echo ---; grep -A4 "== \|WarpSolve" $L/prof1.log | grep "==\|WarpSolve\|busy"; tail -24 $L/var.log; cat $L/stacks.log | tail -20; cat $L/phases.log | tail -12
