#!/bin/bash
# 2026-11-29, H200: part 2: scikit-learn's and SciPy's array-API suites, whole, on webgpu and
# cuda side by side, then the official suite on both (the suite checkout carried as
# .aat/array-api-tests) in the compatible semantics (the default) and in the strict ones.
source benchmarks/gpu/prep.sh
mkdir -p $OUT/results
for b in webgpu cuda; do
  timeout 330 python3 conformance/consumers/run.py --backend $b -n 8 --no-write --json $OUT/results/consumers-$b-h200.json > $OUT/consumers-$b.log 2>&1 &
done
wait
for b in webgpu cuda; do echo "consumers $b: $(grep -E '^\[|wall time' $OUT/consumers-$b.log | tr '\n' ' ')" | tee -a $OUT/summary.txt; done
for b in cuda webgpu; do
  step conf-$b 100 python3 conformance/run.py --backend $b --suite .aat/array-api-tests --tag h200 --max-examples 50 --derandomize -- -n 16
  NUMR_SEMANTICS=strict step conf-$b-strict 100 python3 conformance/run.py --backend $b --suite .aat/array-api-tests --tag h200-strict --max-examples 50 --derandomize -- -n 16
done
cp conformance/results/*-h200.md conformance/results/*-h200.json conformance/results/*-h200-strict.* $OUT/results/ 2>/dev/null
cat $OUT/summary.txt
