#!/bin/bash
# 2026-11-26, H100: the LU round-2 switches, the linalg test files
# on the GPU (tridiagonal eigh with its wide unchecked kernels, tournament leaves), and
# the linalg table next to CuPy.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
step lu 150 python3 benchmarks/linalg_variants.py --cases solve:512:float32,solve:2048:float32,solve:4096:float64,inv:2048:float64,inv:4096:float32 --repeats 2 --variants "default;LU_TSLU_PREG=1;LU_TSLU_SOLO=512;LU_TSLU_SOLO=1024;LU_TSLU_TRUSTED=1;TRSM_TRUSTED=1,TRSM_IDENT=1;LU_TSLU_TRUSTED=1,LU_TSLU_SOLO=1024,TRSM_TRUSTED=1,TRSM_IDENT=1" --check
pack
NUMR_TEST_BACKENDS=webgpu step tests 150 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/test_linalg.py tests/webgpu_runtime/test_batching.py
pack
step table 120 python3 benchmarks/webgpu_linalg.py --repeats 2 --json $L/linalg.json
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -20
