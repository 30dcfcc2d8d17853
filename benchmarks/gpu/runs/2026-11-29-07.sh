#!/bin/bash
# 2026-11-29, H200: the sweep's reduction and indexing rows again, two rounds (one round in
# 2026-11-29-06.sh scattered by up to 3x on single rows). The tree before the registry is
# carried as .abold (git archive 1f061ad: numr_array_api/ and benchmarks/).
source benchmarks/gpu/prep.sh
mkdir -p $OUT/ab /tmp/nopeers/cupy /tmp/nopeers/torch
for m in cupy torch; do echo "raise ImportError('hidden for the numr-only comparison')" > /tmp/nopeers/$m/__init__.py; done
export PYTHONPATH=/tmp/nopeers:/tmp/site
step ab-sweep 220 python3 benchmarks/compare_trees.py --old .abold --new . --rounds 2 --timeout 60 --json $OUT/ab/sweep-reductions-indexing.json -- benchmarks/sweep.py --backends numr-webgpu --families reductions,indexing --sizes large --repeats 3 --reps-large 5
