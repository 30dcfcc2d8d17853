#!/bin/bash
# 2026-11-26, H100, last run of the day: the whole official suite on webgpu (NVIDIA) and cuda,
# test_linalg and test_fft at 200 examples on webgpu, the cuda checks, then the last
# measurement of each area (benchmarks/gpu/areas/, trimmed to the steps that prove a goal). Logs
# are tarred to $OUT after every group, so a run cut short still returns what ran.
# bash benchmarks/gpu/runs/2026-11-26-50.sh HELPER...
source benchmarks/gpu/prep.sh
L=/tmp/logs2; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=./.suite/array-api-tests
step off-webgpu 80 python3 conformance/run.py --backend webgpu --suite $S --max-examples 50 --derandomize --tag h100 -- -n 16
step off-cuda 70 python3 conformance/run.py --backend cuda --suite $S --max-examples 50 --derandomize --tag h100 -- -n 16
cp conformance/results/*-h100.* $L/; pack
NUMR_TEST_BACKENDS=cuda step lead-cuda 50 python3 -m pytest -p no:cacheprovider -q tests/reliability/test_huge_requests.py tests/cuda_runtime/test_streams.py tests/test_creation.py tests/test_matmul.py tests/test_numpy_scalars_and_keys.py
NUMR_STRESS=full NUMR_TEST_BACKENDS=cuda NUMR_FUZZ_EXAMPLES=25 step lead-fuzz 40 python3 -m pytest -p no:cacheprovider -q -n 8 tests/reliability/test_fuzz_invalid_input.py
step lead-scipydiag 30 bash benchmarks/gpu/scipy_diag.sh cuda
step lead-demo 20 python3 -m pytest -p no:cacheprovider -q tests/integration/test_demo_quiet.py -k demo_prints
pack
for n in "$@"; do
  s=$(date +%s); ( source benchmarks/gpu/areas/$n.sh ) > $L/$n.round.log 2>&1
  echo "== $n done in $(( $(date +%s) - s ))s" | tee -a $L/summary.txt; pack
done
step off-linfft-200 60 python3 conformance/run.py --backend webgpu --suite $S --max-examples 200 --derandomize --tag h100-linalg-fft-200 --tests test_linalg.py test_fft.py -- -n 16
cp conformance/results/*-h100-linalg-fft-200.* $L/ 2>/dev/null; pack
cat $L/summary.txt
