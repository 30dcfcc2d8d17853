set -u
source benchmarks/gpu/prep.sh
SUITE=$PWD/.suite/array-api-tests
pack() { (cd $OUT && tar czf callF-logs.tgz *.log *.txt 2>/dev/null; cp $PWD/../conformance/results/*h100* . 2>/dev/null; true); }
step size 100 env NUMR_TEST_BACKENDS=webgpu NUMR_TEST_SLOW=1 python3 -m pytest -p no:cacheprovider -q -rf tests/webgpu_kernels/test_gpu_size_acceptance.py tests/webgpu_kernels/test_reduction_big.py -k "gib"
pack
step off-webgpu 140 python3 conformance/run.py --backend webgpu --suite $SUITE --max-examples 50 --derandomize --tag h100 -- -n 16
pack
step off-cuda 120 python3 conformance/run.py --backend cuda --suite $SUITE --max-examples 50 --derandomize --tag h100 -- -n 16
pack
step cons-cuda 90 python3 conformance/consumers/run.py --backend cuda --suite sklearn -n 16 --time-budget 35 --tag h100-sklearn
step cons-webgpu 90 python3 conformance/consumers/run.py --backend webgpu --suite sklearn -n 16 --time-budget 35 --tag h100-sklearn
mkdir -p $OUT/res && cp conformance/results/*h100* $OUT/res/ 2>/dev/null
cd $OUT && tar czf callF-all.tgz *.log *.txt res 2>/dev/null
cat summary.txt; grep -E "^(FAILED|E )" size.log | head -12
