#!/bin/bash
# 2026-11-26, H100: the reliability checks again after the fixes of runs/2026-11-26-02.sh (reproducers, the
# fuzz suite per backend, threads per backend with room for 10 runs), the 16 KiB planners.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
export NUMR_STRESS=full
step wgmem 45 python3 -m pytest $T tests/webgpu_runtime/test_workgroup_memory.py tests/webgpu_kernels/test_fft_gpu.py -k "planner or plan_methods"; pack
NUMR_TEST_BACKENDS=cpu,webgpu,cuda NUMR_TEST_SLOW=1 step reproducers 80 python3 -m pytest $T -n 4 tests/reliability/test_reported_reproducers.py tests/reliability/test_soak.py; pack
for b in cpu cuda webgpu; do
  NUMR_TEST_BACKENDS=$b NUMR_FUZZ_EXAMPLES=25 step fuzz-$b 75 python3 -m pytest $T -n 8 tests/reliability/test_fuzz_invalid_input.py; pack
done
NUMR_TEST_BACKENDS=cpu,cuda step threads-cpu-cuda 80 python3 -m pytest $T --durations=3 tests/reliability/test_threads.py -k "mixed_ops_equal_numpy or reproducer_1"; pack
NUMR_TEST_BACKENDS=webgpu step threads-webgpu 200 python3 -m pytest $T --durations=3 tests/reliability/test_threads.py -k "mixed_ops_equal_numpy or reproducer_1"; pack
cat $L/summary.txt
