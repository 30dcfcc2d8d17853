#!/bin/bash
# 2026-11-26, H100: the Cholesky panel compiled without wgpu's
# runtime checks (CHOL_TRUSTED) next to the checked build, with the unchecked GEMM now the
# default; QR / solve at 2048 and 4096 for reference.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step chol 240 python3 benchmarks/linalg_variants.py --cases cholesky:512:float32,cholesky:2048:float32,cholesky:4096:float32,cholesky:512:float64,cholesky:2048:float64,cholesky:4096:float64 --repeats 3 --variants "default;CHOL_TRUSTED=0"
pack
step other 200 python3 benchmarks/linalg_variants.py --cases qr:2048:float32,solve:2048:float32,inv:2048:float64 --repeats 2 --variants "default"
pack; cat $L/summary.txt
