#!/bin/bash
# 2026-11-26, H100: numr cuda's small-matmul overhead, the eigh
# phases at 512 / 2048 and variants, svd with the inverse-iteration scratch in
# leader ranges (4096 float64 on the augmented path), the spectral tests on the GPU.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
step cudamm 90 python3 benchmarks/gpu/cuda_matmul_probe.py
pack
step phases 120 python3 benchmarks/gpu/eigh_phases_2.py 512 2048
pack
EIGH_PROBE_JACOBI=0 EIGH_PROBE_VARIANTS="default;TRD=step;BT_NB=64;BT_NB=256;UPD_RPS=1" step eighv 150 python3 benchmarks/gpu/eigh_tridiag_probe.py 512
pack
NUMR_TEST_BACKENDS=webgpu step tests 120 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_eigh_tridiag.py
pack
step svd 150 python3 benchmarks/webgpu_linalg_spectral.py --table --only svd --repeats 2 --json $L/svd.json
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -20
