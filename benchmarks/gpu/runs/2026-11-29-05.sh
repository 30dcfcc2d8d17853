#!/bin/bash
# 2026-11-29, H200: the tuning registry's no-regression check, the sweep and linalg rows
# (benchmarks/compare_trees.py; the other families: 2026-11-29-03.sh). Peers are hidden
# (a cupy / torch that fails to import) so only numr's rows run.
source benchmarks/gpu/prep.sh
mkdir -p $OUT/ab /tmp/nopeers/cupy /tmp/nopeers/torch
for m in cupy torch; do echo "raise ImportError('hidden for the numr-only comparison')" > /tmp/nopeers/$m/__init__.py; done
export PYTHONPATH=/tmp/nopeers:/tmp/site
step ab-sweep 150 python3 benchmarks/compare_trees.py --old .abold --new . --rounds 2 --timeout 70 --json $OUT/ab/sweep.json -- benchmarks/sweep.py --backends numr-webgpu --families reductions,scans,indexing,matmul,elementwise --sizes large --repeats 2 --reps-large 5
step ab-linalg 110 python3 benchmarks/compare_trees.py --old .abold --new . --rounds 2 --timeout 50 --json $OUT/ab/linalg.json -- benchmarks/webgpu_linalg.py --repeats 2
cat $OUT/summary.txt
