#!/bin/bash
# 2026-11-27, H100: short QR panels on the looped wide kernel (QR_LOOP_MAX)
# against the default at 512 / 2048 / 4096, and its tests.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
step tests 150 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest $T -n 8 tests/webgpu_kernels/test_qr_loop.py tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_render_compile.py
pack
V="default;QR_LOOP_MAX=128;QR_LOOP_MAX=256;QR_LOOP_MAX=512"
step qr512 150 python3 benchmarks/linalg_variants.py --cases qr:512:float32,qr:512:float64 --variants "$V" --repeats 5 --check
pack
step qr2k 150 python3 benchmarks/linalg_variants.py --cases qr:2048:float32,qr:2048:float64 --variants "$V" --repeats 3
pack
step qr4k 150 python3 benchmarks/linalg_variants.py --cases qr:4096:float64,qr:4096:float32 --variants "$V" --repeats 3
pack
step prof 60 env NUMR_WEBGPU_QR_LOOP_MAX=512 python3 benchmarks/gpu_profile.py --case qr:512:float32 --case qr:512:float64 --top 8
pack; cat $L/summary.txt
