#!/bin/bash
# 2026-11-26, H100 (the sweep's acceptance rows): the whole sweep at both sizes for
# numr webgpu / numr cuda / CuPy / PyTorch in one run (the unchecked GEMM, early submission
# at 1 GiB), the per-op eager chain, and the fft chain (no regression).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step sweep 330 python3 benchmarks/sweep.py --backends numr-webgpu,numr-cuda,cupy,torch --json $L/sweep.json
pack
step chain 90 python3 benchmarks/webgpu_core.py --mib 64 --chain 500 --repeats 20
pack
step fft 90 python3 benchmarks/webgpu_fft.py --chain 10 --libs cupy --json $L/fft.json
pack; cat $L/summary.txt
