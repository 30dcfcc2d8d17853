#!/bin/bash
# 2026-11-26, H100: the fixes after runs/2026-11-26-04.sh (eig conjugate pairs: SciPy's iircomb
# symmetry, linspace composition, squares), SciPy whole on webgpu, and fft / sweep / linalg
# figures: fft and reduction sweeps with early submission off / on (same run), linalg table.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE"
NUMR_TEST_BACKENDS=cuda,webgpu step fixes 45 python3 -m pytest $T tests/test_elementwise.py tests/test_creation.py tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_runtime/test_batching.py -k "squares_exactly or linspace or conjugate_pairs or submit_early"; pack
step scipy-webgpu 170 python3 conformance/consumers/run.py --backend webgpu --suite scipy -n 16 --time-budget 160 --tag h100-scipy
cp conformance/results/consumers-webgpu-h100-scipy.* $L/ 2>/dev/null; pack
NUMR_WEBGPU_SUBMIT_BYTES=0 step fft-off 40 python3 benchmarks/webgpu_fft.py --repeats 10 --chain 10 --libs cupy,torch --json $L/fft-off.json
step fft-on 40 python3 benchmarks/webgpu_fft.py --repeats 10 --chain 10 --libs cupy,torch --json $L/fft-on.json; pack
NUMR_WEBGPU_SUBMIT_BYTES=0 step sweep-off 60 python3 benchmarks/sweep.py --families reductions,scans,elementwise,indexing --backends numr-webgpu,cupy --sizes large --reps-large 20 --json $L/sweep-off.json
step sweep-on 60 python3 benchmarks/sweep.py --families reductions,scans,elementwise,indexing --backends numr-webgpu,numr-cuda,cupy --sizes large --reps-large 20 --json $L/sweep-on.json; pack
step linalg 100 python3 benchmarks/webgpu_linalg.py --repeats 1 --json $L/linalg.json; pack
cat $L/summary.txt
