NUMR_TEST_SLOW=1 step spectral-tests 55 python3 -m pytest -p no:cacheprovider -q -n 12 --tb=short -rf tests/webgpu_kernels/test_linalg_spectral_gpu.py
