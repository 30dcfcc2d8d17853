#!/usr/bin/env python3
"""Scale-out across GPUs: Cubed on Dask with one numr worker per device, one device against
all of them, next to CuPy chunks in the same run.

    python benchmarks/suite/scaleout.py [--backend cuda,webgpu,cupy] [--size 2x]
                                        [--time-budget 120] [--json out.json] [--small]
    python benchmarks/suite/scaleout.py --backends numr-cuda,cupy   # the suite's names

The scale-out example (``python -m numr_array_api.distributed.example --scaling``,
docs/scale-out.md) with the suite's defaults: every GPU backend that has a device here, the
operations of numr_array_api/distributed/workloads.py, each checked against NumPy, and the
throughput ratio of all devices over one. Nothing here asserts a timing.
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from numr_array_api.distributed import example  # noqa: E402


def _backends():
    found = []
    for name in ("cuda", "webgpu", "cupy"):
        try:
            from numr_array_api.distributed import cluster
            if cluster.available_devices(name):
                found.append(name)
        except Exception:  # noqa: BLE001 - a backend without its library or device
            continue
    return ",".join(found) or "cpu"


_SUITE_NAMES = {"numr-cpu": "cpu", "numr-cuda": "cuda", "numr-webgpu": "webgpu", "cupy": "cupy"}


def main(argv):
    argv = list(argv)
    if "--backends" in argv:  # benchmarks/run.py's names; peers without chunks are left out
        i = argv.index("--backends")
        names = [_SUITE_NAMES[b] for b in argv[i + 1].split(",") if b in _SUITE_NAMES]
        argv[i:i + 2] = ["--backend", ",".join(names) or "cpu"]
    if "--backend" not in argv:
        argv += ["--backend", "cpu" if "--small" in argv else _backends()]
    if "--no-progress" not in argv:
        argv.append("--no-progress")
    return example.main(["--scaling", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
