"""WebGPU runtime: adapters, the per-adapter client, buffer pool, pipeline cache, batching.

adapters.py     adapter enumeration and selection (NUMR_WEBGPU_ADAPTER, power preference,
                native backends above OpenGL), the dtypes an adapter computes on
client.py       WgpuClient: one device + queue + pools + caches per adapter per process;
                its memory limit and kernel cache size
dtypes.py       which numr dtypes kernels compute on for a set of device features (no wgpu)
allocator.py    the size-class buffer pool: Block, SegmentedBlock (arrays beyond one
                buffer), deferred reuse of pending buffers, the memory and pool caps, the
                bounded staging pool for read-backs
caches.py       the registry of caches holding GPU objects beyond a call (plans, graphs,
                tables), emptied by ``empty_cache()`` and the memory limit
pipelines.py    the compute pipeline and shader module cache (least recently used out,
                trusted modules with fewer runtime checks) and the bind group cache
submit.py       Recorder: batched submission, one open command encoder + compute pass per
                batch, the pending-buffer bookkeeping
mapping.py      buffer mappings (read-backs) and queue markers (synchronize) started
                natively, waited on interruptibly (MAP_WAIT, MAP_SPIN_US)
progress.py     queue markers and interruptible waits for them, ``paced`` long operations,
                abandoned work
concurrency.py  the runtime lock (LockedBackend, ``locked``) and deferred KeyboardInterrupts
errors.py       wgpu exceptions mapped onto numr's errors; WgslCompileError
graph.py        CapturedGraph: a function's dispatches recorded once, replayed cheaply
recipes.py      call recipes: an op's dispatches recorded once per call signature, replayed
                with fresh buffers (NUMR_WEBGPU_RECIPES)
custom.py       ``custom_kernel``: user WGSL on storages and its binding convention
profile.py      GPU time per kernel from timestamp queries (``profile()``,
                NUMR_WEBGPU_PROFILE)
native_calls.py counting the calls into wgpu-native (tests, benchmarks/suite/latency.py)
bench.py        per-op cost of the runtime (``python -m ...webgpu.runtime.bench``)
"""
