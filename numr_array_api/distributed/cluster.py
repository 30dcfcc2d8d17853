"""A local Dask cluster with one worker per device, and Cubed specs that run on it.

Each worker is a separate process (a Dask ``Nanny``) started with the environment that pins
it to one device before anything touches a GPU:

* cuda / cupy: ``CUDA_VISIBLE_DEVICES=<ordinal>`` (the worker's only device is its
  ``cuda:0``; the cuda namespace and CuPy default to it);
* webgpu: ``NUMR_WEBGPU_ADAPTER=<adapter index>`` (the webgpu namespace's default adapter;
  backends/webgpu/runtime/adapters.py), plus ``CUDA_VISIBLE_DEVICES`` of the same ordinal,
  so a memory query through CuPy sees the same GPU;
* every backend: ``CUBED_BACKEND_ARRAY_API_MODULE`` naming the chunk namespace;
* cupy (the CuPy peer) also: ``ZARR_BUFFER`` / ``ZARR_NDBUFFER`` naming Zarr's GPU buffers:
  Cubed hands CuPy chunks to Zarr as they are (``np.asarray`` of a CuPy array is refused),
  and Zarr's default host buffers cannot encode them.

One thread per worker: a device is driven by one process and one thread (the webgpu
runtime is not yet safe to drive from several threads at once; see docs/scale-out.md).
Cubed plans, Dask runs: nothing here schedules tasks.
"""

import logging
import os
from collections import Counter

from .._core import environment

__all__ = ["CHUNK_NAMESPACES", "chunk_namespace", "use_backend", "available_devices",
           "backend_env", "worker_env", "local_cluster", "worker_devices", "cubed_spec",
           "to_numpy"]

# backend name -> the module Cubed takes its chunk namespace from
CHUNK_NAMESPACES = {
    "cpu": "numr_array_api.distributed.cpu",
    "cuda": "numr_array_api.distributed.cuda",
    "webgpu": "numr_array_api.distributed.webgpu",
    "cupy": "array_api_compat.cupy",  # the CuPy peer, for comparisons
    "numpy": "array_api_compat.numpy",
}

_ENV = "CUBED_BACKEND_ARRAY_API_MODULE"
# Zarr's configuration (donfig, read when zarr is imported) for device buffers: Cubed
# stores CuPy chunks through them (cubed-dev/cubed#772)
_ZARR_GPU = {"ZARR_BUFFER": "zarr.buffer.gpu.Buffer", "ZARR_NDBUFFER": "zarr.buffer.gpu.NDBuffer"}


def backend_env(backend):
    """Environment a process computing Cubed arrays with ``backend``'s chunks needs (the
    client as well as every worker), before it imports cubed."""
    env = {_ENV: chunk_namespace(backend)}
    if backend == "cupy":
        env.update(_ZARR_GPU)
    return env


def chunk_namespace(backend):
    """The module name Cubed must import as its backend for ``backend``."""
    try:
        return CHUNK_NAMESPACES[backend]
    except KeyError:
        raise ValueError(f"unknown backend {backend!r}; expected one of "
                         f"{sorted(CHUNK_NAMESPACES)}") from None


def use_backend(backend):
    """Select ``backend``'s chunk namespace for Cubed in this process. Cubed reads the
    choice once, when ``cubed`` is first imported: call this before that import."""
    import sys

    name = chunk_namespace(backend)
    env = backend_env(backend)
    loaded = sys.modules.get("cubed.backend_array_api")
    if loaded is not None and getattr(loaded, "xp_name", name) != name:
        raise RuntimeError(f"cubed is already imported with backend {loaded.xp_name!r}; "
                           f"set {_ENV}={name} before importing cubed (one backend per "
                           f"process)")
    environment.export(**env)
    return name


def _gpu_adapters():
    """Indices of the WebGPU adapters to use: native (Vulkan / Metal / D3D12) non-CPU
    adapters; where there is none, the native CPU ones (lavapipe)."""
    from ..backends.webgpu.runtime import adapters

    native = [a for a in adapters.list_adapters()
              if a["backend"].lower() in ("vulkan", "metal", "d3d12")]
    gpus = [a["index"] for a in native if a["type"].replace(" ", "").lower() != "cpu"]
    return gpus or [a["index"] for a in native]


def available_devices(backend):
    """Device ordinals a worker can be pinned to: CUDA ordinals (cuda / cupy), WebGPU
    adapter indices (webgpu), ``[None]`` for cpu / numpy (one worker per process)."""
    if backend in ("cuda", "cupy"):
        import cupy
        return list(range(cupy.cuda.runtime.getDeviceCount()))
    if backend == "webgpu":
        return _gpu_adapters()
    chunk_namespace(backend)
    return [None]


def worker_env(backend, device):
    """Environment that pins a worker process to ``device`` of ``backend``."""
    env = backend_env(backend)
    if device is None:
        return env
    if backend in ("cuda", "cupy"):
        env["CUDA_VISIBLE_DEVICES"] = str(device)
    elif backend == "webgpu":
        env["NUMR_WEBGPU_ADAPTER"] = str(device)
        gpus = _gpu_adapters()
        if device in gpus:
            env["CUDA_VISIBLE_DEVICES"] = str(gpus.index(device))
    return env


def local_cluster(backend, devices=None, *, workers_per_device=1, memory_limit="4GiB",
                  dashboard_address=None, env=None, silence_logs=logging.WARNING,
                  **scheduler_options):
    """A Dask ``SpecCluster`` on this host with one single-threaded worker process per
    device (``workers_per_device`` each: two on one GPU exercise the multi-GPU code path
    where only one GPU exists).

    ``devices``: ordinals to use (default: every device ``available_devices`` finds; for
    cpu / numpy an integer count or list of ``None``). ``memory_limit``: per worker (Dask's
    format); Cubed requires it to be at least the spec's ``allowed_mem``. ``env``: extra
    environment for every worker. Worker names are ``"<backend>:<device>[/<k>]"``.
    """
    from distributed import Nanny, Scheduler, SpecCluster

    if devices is None:
        devices = available_devices(backend)
    elif isinstance(devices, int):
        devices = [None] * devices if backend in ("cpu", "numpy") else list(range(devices))
    if not devices:
        raise RuntimeError(f"no {backend} device to start a worker on")
    pinned = [dev for dev in devices for _ in range(workers_per_device)]
    labels = [n if dev is None else dev for n, dev in enumerate(pinned)]
    count, seen = Counter(labels), Counter()
    workers = {}
    for dev, label in zip(pinned, labels):
        # "<backend>:<device>", with "/k" where one device carries several workers
        name = f"{backend}:{label}"
        if count[label] > 1:
            name += f"/{seen[label]}"
            seen[label] += 1
        wenv = dict(env or {})
        wenv.update(worker_env(backend, dev))
        workers[name] = {"cls": Nanny, "options": {
            "nthreads": 1, "memory_limit": memory_limit, "env": wenv, "name": name,
            "silence_logs": silence_logs}}
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": dashboard_address,
                                                **scheduler_options}}
    cluster = SpecCluster(workers=workers, scheduler=scheduler, name=f"numr-{backend}",
                          silence_logs=silence_logs)
    return cluster


def _describe_device():
    """Runs on a worker: which device its chunk namespace computes on."""
    import importlib
    import socket

    env = environment.child_environ()   # this worker's own environment, as started
    name = env.get(_ENV, "numpy")
    out = {"host": socket.gethostname(), "pid": os.getpid(), "namespace": name,
           "CUDA_VISIBLE_DEVICES": env.get("CUDA_VISIBLE_DEVICES"),
           "NUMR_WEBGPU_ADAPTER": env.get("NUMR_WEBGPU_ADAPTER"),
           "memory_bytes": None}
    xp = importlib.import_module(name)
    info = xp.__array_namespace_info__()
    dev = info.default_device()
    out["device"] = str(dev)
    if name.endswith(".webgpu"):
        caps = importlib.import_module("numr_array_api.webgpu").capabilities(dev)
        out["name"] = f"{caps['adapter']['name']} ({caps['adapter']['backend']})"
        out["max_buffer_bytes"] = caps["max_buffer_bytes"]
        out["memory_bytes"] = _cuda_memory(same_name_as=caps["adapter"]["name"])
    elif name.endswith(".cuda") or name.endswith(".cupy"):
        import cupy
        props = cupy.cuda.runtime.getDeviceProperties(cupy.cuda.Device().id)
        out["name"] = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
        out["memory_bytes"] = _cuda_memory()
    else:
        out["name"] = "host CPU"
    return out


def _cuda_memory(same_name_as=None):
    """Total memory of the worker's CUDA device 0 (through CuPy), or None. With
    ``same_name_as``, only when that device carries this name (a WebGPU adapter's)."""
    try:
        import cupy
        if cupy.cuda.runtime.getDeviceCount() < 1:
            return None
        if same_name_as is not None:
            n = cupy.cuda.runtime.getDeviceProperties(0)["name"]
            n = n.decode() if isinstance(n, bytes) else n
            if n.strip().lower() not in same_name_as.strip().lower():
                return None
        return int(cupy.cuda.Device(0).mem_info[1])
    except Exception:  # no CuPy, no driver: the caller sizes chunks without it
        return None


def to_numpy(x):
    """A computed Cubed result (an array of the chunk namespace) as a NumPy array: numr
    arrays through an explicit copy to the host (``to_device("cpu")``), CuPy's with
    ``.get()`` (CuPy refuses ``np.asarray``)."""
    import numpy as np

    top = type(x).__module__.split(".")[0]
    if top == "cupy":
        return x.get()
    if top == "numr_array_api":
        x = x.to_device("cpu")
    return np.asarray(x)


def worker_devices(client):
    """``{worker name: description}`` of every worker's device, asked of the workers
    themselves (device name, ``device``, ``memory_bytes``, pinning variables, pid)."""
    by_address = client.run(_describe_device)
    names = {a: w.get("name", a) for a, w in client.scheduler_info(n_workers=-1)["workers"].items()}
    return {names.get(a, a): d for a, d in sorted(by_address.items(), key=lambda kv: names.get(kv[0], kv[0]))}


def cubed_spec(cluster, *, work_dir=None, allowed_mem="2GB", reserved_mem=0, **spec_options):
    """A ``cubed.Spec`` whose computations run on ``cluster`` (a Dask cluster, client or
    scheduler address) through Cubed's own ``DaskExecutor``."""
    import cubed
    from cubed.runtime.executors.dask import DaskExecutor

    address = getattr(cluster, "scheduler_address", None) or getattr(
        getattr(cluster, "scheduler", None), "address", None) or cluster
    executor = DaskExecutor(compute_kwargs={"address": address})
    return cubed.Spec(work_dir=work_dir, allowed_mem=allowed_mem, reserved_mem=reserved_mem,
                      executor=executor, **spec_options)
