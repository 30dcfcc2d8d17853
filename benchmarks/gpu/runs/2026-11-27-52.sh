#!/bin/bash
# 2026-11-27, H100: the stacked rows again (runs/2026-11-27-51.sh printed solve 100000 x 8x8 at 1.46x),
# with the set-wise replay against step by step in one process.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step stacks 200 python3 benchmarks/webgpu_linalg.py --stacks --only cholesky,solve,inv --repeats 7
pack
step var 150 python3 benchmarks/linalg_variants.py --cases solve:100000x8:float32,inv:100000x8:float32,cholesky:10000x32:float32 --variants "default;RECIPE_SETS=0;default;RECIPE_SETS=0" --repeats 7
pack; cat $L/summary.txt; tail -8 $L/stacks.log; tail -16 $L/var.log
