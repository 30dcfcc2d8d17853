#!/bin/bash
# 2026-11-29, H200: the no-regression check again for solve / inv (more repeats: the rows of
# 2026-11-29-05.sh at 2 repeats scattered by up to 1.7x) and the sweep's large rows, one round.
source benchmarks/gpu/prep.sh
mkdir -p $OUT/ab /tmp/nopeers/cupy /tmp/nopeers/torch
for m in cupy torch; do echo "raise ImportError('hidden for the numr-only comparison')" > /tmp/nopeers/$m/__init__.py; done
export PYTHONPATH=/tmp/nopeers:/tmp/site
step ab-linalg 95 python3 benchmarks/compare_trees.py --old .abold --new . --rounds 2 --timeout 40 --json $OUT/ab/linalg-solve-inv.json -- benchmarks/webgpu_linalg.py --only solve,inv --repeats 6
step ab-sweep 120 python3 benchmarks/compare_trees.py --old .abold --new . --rounds 1 --timeout 58 --json $OUT/ab/sweep.json -- benchmarks/sweep.py --backends numr-webgpu --families reductions,scans,indexing,matmul --sizes large --repeats 2 --reps-large 5
cat $OUT/summary.txt
