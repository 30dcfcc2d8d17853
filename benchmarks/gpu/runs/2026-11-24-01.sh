set -u; source benchmarks/gpu/prep.sh
step env 60 bash -c 'nvidia-smi -L; python3 -c "import numr_array_api.webgpu as w, numr_array_api.cuda as c; print(w.__array_namespace_info__().devices(), c.__array_namespace_info__().devices())"'
step core 150 python3 benchmarks/webgpu_core.py --mib 256 --chain 500 --repeats 20 --json $OUT/core.json
step sweep 330 python3 benchmarks/sweep.py --backends numr-webgpu,numr-cuda,cupy,torch --json $OUT/sweep.json
cat $OUT/summary.txt
