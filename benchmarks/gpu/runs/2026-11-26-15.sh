#!/bin/bash
# 2026-11-26, H100: factorisation GPU time per kernel family (plan replays), and
# the LU / Cholesky switch combinations at 512 / 2048 / 4096.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step prof-lu 150 python3 benchmarks/gpu/factor_profile.py solve:4096:float32 "default;LU_PANEL=0;LU_PANEL=16"
pack
step prof-chol 100 python3 benchmarks/gpu/factor_profile.py cholesky:4096:float32,cholesky:4096:float64 "default;CHOL_WG=512,CHOL_SPLIT=2"
pack
step var-lu 150 python3 benchmarks/linalg_variants.py --repeats 2 --cases solve:512:float32,solve:2048:float32,solve:4096:float64,inv:4096:float32,inv:2048:float64 --variants "default;LU_PANEL=0;LU_PANEL=16;LU_PANEL=16,PANEL_WG=512"
pack
step var-chol 150 python3 benchmarks/linalg_variants.py --repeats 2 --cases cholesky:512:float32,cholesky:2048:float32,cholesky:4096:float32,cholesky:512:float64,cholesky:2048:float64,cholesky:4096:float64 --variants "default;CHOL_WG=512;CHOL_WG=512,CHOL_SPLIT=2;CHOL_WG=512,CHOL_NB=32;CHOL_NB=32,CHOL_SPLIT=2;CHOL_WG=1024;CHOL_WG=512,CHOL_NB=32,CHOL_SPLIT=2"
pack; cat $L/summary.txt
