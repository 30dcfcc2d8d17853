#!/bin/bash
# 2026-11-26, H100: SciPy's whole array-API selection on numr cuda and numr
# webgpu (after linspace's float32 work dtype and the squaring operator), the kruskal
# diagnostic, and the tests those fixes added.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
for b in cuda webgpu; do SCIPY_ARRAY_API=1 step kdiag-$b 25 python3 benchmarks/gpu/kruskal_diag.py $b; done
NUMR_TEST_BACKENDS=cuda,webgpu step fixes 40 python3 -m pytest $T tests/test_elementwise.py tests/test_creation.py tests/webgpu_kernels/test_fft_gpu.py -k "squares_exactly or linspace or plan_methods"; pack
step scipy-cuda 160 python3 conformance/consumers/run.py --backend cuda --suite scipy -n 16 --time-budget 140 --tag h100-scipy
cp conformance/results/consumers-cuda-h100-scipy.* $L/ 2>/dev/null; pack
step scipy-webgpu 300 python3 conformance/consumers/run.py --backend webgpu --suite scipy -n 16 --time-budget 280 --tag h100-scipy
cp conformance/results/consumers-webgpu-h100-scipy.* $L/ 2>/dev/null; pack
cat $L/summary.txt
