#!/bin/bash
# 2026-11-27, H100: the cholesky rows again (runs/2026-11-27-26.sh put 512 float64 at 8.6 ms,
# runs/2026-11-27-23.sh at 1.27 with the same code), more repeats, and the stacks' solve / inv rows.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step chol 60 python3 benchmarks/webgpu_linalg.py --only cholesky --repeats 5
pack
step chol512 40 python3 benchmarks/linalg_variants.py --cases cholesky:512:float64,cholesky:512:float32 --variants "default;CHOL_PANEL=old" --repeats 7
pack; cat $L/summary.txt
