"""Cubed on a two-worker Dask cluster over one numr chunk namespace, checked against NumPy.

Run in a fresh process by test_cubed_dask.py (Cubed binds its chunk namespace at import):

    python tests/scaleout/cubed_job.py cpu 2            # two cpu workers
    python tests/scaleout/cubed_job.py webgpu 0,0       # two workers pinned to adapter 0

Prints one line ``@@RESULT@@{json}``: the workers' devices, per check whether it equals
NumPy (and its largest error), the chunk types the workers saw, and whether every worker ran
tasks.
"""

import json
import sys
import tempfile

import numpy as np


def _chunk_probe(block):
    # runs on a worker: the chunk Cubed hands to a chunk function is an array of the chunk
    # namespace on the worker's device, never a NumPy array
    from cubed.backend_array_api import namespace as nxp

    ok = type(block).__module__ == nxp.__name__ and block.device == \
        nxp.__array_namespace_info__().default_device()
    return nxp.full(block.shape, 1.0 if ok else 0.0, dtype=nxp.float64,
                    device=block.device)


def main(backend, devices):
    from numr_array_api.distributed import cluster as C

    C.use_backend(backend)
    import cubed
    import cubed.array_api as cx
    from distributed import Client

    rng = np.random.default_rng(7)
    a = rng.standard_normal((60, 50))
    b = rng.standard_normal((50, 30))
    v = rng.standard_normal(50)
    an = a.copy()
    an[rng.random(a.shape) < 0.1] = np.nan
    an[3] = np.nan  # an all-NaN row
    ai = rng.integers(-50, 50, size=(40, 30))

    out = {"backend": backend, "results": {}}
    with tempfile.TemporaryDirectory() as tmp, \
            C.local_cluster(backend, devices, memory_limit="1GiB") as cluster, \
            Client(cluster) as client:
        out["workers"] = C.worker_devices(client)
        spec = C.cubed_spec(cluster, work_dir=tmp, allowed_mem="256MB")
        x = cubed.from_array(a, chunks=(16, 16), spec=spec)
        y = cubed.from_array(b, chunks=(16, 16), spec=spec)
        w = cubed.from_array(v, chunks=(16,), spec=spec)
        xn = cubed.from_array(an, chunks=(16, 16), spec=spec)
        xi = cubed.from_array(ai, chunks=(16, 16), spec=spec)
        with np.errstate(invalid="ignore", divide="ignore"):
            checks = {
                "sum": (cx.sum(x, axis=0), a.sum(axis=0)),
                "mean": (cx.mean(x), a.mean()),
                "mean_axis1": (cx.mean(x, axis=1), a.mean(axis=1)),
                "std": (cx.std(x, axis=1), a.std(axis=1)),
                "var_correction": (cx.var(x, correction=1), a.var(ddof=1)),
                "max": (cx.max(x, axis=1), a.max(axis=1)),
                "int_mean": (cx.mean(cx.astype(xi, cx.float64)), ai.mean()),
                "int_sum": (cx.sum(xi, axis=1), ai.sum(axis=1)),
                "nansum": (cubed.nansum(xn, axis=1), np.nansum(an, axis=1)),
                "nanmean": (cubed.nanmean(xn, axis=0), np.nanmean(an, axis=0)),
                "matmul": (x @ y, a @ b),
                "matvec": (x @ w, a @ v),
                "elementwise": (cx.exp(x) * 2.0 - x, np.exp(a) * 2.0 - a),
                "chunks_on_device": (cubed.map_blocks(_chunk_probe, x, dtype=np.float64),
                                     np.ones_like(a)),
            }
        for name, (arr, ref) in checks.items():
            try:
                got = arr.compute()
                kind = f"{type(got).__module__}.{type(got).__name__}"
                got = np.asarray(got)
                ok = got.shape == np.shape(ref) and np.allclose(got, ref, rtol=1e-12,
                                                                   atol=1e-12, equal_nan=True)
                err = float(np.nanmax(np.abs(got - ref))) if got.shape == np.shape(ref) else None
                out["results"][name] = {"ok": bool(ok), "max_abs_err": err, "type": kind}
            except Exception as e:  # reported, and failed, by the test
                out["results"][name] = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        # Dask ran the tasks on every worker, not in this process
        out["tasks_per_worker"] = client.run(
            lambda dask_worker: dask_worker.state.transition_counter)
    print("@@RESULT@@" + json.dumps(out, default=str), flush=True)


if __name__ == "__main__":
    # cpu: a worker count; GPUs: the device each worker is pinned to ("0,0": two on one)
    arg = sys.argv[2]
    main(sys.argv[1], int(arg) if sys.argv[1] == "cpu" else [int(d) for d in arg.split(",")])
