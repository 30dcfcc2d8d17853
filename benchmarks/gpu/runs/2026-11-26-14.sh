#!/bin/bash
# 2026-11-26, H100: where large factorisations spend their time now:
# linalg_variants with --profile and the panel / leaf / block-size switches.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step lu 200 python3 benchmarks/linalg_variants.py --cases solve:4096:float32 --profile --repeats 2 --variants "default;LU_PANEL=32;LU_PANEL=16;LU_PANEL=0;LU_PANEL=0,LU_LEAF=8;LU_PANEL=0,LU_LEAF=32;PANEL_WG=256;PANEL_WG=512"
pack
step chol 120 python3 benchmarks/linalg_variants.py --cases cholesky:4096:float32,cholesky:4096:float64 --profile --repeats 2 --variants "default;CHOL_NB=32;CHOL_NB=128;CHOL_SPLIT=2;CHOL_SPLIT=8;CHOL_WG=128;CHOL_WG=512;TRSM_NB=128"
pack
step qr 150 python3 benchmarks/linalg_variants.py --cases qr:2048:float32 --profile --repeats 2 --variants "default;QR_PANEL=new;QR_FUSE=0;PANEL_WG=256;TRSM_NB=128"
pack; cat $L/summary.txt
