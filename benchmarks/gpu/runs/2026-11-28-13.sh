#!/bin/bash
# 2026-11-28, H100 (final code: float64 QR panels of 129-255 rows on the wide kernel):
# the QR tests on the GPU, then the whole linalg table in one run.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
NUMR_TEST_BACKENDS=webgpu step tests 60 python3 -m pytest -q -p no:cacheprovider -n 16 tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_qr_loop.py
pack
step table 300 python3 benchmarks/webgpu_linalg_spectral.py --table --only cholesky,solve,inv,qr,eigh,svd --repeats 5 --json $L/linalg.json
pack; cat $L/summary.txt; tail -3 $L/tests.log; tail -50 $L/table.log
