#!/bin/bash
# 2026-11-27, H100: QR with split-K for the batch-of-one V^H V and Y C products
# (their K is the panel's height), the profiles again with true float32 inputs, eigh on a
# covariance (clustered spectrum) next to the benchmark's random symmetric input.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step qr 240 python3 benchmarks/linalg_variants.py --check --repeats 3 --cases qr:512:float32,qr:2048:float32,qr:4096:float32,qr:512:float64,qr:2048:float64,qr:4096:float64 --variants "SPLITK_MIN=1000000;default;SPLITK_MIN=1024;SPLITK_MIN=512"
pack
step prof 150 python3 benchmarks/gpu_profile.py --case qr:2048:float32 --case qr:4096:float64 --case eigh:512:float32 --case eigh+cov:512:float32 --case eigh+cov:2048:float32 --case inv:100000x8:float32 --case solve:100000x8:float32
pack; cat $L/summary.txt
