#!/bin/bash
# 2026-11-26, H100: the first half of the whole webgpu test suite on the GPU
# (tests/webgpu_kernels, every GPU kernel file; the 480 s step limit cut the whole suite in
# runs/2026-11-26-30.sh), then the "gpu and slow" tests (arrays beyond one binding).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --durations=25"
NUMR_TEST_BACKENDS=webgpu step kernels 470 python3 -m pytest $T -n 16 tests/webgpu_kernels -m "not (gpu and slow)"
pack
NUMR_TEST_BACKENDS=webgpu step gibtests 90 python3 -m pytest $T tests/webgpu_kernels -m "gpu and slow"
pack; cat $L/summary.txt
