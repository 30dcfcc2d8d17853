set -u
source benchmarks/gpu/prep.sh
step size 90 env NUMR_TEST_BACKENDS=webgpu NUMR_TEST_SLOW=1 python3 -m pytest -p no:cacheprovider -q -rf tests/webgpu_kernels/test_gpu_size_acceptance.py -k "gib"
step threads-webgpu 200 env NUMR_STRESS=full NUMR_TEST_BACKENDS=webgpu python3 -m pytest -p no:cacheprovider -q -rf tests/reliability/test_threads.py -k "mixed_ops_equal_numpy or reproducer_1"
step threads-cuda 120 env NUMR_STRESS=full NUMR_TEST_BACKENDS=cuda,cpu python3 -m pytest -p no:cacheprovider -q -rf tests/reliability/test_threads.py -k "mixed_ops_equal_numpy or reproducer_1"
step interrupts 110 env NUMR_STRESS=full NUMR_INTERRUPT_SECONDS=4 python3 -m pytest -p no:cacheprovider -q -rf -n 10 tests/reliability/test_interrupts.py -k reproducer_2
cat $OUT/summary.txt
