#!/bin/bash
# 2026-11-26, H100: the stacked small eigh / svd tests after the NaN marking, then with non-finite input kept out of the kernels
# (runs/2026-11-26-43.sh: test_nan_ends_and_stays_in_its_matrix failed on the H100), with the wide QR tests.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
NUMR_TEST_BACKENDS=webgpu step tests 90 python3 -m pytest -p no:cacheprovider -q -rfE -n 8 tests/webgpu_kernels/test_small_spectral.py tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_svd_aug.py
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -20
