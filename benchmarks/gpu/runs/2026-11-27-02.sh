#!/bin/bash
# 2026-11-27, H100: where the host's time goes in a queued 256 MiB sum on the
# H100's host; the row-mapping variants again now that reductions replay as recipes.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step hostprof 60 python3 benchmarks/gpu/host_profile.py
pack
step red 200 python3 benchmarks/reduce_variants.py --sizes large --reps-large 20 --repeats 5 --cases "sum f32,max(axis=1),sum(axis=1),mean" --variants "r8192;r16384;r32768;r65536;r16384,u8;r8192,b512;r8192,b1024;r32768,g4096"
pack; cat $L/summary.txt
