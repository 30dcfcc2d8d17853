#!/bin/bash
# 2026-11-26, H100: today's changes on NVIDIA (official suite whole on webgpu
# and cuda, the demo, scikit-learn whole on both after the squaring operator), then tuning
# data: reduction row-mapping variants (sum, max) and the early-submit threshold for fft.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
S=./.suite/array-api-tests
T="-p no:cacheprovider -q -rfE"
step off-webgpu 70 python3 conformance/run.py --backend webgpu --suite $S --max-examples 50 --derandomize --tag h100 -- -n 16
step off-cuda 70 python3 conformance/run.py --backend cuda --suite $S --max-examples 50 --derandomize --tag h100 -- -n 16
cp conformance/results/webgpu-h100.* conformance/results/cuda-h100.* $L/ 2>/dev/null
step demo 25 python3 -m pytest $T tests/integration/test_demo_quiet.py; pack
for b in cuda webgpu; do
  step sk-$b 100 python3 conformance/consumers/run.py --backend $b --suite sklearn -n 16 --time-budget 90 --tag h100-sklearn
  cp conformance/results/consumers-$b-h100-sklearn.* $L/ 2>/dev/null; pack
done
step reduce-var 110 python3 benchmarks/reduce_variants.py --cases "sum f32,max(axis=1),sum f64,sum f16,mean" --sizes large --reps-large 20 --variants "g2048;g8192;g16384;u8;u8,g8192;x1;x1,g8192;b512,g4096;b1024,g4096"; pack
for sb in 33554432 134217728 268435456; do
  NUMR_WEBGPU_SUBMIT_BYTES=$sb step fft-sb$sb 25 python3 benchmarks/webgpu_fft.py --repeats 10 --chain 10 --libs cupy
done; pack
cat $L/summary.txt
