#!/bin/bash
# 2026-11-27, H100: where the time goes (qr float64, eigh, small stacks), the
# stack rows with the idle-synchronize skip, qr float64 variants.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step stacks 150 python3 benchmarks/webgpu_linalg.py --stacks --repeats 7
step host 120 python3 benchmarks/gpu/stack_host.py
step prof_stack 150 python3 benchmarks/gpu_profile.py --case solve:100000x8:float32 --case inv:100000x8:float32 --case cholesky:10000x32:float32 --case solve:10000x32:float32 --case inv:10000x32:float32 --top 6
step prof_qr 200 python3 benchmarks/gpu_profile.py --case qr:512:float64 --case qr:2048:float64 --case qr:512:float32 --top 10
step qrvar 240 python3 benchmarks/linalg_variants.py --cases qr:512:float64,qr:2048:float64,qr:4096:float64 --variants "default;QR_WIDE_RPT=8;QR_WIDE_RPT=16;QR_LOOP_NS=32" --repeats 5
step prof_eigh 150 python3 benchmarks/gpu_profile.py --case eigh:512:float32 --case eigh:512:float64 --case eigh:2048:float32 --top 10
pack; cat $L/summary.txt
