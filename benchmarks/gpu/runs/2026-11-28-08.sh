#!/bin/bash
# 2026-11-28, H100: the loads-first column chain (NUMR_WEBGPU_EIGH_TRD_PF, trd_chain.py)
# and TrdSymv2Spec's rows a workgroup (NUMR_WEBGPU_EIGH_SYMV_RPW) against the defaults,
# with their backward errors; the chain's floor (both kernels emptied); the tridiagonal
# tests with the new kernels switched on.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step var 300 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64,eigvalsh:512:float64 --variants "default;EIGH_TRD_PF=1;EIGH_TRD_PF=1,EIGH_SYMV_RPW=2;EIGH_TRD_PF=1,EIGH_SYMV_RPW=1;EIGH_SYMV_RPW=1;default;EIGH_TRD_PF=1" --repeats 5 --check
step empty 60 python3 benchmarks/gpu/trd_empty.py both 512
step none 60 python3 benchmarks/gpu/trd_empty.py none 512
NUMR_WEBGPU_EIGH_TRD_PF=1 step tests 150 python3 -m pytest -q -x -p no:randomly tests/webgpu_kernels/test_eigh_tridiag.py
pack; cat $L/summary.txt; tail -45 $L/var.log; cat $L/empty.log $L/none.log | grep eigvalsh; tail -3 $L/tests.log
