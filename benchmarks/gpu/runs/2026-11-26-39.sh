#!/bin/bash
# 2026-11-26, H100: the eigh back-transformation with the new LarftSpec (phases
# and the eigh table), cholesky 512 variants with a profile, the small stacks without
# their status read (how much of their time the read is), the sweep with rotating order.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step phases 120 python3 benchmarks/gpu/eigh_phases_2.py 512 2048
pack
step eigh 200 python3 benchmarks/webgpu_linalg_spectral.py --table --only eigh --repeats 2 --json $L/eigh.json
pack
step chol 120 python3 benchmarks/linalg_variants.py --cases cholesky:512:float64,cholesky:512:float32 --repeats 3 --variants "default;CHOL_NB=32;CHOL_NB=128;CHOL_WG=256;CHOL_SPLIT=1" --profile
pack
step stacks 120 python3 benchmarks/linalg_variants.py --cases solve:100000x8:float32,inv:100000x8:float32,cholesky:10000x32:float32,solve:10000x32:float32,inv:10000x32:float32 --repeats 3 --variants "default;LINALG_STATUS=skip"
pack
step sweep 200 python3 benchmarks/sweep.py --backends numr-webgpu,numr-cuda,cupy --reps-large 20 --json $L/sweep.json
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -20
