#!/bin/bash
# Prepared on 2026-11-27 after runs/2026-11-27-31.sh, for the next GPU run: the opt-in wide-panel
# variants added untimed (COMB=2, VDIV=1) on the qr rows, then the whole linalg table
# with the current defaults (the big rows were last measured in runs/2026-11-27-26.sh).
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
pack(){ (cd $L && tar czf $OUTSAVE/logs.tgz .); }
step qrvar 300 python3 benchmarks/linalg_variants.py --cases qr:512:float64,qr:2048:float64,qr:4096:float64,qr:512:float32 --variants "default;QR_WIDE_COMB=2;QR_WIDE_VDIV=1;QR_WIDE_COMB=2,QR_WIDE_VDIV=1" --repeats 5 --check
step table 290 python3 benchmarks/webgpu_linalg.py --repeats 2
pack; cat $L/summary.txt
