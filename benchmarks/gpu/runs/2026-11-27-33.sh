#!/bin/bash
# 2026-11-27, H100: the register-resident looped QR panel (qr_loop.py) at several
# heights and widths, split-K for the panels' short-K GEMMs, the dispatch-chain probe,
# and the GPU tests of the QR panels.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
V="default;QR_LOOP_MAX=256;QR_LOOP_MAX=512;QR_LOOP_MAX=512,QR_LOOP_NS=32;QR_LOOP_MAX=1024,QR_LOOP_NS=32;SPLITK_MIN=256,SPLITK_DEPTH=64;QR_LOOP_MAX=512,QR_LOOP_NS=32,SPLITK_MIN=256,SPLITK_DEPTH=64;QR_LOOP_MAX=512,QR_LOOP_NS=32,SPLITK_MIN=128,SPLITK_DEPTH=32"
step qrvar 300 python3 benchmarks/linalg_variants.py --cases qr:512:float64,qr:2048:float64,qr:4096:float64,qr:512:float32,qr:2048:float32,qr:4096:float32 --variants "$V" --repeats 5 --check
pack
step chain 60 python3 benchmarks/gpu/dispatch_chain.py --n 2000
pack
step tests 150 python3 -m pytest -q -n 16 -p no:cacheprovider tests/webgpu_kernels/test_qr_wide.py tests/webgpu_kernels/test_qr_loop.py tests/webgpu_kernels/test_render_compile.py -k "qr or Qr"
pack; cat $L/summary.txt; cat $L/chain.log; grep -h "numr/cupy\|==" $L/qrvar.log | head -70
