#!/bin/bash
# 2026-11-28, H100: staging by default for inv of 5+ rows only (runs/2026-11-28-01.sh: solve with one
# right-hand side and inv 4 x 4 no better staged); the official test_linalg at 200, the
# linalg / warp tests, and the stacked rows of webgpu_linalg.py next to CuPy and PyTorch.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step stacks 100 python3 benchmarks/webgpu_linalg.py --stacks --only cholesky,solve,inv --repeats 21
pack
step suite 150 python3 conformance/run.py --backend webgpu --suite .suite/array-api-tests --max-examples 200 --derandomize --tag h100-s15-linalg-200 --tests test_linalg.py -- -n 16
cp conformance/results/*h100-s15* $L/ 2>/dev/null
pack
NUMR_TEST_BACKENDS=webgpu step tests 170 python3 -m pytest -q -p no:cacheprovider -n 16 tests/webgpu_kernels/test_warp_seg.py tests/webgpu_kernels/test_warp_small.py tests/test_linalg.py tests/reliability tests/webgpu_runtime/test_recipes.py
step var 60 python3 benchmarks/linalg_variants.py --cases inv:100000x8:float32,inv:100000x4:float32,solve:100000x8:float64 --variants "default;BWARP_SSTAGE=0;BWARP_SSTAGE=1;default" --repeats 21
pack; cat $L/summary.txt; cat $L/stacks.log; tail -4 $L/suite.log; tail -3 $L/tests.log; tail -18 $L/var.log
