#!/bin/bash
# 2026-11-28, H100: qr float64 sits at 2.9-3.0x of CuPy at 512 (three 160-224-row panels
# on the one-workgroup FactorSpec, ~0.3 ms each): those panels on the wide kernel or the
# looped one, against the default.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step var 240 python3 benchmarks/linalg_variants.py --cases qr:512:float64,qr:1024:float64,qr:2048:float64 --variants "default;QR_WIDE_MIN=129;QR_LOOP_MAX=256;QR_LOOP_MAX=256,QR_LOOP_NS=32;default;QR_WIDE_MIN=129;QR_LOOP_MAX=256,QR_LOOP_NS=32" --repeats 7 --check
pack; cat $L/summary.txt; tail -30 $L/var.log
