#!/bin/bash
# 2026-11-28, H100: the chain's arrays in one buffer (NUMR_WEBGPU_EIGH_ONE_WS, default on)
# and the loads-first kernels (now default) against the chain of runs/2026-11-28-*.sh; the chain's
# floor again; the official test_linalg.py (200 examples); the whole linalg table in one run.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step var 90 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64,eigvalsh:512:float64 --variants "default;EIGH_ONE_WS=0;EIGH_TRD_PF=0,EIGH_ONE_WS=0;default;EIGH_ONE_WS=0" --repeats 5 --check
step empty 30 python3 benchmarks/gpu/trd_empty.py both 512
step none 30 python3 benchmarks/gpu/trd_empty.py none 512
pack
step suite 120 python3 conformance/run.py --backend webgpu --suite .suite/array-api-tests --max-examples 200 --derandomize --tag h100-s16-linalg-200 --tests test_linalg.py -- -n 16
cp -r conformance/results/*h100-s16* $L/ 2>/dev/null
pack
step table 300 python3 benchmarks/webgpu_linalg_spectral.py --table --only cholesky,solve,inv,qr,eigh,svd --repeats 5 --json $L/linalg.json
pack; cat $L/summary.txt; tail -36 $L/var.log; cat $L/empty.log $L/none.log | grep eigvalsh; tail -3 $L/suite.log; tail -60 $L/table.log
