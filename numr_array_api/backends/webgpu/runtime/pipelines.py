"""Compute pipeline cache and bind group cache.

Pipelines are keyed by (WGSL source, entry point, binding layout, immediate size, override
constants, runtime checks); shader modules by source (and checks), so the entry points of
one kernel share a module.

Runtime checks: by default wgpu has naga clamp every array index and bound every loop
with a hidden counter. A spec may ask for fewer (``KernelSpec.runtime_checks``), through
wgpu-native's ``wgpuDeviceCreateShaderModuleTrusted``, only where its indices are in range
by construction (the tiled GEMM, the Cholesky panel, the tournament LU and TrsmTileSpec,
eigh's wide tridiagonalisation: each spec's ``trusted`` field says why; global accesses
stay under the device's robust buffer access). H100: the clamps and counters held the
GEMM's inner loop to 54 % of the FMA peak with no memory traffic at all
(the GEMM configurations compared in one process, 2026-11-26).
Kernel families reach them through ``client.kernel(spec)`` (codegen/spec.py), which caches
per spec so the hot path neither renders nor hashes source text.

Pipelines and shader modules are kept least recently used first out, ``capacity()`` of
each (the KERNEL_CACHE_SIZE knob); whoever holds a Pipeline (a Kernel, a plan, a recipe,
a captured graph) keeps it valid after its eviction. Bind group layouts are few (one per
binding-kind tuple) and kept for the device's lifetime: the bind group cache keys on them.
"""

import collections
import time

import wgpu

from ...._core.errors import BackendLimitation, DeviceLost, InvalidArgument
from ..codegen.wgmem import workgroup_bytes
from .allocator import live
from .errors import BACKEND, compile_error, translate

_STAGE = wgpu.ShaderStage.COMPUTE
_BUFFER_TYPES = {"read": "read-only-storage", "rw": "storage", "uniform": "uniform"}


class Pipeline:
    __slots__ = ("pipeline", "bgl", "bindings", "imm_size", "uniform_size", "label",
                 "n_storage")

    def __init__(self, pipeline, bgl, bindings, imm_size, uniform_size, label):
        self.pipeline = pipeline
        self.bgl = bgl
        self.bindings = bindings
        self.imm_size = imm_size
        self.uniform_size = uniform_size
        self.label = label
        self.n_storage = sum(1 for k in bindings if k != "uniform")


class PipelineCache:
    def __init__(self, device, workgroup_storage=None, capacity=lambda: 4096):
        self.device = device
        # bytes of workgroup memory an entry point may use (None: not checked); wgpu does
        # not always refuse more (NVIDIA compiled a 64 KiB kernel whose dispatch hung)
        self.workgroup_storage = workgroup_storage
        self.capacity = capacity  # entries of each cache below (read at each miss)
        # (WGSL source, checks) -> shader module (entry points share it)
        self._modules = collections.OrderedDict()
        self._by_source = collections.OrderedDict()
        self._layouts = {}
        self.hits = 0
        self.misses = 0
        self.compile_time_s = 0.0

    def _bind_group_layout(self, bindings):
        bgl = self._layouts.get(bindings)
        if bgl is None:
            entries = []
            for i, kind in enumerate(bindings):
                buf = {"type": _BUFFER_TYPES[kind]}
                if kind == "uniform":
                    buf["has_dynamic_offset"] = True
                entries.append({"binding": i, "visibility": _STAGE, "buffer": buf})
            with_err = "bind group layout"
            try:
                bgl = self.device.create_bind_group_layout(entries=entries)
            except Exception as exc:
                raise translate(exc, with_err) from exc
            self._layouts[bindings] = bgl
        return bgl

    def get(self, source, entry, bindings, imm_size=0, uniform_size=0, overrides=None,
            label=None, checks=None):
        """``bindings``: tuple of 'read' | 'rw' | 'uniform' for @binding(0..) of group 0;
        ``checks``: None (wgpu's defaults) or WGPUShaderRuntimeChecks flags (0: none)."""
        ov = tuple(sorted(overrides.items())) if overrides else ()
        key = (source, entry, bindings, imm_size, uniform_size, ov, checks)
        p = self._by_source.get(key)
        if p is not None:
            self.hits += 1
            self._by_source.move_to_end(key)
            return p
        self.misses += 1
        t0 = time.perf_counter()
        self._check_workgroup_storage(source, entry, overrides, label)
        cap = self.capacity()
        module = self._modules.get((source, checks))
        if module is not None:
            self._modules.move_to_end((source, checks))
        else:
            try:
                if checks is None:
                    module = self.device.create_shader_module(code=source,
                                                              label=label or entry)
                else:
                    module = _trusted_module(self.device, source, label or entry, checks)
            except Exception as exc:
                raise compile_error(exc, source) from exc
            _put(self._modules, (source, checks), module, cap)
        bgl = self._bind_group_layout(bindings)
        try:
            layout = self.device.create_pipeline_layout(bind_group_layouts=[bgl],
                                                        immediate_size=imm_size)
            compute = {"module": module, "entry_point": entry}
            if ov:
                compute["constants"] = dict(ov)
            pipe = self.device.create_compute_pipeline(layout=layout, compute=compute,
                                                       label=label or entry)
        except Exception as exc:
            err = translate(exc, f"pipeline creation for '{label or entry}'")
            raise err from exc
        self.compile_time_s += time.perf_counter() - t0
        p = Pipeline(pipe, bgl, bindings, imm_size, uniform_size, label or entry)
        _put(self._by_source, key, p, cap)
        return p

    def _check_workgroup_storage(self, source, entry, overrides, label):
        limit = self.workgroup_storage
        if limit is None:
            return
        used = workgroup_bytes(source, entry, overrides)
        if used is not None and used > limit:
            raise BackendLimitation(
                BACKEND, label or entry,
                f"the kernel needs {used} bytes of workgroup memory and the adapter "
                f"grants {limit} (max-compute-workgroup-storage-size); this is a numr bug "
                "in the kernel's planning, please report it")

    def stats(self):
        return {"hits": self.hits, "misses": self.misses, "pipelines": len(self._by_source),
                "modules": len(self._modules), "compile_time_s": self.compile_time_s}


def _put(cache, key, value, cap):
    while len(cache) >= cap:
        cache.popitem(last=False)
    cache[key] = value


def _trusted_module(device, code, label, checks):
    """A WGSL shader module compiled with only the runtime checks in ``checks``
    (wgpuDeviceCreateShaderModuleTrusted; wgpu-py has no wrapper for it)."""
    from wgpu.backends.wgpu_native import _api
    from wgpu.backends.wgpu_native._ffi import ffi, lib
    src = _api.new_struct_p("WGPUShaderSourceWGSL *", code=_api.to_c_string_view(code))
    src[0].chain.next = ffi.NULL
    src[0].chain.sType = lib.WGPUSType_ShaderSourceWGSL
    desc = _api.new_struct_p("WGPUShaderModuleDescriptor *",
                             nextInChain=ffi.cast("WGPUChainedStruct *", src),
                             label=_api.to_c_string_view(label))
    mid = _api.libf.wgpuDeviceCreateShaderModuleTrusted(device._internal, desc, int(checks))
    if mid == ffi.NULL:
        raise RuntimeError("Shader module creation failed")
    return _api.GPUShaderModule(label, mid, device)


def _validate_entries(entries):
    """Check bind group entries in Python: wgpu-native *panics* (aborts the process) on a NULL
    buffer handle instead of reporting a validation error."""
    for i, (b, o, s) in enumerate(entries):
        if not live(b):
            raise DeviceLost(f"{BACKEND}: binding {i} names a wgpu buffer whose native handle "
                             "was released; the storage using it is no longer valid")
        if o < 0 or s <= 0 or o % 4 or s % 4 or o + s > b.size:
            raise InvalidArgument("bindings", f"binding {i}: range [{o}, {o + s}) is not a "
                                  f"non-empty 4-byte-aligned range of a {b.size}-byte buffer")


class BindGroupCache:
    """Bind groups keyed by (layout, (buffer, offset, size)...); FIFO-bounded.

    Pooled buffers are recycled, so chained ops keep binding the same few buffers and hit here
    (creating a bind group costs ~75 us on a GPU, ~200 us on lavapipe).
    """

    def __init__(self, device, capacity=4096):
        self.device = device
        self.capacity = capacity
        self._cache = {}
        # id(bind group) -> (layout, entries) of every cached one: runtime/recipes.py reads
        # which buffers a recorded dispatch bound
        self.entries_of = {}
        self.hits = 0
        self.misses = 0

    def get(self, bgl, entries):
        key = (id(bgl), entries)
        bg = self._cache.get(key)
        if bg is not None:
            self.hits += 1
            return bg
        self.misses += 1
        _validate_entries(entries)
        try:
            bg = self.device.create_bind_group(layout=bgl, entries=[
                {"binding": i, "resource": {"buffer": b, "offset": o, "size": s}}
                for i, (b, o, s) in enumerate(entries)])
        except Exception as exc:
            raise translate(exc, "bind group creation") from exc
        if len(self._cache) >= self.capacity:
            self.entries_of.pop(id(self._cache.pop(next(iter(self._cache)))), None)
        # id(bgl) is stable: PipelineCache keeps every layout for the device's lifetime
        self._cache[key] = bg
        self.entries_of[id(bg)] = (bgl, entries)
        return bg

    def forget_buffers(self, buffers):
        dead = set(map(id, buffers))
        for key in [k for k in self._cache if any(id(e[0]) in dead for e in k[1])]:
            self.entries_of.pop(id(self._cache.pop(key)), None)

    def stats(self):
        return {"hits": self.hits, "misses": self.misses, "size": len(self._cache)}
