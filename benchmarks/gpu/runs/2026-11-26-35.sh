#!/bin/bash
# 2026-11-26, H100 (the sweep's final figures): the interleaved sweep at both
# sizes for numr webgpu / numr cuda / CuPy (20 queued large calls: steady throughput).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step sweep 300 python3 benchmarks/sweep.py --backends numr-webgpu,numr-cuda,cupy --reps-large 20 --json $L/sweep.json
pack; cat $L/summary.txt
