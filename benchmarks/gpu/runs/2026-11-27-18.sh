#!/bin/bash
# 2026-11-27, H100: the QR register tail (QR_REGS_MAX / QR_REGS_WG) against
# the default at 512 / 2048 / 4096, its tests, the streamed small eigh against the default,
# and where qr 512's GPU time goes with the tail.
# (QR_REGS_MAX / QR_REGS_WG: a register tail on QRPanelSpec, removed after this run: 3-15x
# slower; see docs/benchmarks.md, "Short QR panels".)
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
NUMR_TEST_BACKENDS=webgpu step tests 120 python3 -m pytest $T -n 8 tests/webgpu_kernels/test_qr_regs.py tests/webgpu_kernels/test_qr_wide.py
pack
V="default;QR_REGS_MAX=256;QR_REGS_MAX=512;QR_REGS_MAX=1024;QR_REGS_MAX=512,QR_REGS_WG=256;QR_REGS_MAX=1024,QR_REGS_WG=512;QR_PANEL=regs"
step qr512 150 python3 benchmarks/linalg_variants.py --cases qr:512:float32,qr:512:float64 --variants "$V" --repeats 5
pack
step qr2k 150 python3 benchmarks/linalg_variants.py --cases qr:2048:float32,qr:2048:float64 --variants "$V" --repeats 3
pack
step qr4k 150 python3 benchmarks/linalg_variants.py --cases qr:4096:float64,qr:4096:float32 --variants "default;QR_REGS_MAX=512;QR_REGS_MAX=1024;QR_REGS_MAX=2048;QR_REGS_MAX=1024,QR_REGS_WG=512" --repeats 3
pack
step eigh32 90 python3 benchmarks/linalg_variants.py --cases eigh:10000x32x32:float64,eigh:10000x32x32:float32 --variants "default;SMALL_SPECTRAL_VEC=stream" --repeats 3
pack
step prof 60 env NUMR_WEBGPU_QR_REGS_MAX=512 python3 benchmarks/gpu_profile.py --case qr:512:float32 --case qr:512:float64 --top 8
pack; cat $L/summary.txt
