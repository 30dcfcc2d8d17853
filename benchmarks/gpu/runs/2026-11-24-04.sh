set -u
source benchmarks/gpu/prep.sh
timeout 240 bash benchmarks/gpu/linA.sh > $OUT/linA-run.log 2>&1; echo "linA.sh rc=$?"
step tests 320 env NUMR_TEST_BACKENDS=webgpu,cuda python3 -m pytest tests -p no:cacheprovider -q -n 16 --maxfail=60 --ignore=tests/reliability -p no:randomly
cat $OUT/linA-summary.log; cat $OUT/linA-bench.log | grep -v indirect; tail -5 $OUT/linA-tests.log
grep -E "^(FAILED|ERROR)" $OUT/tests.log | head -60; tail -3 $OUT/tests.log
cd $OUT && tar czf all-logs.tgz *.log *.json 2>/dev/null; ls
