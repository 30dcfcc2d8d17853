#!/bin/bash
# 2026-11-26, H100: grouped tile rasterisation of the GEMM (style
# "us<G>") against the row-major order, f32 / f64 / f16; whole-array reductions through
# rows of other lengths (NUMR_WEBGPU_REDUCE r<len>), with the raw read probe.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu,utilization.gpu --format=csv > $L/smi.txt 2>&1
step gemmv 240 python3 benchmarks/gemm_variants.py --cases f32_4096s,f32_2048s,f64_2048s,f64_4096s,f16_4096s --repeats 3
pack
step reduce 200 python3 benchmarks/reduce_variants.py --sizes large --probe --cases "sum f32,max(axis=1),sum(axis=1),mean,sum f64" --variants "r8192;r16384;r32768;r65536;r4096;r0;r16384,u8;r8192,b128"
pack
step gemmv2 120 python3 benchmarks/gemm_variants.py --cases f32_4096s --repeats 5
pack; cat $L/summary.txt
