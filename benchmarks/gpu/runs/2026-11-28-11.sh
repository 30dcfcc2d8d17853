#!/bin/bash
# 2026-11-28, H100 (final code): the official test_linalg.py (200 examples); the runtime
# tests (the recorder's byte count and the recipes changed); the two cells nearest the
# 3x goal once more: eigh 512 and qr (all sizes) float64.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step suite 120 python3 conformance/run.py --backend webgpu --suite .suite/array-api-tests --max-examples 200 --derandomize --tag h100-s16-linalg-200 --tests test_linalg.py -- -n 16
cp -r conformance/results/*h100-s16* $L/ 2>/dev/null
pack
NUMR_TEST_BACKENDS=webgpu step rt 150 python3 -m pytest -q -p no:cacheprovider -n 16 tests/webgpu_runtime tests/reliability
pack
step eigh 80 python3 benchmarks/webgpu_linalg_spectral.py --only eigh --match 512 --repeats 5
step qr 120 python3 benchmarks/webgpu_linalg.py --only qr --dtypes float64 --repeats 5
pack; cat $L/summary.txt; tail -3 $L/suite.log; tail -3 $L/rt.log; tail -8 $L/eigh.log; tail -8 $L/qr.log
