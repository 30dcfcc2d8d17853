#!/bin/bash
# 2026-11-29, H200: the tuning registry's no-regression check. Every benchmark family on
# the tree before the registry (.abold: numr_array_api/ and benchmarks/ of the parent commit,
# carried) and on this tree, alternated in one process tree per run, numr webgpu rows only
# (benchmarks/compare_trees.py).
source benchmarks/gpu/prep.sh
export PYTHONPATH=/tmp/site
mkdir -p $OUT/ab
C="python3 benchmarks/compare_trees.py --old .abold --new . --rounds 2 --timeout 100"
step ab-sweep 230 $C --json $OUT/ab/sweep.json -- benchmarks/sweep.py --backends numr-webgpu
step ab-fft 90 $C --json $OUT/ab/fft.json -- benchmarks/webgpu_fft.py --libs "" --repeats 5
step ab-sort 80 $C --json $OUT/ab/sort.json -- benchmarks/webgpu_sort.py --backends numr-webgpu --repeats 3
step ab-linalg 110 $C --json $OUT/ab/linalg.json -- benchmarks/webgpu_linalg.py --repeats 3
step ab-spectral 70 $C --json $OUT/ab/spectral.json -- benchmarks/webgpu_linalg_spectral.py --backends numr-webgpu --repeats 2
cat $OUT/summary.txt
