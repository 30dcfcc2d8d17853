#!/bin/bash
# 2026-11-27, H100: QR with the per-(row, column) QrTSpec and split-K for the
# batch-of-one products, every split-K threshold measured with its own gemm plans.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step qr 240 python3 benchmarks/linalg_variants.py --check --repeats 3 --cases qr:512:float32,qr:2048:float32,qr:4096:float32,qr:512:float64,qr:2048:float64,qr:4096:float64 --variants "SPLITK_MIN=1000000;default;SPLITK_MIN=1024;SPLITK_MIN=512;SPLITK_MIN=256"
pack
step prof 100 python3 benchmarks/gpu_profile.py --case qr:2048:float32 --case qr:4096:float64 --case qr:512:float32
pack; cat $L/summary.txt
