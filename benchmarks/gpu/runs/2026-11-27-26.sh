#!/bin/bash
# 2026-11-27, H100: the whole factorisation table with the final code.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step table 280 python3 benchmarks/webgpu_linalg.py --repeats 2
pack; cat $L/summary.txt
