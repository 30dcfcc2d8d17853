"""Bounded memory: empty_cache gives back every byte, the memory limit, the LRU kernel cache.

After every array is deleted, ``empty_cache()`` must leave no buffer held: a cache that
keeps storages (plans, tables, recipes, scalar operands, item()'s read-backs, the index
status word) and is not registered in runtime/caches.py shows up as allocated bytes here.
That check runs in a fresh interpreter, where no other test's arrays are alive.
"""

import dataclasses
import gc
import os

import numpy as np
import pytest

import numr_array_api.tuning as tuning
from numr_array_api._core import dtypes as D
from numr_array_api._core.errors import InvalidArgument, OutOfMemory
from numr_array_api.backends.webgpu.codegen.layout import Buf, Layout
from numr_array_api.backends.webgpu.codegen.spec import KernelSpec
from numr_array_api.backends.webgpu.codegen.template import Template

from .conftest import run_py

# every op family on small sizes (and a stacked batch for linalg), twice: the second pass
# replays the recipes the first one recorded
_EVERY_FAMILY = r"""
import gc, warnings
import numpy as np
warnings.simplefilter("ignore")
import numr_array_api.webgpu as xp
from numr_array_api.ext import linalg as extla

rng = np.random.default_rng(0)


def f(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def close(got, want, tol=2e-3):
    got = np.asarray(got)
    assert np.allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max()))), \
        (got, want)


def every_family():
    a, b, v = f(8, 8), f(8, 8), f(300)
    A, B, V = xp.asarray(a), xp.asarray(b), xp.asarray(v)
    close(xp.sin(A) + B * 2, np.sin(a) + b * 2)
    close(xp.sum(A, axis=0), a.sum(0)); close(xp.max(A), a.max()); close(xp.std(A), a.std())
    close(xp.argmax(A, axis=1), a.argmax(1))
    close(A @ B, a @ b); close(xp.matmul(xp.asarray(f(3, 8, 8)), B).shape, (3, 8, 8))
    close(xp.sort(V), np.sort(v)); close(xp.argsort(V, stable=True), np.argsort(v, kind="stable"))
    iv = rng.integers(0, 10, 300).astype(np.int32)
    IV = xp.asarray(iv)
    close(xp.unique_values(IV), np.unique(iv))
    vals, counts = xp.unique_counts(IV)
    close(counts, np.unique(iv, return_counts=True)[1])
    xp.unique_all(IV); xp.unique_inverse(IV)
    sv = np.sort(v)
    close(xp.searchsorted(xp.asarray(sv), V), np.searchsorted(sv, v))
    close(xp.cumulative_sum(V), np.cumsum(v), 1e-3)
    close(xp.cumulative_sum(A, axis=1), np.cumsum(a, axis=1))
    idx = np.array([3, 1, 4], np.int64)
    I = xp.asarray(idx)
    close(xp.take(V, I), v[idx]); close(V[V > 0], v[v > 0]); close(A[I], a[idx])
    close(xp.take_along_axis(A, xp.argsort(A, axis=1), axis=1), np.sort(a, axis=1))
    close(xp.nonzero(V > 0)[0], np.nonzero(v > 0)[0])
    c, C = np.arange(40, dtype=np.float32), xp.asarray(np.arange(40, dtype=np.float32))
    C[2:5] = 7.0; C[I] = 1.0; C[C > 5] = 0.0
    c[2:5] = 7.0; c[idx] = 1.0; c[c > 5] = 0.0
    close(C, c)
    for m in (16, 19):
        z = (rng.standard_normal(m) + 1j * rng.standard_normal(m)).astype(np.complex64)
        close(xp.fft.fft(xp.asarray(z)), np.fft.fft(z))
        close(xp.fft.rfft(xp.asarray(z.real)), np.fft.rfft(z.real))
        close(xp.fft.irfft(xp.asarray(z)), np.fft.irfft(z))
    spd = rng.standard_normal((6, 6))
    spd = spd @ spd.T + 6 * np.eye(6)
    for m in (spd, np.stack([spd, spd + np.eye(6)])):
        M = xp.asarray(m.astype(np.float32))
        close(xp.linalg.cholesky(M), np.linalg.cholesky(m))
        close(xp.linalg.inv(M), np.linalg.inv(m))
        close(xp.linalg.solve(M, M[..., :2]), np.linalg.solve(m, m[..., :2]))
        q, r = xp.linalg.qr(M)
        close(xp.matmul(q, r), m)
        close(xp.linalg.eigh(M)[0], np.linalg.eigvalsh(m))
        close(xp.linalg.svd(M)[1], np.linalg.svd(m)[1])
    w = xp.linalg.eig(xp.asarray(f(5, 5)))[0]
    assert w.shape == (5,)
    bias = f(8)
    ref = np.maximum(a @ b + bias, 0)
    close(extla.gemm_epilogue(A, B, xp.asarray(bias), activation="relu"), ref)
    float(xp.sum(A)); int(xp.argmax(V))   # item(): its read-back is kept


for _ in range(2):
    every_family()
xp.synchronize()
gc.collect()
live = xp.memory_stats()
xp.empty_cache()
s = xp.memory_stats()
print("STATS", live["allocated_bytes"], s["allocated_bytes"], s["pooled_bytes"],
      s["reserved_bytes"], s["staging_bytes"])
assert live["allocated_bytes"] > 0
held = {k: s[k] for k in ("allocated_bytes", "pooled_bytes", "reserved_bytes",
                          "staging_bytes")}
assert not any(held.values()), held
print("OK")
"""


@pytest.mark.webgpu
def test_empty_cache_gives_back_every_byte_after_every_op_family():
    r = run_py(_EVERY_FAMILY, timeout=900)
    assert r.returncode == 0 and "OK" in r.stdout, r.stdout[-3000:] + r.stderr[-3000:]


_FROM_ENV = r"""
import numr_array_api.webgpu as xp
s = xp.memory_stats()
print("LIMITS", s["memory_limit_bytes"], s["pool_limit_bytes"])
"""


def test_memory_limit_and_pool_cap_start_from_the_environment():
    r = run_py(_FROM_ENV, env={"NUMR_WEBGPU_MEMORY_BYTES": "400000000"})
    assert "LIMITS 400000000 100000000" in r.stdout, r.stdout + r.stderr[-2000:]
    r = run_py(_FROM_ENV, env={"NUMR_WEBGPU_MEMORY_BYTES": "400000000",
                               "NUMR_WEBGPU_POOL_BYTES": "12345"})
    assert "LIMITS 400000000 12345" in r.stdout, r.stdout + r.stderr[-2000:]


@pytest.fixture
def xp(client):
    import numr_array_api.webgpu as ns
    old = client.memory_limit
    yield ns
    client.memory_limit = old


def test_memory_limit_raises_past_it_and_none_removes_it(xp, client):
    xp.synchronize()
    gc.collect()
    xp.empty_cache()
    held = xp.memory_stats()["reserved_bytes"]
    mib = 1 << 20
    limit = held + mib
    xp.set_memory_limit(limit)
    assert xp.memory_stats()["memory_limit_bytes"] == limit
    assert xp.memory_stats()["pool_limit_bytes"] == limit // 4
    client.pool.set_limits(limit, 4 * mib)   # free buffers stay pooled
    a = xp.empty((mib // 4,), dtype=xp.float32)       # exactly up to the limit
    with pytest.raises(MemoryError) as ei:
        xp.empty((mib // 4,), dtype=xp.float32)
    assert isinstance(ei.value, OutOfMemory)
    msg = str(ei.value)
    assert str(limit) in msg and "set_memory_limit" in msg
    del a
    gc.collect()
    b = xp.empty((mib // 4,), dtype=xp.float32)       # the freed buffer, reused
    # a request of another size class fits once the pool's free buffers are released
    del b
    gc.collect()
    assert xp.memory_stats()["pooled_bytes"] >= mib
    c = xp.ones((mib // 8,), dtype=xp.float32)
    assert float(xp.sum(c)) == mib // 8
    assert xp.memory_stats()["pooled_bytes"] < mib
    xp.set_memory_limit(None)   # numr's cap goes; a CPU adapter keeps the host's memory
    from numr_array_api.backends.webgpu.runtime.adapters import is_cpu
    host = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert xp.memory_stats()["memory_limit_bytes"] == (host if is_cpu(client.info) else None)
    d = [xp.empty((mib // 4,), dtype=xp.float32) for _ in range(3)]
    assert len(d) == 3


def test_memory_limit_past_one_buffer_is_refused_before_allocating(xp, client):
    xp.set_memory_limit(1 << 20)
    with pytest.raises(OutOfMemory, match="set_memory_limit"):
        xp.empty((client.single_buffer_max + 1,), dtype=xp.uint8)


@pytest.mark.parametrize("bad", [-1, 1.5, "1", True])
def test_set_memory_limit_refuses_what_is_not_a_byte_count(xp, bad):
    with pytest.raises(InvalidArgument):
        xp.set_memory_limit(bad)


_SALTED = Template("""${layout}
// variant ${salt}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  if (g.x < ${n}) { dst[${dst_off} + g.x] = src[${src_off} + g.x] * ${scale}.0; }
}
""", "salted")


@dataclasses.dataclass(frozen=True)
class _Salted(KernelSpec):
    """A kernel per ``salt`` (each its own source): compiles that always miss the caches."""
    salt: int

    def layout(self, caps):
        return Layout([Buf("src", "f32"), Buf("dst", "f32", "rw")], ["n"], caps)

    def render(self, caps):
        return _SALTED.render(self.layout(caps).tokens(), salt=self.salt,
                              scale=self.salt % 7 + 1)


def _host(x):
    return np.asarray(x.to_device("cpu"))


def _sizes(client):
    p = client.pipelines
    return len(client._kernels), len(p._by_source), len(p._modules)


def test_kernel_cache_is_a_bounded_lru(W, client):
    import numr_array_api.webgpu as xp

    x = np.arange(10, dtype=np.float32)
    src = W.from_numpy(x, client)
    salt0 = np.random.default_rng().integers(1 << 30)
    with tuning.override(KERNEL_CACHE_SIZE=4):
        kernels = []
        for i in range(8):
            k = client.kernel(_Salted(int(salt0 + i)))
            kernels.append(k)
            assert max(_sizes(client)) <= 4, _sizes(client)
        assert _Salted(int(salt0)) not in client._kernels
        # a kernel held elsewhere (a plan's) still runs after its eviction
        for i, k in enumerate(kernels):
            out = W.empty((10,), D.float32, client)
            k.launch((1, 1, 1), src=src, dst=out, n=10)
            np.testing.assert_array_equal(out.to_numpy(), x * ((salt0 + i) % 7 + 1))
        # the most recently used stays: a hit moves it to the back of the line
        k3 = client.kernel(_Salted(int(salt0 + 5)))
        client.kernel(_Salted(int(salt0 + 100)))
        assert client.kernel(_Salted(int(salt0 + 5))) is k3
        # every family keeps giving right answers while kernels come and go
        rng = np.random.default_rng(1)
        a, v = rng.standard_normal((6, 6)).astype(np.float32), rng.standard_normal(50)
        for _ in range(2):
            A, V = xp.asarray(a), xp.asarray(v.astype(np.float32))
            np.testing.assert_allclose(_host(xp.exp(A) - xp.cos(A)),
                                       np.exp(a) - np.cos(a), rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(_host(xp.sum(A, axis=1)), a.sum(1), rtol=1e-5)
            np.testing.assert_allclose(_host(A @ A), a @ a, rtol=1e-4, atol=1e-5)
            np.testing.assert_array_equal(_host(xp.sort(V)),
                                          np.sort(v.astype(np.float32)))
            np.testing.assert_allclose(_host(xp.cumulative_sum(V)),
                                       np.cumsum(v.astype(np.float32)), rtol=1e-4, atol=1e-4)
            spd = a @ a.T + 6 * np.eye(6, dtype=np.float32)
            np.testing.assert_allclose(_host(xp.linalg.cholesky(xp.asarray(spd))),
                                       np.linalg.cholesky(spd), rtol=1e-4, atol=1e-4)
            assert max(_sizes(client)) <= 4, _sizes(client)
