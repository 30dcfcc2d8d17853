#!/bin/bash
# 2026-11-27, H100: pow2_normalise as one kernel (cholesky / qr / eigh), the
# one-barrier batched Cholesky (BCHOL_ONEBAR) against the default, linalg GPU tests.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
step tests 300 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest $T -n 8 tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_chol_regs.py tests/webgpu_kernels/test_qr_loop.py tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_warp_small.py tests/webgpu_kernels/test_linalg_scale_sweep.py
pack
step bchol 150 python3 benchmarks/linalg_variants.py --cases cholesky:10000x32x32:float32,cholesky:10000x32x32:float64,cholesky:10000x16x16:float32,cholesky:100000x8x8:float32 --variants "default;BCHOL_ONEBAR=1;BCHOL_ONEBAR=1,BWARP=0" --repeats 7
pack
step big 150 python3 benchmarks/linalg_variants.py --cases cholesky:512:float32,cholesky:512:float64,qr:512:float32,qr:512:float64,eigh:512:float32,eigh:512:float64 --variants "default" --repeats 7
pack
step compile 150 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest $T -n 8 tests/webgpu_kernels/test_render_compile.py -k "linalg"
pack; cat $L/summary.txt
