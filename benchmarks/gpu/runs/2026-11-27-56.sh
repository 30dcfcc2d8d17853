#!/bin/bash
# 2026-11-27, H100: the column chain's shared bind group (EIGH_SHARED_BG, default on; the
# recorder keeps a bind group across pipelines of one group layout), the back-transformation's
# T in one dispatch and Sturm loads a step ahead, against each switched off, in one process;
# phases after; correctness on the GPU.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step var 240 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64,eigvalsh:512:float64 --variants "default;EIGH_SHARED_BG=0;EIGH_STURM_PF=1;EIGH_MSECT_WG=128,EIGH_STURM_PF=1;EIGH_SHARED_BG=0,EIGH_BT_LARFT=each;default;EIGH_STURM_PF=1" --repeats 5
pack
step phases 90 python3 benchmarks/gpu/eigh_phases.py 512
pack
NUMR_TEST_SLOW=1 NUMR_TEST_BACKENDS=webgpu NUMR_WEBGPU_EIGH_STURM_PF=1 step tests 200 python3 -m pytest -q -p no:cacheprovider -n 8 tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_eigh_clusters.py tests/webgpu_kernels/test_svd_aug.py tests/webgpu_runtime tests/webgpu_kernels/test_linalg_spectral_gpu.py
pack; cat $L/summary.txt; cat $L/phases.log; tail -40 $L/var.log; tail -3 $L/tests.log
