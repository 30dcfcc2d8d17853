#!/bin/bash
# 2026-11-28, H100: the two cells of runs/2026-11-28-03.sh's whole table nearest their goals, again:
# eigh 512 float64 (3.01x there, --repeats 3; eigh rows are reported with --repeats 5: a
# process's first eigh calls run slower) and the stacks (inv 100000 x 8x8 0.98x there).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step eigh 100 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --match "512" --repeats 5
step stacks 100 python3 benchmarks/webgpu_linalg.py --stacks --only cholesky,solve,inv --repeats 21
step eigh2 100 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --match "512" --repeats 5
pack; cat $L/summary.txt; tail -6 $L/eigh.log; tail -8 $L/stacks.log; tail -6 $L/eigh2.log
