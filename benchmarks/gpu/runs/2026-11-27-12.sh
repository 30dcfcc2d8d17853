#!/bin/bash
# 2026-11-27, H100: eigh / svd rows with the final code, and the sweep's
# elementwise family (its x + x acceptance row).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step spectral 200 python3 benchmarks/webgpu_linalg_spectral.py --repeats 2 --backends numr-webgpu,cupy --json $L/spectral.json
pack
step sweep-ew 100 python3 benchmarks/sweep.py --sizes large --families elementwise --reps-large 20 --backends numr-webgpu,numr-cuda,cupy --json $L/sweep-ew.json
pack; cat $L/summary.txt
