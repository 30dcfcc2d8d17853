#!/usr/bin/env bash
# Run on the development machine from the repository root (e.g. /work/main), before the GPU
# run of benchmarks/gpu/cubed.sh: downloads into .whl-cubed/ (git-ignored) the wheels of
# Cubed, Dask distributed and their dependencies that the GPU machine's Python 3.12 lacks,
# pinned to the versions tested here (pyproject extra "distributed"). NumPy is the machine's
# own. cubed.sh installs them with `pip install --no-index --no-deps --target`.
# Carry ".whl-cubed" (next to ".whl" and ".gl") with the run.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
dest=.whl-cubed
mkdir -p "$dest"
plat="--platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux_2_5_x86_64 --platform manylinux1_x86_64"
pip=${PIP:-"python3 -m pip"}
pkgs=${NUMR_CUBED_WHEELS:-"
cubed==0.27.0 dask==2026.6.0 distributed==2026.6.0
zarr==3.1.6 numcodecs==0.16.6 google-crc32c==1.9.0 donfig==0.8.1.post1 typing-extensions==4.16.0
aiostream==0.8.1 lazy-importer==0.1.0 mypy-extensions==1.2.0 networkx==3.6.1 ndindex==1.10.1
tenacity==9.2.1 toolz==1.2.0 cloudpickle==3.1.2 partd==1.4.2 locket==1.0.0 fsspec==2026.9.0
importlib-metadata==10.2.0 zipp==4.1.2 packaging==26.3 pyyaml==6.0.3 click==8.5.1
msgpack==1.2.4 sortedcontainers==2.4.0 tblib==3.2.2 zict==3.0.0 psutil==7.2.2
tornado==6.6.1 jinja2==3.1.6 markupsafe==3.0.4 urllib3==2.8.0
tqdm==4.70.1 rich==15.0.0 markdown-it-py==4.3.0 mdurl==0.1.2 pygments==2.21.0
array-api-compat==1.16.0
"}
for p in $pkgs; do
  $pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
      --abi cp312 --abi abi3 --abi none $plat -d "$dest" "$p" 2>&1 | grep -v -i warning || true
done
# the project root's .gitignore lists /.whl-cubed/; a checkout without it excludes it locally
grep -qx '/.whl-cubed/' .gitignore 2>/dev/null || grep -qx '/.whl-cubed/' .git/info/exclude 2>/dev/null \
  || echo '/.whl-cubed/' >> "$(git rev-parse --git-path info/exclude)"
n=$(ls "$dest"/*.whl | wc -l)
echo "$n wheels in $root/$dest ($(du -sh "$dest" | cut -f1)):"
ls "$dest"
