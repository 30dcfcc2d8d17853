#!/bin/bash
# 2026-11-27, H100: batches on native handles against wgpu-py's objects (interleaved, one
# process), the final eigh and stack tables, the official test_linalg at 200 and the
# runtime / kernel / linalg tests on the GPU.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step ab 150 python3 benchmarks/gpu/native_batch_ab.py --rounds 3 --reps 200
pack
step eigh 120 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 5
pack
step stacks 120 python3 benchmarks/gpu/stack_recipes.py
pack
step suite 120 python3 conformance/run.py --backend webgpu --suite .suite/array-api-tests --max-examples 200 --derandomize --tag h100-s14-linalg-200 --tests test_linalg.py -- -n 16
cp conformance/results/*h100-s14* $L/ 2>/dev/null
pack
NUMR_TEST_BACKENDS=webgpu step tests 200 python3 -m pytest -q -p no:cacheprovider -n 16 tests/webgpu_runtime tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_kernels/test_small_spectral.py tests/test_linalg.py tests/reliability
pack; cat $L/summary.txt; cat $L/ab.log; cat $L/eigh.log; tail -12 $L/stacks.log; tail -3 $L/tests.log
