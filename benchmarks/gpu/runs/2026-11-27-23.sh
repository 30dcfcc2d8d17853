#!/bin/bash
# 2026-11-27, H100 (final code): the register Cholesky panel scaled by 1/sqrt(d)
# (no normalisation), Pow2Spec in QR: their tests, the official test_linalg at 200
# examples, the cholesky / qr table against CuPy, the table's cholesky rows with the
# one-barrier batched kernel.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
S=.suite/array-api-tests
step tests 120 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest $T -n 12 tests/webgpu_kernels/test_chol_regs.py tests/webgpu_kernels/test_qr_loop.py tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_linalg_gpu.py -k "chol or qr or scale"
pack
step table 100 python3 benchmarks/webgpu_linalg.py --only cholesky,qr --repeats 2
pack
step onebar 40 env NUMR_WEBGPU_BCHOL_ONEBAR=1 python3 benchmarks/webgpu_linalg.py --only cholesky --dtypes float32 --repeats 2
pack
step off-lin-200 60 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-200-s9 --tests test_linalg.py -- -n 16
pack; cat $L/summary.txt
