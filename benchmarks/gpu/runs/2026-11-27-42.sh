#!/bin/bash
# 2026-11-27, H100: the wide tridiagonalisation with its per-column kernels emptied
# (trd_empty.py: how much of eigvalsh is the kernels' content, how much the dispatch chain
# and the host), and the small eigh kernels' own times (float32, float64).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
for v in none upd symv both none; do
  step empty-$v 90 python3 benchmarks/gpu/trd_empty.py $v 512 2048
  cat $L/empty-$v.log >> $L/empty.log
done
pack
step prof 60 python3 benchmarks/gpu_profile.py --case eigh:10000x32:float32 --case eigh:10000x32:float64 --case eigvalsh:512:float64 --top 8
pack; cat $L/summary.txt; cat $L/empty.log; cat $L/prof.log
