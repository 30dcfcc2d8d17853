#!/bin/bash
# 2026-11-27, H100: host phases of a small call; stack variants (segments,
# warp Cholesky at 32); kernel times of those variants; qr float64 2048 by kernel label.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step phases 90 python3 benchmarks/gpu/phases.py
step var_inv 150 python3 benchmarks/linalg_variants.py --cases inv:100000x8x8:float32,solve:100000x8x8:float32 --variants "default;BWARP_SEG=1;BWARP_INV=lu;BWARP_WG=256;BWARP_WG=64" --repeats 7 --check
step var_chol 150 python3 benchmarks/linalg_variants.py --cases cholesky:10000x32x32:float32,cholesky:10000x32x32:float64 --variants "default;BWARP_CHOL_MAX=32;BWARP_CHOL_MAX=32,BWARP_WG=256;BWARP_CHOL_MAX=32,BWARP_WG=32;BCHOL_UNROLL=0" --repeats 7 --check
step prof_var 120 env NUMR_WEBGPU_BWARP_CHOL_MAX=32 NUMR_WEBGPU_BWARP_SEG=1 python3 benchmarks/gpu_profile.py --case cholesky:10000x32:float32 --case inv:100000x8:float32 --case solve:100000x8:float32 --top 4
step var_eigh 150 python3 benchmarks/linalg_variants.py --cases eigh:10000x32x32:float64 --variants "default;SMALL_SPECTRAL_WG=64;SMALL_SPECTRAL_WG=16;SMALL_SPECTRAL_NBUF=2" --repeats 5
step prof_qr 150 python3 benchmarks/gpu_profile.py --case qr:2048:float64 --by label --top 30
pack; cat $L/summary.txt
