#!/bin/bash
# 2026-11-27, H100: the float32-preconditioned float64 small eigh, PrepSpec back to 2x2 blocks on
# 256 invocations with rows and columns 16 apart (conflict-free column loads; PRE=0: the plain
# kernel): tests, the variants in one process, the kernel profile, the eigh table.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=140"
step tests 150 python3 -m pytest $T -n 16 tests/webgpu_kernels/test_small_spectral.py tests/webgpu_kernels/test_linalg_spectral_gpu.py
pack
step var 200 python3 benchmarks/linalg_variants.py --cases eigh:10000x32:float64,eigh-cov:10000x32:float64 --variants "default;SMALL_SPECTRAL_PRE=0;default;SMALL_SPECTRAL_PRE=0" --repeats 7
pack
step prof 60 python3 benchmarks/gpu_profile.py --case eigh:10000x32:float64 --top 10
pack
step eigh 120 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 5
pack; cat $L/summary.txt; tail -3 $L/tests.log; tail -24 $L/var.log; cat $L/prof.log; tail -14 $L/eigh.log
