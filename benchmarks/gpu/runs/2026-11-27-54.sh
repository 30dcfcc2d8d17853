#!/bin/bash
# 2026-11-27, H100: do the stacked rows of webgpu_linalg.py --stacks replay their recipes
# (runs/2026-11-27-51.sh, runs/2026-11-27-52.sh: solve 100000 x 8x8 0.44-0.47 ms there, 0.20-0.21 in
# linalg_variants.py)?
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step sets 120 python3 benchmarks/gpu/stack_recipes.py
step each 120 env NUMR_WEBGPU_RECIPE_SETS=0 python3 benchmarks/gpu/stack_recipes.py
step solo 120 python3 benchmarks/gpu/stack_recipes.py --stacks --only solve --repeats 7
pack; cat $L/summary.txt; cat $L/sets.log $L/each.log $L/solo.log
