#!/bin/bash
# 2026-11-26, H100: the GPU tests of
# every file changed since runs/2026-11-26-37.sh (wide QR with the power-of-two normalisation, svd_aug,
# eigh tridiag, the stacked small eigh / svd kernels), the stacked small-matrix probe, the
# QR probe and the factorisation table at the final defaults.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step tests 100 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_small_spectral.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/test_linalg.py
pack
SMALL_PROBE_REPS=3 step small 60 python3 benchmarks/gpu/small_spectral_probe.py
pack
QR_PROBE_VARIANTS="wide" QR_PROBE_REPS=2 step qr 40 python3 benchmarks/gpu/qr_panel_probe.py
pack
step table 70 python3 benchmarks/webgpu_linalg.py --repeats 2 --only cholesky,solve,inv,qr --json $L/linalg.json
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -20
