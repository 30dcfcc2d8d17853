#!/bin/bash
# 2026-11-27, H100: recipe replays that look each distinct binding set up once and issue
# the steps through Recorder.replay's native loop (runtime/recipes.py; A/B switch
# NUMR_WEBGPU_RECIPE_SETS=0): the runtime and linalg tests, eigvalsh host vs total, the
# variants in one process, the eigh and linalg tables.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=140"
step tests 240 python3 -m pytest $T -n 16 tests/webgpu_runtime tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_fft_gpu.py tests/test_linalg.py
pack
step sets 60 python3 benchmarks/gpu/trd_empty.py none 512 2048
step each 60 env NUMR_WEBGPU_RECIPE_SETS=0 python3 benchmarks/gpu/trd_empty.py none 512 2048
pack
step var 200 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64,eigh:2048:float32,inv:100000x8:float32,solve:100000x8:float32,qr:512:float64 --variants "default;RECIPE_SETS=0;default;RECIPE_SETS=0" --repeats 5 --check
pack
step eigh 120 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 5
pack; cat $L/summary.txt; tail -3 $L/tests.log; cat $L/sets.log $L/each.log; tail -40 $L/var.log; tail -14 $L/eigh.log
