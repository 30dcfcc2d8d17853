#!/bin/bash
# 2026-11-26, H100: svd through the augmented matrix (svd_aug.py) on the GPU
# (tests + eigh/svd table next to CuPy), the linalg table at the current defaults, the
# skinny split-K variants and the interleaved sweep (its acceptance rows).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step tests 120 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_kernels/test_eigh_tridiag.py
pack
step spectral 200 python3 benchmarks/webgpu_linalg_spectral.py --table --repeats 2 --json $L/spectral.json
pack
step table 120 python3 benchmarks/webgpu_linalg.py --repeats 2 --json $L/linalg.json
pack
step gemmv 60 python3 benchmarks/gemm_variants.py --cases skinny_deep,skinny_deep_t,batched_t
pack
step sweep 200 python3 benchmarks/sweep.py --backends numr-webgpu,numr-cuda,cupy --reps-large 20 --json $L/sweep.json
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -20
