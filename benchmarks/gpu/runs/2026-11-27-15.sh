#!/bin/bash
# 2026-11-27, H100: eigh cluster modes without the shift cap (tests, chain sizes
# and accuracy of random / covariance 2048, SERIAL_MAX variants timed), and the
# streamed small-eigh kernels against the default.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step tests 150 python3 -m pytest -q -p no:cacheprovider --timeout=140 tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_small_spectral.py
pack
step debug 90 python3 benchmarks/gpu/eigh_debug.py "default;SERIAL_MAX=32" float32,float64 "rand2048|cov2048|two|ill"
pack
step modes 150 python3 benchmarks/linalg_variants.py --repeats 2 --cases eigh:2048:float32,eigh:2048:float64,eigh-cov:2048:float32,eigh-cov:2048:float64,eigh-cov:512:float32 --variants "default;EIGH_SERIAL_MAX=32;EIGH_SERIAL_MAX=100000"
pack
step small 120 python3 benchmarks/linalg_variants.py --cases eigh:10000x32x32:float64,eigh:10000x32x32:float32,eigh:100000x8x8:float64 --variants "default;SMALL_SPECTRAL_VEC=stream;SMALL_SPECTRAL_VEC=split;SMALL_SPECTRAL_VEC=stream,SMALL_SPECTRAL_WG=32;SMALL_SPECTRAL_VEC=split,SMALL_SPECTRAL_WG=32;SMALL_SPECTRAL_WG=32;SMALL_SPECTRAL_NBUF=1;SMALL_SPECTRAL_NBUF=1,SMALL_SPECTRAL_WG=32;SMALL_SPECTRAL_VEC=stream,SMALL_SPECTRAL_WG=128" --check
pack; cat $L/summary.txt
