#!/bin/bash
# 2026-11-26, H100, mid-way: the tridiagonal eigh path and the LU
# rework (tournament-pivoting leaves, row-swap leaves, inverted-block TRSM) on the H100:
# their tests, then times next to CuPy and the old paths.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step tests 240 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/test_linalg.py
pack
EIGH_PROBE_JACOBI=0 step eigh 200 python3 benchmarks/gpu/eigh_tridiag_probe.py 512 1024 2048 4096
pack
step lu 240 python3 benchmarks/linalg_variants.py --cases solve:2048:float32,solve:4096:float32,inv:4096:float32,inv:2048:float64,solve:4096:float64,solve:512:float32 --repeats 2 --variants "default;LU_TSLU=0;LU_TRSM=tile;LU_TSLU=0,LU_TRSM=tile" --check
pack
step luprof 100 python3 benchmarks/gpu/factor_profile.py solve:4096:float32 "default"
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -30
