#!/bin/bash
# 2026-11-26, H100: where a queued large call's host time goes
# (benchmarks/gpu/host_diag.py: calls with early submission on / off, the native submit
# call's own duration, cProfile of 40 queued calls).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step hostdiag 120 python3 benchmarks/gpu/host_diag.py
pack; cat $L/summary.txt
