"""Soak: a long run of mixed small ops, errors included, leaks nothing. Device
memory (webgpu ``memory_stats()``: bytes lent to live arrays) returns to its starting value
and the process's RSS stays flat once caches are warm.

CI runs 10^4 ops per namespace; NUMR_STRESS=full runs 10^5."""

import gc
import os

import numpy as np
import pytest

pytestmark = pytest.mark.filterwarnings("ignore")

from numr_array_api.errors import NumrError

from .conftest import sized

OPS = sized(10_000, 100_000)
# RSS may grow by what warm caches and the allocator's arenas take while the loop runs,
# never by a per-op amount: 10^5 ops leaking 100 bytes each would be 10 MB
RSS_SLACK = 24 << 20


def _rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _mixed(xp, a, b, idx, i):
    """One op of a fixed rotation (results discarded; the 20th op checks a value)."""
    k = i % 10
    if k == 0:
        r = a + b
    elif k == 1:
        r = xp.sum(a, axis=0)
    elif k == 2:
        r = a @ b
    elif k == 3:
        r = a[a > 0.5]
    elif k == 4:
        r = xp.take(a, idx, axis=1)
    elif k == 5:
        r = xp.cumulative_sum(b, axis=1)
    elif k == 6:
        r = xp.where(a > b, a, 0.0)
    elif k == 7:
        r = xp.concat([a, b])
    elif k == 8:
        try:  # errors on the way must not leak either
            xp.sum(a, axis=5)
        except NumrError:
            pass
        r = a[1:, ::2]
    else:
        r = xp.astype(a * 10, xp.int32)
    return r


@pytest.mark.parametrize("backend", ["cpu", "webgpu", "cuda"])
def test_soak_memory_is_flat(backend):
    from .conftest import root_conftest
    probe_backend, selected_backends = (root_conftest().probe_backend,
                                        root_conftest().selected_backends)
    if backend not in selected_backends():
        pytest.skip(f"{backend} not selected")
    xp, reason = probe_backend(backend)
    if xp is None:
        pytest.skip(reason)
    rng = np.random.default_rng(3)
    na = rng.random((8, 8), dtype=np.float32)
    nb = rng.random((8, 8), dtype=np.float32)
    a, b = xp.asarray(na), xp.asarray(nb)
    idx = xp.asarray(np.array([7, 0, 3], dtype=np.int32))
    stats = xp.memory_stats if backend == "webgpu" else None

    def lent():
        gc.collect()
        if stats is None:
            return 0
        xp.synchronize()
        return stats()["allocated_bytes"]

    warm = min(2000, OPS // 5)
    for i in range(warm):  # fill pools and kernel caches
        _mixed(xp, a, b, idx, i)
    base_lent, base_rss = lent(), _rss()
    for i in range(OPS):
        r = _mixed(xp, a, b, idx, i)
        if i % 997 == 0:  # still right on the way
            np.testing.assert_allclose(np.asarray(xp.sum(a + b, axis=0).to_device("cpu")),
                                       (na + nb).sum(axis=0), rtol=1e-5)
    del r
    assert lent() == base_lent, "device memory lent to arrays grew over the soak"
    grown = _rss() - base_rss
    assert grown < RSS_SLACK, f"RSS grew by {grown / 2**20:.1f} MiB over {OPS} ops"
