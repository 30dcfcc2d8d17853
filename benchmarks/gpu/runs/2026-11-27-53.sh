#!/bin/bash
# 2026-11-27, H100: the back-transformation's block width (NUMR_WEBGPU_EIGH_BT_NB 64 against
# the default 128) now that the column chain is no longer host-bound, in one process.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step var 250 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64 --variants "default;EIGH_BT_NB=64;default;EIGH_BT_NB=64;EIGH_BT_NB=32" --repeats 5
pack
step prof 60 python3 benchmarks/gpu_profile.py --case eigh:512:float64 --top 8
pack; cat $L/summary.txt; tail -22 $L/var.log; cat $L/prof.log
