#!/bin/bash
# 2026-11-26, H100: probe of the full float32 sum (full path vs row
# path), with early submission and the reduction's own flush on / off.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack() { (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step sum-default 40 python3 benchmarks/gpu/sum_rows_probe.py
NUMR_WEBGPU_SUBMIT_BYTES=0 step sum-nosubmit 40 python3 benchmarks/gpu/sum_rows_probe.py
NUMR_WEBGPU_SUBMIT_BYTES=0 NUMR_WEBGPU_REDUCE=f0 step sum-noflush 40 python3 benchmarks/gpu/sum_rows_probe.py
NUMR_WEBGPU_REDUCE=x1,g8192 step sum-x1 40 python3 benchmarks/gpu/sum_rows_probe.py
pack
cat $L/*.log | grep -v Warning
