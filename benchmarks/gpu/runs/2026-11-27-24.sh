#!/bin/bash
# 2026-11-27, H100: the eigh rows of the spectral table with Pow2Spec in the
# tridiagonalisation's normalisation (runs/2026-11-27-22.sh's linalg_variants put eigh 512 at 4.7-5.1x).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step spectral 150 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --repeats 2 --backends numr-webgpu,cupy
pack; cat $L/summary.txt
