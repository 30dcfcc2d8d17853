#!/bin/bash
# 2026-11-26, H100: where the float32 GEMM's time goes: the db
# kernels with their FMAs alone ("C") and their tile traffic alone ("L").
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step gemmd 200 python3 benchmarks/gemm_variants.py --cases f32_4096d --repeats 3
pack; cat $L/summary.txt
