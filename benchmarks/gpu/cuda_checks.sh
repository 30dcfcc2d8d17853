# lead: cuda fixes (huge requests, pipelined copy), whole cuda fuzz, cuda perf diagnosis, scipy diag
NUMR_TEST_BACKENDS=cuda step lead-huge 120 python3 -m pytest -p no:cacheprovider -q tests/reliability/test_huge_requests.py tests/cuda_runtime/test_streams.py tests/test_fft.py tests/test_matmul.py tests/test_numpy_scalars_and_keys.py
NUMR_STRESS=full NUMR_TEST_BACKENDS=cuda NUMR_FUZZ_EXAMPLES=25 NUMR_FUZZ_TRACE=$OUT/lead-fuzz-trace.txt step lead-fuzz 120 python3 -m pytest -p no:cacheprovider -q -n 8 tests/reliability/test_fuzz_invalid_input.py
step lead-cudadiag 60 python3 benchmarks/gpu/cuda_diag.py
step lead-scipydiag 100 bash benchmarks/gpu/scipy_diag.sh cuda
