"""Host cost of a replayed dispatch: the recorder's native replay loop over eigvalsh's recipe
(n = 256 float64) against the same loop with parts of its native calls left out, and the
submit (pass end, encoder finish, queue submit) of the whole replay. Prints per-dispatch
microseconds; reports, never asserts. Runs on any adapter (lavapipe included).

    python benchmarks/gpu/replay_host.py
"""
import time, numpy as np
import numr_array_api.webgpu as xp
from numr_array_api.backends.webgpu.ops.linalg_spectral import tridiag
from numr_array_api.backends.webgpu.runtime import submit
from wgpu.backends.wgpu_native._ffi import ffi, lib
be = xp._backend
n=256
a = np.random.default_rng(0).standard_normal((1, n, n))
x = xp.asarray((a + np.swapaxes(a, 1, 2)))._data
for _ in range(3): tridiag.eigh(be, x.copy(), False)
xp.synchronize()
client = x.client
rec = client.recorder
r = max((v for v in client.recipes.table.values() if hasattr(v,'raw') and v.raw), key=lambda v: len(v.raw))
print("steps", len(r.raw), "sets", len(r.sets))
# build groups like replay
alloc = client.pool.allocate_class
blocks = [alloc(s) for s in r.sizes]
groups=[]; ids=set()
for bgl, refs in r.sets:
    ents=[]
    for kind, v, off, size in refs:
        b = blocks[v] if kind == 0 else x.block if kind == 1 else v
        ents.append((b.buffer, off, size)); ids.add(id(b.buffer))
    groups.append(client.bindgroups.get(bgl, tuple(ents)))
raw=r.raw
def timeit(label, fn, reps=20):
    ts=[]
    for _ in range(reps):
        with rec.held():
            t=time.perf_counter(); fn(); t1=time.perf_counter()
        rec.flush(); xp.synchronize()
        ts.append(t1-t)
    print(f"{label}: {np.median(ts)/len(raw)*1e6:.2f} us a dispatch")
rec.replay_chunk = 1<<30
timeit("replay (native loop)", lambda: rec.replay(raw, groups, ids))
# python-only loop: same loop, no native calls
def pyloop():
    bgs=[(bg, bg._internal) for bg in groups]; last_pipe=last_bg=None
    for pipe, pipe_h, gi, imm, imm_size, X, Y, Z in raw:
        if pipe is not last_pipe: last_pipe=pipe; last_bg=None
        bg,bgh=bgs[gi]
        if bg is not last_bg: last_bg=bg
timeit("python loop only", pyloop)
cp_counts={}
def count():
    bgs=[(bg, bg._internal) for bg in groups]; last_pipe=last_bg=None; c=[0,0,0]
    for pipe, pipe_h, gi, imm, imm_size, X, Y, Z in raw:
        if pipe is not last_pipe: last_pipe=pipe; last_bg=None; c[0]+=1
        bg,bgh=bgs[gi]
        if bg is not last_bg: last_bg=bg; c[1]+=1
        if imm_size: c[2]+=1
    print("setpipeline", c[0], "setbindgroup", c[1], "immediates", c[2])
count()
# native only dispatch (no bind group changes): set everything once then dispatch many
def only_dispatch():
    cp = rec._cp_handle if rec.cpass is not None else rec._open_pass()
    p0 = raw[0]
    lib.wgpuComputePassEncoderSetPipeline(cp, p0[1])
    lib.wgpuComputePassEncoderSetBindGroup(cp, 0, groups[p0[2]]._internal, 0, ffi.NULL)
    if p0[4]: lib.wgpuComputePassEncoderSetImmediates(cp, 0, p0[3], p0[4])
    for pipe, pipe_h, gi, imm, imm_size, X, Y, Z in raw:
        lib.wgpuComputePassEncoderDispatchWorkgroups(cp, 0, 0, 0)
timeit("dispatch(0,0,0) only", only_dispatch)
def native_calls(with_imm):
    """The replay's native calls without its Python bookkeeping: SetPipeline,
    SetBindGroup (and SetImmediates) before every empty dispatch."""
    def run():
        cp = rec._cp_handle if rec.cpass is not None else rec._open_pass()
        bgs = [bg._internal for bg in groups]
        for pipe, pipe_h, gi, imm, imm_size, X, Y, Z in raw:
            lib.wgpuComputePassEncoderSetPipeline(cp, pipe_h)
            lib.wgpuComputePassEncoderSetBindGroup(cp, 0, bgs[gi], 0, ffi.NULL)
            if with_imm and imm_size:
                lib.wgpuComputePassEncoderSetImmediates(cp, 0, imm, imm_size)
            lib.wgpuComputePassEncoderDispatchWorkgroups(cp, 0, 0, 0)
    return run


timeit("pipe+bg+dispatch0", native_calls(False))
timeit("pipe+bg+imm+dispatch0", native_calls(True))
# flush cost (pass end + finish + submit) of a full replay
ts=[]
for _ in range(10):
    with rec.held():
        rec.replay(raw, groups, ids)
    t=time.perf_counter(); rec.flush(); t1=time.perf_counter(); xp.synchronize(); ts.append(t1-t)
print(f"flush of {len(raw)} dispatches: {np.median(ts)*1e3:.2f} ms ({np.median(ts)/len(raw)*1e6:.2f} us a dispatch)")
# immediates argument types
cbufs = [ffi.new("uint8_t[]", bytes(ffi.buffer(imm, imm_size))) if imm_size else ffi.NULL for pipe, pipe_h, gi, imm, imm_size, X, Y, Z in raw]
def all_new():
    cp = rec._cp_handle if rec.cpass is not None else rec._open_pass()
    bgs=[bg._internal for bg in groups]
    for k, (pipe, pipe_h, gi, imm, imm_size, X, Y, Z) in enumerate(raw):
        lib.wgpuComputePassEncoderSetPipeline(cp, pipe_h)
        lib.wgpuComputePassEncoderSetBindGroup(cp, 0, bgs[gi], 0, ffi.NULL)
        if imm_size: lib.wgpuComputePassEncoderSetImmediates(cp, 0, cbufs[k], imm_size)
        lib.wgpuComputePassEncoderDispatchWorkgroups(cp, 0, 0, 0)
timeit("pipe+bg+imm(ffi.new)+dispatch0", all_new)
print(type(raw[0][3]), ffi.typeof(raw[0][3]) if raw[0][4] else None)
def imm_only():
    cp = rec._cp_handle if rec.cpass is not None else rec._open_pass()
    p0 = raw[0]
    lib.wgpuComputePassEncoderSetPipeline(cp, p0[1])
    lib.wgpuComputePassEncoderSetBindGroup(cp, 0, groups[p0[2]]._internal, 0, ffi.NULL)
    for k, (pipe, pipe_h, gi, imm, imm_size, X, Y, Z) in enumerate(raw):
        if imm_size: lib.wgpuComputePassEncoderSetImmediates(cp, 0, cbufs[k], p0[4])
    lib.wgpuComputePassEncoderSetImmediates(cp, 0, p0[3], p0[4])
    lib.wgpuComputePassEncoderDispatchWorkgroups(cp, 0, 0, 0)
timeit("imm only (x n) + 1 dispatch", imm_only)
