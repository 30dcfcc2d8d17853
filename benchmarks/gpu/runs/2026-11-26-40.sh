#!/bin/bash
# 2026-11-26, H100: the wide QR panel (qr_wide.py) and its variants next to
# CuPy, the QR / eigh / svd tests on the GPU, the eigh phases with reciprocal pivots in the
# inverse iteration, the linalg table.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=webgpu step tests 150 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_linalg_gpu.py
pack
step qrprobe 150 python3 benchmarks/gpu/qr_panel_probe.py
pack
QR_PROBE_VARIANTS="wide;RPT=8;RPT=32;MIN=64" QR_PROBE_DTYPES="float32" step qrvar 120 python3 benchmarks/gpu/qr_panel_probe.py 512 4096
pack
step qrprof 90 python3 benchmarks/linalg_variants.py --cases qr:4096:float32,qr:512:float32 --repeats 2 --profile --variants "default"
pack
step phases 90 python3 benchmarks/gpu/eigh_phases_2.py 512 2048
pack
step table 150 python3 benchmarks/webgpu_linalg_spectral.py --table --repeats 3 --json $L/linalg.json
pack; cat $L/summary.txt; grep -h "^FAILED" $L/*.log | head -20
