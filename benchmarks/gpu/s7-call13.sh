#!/bin/bash
# 2026-11-27 session 7, call 13: eigh 512 against this session's switches (the table of
# call 12 printed 4.4-4.5x where session 6 measured 3.3-3.7x).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step eigh 150 python3 benchmarks/linalg_variants.py --repeats 5 --cases eigh:512:float32,eigh:512:float64 --variants "default;SPLITK_MIN=1000000;RECIPES=0;default"
pack; cat $L/summary.txt
