#!/bin/bash
# 2026-11-27, H100: the register Cholesky panel (CHOL_PANEL=regs, branch
# chol-regs) and the looped QR panel on 1024 invocations (QR_LOOP_NS=32) against the
# defaults, with their tests on the H100.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=170"
step tests 200 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest $T -n 8 tests/webgpu_kernels/test_chol_regs.py tests/webgpu_kernels/test_linalg_gpu.py tests/webgpu_kernels/test_qr_loop.py
pack
C="default;CHOL_PANEL=regs;CHOL_PANEL=regs,CHOL_TR=64;CHOL_PANEL=regs,CHOL_TR=16;CHOL_PANEL=regs,CHOL_WG=1024;CHOL_PANEL=regs,CHOL_STAGE=0"
step chol512 150 python3 benchmarks/linalg_variants.py --cases cholesky:512:float32,cholesky:512:float64 --variants "$C" --repeats 7 --check
pack
step chol4k 150 python3 benchmarks/linalg_variants.py --cases cholesky:2048:float32,cholesky:2048:float64,cholesky:4096:float32,cholesky:4096:float64 --variants "$C" --repeats 3
pack
Q="default;QR_LOOP_MAX=128;QR_LOOP_MAX=256,QR_LOOP_NS=32;QR_LOOP_MAX=512,QR_LOOP_NS=32;QR_LOOP_MAX=128,QR_LOOP_NS=16"
step qr 200 python3 benchmarks/linalg_variants.py --cases qr:512:float32,qr:512:float64,qr:2048:float64,qr:4096:float64 --variants "$Q" --repeats 3
pack
step prof 60 env NUMR_WEBGPU_CHOL_PANEL=regs python3 benchmarks/gpu_profile.py --case cholesky:512:float32 --case cholesky:512:float64 --top 6
pack; cat $L/summary.txt
