#!/bin/bash
# 2026-11-27, H100: the wide QR panel's opt-in variants (COMB=2, VDIV=1, added
# untimed the day before; RECIP=1 new) on the qr rows with backward errors, a profile of the best
# guess, and the GPU tests of the wide panel and of the GEMM epilogue store forms.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
V="default;QR_WIDE_COMB=2;QR_WIDE_RECIP=1;QR_WIDE_COMB=2,QR_WIDE_RECIP=1;QR_WIDE_COMB=2,QR_WIDE_VDIV=1;QR_WIDE_COMB=2,QR_WIDE_VDIV=1,QR_WIDE_RECIP=1"
step qrvar 270 python3 benchmarks/linalg_variants.py --cases qr:512:float64,qr:2048:float64,qr:4096:float64,qr:512:float32,qr:2048:float32 --variants "$V" --repeats 5 --check
pack
step prof 80 python3 benchmarks/gpu_profile.py --case qr:2048:float64 --case qr:512:float64 --top 12
pack
step tests 200 python3 -m pytest -q -n 16 -p no:cacheprovider tests/webgpu_kernels/test_qr_wide.py tests/ext/test_webgpu_kernels.py
pack; cat $L/summary.txt; grep -h "numr/cupy\|==" $L/qrvar.log | head -60
