#!/bin/bash
# 2026-11-27, H100: where eigh 512's wall time goes (eigh_phases.py) and the new eigh
# variants side by side in one process: the back-transformation's T in one dispatch
# (EIGH_BT_LARFT=batch, now the default, against each), W-point multisection
# (EIGH_MSECT_WG), Sturm loads a step ahead (EIGH_STURM_PF), inverse iteration's loads in
# blocks of 8 (EIGH_INVIT_PF); their correctness on the GPU (test_eigh_tridiag with all on).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step phases 90 python3 benchmarks/gpu/eigh_phases.py 512
pack
step var 300 python3 benchmarks/linalg_variants.py --cases eigh:512:float64,eigh:512:float32,eigh:2048:float64 --variants "default;EIGH_BT_LARFT=each;EIGH_MSECT_WG=256;EIGH_MSECT_WG=128;EIGH_STURM_PF=1;EIGH_INVIT_PF=1;EIGH_MSECT_WG=256,EIGH_STURM_PF=1,EIGH_INVIT_PF=1;default" --repeats 5
pack
NUMR_WEBGPU_EIGH_MSECT_WG=256 NUMR_WEBGPU_EIGH_STURM_PF=1 NUMR_WEBGPU_EIGH_INVIT_PF=1 step prof 60 python3 benchmarks/gpu_profile.py --case eigh:512:float64 --top 10
pack
NUMR_TEST_SLOW=1 NUMR_TEST_BACKENDS=webgpu NUMR_WEBGPU_EIGH_MSECT_WG=256 NUMR_WEBGPU_EIGH_STURM_PF=1 NUMR_WEBGPU_EIGH_INVIT_PF=1 step tests 150 python3 -m pytest -q -p no:cacheprovider -n 8 tests/webgpu_kernels/test_eigh_tridiag.py tests/webgpu_kernels/test_eigh_clusters.py
pack; cat $L/summary.txt; cat $L/phases.log; tail -40 $L/var.log; cat $L/prof.log; tail -3 $L/tests.log
