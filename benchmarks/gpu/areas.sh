#!/bin/bash
# A GPU run of 2026-11-26: each area's script (benchmarks/gpu/areas/<name>.sh) sourced in turn
# after prep.sh, each bounded; logs tarred to $OUT.
# bash benchmarks/gpu/areas.sh DIR [NAMES...]
D=$1; shift
source benchmarks/gpu/prep.sh
L=/tmp/logs; mkdir -p $L; OUTSAVE=$OUT; OUT=$L
for n in "$@"; do
  s=$(date +%s)
  ( source $D/$n.sh ) > $L/$n.round.log 2>&1
  echo "== $n done in $(( $(date +%s) - s ))s" | tee -a $L/summary.txt
done
OUT=$OUTSAVE; cd $L && tar czf $OUT/logs.tgz . ; cat $L/summary.txt
