#!/bin/bash
# 2026-11-27, H100: is the per-column chain host-bound? eigvalsh's call time against its
# total, with the default replay chunk (64 dispatches a submit) and one submit for all.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step none 90 python3 benchmarks/gpu/trd_empty.py none 512 2048
step chunk1m 90 env NUMR_WEBGPU_REPLAY_CHUNK=1000000 python3 benchmarks/gpu/trd_empty.py none 512 2048
step chunk16 90 env NUMR_WEBGPU_REPLAY_CHUNK=16 python3 benchmarks/gpu/trd_empty.py none 512 2048
step both 90 python3 benchmarks/gpu/trd_empty.py both 512 2048
pack; cat $L/summary.txt; cat $L/none.log $L/chunk1m.log $L/chunk16.log $L/both.log
