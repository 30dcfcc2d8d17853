#!/bin/bash
# 2026-11-26, H100: the reliability acceptance (benchmarks/gpu/rel.sh: threads 16 x 2000
# x 10 runs on cpu / webgpu / cuda, 50 interrupt runs, the fuzz suite, reproducers + soak),
# then scikit-learn's whole array-API selection on cuda and webgpu.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
OUT=$L timeout 330 bash benchmarks/gpu/rel.sh > $L/rel-run.log 2>&1; echo "rel rc=$?" >> $L/summary.txt
cat $L/rel-summary.txt >> $L/summary.txt; pack
for b in cuda webgpu; do
  step sk-$b 125 python3 conformance/consumers/run.py --backend $b --suite sklearn -n 16 --time-budget 110 --tag h100-sklearn
  cp conformance/results/consumers-$b-h100-sklearn.* $L/ 2>/dev/null; pack
done
cat $L/summary.txt
