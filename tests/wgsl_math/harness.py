"""Minimal wgpu harness: map arrays through WGSL math functions, many functions per submit."""
import os

import numpy as np

os.environ.setdefault("XDG_RUNTIME_DIR", "/tmp")

from numr_array_api.backends.webgpu.wgsl import REQUIRED_FEATURES, math_library  # noqa: E402

try:
    import wgpu
except Exception:  # pragma: no cover
    wgpu = None

DT = {"f32": np.float32, "f64": np.float64}
ARITY = {"atan2": 2, "hypot": 2, "pow": 2, "copysign": 2, "nextafter": 2, "maximum": 2,
         "minimum": 2, "logaddexp": 2}


class Harness:
    def __init__(self):
        if wgpu is None:
            raise RuntimeError("wgpu is not importable")
        self.adapter = wgpu.gpu.request_adapter_sync(power_preference="high-performance")
        if self.adapter is None:
            raise RuntimeError("no WebGPU adapter")
        feats = set(self.adapter.features)
        want = [f for f in ("shader-f64", "shader-int64") if f in feats]
        self.features = set(want)
        self.device = self.adapter.request_device_sync(
            required_features=want, required_limits=dict(self.adapter.limits))

    @property
    def flushes_f32(self):
        """True when the adapter flushes f32 subnormals (NVIDIA does; lavapipe does not)."""
        if not hasattr(self, "_ftz"):
            a = np.array([1e-40, 3e-39], dtype=np.float32)
            b = np.array([1.0, 1.0], dtype=np.float32)
            got = self.run("f32", [{"fns": ["abs"], "expr": "a * b", "a": a, "b": b}])[0]
            self._ftz = bool(np.any(got == 0))
        return self._ftz

    def supports(self, ft):
        return all(f in self.features for f in REQUIRED_FEATURES[ft])

    @property
    def info(self):
        return self.adapter.info.get("device", "?")

    def run(self, ft, jobs, **lib_kwargs):
        """jobs: list of (expr_template, arity, arrays); expr uses a, b (scalars) -> scalar or
        vec2 results ('out2' arity flag via expr returning vec2 when arrays are complex).
        Returns a list of output arrays."""
        dev = self.device
        T = ft
        dt = DT[ft]
        names = set()
        for j in jobs:
            names.update(j["fns"])
        lib = math_library(sorted(names), ft, **lib_kwargs)
        parts = [lib]
        for idx, j in enumerate(jobs):
            parts.append(f"""
@group(0) @binding(0) var<storage, read> a{idx}: array<{j.get('in_t', T)}>;
@group(0) @binding(1) var<storage, read> b{idx}: array<{j.get('in_t', T)}>;
@group(0) @binding(2) var<storage, read_write> o{idx}: array<{j.get('out_t', T)}>;
@compute @workgroup_size(64) fn k{idx}(@builtin(global_invocation_id) g: vec3<u32>) {{
  let i = g.x;
  if (i >= arrayLength(&o{idx})) {{ return; }}
  let a = a{idx}[i]; let b = b{idx}[i];
  o{idx}[i] = {j['expr'].replace('$T', T)};
}}""")
        src = "\n".join(parts)
        module = dev.create_shader_module(code=src)
        enc = dev.create_command_encoder()
        cp = enc.begin_compute_pass()
        outs = []
        keep = []
        for idx, j in enumerate(jobs):
            a = np.ascontiguousarray(j["a"])
            b = np.ascontiguousarray(j.get("b", a))
            n_out = j.get("n_out", len(a))
            out_bytes = n_out * j.get("out_itemsize", np.dtype(dt).itemsize)
            pipe = dev.create_compute_pipeline(layout="auto", compute={"module": module, "entry_point": f"k{idx}"})
            ba = dev.create_buffer_with_data(data=a, usage=wgpu.BufferUsage.STORAGE)
            bb = dev.create_buffer_with_data(data=b, usage=wgpu.BufferUsage.STORAGE)
            bo = dev.create_buffer(size=out_bytes, usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC)
            bg = dev.create_bind_group(layout=pipe.get_bind_group_layout(0), entries=[
                {"binding": 0, "resource": {"buffer": ba}},
                {"binding": 1, "resource": {"buffer": bb}},
                {"binding": 2, "resource": {"buffer": bo}}])
            cp.set_pipeline(pipe)
            cp.set_bind_group(0, bg)
            cp.dispatch_workgroups((n_out + 63) // 64)
            outs.append(bo)
            keep += [ba, bb, pipe, bg]
        cp.end()
        dev.queue.submit([enc.finish()])
        res = []
        for j, bo in zip(jobs, outs):
            raw = dev.queue.read_buffer(bo)
            res.append(np.frombuffer(raw, dtype=j.get("out_dtype", dt)).copy())
        return res


def unary_job(fn, x, ft):
    return {"fns": [fn], "expr": f"numr_{fn}_$T(a)", "a": x.astype(DT[ft])}


def binary_job(fn, x, y, ft):
    return {"fns": [fn], "expr": f"numr_{fn}_$T(a, b)", "a": x.astype(DT[ft]), "b": y.astype(DT[ft])}


CTYPE = {"f32": np.complex64, "f64": np.complex128}
CARITY = {"cadd": 2, "csub": 2, "cmul": 2, "cdiv": 2, "cpow": 2}


def _pairs(z, ft):
    z = np.asarray(z).astype(CTYPE[ft])
    return np.ascontiguousarray(z.view(DT[ft]).reshape(-1, 2))


def complex_job(fn, z, ft, w=None):
    """fn on vec2<T> (real, imag) values; w: second operand for binary ones."""
    a = _pairs(z, ft)
    job = {"fns": [fn], "a": a, "in_t": f"vec2<{ft}>", "n_out": len(a)}
    job["expr"] = f"numr_{fn}_$T(a)" if w is None else f"numr_{fn}_$T(a, b)"
    if w is not None:
        job["b"] = _pairs(w, ft)
    if fn == "cabs":
        job["out_t"] = ft
    else:
        job.update(out_t=f"vec2<{ft}>", out_itemsize=2 * np.dtype(DT[ft]).itemsize, out_dtype=CTYPE[ft])
    return job
