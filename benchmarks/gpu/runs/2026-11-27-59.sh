#!/bin/bash
# 2026-11-27, H100: where a small stacked call's host time goes with native batches
# (phases.py), and the tridiagonalisation's rows per slice (EIGH_UPD_RPS) now that
# the column chain is bound by the GPU rather than the host.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step phases 90 python3 benchmarks/gpu/phases.py
pack
step var 200 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64 --variants "default;EIGH_UPD_RPS=1;EIGH_UPD_RPS=4;default;EIGH_UPD_RPS=1;EIGH_UPD_RPS=4" --repeats 5
pack; cat $L/summary.txt; cat $L/phases.log; tail -24 $L/var.log
