# sourced at the start of every GPU call (see ../shared/device/README.md)
for f in .gl/*.deb; do dpkg -x $f /; done; ldconfig
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json PYTHONUNBUFFERED=1 XDG_RUNTIME_DIR=/tmp
mkdir -p $OUT
step() {  # step NAME TIMEOUT CMD...: log to $OUT/NAME.log, summary line to $OUT/summary.txt
  local name=$1 t=$2; shift 2; local s=$(date +%s)
  timeout --signal=INT --kill-after=15 $t "$@" > $OUT/$name.log 2>&1; local rc=$?
  echo "$name rc=$rc $(( $(date +%s) - s ))s :: $(tail -1 $OUT/$name.log | cut -c1-200)" | tee -a $OUT/summary.txt
}
