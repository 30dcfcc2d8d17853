"""Code as a user writes it against numr's namespaces, type-checked by test_typing.py with
``mypy --strict``; never run. Each ``reveal_type`` line is read back by the test."""

import warnings

import numpy as np

import numr_array_api
import numr_array_api.cpu as cpu
import numr_array_api.cuda as cuda
import numr_array_api.webgpu as webgpu
from numr_array_api import Device
from numr_array_api.errors import DeviceMismatch, NumrError
from numr_array_api.ext import linalg as ext_linalg, random, reductions, register


def normalise(x: cpu.Array) -> cpu.Array:
    centred = x - cpu.mean(x, axis=0, keepdims=True)
    return centred / cpu.std(x, axis=0, correction=1, keepdims=True)


def use_cpu() -> float:
    xp = cpu
    reveal_type(xp.sum(xp.ones(3)))  # revealed: cpu
    a = xp.asarray([[1.0, 2.0], [3.0, 4.0]], dtype=xp.float32)
    b = xp.reshape(xp.arange(4, dtype=xp.float64), (2, 2))
    c = a @ b.T + 1.0
    c[0, :] = 0.0
    c += xp.eye(2)
    mask = (c > 0.5) & xp.isfinite(c)
    d = xp.where(mask, c, xp.nan)
    shape: tuple[int, ...] = d.shape
    dev: Device = d.device
    assert dev == "cpu" and d.ndim == len(shape) and d.size >= 0
    assert xp.isdtype(d.dtype, "real floating") and xp.finfo(d.dtype).eps > 0
    values, counts = xp.unique_counts(xp.asarray([1, 1, 2]))
    q, r = xp.linalg.qr(normalise(a))
    spectrum = xp.fft.rfft(xp.linspace(0.0, 1.0, 16), norm="ortho")
    info = xp.__array_namespace_info__()
    assert info.capabilities()["boolean indexing"] and info.default_dtypes()["indexing"]
    assert xp.__array_api_version__ == "2025.12" and xp.newaxis is None
    host = np.asarray(xp.abs(spectrum))
    total = xp.linalg.vector_norm(q @ r) + xp.sum(values * counts) + float(host.sum())
    return float(total[()])


def use_cuda() -> None:
    xp = cuda
    reveal_type(xp.sum(xp.ones(3)))  # revealed: cuda
    x = xp.zeros((4, 4), dtype=xp.float32, device="cuda:0")
    graph = xp.capture_graph(lambda y: xp.linalg.matmul(y, y), x, warmup=True)
    out: cuda.Array = graph.replay(sync=True)
    xp.synchronize()
    stats = xp.memory_stats()
    xp.set_memory_limit(2**30)
    handle = xp.runtime.raw_handle(0)
    pending = xp.copy_from_device_pipelined(out, wait=False)
    assert pending.ready() and handle.stream_ptr and stats
    print(xp.fft.fftfreq(8, device=x.device), xp.preload(elementwise=True))


def use_webgpu() -> None:
    xp = webgpu
    reveal_type(xp.sum(xp.ones(3)))  # revealed: webgpu
    warnings.simplefilter("error", xp.HostFallbackWarning)
    x = xp.asarray(np.ones((8, 8), dtype=np.float32), device="webgpu:0")
    graph = xp.capture_graph(lambda y: xp.exp(y) * 2.0, x)
    y: webgpu.Array = graph(x)
    print(graph.num_dispatches, xp.capabilities()["native_dtypes"])
    xp.synchronize()
    xp.empty_cache()
    xp.set_memory_limit(None)
    device, queue = xp.raw_handle()
    print(device, queue, xp.memory_stats()["allocated"])
    print(xp.linalg.svd(y).S, xp.fft.fftn(xp.astype(y, xp.complex64), axes=(0, 1)))


def use_ext() -> None:
    a = cpu.ones((2, 3, 4))
    b = cpu.ones((4, 5))
    reveal_type(ext_linalg.gemm_epilogue(a, b, activation="gelu"))  # revealed: cpu
    grad_a, grad_b, grad_bias = ext_linalg.gemm_epilogue_bwd(a @ b, a, b)
    points = random.sobol(128, 3, scramble=True, seed=7)
    reveal_type(points)  # revealed: numr
    lhs: numr_array_api.Array = random.latin_hypercube(16, 2, seed=0, device="cpu")
    print(grad_a, grad_b, grad_bias, lhs, random.halton(8, 2, xp=np))
    print(reductions.nansum(webgpu.ones(3), axis=0), reductions.nanmean(points))

    @register("sobol", "my_library")
    def my_sobol(xp: object, n: int) -> None:
        del xp, n

    my_sobol(cpu, 3)


def portable(x: numr_array_api.Array) -> numr_array_api.Array:
    xp = x.__array_namespace__()
    try:
        with numr_array_api.semantics("strict"), numr_array_api.host_conversion("raise"):
            # the namespace is a module to a type checker: its results are Any
            y: numr_array_api.Array = x + xp.ones(x.shape, dtype=x.dtype, device=x.device)
            return y
    except (DeviceMismatch, NumrError):
        return x.to_device("cpu")


if __name__ == "__main__":
    raise SystemExit("type-checked by tests/typing/test_typing.py, not run")
