"""Workgroup memory: measured from WGSL, enforced at pipeline creation, planned within it.

NVIDIA (48 KiB) compiled a 64 KiB fft kernel and its dispatch never completed (2026-11-26);
lavapipe (32 KiB) never saw it. The pipeline cache now refuses such a kernel with
BackendLimitation, and a subprocess run with the WG_STORAGE knob at 16384 (WebGPU's
minimum) checks that every planner stays within the adapter's figure.
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from numr_array_api.backends.webgpu.codegen.wgmem import type_size, workgroup_bytes

REPO = Path(__file__).resolve().parents[2]


def test_type_sizes_follow_wgsl_layout_rules():
    assert type_size("f32") == 4 and type_size("f16") == 2 and type_size("f64") == 8
    assert type_size("vec3<f32>") == 12 and type_size("array<vec3<f32>, 4>") == 64
    assert type_size("array<vec2<f64>, 10>") == 160
    assert type_size("atomic<u32>") == 4
    src = "alias T = vec2<f32>;\nstruct St { a: f32, b: vec2<f32>, }\nconst N = 7u;\n"
    assert type_size("array<T, N>", src) == 56
    assert type_size("St", src) == 16  # b aligned to 8, size rounded to the alignment 8
    assert type_size("mat4x4<f32>") == 64


def test_only_variables_an_entry_point_reaches_count():
    src = textwrap.dedent("""
        var<workgroup> big: array<f32, 8192>;
        var<workgroup> small: array<f32, 3>;
        var<workgroup> flag: atomic<u32>;
        fn helper() { atomicAdd(&flag, 1u); }
        @compute @workgroup_size(64)
        fn a() { big[0] = 1.0; }
        @compute @workgroup_size(64)
        fn b() { small[0] = 1.0; helper(); }
    """)
    assert workgroup_bytes(src, "a") == 32768 + 16  # + the helper's flag (reachable)
    assert workgroup_bytes(src, "b") == 16 + 16      # each rounded up to 16 bytes
    assert workgroup_bytes(src) == 32768 + 16 + 16
    assert workgroup_bytes("var<workgroup> x: array<f32, SIZE * 2>;") is None  # unsized


@pytest.mark.webgpu
def test_pipeline_cache_refuses_a_kernel_beyond_the_adapter():
    xp = pytest.importorskip("numr_array_api.webgpu")
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    from numr_array_api.errors import BackendLimitation
    client = xp.asarray([0])._data.client
    limit = client.pipelines.workgroup_storage
    n = limit // 4 + 1
    src = (f"var<workgroup> w: array<f32, {n}>;\n@group(0) @binding(0) var<storage, "
           f"read_write> o: array<f32>;\n@compute @workgroup_size(64)\nfn main() "
           f"{{ w[0] = 1.0; workgroupBarrier(); o[0] = w[0]; }}\n")
    with pytest.raises(BackendLimitation, match="workgroup memory"):
        client.pipelines.get(src, "main", ("rw",))
    assert float(xp.sum(xp.ones(10))) == 10.0


_SCRIPT = r"""
import numpy as np, warnings
warnings.simplefilter("ignore")
import numr_array_api.webgpu as xp
client = xp.asarray([0])._data.client
assert client.pipelines.workgroup_storage == 16384, client.pipelines.workgroup_storage
rng = np.random.default_rng(0)
def close(got, want, tol):
    got = np.asarray(got)
    assert np.allclose(got, want, rtol=tol, atol=tol * max(1.0, float(np.abs(want).max()))), \
        (got, want)
for cd, tol in (("complex64", 1e-4), ("complex128", 1e-10)):
    for n in (1, 2, 3, 7, 8, 16, 64, 100, 256, 1024, 1031, 4096, 12288):
        a = (rng.standard_normal((3, n)) + 1j * rng.standard_normal((3, n))).astype(cd)
        close(xp.fft.fft(xp.asarray(a)), np.fft.fft(a), tol)
        close(xp.fft.fft(xp.asarray(a), axis=0), np.fft.fft(a, axis=0), tol)
        r = a.real.astype("float32" if cd == "complex64" else "float64")
        close(xp.fft.rfft(xp.asarray(r)), np.fft.rfft(r), tol)
for dt, tol in (("float32", 2e-3), ("float64", 1e-9), ("complex64", 2e-3),
                ("complex128", 1e-9)):
    for n in (3, 33, 70):
        A = rng.standard_normal((2, n, n)) + n * np.eye(n)
        if dt.startswith("complex"):
            A = A + 1j * rng.standard_normal((2, n, n))
        A = A.astype(dt)
        H = (A @ np.conj(np.swapaxes(A, -1, -2))).astype(dt)
        x, h = xp.asarray(A), xp.asarray(H)
        close(xp.linalg.inv(x), np.linalg.inv(A), tol * n)
        close(xp.linalg.det(x), np.linalg.det(A), tol * n)
        q, r = xp.linalg.qr(x)
        close(xp.matmul(q, r), A, tol * n)
        L = xp.linalg.cholesky(h)
        close(xp.matmul(L, xp.conj(xp.matrix_transpose(L))), H, tol * n)
        close(xp.linalg.eigvalsh(h), np.linalg.eigvalsh(H), tol * n)
        close(xp.linalg.svdvals(x), np.linalg.svd(A, compute_uv=False), tol * n)
        close(xp.linalg.solve(x, xp.asarray(A[..., :2])), np.linalg.solve(A, A[..., :2]),
              tol * n)
for dt, tol in (("float32", 1e-4), ("float64", 1e-10), ("complex64", 1e-4),
                ("complex128", 1e-10), ("int32", 0), ("float16", 2e-2)):
    for m, k, n in ((1, 1, 1), (70, 300, 50), (300, 64, 200), (5, 2000, 7)):
        a = (rng.standard_normal((m, k)) * 3).astype(dt)
        b = (rng.standard_normal((k, n)) * 3).astype(dt)
        want = a.astype("complex128" if dt.startswith("c") else "float64") @ b
        close(xp.asarray(a) @ xp.asarray(b), want, tol * 10 * np.sqrt(k))
for dt in ("float32", "float64", "int64", "float16"):
    a = (rng.standard_normal((3, 5000)) * 100).astype(dt)
    assert np.array_equal(np.asarray(xp.sort(xp.asarray(a))), np.sort(a))
    assert np.array_equal(np.asarray(xp.argsort(xp.asarray(a), axis=0, stable=True)),
                          np.argsort(a, axis=0, kind="stable"))
    close(xp.cumulative_sum(xp.asarray(a), axis=1), np.cumsum(a.astype("float64"), axis=1),
          0.2 if dt == "float16" else 1e-4)
    assert np.array_equal(np.asarray(xp.unique_values(xp.asarray(a))), np.unique(a))
print("ok")
"""


@pytest.mark.webgpu
def test_every_planner_fits_webgpus_minimum_workgroup_memory():
    xp = pytest.importorskip("numr_array_api.webgpu")
    if not xp.__array_namespace_info__().devices():
        pytest.skip("no WebGPU adapter")
    tuning = os.environ.get("NUMR_TUNING", "")
    env = dict(os.environ, NUMR_TUNING=",".join(t for t in (tuning, "WG_STORAGE=16384") if t))
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    r = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True,
                       text=True, timeout=600, cwd=str(REPO))
    assert r.returncode == 0 and "ok" in r.stdout, r.stdout[-3000:] + r.stderr[-3000:]
