#!/bin/bash
# (a record: the variant it measured, NUMR_WEBGPU_SMALL_SPECTRAL_PRE, was not kept; its code is not in the tree)
# 2026-11-27, H100: float64 small-stack eigh preconditioned by float32 Jacobi
# (small_pre.py) against the plain float64 kernel in one process; the spectral tests; what
# a dependent dispatch costs with 9 bound buffers and alternating pipelines.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
T="-p no:cacheprovider -q -rfE --timeout=140"
step chain 90 bash -c "python3 benchmarks/gpu/dispatch_chain.py --groups 1,132 --bufs 1,9 --reps 3 && python3 benchmarks/gpu/dispatch_chain.py --groups 1,132 --bufs 9 --alt --reps 3"
pack
step var 200 python3 benchmarks/linalg_variants.py --cases eigh:10000x32:float64,eigh-cov:10000x32:float64,eigh:10000x20:float64,eigh:10000x32:float64 --variants "default;SMALL_SPECTRAL_PRE=0" --repeats 7 --check
pack
step prof 60 python3 benchmarks/gpu_profile.py --case eigh:10000x32:float64 --top 12
pack
step tests 200 python3 -m pytest $T -n 16 tests/webgpu_kernels/test_linalg_spectral_gpu.py tests/webgpu_kernels/test_small_spectral.py tests/test_linalg.py
pack; cat $L/summary.txt; cat $L/chain.log; tail -30 $L/var.log; cat $L/prof.log; tail -5 $L/tests.log
