PY=${PYTHON:-python3}
step linperf-tests 15 $PY -m pytest -q -x -p no:cacheprovider tests/webgpu_kernels/test_linalg_gpu.py -k "backward or plans"
step linperf-table 38 $PY benchmarks/webgpu_linalg.py --repeats 1
