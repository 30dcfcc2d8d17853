#!/bin/bash
# 2026-11-26, H100: where the wide QR panel's float32 results at 1e+-30 turn
# non-finite on the H100, and the panel's rows-per-thread on the probe sizes.
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step diag 90 python3 benchmarks/gpu/qr_scale_diag.py
pack
QR_PROBE_VARIANTS="wide;RPT=4;RPT=8" QR_PROBE_DTYPES="float32;float64" step qrvar 150 python3 benchmarks/gpu/qr_panel_probe.py 512 2048 4096
pack; cat $L/summary.txt
