step gather-bench 25 python3 benchmarks/gather.py
step gather-big 25 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest -q -x -p no:cacheprovider \
  tests/webgpu_kernels/test_gather_big.py
step gather-tests 12 env NUMR_TEST_BACKENDS=webgpu python3 -m pytest -q -x -p no:cacheprovider \
  tests/webgpu_namespace/test_gpu_kernels.py -k "index or take or mask"
