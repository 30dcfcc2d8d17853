#!/bin/bash
# 2026-11-26, H100: early-submission policy A/B, interleaved in one
# process (benchmarks/gpu/submit_ab.py), twice.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step ab1 200 python3 benchmarks/gpu/submit_ab.py 15
step ab2 200 python3 benchmarks/gpu/submit_ab.py 15
pack; cat $L/summary.txt
