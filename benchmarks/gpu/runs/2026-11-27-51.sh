#!/bin/bash
# 2026-11-27, H100 (final code): the official test_linalg.py at 200 derandomised
# examples, the stacked factorisation rows, the eigh table.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); mkdir -p $OUTSAVE/results; cp conformance/results/*h100-s13* $OUTSAVE/results/ 2>/dev/null; }
step suite 150 python3 conformance/run.py --backend webgpu --suite .suite/array-api-tests --max-examples 200 --derandomize --tag h100-s13-linalg-200 --tests test_linalg.py -- -n 16
pack
step stacks 200 python3 benchmarks/webgpu_linalg.py --stacks --only cholesky,solve,inv --repeats 7
pack
step eigh 120 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 5
pack; cat $L/summary.txt; tail -5 $L/suite.log; tail -12 $L/stacks.log; tail -14 $L/eigh.log
