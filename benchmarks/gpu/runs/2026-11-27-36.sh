#!/bin/bash
# 2026-11-27, H100: split-K capped at 64 pieces (the skinny deep GEMM), the stack rows,
# eigh variants at 512 / 2048.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step gemm 40 python3 benchmarks/gemm_variants.py --cases skinny_deep --repeats 5
pack
step stacks 120 python3 benchmarks/webgpu_linalg.py --stacks --only cholesky,solve,inv --repeats 7
pack
step eighvar 230 python3 benchmarks/linalg_variants.py --cases eigh:512:float32,eigh:2048:float32,eigh:512:float64 --variants "default;SPLITK_MIN=128,SPLITK_DEPTH=32;EIGH_BT_NB=64;EIGH_UPD_RPS=1" --repeats 3 --check
pack; cat $L/summary.txt; tail -8 $L/gemm.log; tail -8 $L/stacks.log; grep -h "numr/cupy\|==" $L/eighvar.log
