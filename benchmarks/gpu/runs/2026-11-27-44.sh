#!/bin/bash
# 2026-11-27, H100: where the host time of a replayed eigvalsh goes (cProfile).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step host512 90 python3 benchmarks/gpu/trd_host.py 512 float64
step host2048 90 python3 benchmarks/gpu/trd_host.py 2048 float32
pack; cat $L/summary.txt; head -45 $L/host512.log; head -45 $L/host2048.log
