#!/bin/bash
# 2026-11-27, H100: the webgpu kernel tests, the GiB tests and the ext tests on
# the GPU with the day's code (reductions as recipes, split-K from K = 1024, QrTSpec,
# inv on the warp kernel, the profiler).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=150"
NUMR_TEST_BACKENDS=webgpu step kernels 290 python3 -m pytest $T --junitxml=$L/kernels.xml -n 16 tests/webgpu_kernels tests/webgpu_runtime -m "not (gpu and slow)"
pack
NUMR_TEST_BACKENDS=webgpu step gibtests 80 python3 -m pytest $T --junitxml=$L/gib.xml tests/webgpu_kernels -m "gpu and slow"
pack
NUMR_TEST_BACKENDS=webgpu,cuda step ext 200 python3 -m pytest $T --junitxml=$L/ext.xml -n 16 tests/ext
pack; cat $L/summary.txt
