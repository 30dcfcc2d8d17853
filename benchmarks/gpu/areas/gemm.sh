step gemm_sweep 25 python3 benchmarks/sweep.py --families matmul --backends numr-webgpu,cupy
step gemm_tests 20 python3 -m pytest -q -p no:cacheprovider -s tests/webgpu_kernels/test_gemm_kernels.py -k "not tuner"
