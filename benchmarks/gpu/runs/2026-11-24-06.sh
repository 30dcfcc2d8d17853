set -u
source benchmarks/gpu/prep.sh
timeout 95 bash benchmarks/gpu/fft2.sh > $OUT/fft2-run.log 2>&1; echo "fft2 rc=$?"
timeout 115 bash benchmarks/gpu/sort2.sh > $OUT/sort2-run.log 2>&1; echo "sort2 rc=$?"
timeout 110 bash benchmarks/gpu/linfix.sh > $OUT/linfix-run.log 2>&1; echo "linfix rc=$?"
step size 170 env NUMR_TEST_BACKENDS=webgpu NUMR_TEST_SLOW=1 python3 -m pytest -p no:cacheprovider -q -rf tests/webgpu_kernels/test_gpu_size_acceptance.py tests/webgpu_kernels/test_reduction_big.py -k "10_gib or gib"
step fuzz 90 env NUMR_TEST_BACKENDS=webgpu,cuda NUMR_FUZZ_EXAMPLES=10 python3 -m pytest -p no:cacheprovider -q -rf -n 8 --maxfail=8 tests/reliability/test_fuzz_invalid_input.py
cat $OUT/fft2-summary.log 2>/dev/null; tail -30 $OUT/fft2-run.log
tail -8 $OUT/sort2-run.log; tail -4 $OUT/linfix-run.log; grep -E "^FAILED" $OUT/linfix-spectral.log | head
grep -E "^(FAILED|ERROR)|passed|failed" $OUT/size.log | tail -8
grep -E "^(FAILED|ERROR)" $OUT/fuzz.log | head -12
cd $OUT && tar czf callE-logs.tgz *.log *.txt *.json 2>/dev/null
