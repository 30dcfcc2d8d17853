#!/bin/bash
# 2026-11-27, H100: the new defaults (register Cholesky panel with the float32
# power-of-two normalisation; QR panels of <= 128 rows looped): linalg GPU tests, the
# official test_linalg at 200 examples, the cholesky / qr table against CuPy.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
S=.suite/array-api-tests
step tests 240 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest $T -n 8 tests/webgpu_kernels/test_chol_regs.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_qr_loop.py tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_linalg_scale_sweep.py tests/webgpu_kernels/test_linalg_spectral_gpu.py
pack
step off-lin-200 90 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-200-s9 --tests test_linalg.py -- -n 16
pack
step table 200 python3 benchmarks/webgpu_linalg.py --only cholesky,qr --repeats 2
pack
step compile 120 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest $T -n 8 tests/webgpu_kernels/test_render_compile.py -k "chol_regs or qr_wide or linalg"
pack; cat $L/summary.txt
