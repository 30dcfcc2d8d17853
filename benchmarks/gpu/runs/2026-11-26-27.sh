#!/bin/bash
# 2026-11-26, H100: kernels compiled without wgpu's runtime checks
# (index clamps, loop counters; wgpuDeviceCreateShaderModuleTrusted): the GEMM variants
# and the raw read probe, each next to the checked build in the same process.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step gemmt 240 python3 benchmarks/gemm_variants.py --cases f32_4096t,f32_2048t,f64_2048t,f16_4096t,batched_t,skinny_deep_t,skinny_wide_t --repeats 3
pack
step probe 120 python3 benchmarks/gpu/trusted_probe.py
pack; cat $L/summary.txt
