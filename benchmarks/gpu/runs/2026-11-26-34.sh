#!/bin/bash
# 2026-11-26, H100: the eigh tridiagonalisation variants (multi-workgroup
# column kernels, unchecked build) and the early-submit ramp (interleaved A/B at 10 and
# 20 queued calls, then the sweep's reductions).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
EIGH_PROBE_JACOBI=0 EIGH_PROBE_DTYPES=float32 EIGH_PROBE_VARIANTS="TRD=step;default;TRUSTED=1;UPD_RPS=1;UPD_RPS=4;UPD_RPS=1,TRUSTED=1" step eigh 200 python3 benchmarks/gpu/eigh_tridiag_probe.py 1024 2048
pack
step ab10 120 python3 benchmarks/gpu/submit_ab.py 11 --reps=10
step ab20 120 python3 benchmarks/gpu/submit_ab.py 11 --reps=20
pack
step sweepred 120 python3 benchmarks/sweep.py --backends numr-webgpu,cupy --sizes large --families reductions,elementwise,scans
pack; cat $L/summary.txt
