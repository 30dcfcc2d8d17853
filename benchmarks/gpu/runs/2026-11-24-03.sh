set -u
source benchmarks/gpu/prep.sh
export SUITE=$PWD/.suite/array-api-tests
timeout 200 bash benchmarks/gpu/sort.sh > $OUT/sort-run.log 2>&1; echo "sort.sh rc=$?"
timeout 330 bash benchmarks/gpu/fft.sh > $OUT/fft-run.log 2>&1; echo "fft.sh rc=$?"
tail -60 $OUT/sort-run.log; echo; tail -40 $OUT/fft-run.log
