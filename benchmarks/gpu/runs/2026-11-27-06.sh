#!/bin/bash
# 2026-11-27, H100: stacks of 8x8 / 16x16 systems on the warp kernel (one
# matrix a subgroup, 8 or 16 of its 32 lanes busy) against the one-invocation kernel.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step stacks 200 python3 benchmarks/linalg_variants.py --check --repeats 5 --cases inv:100000x8:float32,solve:100000x8:float32,inv:100000x8:float64,solve:100000x8:float64,inv:10000x16:float32,solve:10000x16:float32 --variants "default;BWARP_MIN=2;BWARP_MIN=2,BWARP_WG=256;BWARP_MIN=2,BWARP_WG=64"
pack; cat $L/summary.txt
