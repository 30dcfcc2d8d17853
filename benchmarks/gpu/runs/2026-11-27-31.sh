#!/bin/bash
# 2026-11-27, H100: the final code on the H100: runtime, warp and linalg
# kernel tests, the official test_linalg.py at 200 examples, the stack rows.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=250"
step suite 90 python3 conformance/run.py --backend webgpu --suite .suite/array-api-tests --max-examples 200 --derandomize --tag h100-linalg-200 --tests test_linalg.py -- -n 16
step tests 330 python3 -m pytest $T tests/webgpu_kernels/test_warp_small.py tests/webgpu_kernels/test_warp_seg.py tests/webgpu_runtime tests/webgpu_kernels/test_linalg_gpu.py -n 16
step stacks 150 python3 benchmarks/webgpu_linalg.py --stacks --repeats 7
pack; cat $L/summary.txt
