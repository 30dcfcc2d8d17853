step reduce_sweep 30 python3 benchmarks/sweep.py --families reductions,scans --backends numr-webgpu,cupy --reps-small 100
step reduce_tests 20 python3 -m pytest -q -x -p no:cacheprovider tests/webgpu_kernels/test_reduction_kernels.py tests/webgpu_kernels/test_reduction_big.py -k "not 10_gib"
