#!/bin/bash
# 2026-11-27, H100: eigh 512 against the day's switches (the table of
# runs/2026-11-27-12.sh printed 4.4-4.5x where the 2026-11-26 runs measured 3.3-3.7x).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step eigh 150 python3 benchmarks/linalg_variants.py --repeats 5 --cases eigh:512:float32,eigh:512:float64 --variants "default;SPLITK_MIN=1000000;RECIPES=0;default"
pack; cat $L/summary.txt
