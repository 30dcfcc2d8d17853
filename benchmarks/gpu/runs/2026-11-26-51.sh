#!/bin/bash
# 2026-11-26, H100: diagnostics. cuda fuzz with a call trace (which call poisons the CUDA
# context), the webgpu spectral failures in full, adapter facts, scikit-learn's whole
# array-API selection on cuda and webgpu.
source benchmarks/gpu/prep.sh
python3 -c "
import wgpu
a = wgpu.gpu.request_adapter_sync(power_preference='high-performance')
print(a.info); print(dict(a.limits)); print(sorted(a.features))" > $OUT/adapter.txt 2>&1
export NUMR_STRESS=full
NUMR_FUZZ_TRACE=$OUT/fuzz-trace-fft.txt CUDA_LAUNCH_BLOCKING=1 NUMR_TEST_BACKENDS=cuda NUMR_FUZZ_EXAMPLES=25 \
  step fuzzfft 100 python3 -m pytest -p no:cacheprovider -q -x tests/reliability/test_fuzz_invalid_input.py -k "cuda and fft"
NUMR_FUZZ_TRACE=$OUT/fuzz-trace-all.txt NUMR_TEST_BACKENDS=cuda NUMR_FUZZ_EXAMPLES=25 \
  step fuzzall 110 python3 -m pytest -p no:cacheprovider -q -n 8 tests/reliability/test_fuzz_invalid_input.py -k cuda
unset NUMR_STRESS
NUMR_TEST_SLOW=1 step spectral 100 python3 -m pytest -p no:cacheprovider -q -n 4 --tb=long tests/webgpu_kernels/test_linalg_spectral_gpu.py
for b in cuda webgpu; do
  step sk-$b 170 python3 conformance/consumers/run.py --backend $b --suite sklearn -n 16 --time-budget 140 --tag h100-sklearn
done
cp conformance/results/consumers-*-h100-sklearn.* $OUT/ 2>/dev/null
cd $OUT && tar czf logs.tgz *.log *.txt *.md *.json 2>/dev/null; ls $OUT | head -30
