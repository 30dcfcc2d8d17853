#!/bin/bash
# 2026-11-27, H100: after the runtime's native batches, the whole test suite (cpu,
# webgpu, cuda) and the whole official suite on webgpu (max-examples 50) on the H100.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step suite 230 python3 conformance/run.py --backend webgpu --suite .suite/array-api-tests --max-examples 50 --derandomize --tag h100-s14 -- -n 16
cp conformance/results/*h100-s14.* $L/ 2>/dev/null
pack
step tests 330 python3 -m pytest tests -q -p no:cacheprovider -n 16 --durations=5
pack; cat $L/summary.txt; tail -15 $L/tests.log; tail -3 $L/suite.log
