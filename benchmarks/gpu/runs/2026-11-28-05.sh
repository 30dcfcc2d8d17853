#!/bin/bash
# 2026-11-28, H100 (runs/2026-11-28-03.sh with --repeats 5, as eigh rows are reported): the whole
# linalg table with the final code, one run next to CuPy and
# PyTorch: cholesky / solve / inv / qr / eigh / svd at 512, 2048, 4096 (float32, float64)
# and the stacks 100000 x 8x8 / 10000 x 32x32 (webgpu_linalg.py's harness with the eigh /
# svd rows added by webgpu_linalg_spectral.py --table).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step table 560 python3 benchmarks/webgpu_linalg_spectral.py --table --only cholesky,solve,inv,qr,eigh,svd --repeats 5 --json $L/linalg.json
pack; cat $L/summary.txt; cat $L/table.log | tail -60
