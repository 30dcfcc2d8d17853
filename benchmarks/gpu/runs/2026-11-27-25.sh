#!/bin/bash
# 2026-11-27, H100: meant as an A/B of the normalisation (a temporary
# NUMR_WEBGPU_POW2=ops switch, not kept); the eigh plans replayed the same recipe for both
# (4378 dispatches each), so it measured one code path four times: 69.5-100.9 ms at 2048.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step ab 150 python3 benchmarks/linalg_variants.py --cases eigh:2048:float32,eigh:512:float32,eigh:512:float64 --variants "default;POW2=ops;default;POW2=ops" --repeats 3
pack; cat $L/summary.txt
