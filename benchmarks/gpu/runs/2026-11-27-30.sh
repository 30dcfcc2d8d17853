#!/bin/bash
# 2026-11-27, H100: the warp tests on the H100 (staged Cholesky, segments on
# by default), staged Cholesky variants, the stack rows with held submits and segments.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
step tests 240 python3 -m pytest $T tests/webgpu_kernels/test_warp_small.py tests/webgpu_kernels/test_warp_seg.py tests/webgpu_runtime/test_batching.py -n 8
step var_chol 200 python3 benchmarks/linalg_variants.py --cases cholesky:10000x32x32:float32,cholesky:10000x32x32:float64,cholesky:10000x16x16:float32,cholesky:100000x8x8:float32 --variants "default;BWARP_STAGE=0;BWARP_CHOL_MAX=32;BWARP_CHOL_MAX=32,BWARP_STAGE=0" --repeats 7 --check
step prof 60 env NUMR_WEBGPU_BWARP_CHOL_MAX=32 python3 benchmarks/gpu_profile.py --case cholesky:10000x32:float32 --case cholesky:10000x32:float64 --top 3
step phases 90 python3 benchmarks/gpu/phases.py
step stacks 200 python3 benchmarks/webgpu_linalg.py --stacks --repeats 7
pack; cat $L/summary.txt
