#!/bin/bash
# 2026-11-27, H100: the new defaults (split-K from K = 256 in pieces of 64, float32 panels
# looped up to 512 rows on 32 slices, T by doubling in QrTSpec) against nearby variants on
# the qr rows, a profile of qr 512 float64, then the whole factorisation table.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
V="default;SPLITK_MIN=128,SPLITK_DEPTH=32;QR_LOOP_MAX=256,QR_LOOP_NS=32;SPLITK_MIN=1024,SPLITK_DEPTH=256"
step qrvar 200 python3 benchmarks/linalg_variants.py --cases qr:512:float64,qr:2048:float64,qr:4096:float64,qr:512:float32,qr:4096:float32 --variants "$V" --repeats 5 --check
pack
step prof 60 python3 benchmarks/gpu_profile.py --case qr:512:float64 --top 10
pack
step table 300 python3 benchmarks/webgpu_linalg.py --repeats 2
pack; cat $L/summary.txt; grep -h "numr/cupy\|==" $L/qrvar.log | head -40; cat $L/prof.log | head -16; cat $L/table.log | tail -60
