step fftperf-check 30 python3 benchmarks/webgpu_fft.py --check
step fftperf-bench 35 python3 benchmarks/webgpu_fft.py --repeats 10 --chain 10 --libs cupy --json $OUT/fftperf-bench.json
