#!/bin/bash
# 2026-11-28, H100: runs/2026-11-28-09.sh's one-buffer workspace made every eigh a general-path call
# (the recipe refused outputs at offsets; 5x slower): with recipes keeping output offsets,
# the workspace against separate buffers again; the tridiagonal / recipe tests on the GPU;
# the whole linalg table in one run.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step var 90 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64,eigvalsh:512:float64 --variants "default;EIGH_ONE_WS=0;default;EIGH_ONE_WS=0" --repeats 5 --check
pack
NUMR_TEST_BACKENDS=webgpu step tests 120 python3 -m pytest -q -p no:cacheprovider -n 16 tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_runtime/test_recipes.py tests/webgpu_kernels/test_linalg_spectral_gpu.py
pack
step table 300 python3 benchmarks/webgpu_linalg_spectral.py --table --only cholesky,solve,inv,qr,eigh,svd --repeats 5 --json $L/linalg.json
pack; cat $L/summary.txt; tail -24 $L/var.log; tail -3 $L/tests.log; tail -50 $L/table.log
