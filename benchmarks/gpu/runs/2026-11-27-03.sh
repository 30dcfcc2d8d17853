#!/bin/bash
# 2026-11-27, H100: GPU time per kernel (runtime/profile.py) of the linalg
# rows that miss their goal, and of the whole-array sum.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step prof-large 200 python3 benchmarks/gpu_profile.py --case qr:512:float32 --case qr:2048:float32 --case qr:2048:float64 --case qr:4096:float64 --case eigh:512:float32 --case eigh:512:float64 --case cholesky:512:float32 --case cholesky:512:float64 --case sum:67108864:float32
pack
step prof-stacks 200 python3 benchmarks/gpu_profile.py --by label --case inv:100000x8:float32 --case solve:100000x8:float32 --case cholesky:10000x32:float32 --case eigh:10000x32:float32 --case eigh:10000x32:float64 --case eigvalsh:10000x32:float64
pack
step prof-qr-label 120 python3 benchmarks/gpu_profile.py --by label --top 30 --case qr:4096:float64 --case eigh:512:float32
pack; cat $L/summary.txt
