#!/bin/bash
# 2026-11-27, H100: the qr float64 rows again (final code), the spread of one eigh
# configuration within one process, and where eigh's time goes now.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step qr 90 python3 benchmarks/webgpu_linalg.py --only qr --repeats 3
pack
step eighrep 120 python3 benchmarks/linalg_variants.py --cases eigh:512:float32,eigh:2048:float32 --variants "default;default;default;default" --repeats 3
pack
step prof 120 python3 benchmarks/gpu_profile.py --case eigh:512:float32 --case eigh:512:float64 --case eigh:2048:float32 --top 12
pack; cat $L/summary.txt; tail -10 $L/qr.log; grep -h "numr/cupy\|==" $L/eighrep.log; cat $L/prof.log
