#!/bin/bash
# (a record: the variant it measured, NUMR_WEBGPU_RECIPE_MEMO, was not kept; its code is not in the tree)
# 2026-11-27, H100: recipe replays re-issuing native records, now for the last four
# buffer assignments (the pool's LIFO lists alternate a call's blocks): host vs total, the
# variants in one process, the recipe tests.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=140"
step tests 120 python3 -m pytest $T -n 16 tests/webgpu_runtime/test_recipes.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_eigh_tridiag.py
pack
step memo 60 python3 benchmarks/gpu/trd_empty.py none 512 2048
step nomemo 60 env NUMR_WEBGPU_RECIPE_MEMO=0 python3 benchmarks/gpu/trd_empty.py none 512 2048
pack
step var 200 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64,eigh:2048:float32,inv:100000x8:float32,qr:512:float64 --variants "default;RECIPE_MEMO=0;default;RECIPE_MEMO=0" --repeats 5 --check
pack
step eigh 120 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 5
pack; cat $L/summary.txt; tail -3 $L/tests.log; cat $L/memo.log $L/nomemo.log; tail -36 $L/var.log; tail -14 $L/eigh.log
