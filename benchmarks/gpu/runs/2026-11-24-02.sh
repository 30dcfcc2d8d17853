set -u
export OUT
timeout 380 bash benchmarks/gpu/cubed.sh > $OUT/cubed-run.log 2>&1; echo "cubed.sh rc=$?"
source benchmarks/gpu/prep.sh
timeout 150 bash benchmarks/gpu/docs.sh > $OUT/docs-run.log 2>&1; echo "docs.sh rc=$?"
tail -45 $OUT/cubed-run.log; tail -30 $OUT/docs-run.log
