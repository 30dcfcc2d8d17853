set -u
source benchmarks/gpu/prep.sh
timeout 150 bash benchmarks/gpu/cudafix.sh > $OUT/cudafix-run.log 2>&1; echo "cudafix rc=$?"
timeout 120 bash benchmarks/gpu/perf.sh > $OUT/perf-run.log 2>&1; echo "perf rc=$?"
timeout 310 bash benchmarks/gpu/rel.sh > $OUT/rel-run.log 2>&1; echo "rel rc=$?"
tail -4 $OUT/cudafix-run.log; grep -E "^(FAILED|ERROR)" $OUT/cudafix-tests.log | head -20
cat $OUT/perf-summary.log; tail -5 $OUT/perf-run.log
cat $OUT/rel-summary.txt
for f in $OUT/rel-*.log; do grep -E "^(FAILED|ERROR)" $f | head -10; done
cd $OUT && tar czf callD-logs.tgz *.log *.txt *.json 2>/dev/null; ls | head -50
