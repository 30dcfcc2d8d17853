#!/bin/bash
# 2026-11-27, H100: eigh's parallel cluster mode (clusters.py) on the H100:
# its tests, eigh / eigh-cov against CuPy, the profile of eigh+cov 2048, and tuning
# variants of the near-miss rows (cholesky / qr 512).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step tests 170 python3 -m pytest -q -x -p no:cacheprovider --timeout=170 tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_svd_aug.py
pack
step spectral 150 python3 benchmarks/webgpu_linalg_spectral.py --only eigh,eigh-cov --match "x(512|2048)$" --repeats 2 --backends numr-webgpu,cupy
pack
step prof 70 python3 benchmarks/gpu_profile.py --case eigh+cov:2048:float32 --case eigh:2048:float32 --top 12
pack
step variants 150 python3 benchmarks/linalg_variants.py --repeats 3 --cases cholesky:512:float32,cholesky:512:float64,qr:512:float32,qr:512:float64 --variants "default;CHOL_NB=32;CHOL_NB=128;CHOL_WG=256;CHOL_SPLIT=1;QR_WIDE_MIN=128;QR_WIDE_MIN=64;default"
pack; cat $L/summary.txt
