#!/bin/bash
# (a record: the variant it measured, NUMR_WEBGPU_EIGH_HOIST, was not kept; its code is not in the tree)
# 2026-11-27, H100: the wide tridiagonalisation's kernels with every global read first
# (tridiag_wide.py, NUMR_WEBGPU_EIGH_HOIST): the spectral tests, the eigh rows against the
# old kernels in one process, the kernel profile, the eigh table.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=140"
step tests 150 python3 -m pytest $T -n 16 tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_kernels/test_svd_aug.py
pack
step var 200 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64,eigh:2048:float32 --variants "default;EIGH_HOIST=0" --repeats 5 --check
pack
step prof 60 python3 benchmarks/gpu_profile.py --case eigh:512:float64 --case eigh:2048:float32 --top 6
pack
step eigh 150 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 5
pack; cat $L/summary.txt; tail -30 $L/var.log; cat $L/prof.log; tail -14 $L/eigh.log
