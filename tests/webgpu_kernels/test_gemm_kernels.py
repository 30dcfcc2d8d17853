"""The GEMM kernels of ops/matmul, variant by variant, against NumPy in float64.

Every tile configuration (pinned through configs.force), with odd shapes (edges in M, N
and K, K shorter than a tile, one-row / one-column products), batches, transposed and
strided operands (the scalar-load path) next to contiguous aligned ones (the vec4-load
path), accumulation into C, the fused epilogue, split-K, the tuned table.
Errors are measured in units of sum_k |a_ik| |b_kj|, the scale that bounds a dot
product's rounding error.
"""

from __future__ import annotations

import numpy as np
import pytest

xp = pytest.importorskip("numr_array_api.webgpu")
if not xp.__array_namespace_info__().devices():
    pytest.skip("no WebGPU adapter", allow_module_level=True)

from numr_array_api import tuning  # noqa: E402
from numr_array_api._core import environment  # noqa: E402
from numr_array_api.backends.webgpu.codegen.caps import Caps  # noqa: E402
from numr_array_api.backends.webgpu.ops.matmul import configs  # noqa: E402
import importlib  # noqa: E402

G = importlib.import_module("numr_array_api.backends.webgpu.ops.matmul.gemm")

pytestmark = pytest.mark.webgpu

TOL = {"float32": 2e-6, "float64": 1e-14, "float16": 1e-3}
SHAPES = [  # (batch, M, K, N)
    ((), 1, 1, 1),
    ((), 3, 5, 7),
    ((), 17, 33, 9),
    ((), 64, 64, 64),
    ((), 129, 67, 131),
    ((), 1, 300, 129),
    ((), 200, 1, 5),
    ((3,), 33, 20, 40),
]


def _client():
    return xp.asarray([0.0])._data.client


def _host(x):
    return np.asarray(x._data.to_numpy())


def _check(got, a, b, dtype):
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    ref = a64 @ b64
    scale = np.abs(a64) @ np.abs(b64)
    err = np.max(np.abs(got.astype(np.float64) - ref) / np.maximum(scale, 1e-300)) \
        if ref.size else 0.0
    assert got.shape == ref.shape
    assert err <= TOL[dtype], f"error {err:.3e} > {TOL[dtype]:.1e}"


@pytest.fixture
def pinned():
    done = []

    def pin(dtype, name):
        configs.force(dtype, name)
        done.append(dtype)
    yield pin
    for d in done:
        configs.force(d, None)


def _db_names(dtype):
    wgs = Caps.of(_client()).workgroup_storage
    val = "f64" if dtype == "float64" else "f32"   # float16 computes in f32
    return [n for n, c in configs.CONFIGS.items() if configs.db_fits(c, val, wgs)]


# every double-buffered GEMM configuration (the GPU runs check them)
@pytest.mark.slow
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16"])
@pytest.mark.parametrize("cfg", ["db8x8k8", "db4x4k8", "db4x8k16", "db8x16k8"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s[0] + s[1:])))
def test_db_kernels_match_numpy(dtype, cfg, shape, pinned):
    if cfg not in _db_names(dtype):
        pytest.skip(f"{cfg} does not fit this adapter's workgroup memory for {dtype}")
    pinned(dtype, cfg)
    batch, M, K, N = shape
    rng = np.random.default_rng(M * 1000 + K * 10 + N)
    a = rng.standard_normal(batch + (M, K)).astype(dtype)
    b = rng.standard_normal(batch + (K, N)).astype(dtype)
    # contiguous (vec4 loads where aligned)
    _check(_host(xp.matmul(xp.asarray(a), xp.asarray(b))), a, b, dtype)
    # transposed A, reversed-column B: strided scalar loads
    at = xp.matrix_transpose(xp.asarray(np.ascontiguousarray(np.swapaxes(a, -1, -2))))
    br = xp.flip(xp.asarray(np.ascontiguousarray(b[..., ::-1])), axis=-1)
    _check(_host(xp.matmul(at, br)), a, b, dtype)


@pytest.mark.parametrize("cfg", ["db8x8k8", "8x8k8v"])
def test_vec4_path_taken_only_when_aligned(cfg, pinned):
    pinned("float32", cfg)
    c = _client()
    rng = np.random.default_rng(1)
    a = rng.standard_normal((40, 64)).astype(np.float32)
    b = rng.standard_normal((64, 36)).astype(np.float32)
    before = {s.label for s in c._kernels}
    _check(_host(xp.matmul(xp.asarray(a), xp.asarray(b))), a, b, "float32")
    # offset view: A starts one element into its buffer -> scalar loads
    big = rng.standard_normal(40 * 64 + 1).astype(np.float32)
    av = xp.reshape(xp.asarray(big)[1:], (40, 64))
    _check(_host(xp.matmul(av, xp.asarray(b))), big[1:].reshape(40, 64), b, "float32")
    new = {s.label for s in c._kernels} - before
    if cfg.startswith("db"):
        assert any(lb.startswith("gemm_float32_b0_db8x8k8_v") for lb in new | before)
        assert any(lb.startswith("gemm_float32_b0_db8x8k8") and "_v" not in lb
                   for lb in new | before)


@pytest.mark.parametrize("N", [66, 64])   # scalar / vec4 stores
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_db_accumulate_into_c(dtype, N, pinned):
    """The K-panel / factorisation path: C += A @ B (linalg's trailing updates)."""
    pinned(dtype, "db4x4k8")
    rng = np.random.default_rng(2)
    a = rng.standard_normal((70, 45)).astype(dtype)
    b = rng.standard_normal((45, N)).astype(dtype)
    c0 = rng.standard_normal((70, N)).astype(dtype)
    A, B, C = xp.asarray(a), xp.asarray(b), xp.asarray(c0)
    from numr_array_api.backends.webgpu.codegen.types import wtype
    cl = _client()
    t = wtype(A._data.dtype, cl)
    G._launch(cl, t, t, A._data, B._data, C._data, None, True)
    got = _host(C)
    ref = c0.astype(np.float64) + a.astype(np.float64) @ b.astype(np.float64)
    scale = np.abs(c0) + np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    assert np.max(np.abs(got - ref) / scale) <= TOL[dtype]


def test_db_split_k_skinny(pinned):
    pinned("float32", "db4x4k16")
    rng = np.random.default_rng(3)
    a = rng.standard_normal((20, 4100)).astype(np.float32)   # K not a multiple of pieces
    b = rng.standard_normal((4100, 24)).astype(np.float32)
    assert G._split_k(_client(), G.wtype(xp.asarray(a)._data.dtype), xp.asarray(a)._data,
                      xp.asarray(b)._data, None) > 1
    _check(_host(xp.matmul(xp.asarray(a), xp.asarray(b))), a, b, "float32")


@pytest.mark.parametrize("N", [130, 128])   # scalar / vec4 stores
def test_db_with_fused_epilogue(N, pinned):
    ext = pytest.importorskip("numr_array_api.ext")
    pinned("float32", "db8x8k8")
    rng = np.random.default_rng(4)
    a = rng.standard_normal((33, 70)).astype(np.float32)
    b = rng.standard_normal((70, N)).astype(np.float32)
    bias = rng.standard_normal(N).astype(np.float32)
    got = _host(ext.linalg.gemm_epilogue(xp.asarray(a), xp.asarray(b), bias=xp.asarray(bias),
                                         activation="relu"))
    ref = np.maximum(a.astype(np.float64) @ b + bias, 0)
    assert np.allclose(got, ref, rtol=1e-5, atol=1e-4)


def test_choose_respects_workgroup_memory():
    big = configs.CONFIGS["db8x8k16"]
    assert big.shared_bytes(4) > 32768
    assert not configs.db_fits(big, "f32", 32768) and configs.db_fits(big, "f32", 49152)
    assert configs.db_fits(configs.CONFIGS["db8x8k8"], "f64", 32768)
    assert not configs.db_fits(configs.CONFIGS["db8x8k8"], "vec2<f32>", 49152)
    configs.force("float32", "db8x8k16")
    try:
        assert configs.choose("f32", "float32", 512, 512, 512, 32768).name != "db8x8k16"
        assert configs.choose("f32", "float32", 512, 512, 512, 49152).name == "db8x8k16"
        # float16 (f32 compute) may take a db config; complex / ints never
        configs.force("float16", "db8x8k8")
        assert configs.choose("f32", "float16", 512, 512, 512, 49152).db
        configs.force("complex64", "db8x8k8")
        assert not configs.choose("vec2<f32>", "complex64", 512, 512, 512, 49152).db
        configs.force("int32", "db8x8k8")
        assert not configs.choose("i32", "int32", 512, 512, 512, 49152).db
    finally:
        for d in ("float32", "float16", "complex64", "int32"):
            configs.force(d, None)


def test_launch_plan_repeats_products_exactly(pinned):
    """A repeated product of one signature takes its launch plan: same results, operands at
    other offsets (same alignment) and fresh outputs each time; pinning a configuration
    retires the plans (it changes the tuning epoch)."""
    rng = np.random.default_rng(6)
    buf = rng.standard_normal(8 * 40 * 24 + 64).astype(np.float32)
    b = rng.standard_normal((24, 33)).astype(np.float32)
    B = xp.asarray(b)
    X = xp.asarray(buf)
    outs = []
    for off in (0, 8, 16, 0, 8):   # same alignment mod 8: one signature
        a = buf[off:off + 40 * 24].reshape(40, 24)
        A = xp.reshape(X[off:off + 40 * 24], (40, 24))
        r = xp.matmul(A, B)
        outs.append(r)
        _check(_host(r), a, b, "float32")
    assert len({id(o._data.block) for o in outs}) == len(outs)  # fresh outputs
    sig_plans = [p for p in G._PLANS.values() if p is not None]
    assert sig_plans, "no launch plan recorded"
    for off in (3, 5):   # other alignments: their own signatures (scalar loads)
        a = buf[off:off + 40 * 24].reshape(40, 24)
        _check(_host(xp.matmul(xp.reshape(X[off:off + 40 * 24], (40, 24)), B)), a, b,
               "float32")
    pinned("float32", "db4x4k8")
    a = buf[:40 * 24].reshape(40, 24)
    _check(_host(xp.matmul(xp.reshape(X[:40 * 24], (40, 24)), B)), a, b, "float32")
    # split-K, batched-broadcast and float16 products are not planned but stay right
    a3 = rng.standard_normal((2, 5, 24)).astype(np.float32)
    _check(_host(xp.matmul(xp.asarray(a3), B)), a3, b, "float32")
    _check(_host(xp.matmul(xp.asarray(a3), B)), a3, b, "float32")


def test_tuner_writes_and_choose_reads_the_table(tmp_path, monkeypatch):
    """tune.py times the candidates on the device, checks them against NumPy and writes
    the fastest per (dtype, bucket) into the "gemm" section of the adapter's tuning table;
    choose() then returns it."""
    from numr_array_api.backends.webgpu.ops.matmul import tune
    from numr_array_api.tuning import tables
    path = tmp_path / "tuning.json"
    monkeypatch.setenv("NUMR_TUNING_TABLE", str(path))
    environment.reload("NUMR_TUNING_TABLE")
    tables.reload()
    c = _client()
    lines = []
    try:
        found = tune.tune(c, shapes=[(40, 24, 36)], dtypes=("float32",), repeats=1,
                          log=lines.append)
        key = f"float32:{configs.bucket(40, 36, 24)}"
        assert key in found and found[key] in tune.candidates(c, "float32")
        assert path.exists() and tables.load(str(path))["gemm"][key] == found[key]
        wgs = Caps.of(c).workgroup_storage
        assert configs.choose("f32", "float32", 40, 36, 24, wgs,
                              configs.table_for(c)).name == found[key]
        a = np.random.default_rng(8).standard_normal((40, 24)).astype(np.float32)
        b = np.random.default_rng(9).standard_normal((24, 36)).astype(np.float32)
        _check(_host(xp.matmul(xp.asarray(a), xp.asarray(b))), a, b, "float32")
    finally:
        monkeypatch.delenv("NUMR_TUNING_TABLE")
        environment.reload("NUMR_TUNING_TABLE")
        tables.reload()
    assert key not in configs.table_for(c)


# both code styles of the double-buffered GEMM (the GPU runs check them)
@pytest.mark.slow
@pytest.mark.parametrize("style", ["u", "uf"])
def test_db_code_styles(style, pinned):
    """Both spellings of the db kernel (the GEMM_STYLE knob: unrolled K loop, with or
    without explicit fma); 5 x 4 output tiles cover a ragged last tile row."""
    pinned("float32", "db8x8k8")
    rng = np.random.default_rng(10)
    with tuning.override(GEMM_STYLE=style):
        for M, K, N in ((520, 12, 390), (129, 67, 131), (128, 64, 128)):
            a = rng.standard_normal((M, K)).astype(np.float32)
            b = rng.standard_normal((K, N)).astype(np.float32)
            _check(_host(xp.matmul(xp.asarray(a), xp.asarray(b))), a, b, "float32")
        at = xp.matrix_transpose(xp.asarray(np.ascontiguousarray(a.T)))   # strided A
        _check(_host(xp.matmul(at, xp.asarray(b))), a, b, "float32")
        a64 = a.astype(np.float64)
        configs.force("float64", "db8x8k8")
        try:
            _check(_host(xp.matmul(xp.asarray(a64), xp.asarray(b.astype(np.float64)))), a64,
                   b.astype(np.float64), "float64")
        finally:
            configs.force("float64", None)
    assert any(s.label.endswith("_" + style) for s in _client()._kernels
               if s.label.startswith("gemm_float32"))


def test_db_kernels_without_runtime_checks(pinned):
    """The db kernels compiled without wgpu's index clamps and loop counters
    (GemmSpec.trusted) give NumPy's results on ragged shapes, batches and strided
    operands, and really are built through the trusted entry point."""
    pinned("float32", "db8x8k8")
    rng = np.random.default_rng(11)
    for M, K, N in ((131, 37, 129), (256, 128, 256), (1, 5, 3)):
        a = rng.standard_normal((3, M, K)).astype(np.float32)
        b = rng.standard_normal((K, N)).astype(np.float32)
        _check(_host(xp.matmul(xp.asarray(a), xp.asarray(b))), a, b, "float32")
        at = xp.matrix_transpose(xp.asarray(np.ascontiguousarray(a[0].T)))
        _check(_host(xp.matmul(at, xp.asarray(b))), a[0], b, "float32")
    client = _client()
    labels = [s.label for s in client._kernels if s.label.startswith("gemm_float32")
              and "db8x8k8" in s.label]
    assert any("_T_" in lb for lb in labels), labels
    assert any(k[1] == 0 for k in client.pipelines._modules)
