"""Buffer lifetime: cyclic garbage, empty_cache, bind group cache, no native panics.

Regression for the full-suite abort (exit 134, wgpu-native ``src/conv.rs`` panic "invalid
bind group entry for bind group descriptor" in ``create_bind_group``): a storage that died in a
reference cycle (pytest tracebacks make them all the time) was finalized by the cyclic GC
together with its wgpu buffer. ``GPUBuffer.__del__`` released the native handle while
``Block.__del__`` put the Python object back into the pool; the next kernel output drawn from
that size class was bound with a NULL handle. The crash-prone scenarios run in a fresh
interpreter so that a regression fails the test instead of aborting the test process.
"""

import gc

from numr_array_api._core import dtypes as D
from numr_array_api.backends.webgpu.runtime.allocator import live

from .conftest import run_py


class _Holder:
    pass


def _pooled(client):
    client.pool.stats()  # sorts the buffers of dead arrays into the lists
    return [b for lists in (client.pool._free, client.pool._deferred)
            for lst in lists.values() for b in lst]


_CYCLE = """
import gc, numpy as np
import numr_array_api.backends.webgpu as W
from numr_array_api._core import dtypes as D
c = W.get_client()
gc.disable()
class Holder: pass
src = W.from_numpy(np.arange(1000, dtype=np.float32))   # 4000 bytes: the 4096 class
x = W.empty((1000,), D.float32)
h = Holder(); h.x = x; h.me = h                          # x dies in a reference cycle
del x, h
gc.collect()
c.pool.stats()
dead = sum(b._internal is None for l in c.pool._free.values() for b in l)
print("DEAD", dead, flush=True)
z = W.astype(src, D.int32)                               # output drawn from the 4096 class
assert np.array_equal(W.to_numpy(z), np.arange(1000, dtype=np.int32))
print("OK")
"""


def test_storage_collected_in_a_cycle_does_not_abort():
    r = run_py(_CYCLE)
    assert r.returncode == 0, f"rc={r.returncode}\n{r.stderr[-3000:]}"
    assert "DEAD 0" in r.stdout and "OK" in r.stdout, r.stdout + r.stderr[-2000:]


_STRESS = """
import gc, numpy as np
import numr_array_api.backends.webgpu as W
from numr_array_api._core import dtypes as D
c = W.get_client()
rng = np.random.default_rng(0)
class Holder: pass
keep = []
for it in range(1500):
    n = int(rng.integers(1, 5000))
    a = (np.arange(n) % 97).astype(np.float32)
    x = W.from_numpy(a)
    y = W.astype(x[::-1], D.int32)                      # kernel output: pooled, bound
    if it % 3 == 0:                                     # some die in reference cycles
        h = Holder(); h.x = x; h.y = y; h.me = h
        # a never-bound storage (no bind group key keeps its buffer reachable)
        h.e = W.empty((int(rng.integers(1, 5000)),), D.float32)
        del h
    elif it % 3 == 1:
        keep.append((y, a))
    if len(keep) > 20:
        keep.pop(int(rng.integers(0, len(keep))))
    del x, y
    if it % 50 == 7:
        gc.collect()
    if it % 211 == 5:
        W.empty_cache()                                 # destroys free buffers, keeps bound ones
    if it % 97 == 3:
        for yy, aa in keep:
            assert np.array_equal(W.to_numpy(yy), aa[::-1].astype(np.int32))
    assert all(b._internal is not None
               for lists in (c.pool._free, c.pool._deferred)
               for l in lists.values() for b in l)
for yy, aa in keep:
    assert np.array_equal(W.to_numpy(yy), aa[::-1].astype(np.int32))
print("OK", W.runtime_stats()["bind_groups"])
"""


def test_alloc_free_cycles_empty_cache_stress_does_not_abort():
    r = run_py(_STRESS, timeout=600)
    assert r.returncode == 0, f"rc={r.returncode}\n{r.stderr[-3000:]}"
    assert "OK" in r.stdout, r.stdout + r.stderr[-2000:]


def test_pooled_buffers_keep_their_handles_after_cyclic_gc(W, client):
    # no native call here: safe to run in-process even if the fix regressed
    for n in (10, 300, 5000):
        x = W.empty((n,), D.float32)
        h = _Holder()
        h.x, h.me = x, h
        del x, h
    gc.collect()
    assert all(live(b) for b in _pooled(client))
    assert all(id(b) in client.pool._owned for b in _pooled(client))


def test_empty_cache_unregisters_destroyed_buffers(W, client):
    x = W.empty((3000,), D.float32)
    buf = x.block.buffer
    assert client.pool._owned.get(id(buf)) is buf
    del x
    gc.collect()
    W.empty_cache()
    assert id(buf) not in client.pool._owned
    # no cached bind group names a destroyed buffer
    assert all(e[0] is not buf for k in client.bindgroups._cache for e in k[1])


_RELEASED = """
import numpy as np, wgpu
import numr_array_api.backends.webgpu as W
from numr_array_api._core.errors import DeviceLost
from numr_array_api.backends.webgpu.runtime.allocator import Block, live
c = W.get_client()
buf = c.device.create_buffer(size=256, usage=wgpu.BufferUsage.STORAGE
                             | wgpu.BufferUsage.COPY_SRC | wgpu.BufferUsage.COPY_DST)
buf._release()  # what GPUBuffer.__del__ does: the native handle is gone
assert not live(buf)
pipe = c.pipelines.get(
    source="@group(0) @binding(0) var<storage, read_write> o: array<u32>;\\n"
           "@compute @workgroup_size(1) fn main() { o[0] = 1u; }",
    entry="main", bindings=("rw",), label="lifetime-test")
blk = Block(buf, 256, None)
for name, call in [("bind group", lambda: c.bindgroups.get(pipe.bgl, ((buf, 0, 256),))),
                   ("launch", lambda: c.launch(pipe, [(blk, 0, 256)], b"", (1, 1, 1))),
                   ("write", lambda: c.write(blk, 0, np.zeros(4, np.uint8))),
                   ("read", lambda: c.read(blk, 0, 4))]:
    try:
        call()
    except DeviceLost as e:
        assert "released" in str(e), e
        print("RAISED", name)
# a released buffer handed back to the pool is dropped, never pooled again
before = c.pool.stats()["pooled_bytes"]
c.pool._release(buf, 256)
assert c.pool.stats()["pooled_bytes"] == before
assert all(b is not buf for l in c.pool._free.values() for b in l)
print("OK")
"""


def test_released_buffer_is_an_error_not_a_panic():
    """Validation in Python before native calls that would get a NULL handle (a panic)."""
    r = run_py(_RELEASED)
    assert r.returncode == 0, f"rc={r.returncode}\n{r.stderr[-3000:]}"
    for name in ("bind group", "launch", "write", "read"):
        assert f"RAISED {name}" in r.stdout, r.stdout + r.stderr[-2000:]
    assert "OK" in r.stdout


_RANGES = """
import numpy as np
import numr_array_api.backends.webgpu as W
from numr_array_api._core import dtypes as D
from numr_array_api._core.errors import InvalidArgument
c = W.get_client()
x = W.empty((64,), D.float32)
pipe = c.pipelines.get(
    source="@group(0) @binding(0) var<storage, read_write> o: array<u32>;\\n"
           "@compute @workgroup_size(1) fn main() { o[0] = 1u; }",
    entry="main", bindings=("rw",), label="lifetime-test")
# size 0 made wgpu-native panic ("invalid size", src/conv.rs) before the Python-side check
for o, s in ((0, 0), (0, x.block.size + 256), (-256, 256), (0, 6)):
    try:
        c.launch(pipe, [(x.block, o, s)], b"", (1, 1, 1))
    except InvalidArgument:
        print("RAISED", o, s)
c.launch(pipe, [(x.block, 0, x.block.size)], b"", (1, 1, 1))
assert W.to_numpy(x).view(np.uint32)[0] == 1
print("OK")
"""


def test_bad_binding_ranges_are_errors():
    r = run_py(_RANGES)
    assert r.returncode == 0, f"rc={r.returncode}\n{r.stderr[-3000:]}"
    assert r.stdout.count("RAISED") == 4 and "OK" in r.stdout, r.stdout + r.stderr[-2000:]
