#!/bin/bash
# 2026-11-26, H100: early-submission thresholds. runs/2026-11-26-23.sh showed the
# host's time per queued 256 MiB sum (~160 us) above the GPU's (~95 us): each early submit
# costs the host ~50 us (pass end, encoder finish, native submit ~25 us, new pass). Compare
# NUMR_WEBGPU_SUBMIT_BYTES 64 MiB (default) / 256 MiB / 1 GiB with the reductions' own
# early submit (REDUCE f32 default, f0 off, f128), and the fft chain under each.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
C="sum f32,max(axis=1),var(axis=0),cumulative_sum,x + x"
for SB in 67108864 268435456 1073741824; do
  NUMR_WEBGPU_SUBMIT_BYTES=$SB step red-$SB 120 python3 benchmarks/reduce_variants.py --sizes large --cases "$C" --variants "f32;f0;f128;f512"
  NUMR_WEBGPU_SUBMIT_BYTES=$SB step fft-$SB 120 python3 benchmarks/webgpu_fft.py --chain 10 --libs cupy
  pack
done
NUMR_WEBGPU_SUBMIT_BYTES=1073741824 step hostdiag-1g 120 python3 benchmarks/gpu/host_diag.py
pack; cat $L/summary.txt
