"""matmul / tensordot / vecdot / gemm_epilogue over data beyond one binding or one buffer
(panels, batch chunks, K panels accumulated), at shrunken limits."""

import numpy as np
import pytest

from numr_array_api import tuning


def host(x):
    return np.asarray(x.to_device("cpu"))


def _rand(rng, shape, dtype):
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-5 if np.dtype(dtype).kind == "i" else 0, 6, shape).astype(dtype)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16", "complex64", "float16"])
def test_matmul_panels(wgpu_xp, small_limits, dtype):
    xp = wgpu_xp
    rng = np.random.default_rng(1)
    a, b = _rand(rng, (700, 150), dtype), _rand(rng, (150, 400), dtype)
    ref = (a.astype(np.complex128 if "complex" in dtype else np.float64)
           @ b.astype(np.complex128 if "complex" in dtype else np.float64))
    with small_limits(binding=64 << 10, segment=256 << 10):
        got = host(xp.asarray(a) @ xp.asarray(b))
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got, (a.astype(np.int64) @ b.astype(np.int64))
                                      .astype(dtype))
    else:
        tol = {"float16": 2e-2, "float32": 1e-4, "complex64": 1e-4}.get(dtype, 1e-12)
        np.testing.assert_allclose(got, ref, rtol=tol, atol=tol * np.abs(ref).max())


def test_matmul_k_panels_accumulate(wgpu_xp, small_limits):
    xp = wgpu_xp
    rng = np.random.default_rng(2)
    a, b = _rand(rng, (7, 30_000), "float32"), _rand(rng, (30_000, 5), "float32")
    with small_limits(binding=32 << 10, segment=256 << 10):  # one row of a: 120 KB
        got = host(xp.asarray(a) @ xp.asarray(b))
        got_t = host(xp.asarray(b).T @ xp.asarray(a).T)  # transposed views, no copy
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(got, ref, rtol=1e-3, atol=1e-3 * np.abs(ref).max())
    np.testing.assert_allclose(got_t, ref.T, rtol=1e-3, atol=1e-3 * np.abs(ref).max())


def test_batched_and_broadcast_matmul_in_chunks(wgpu_xp, small_limits):
    xp = wgpu_xp
    rng = np.random.default_rng(3)
    a, b = _rand(rng, (3, 40, 120, 50), "float32"), _rand(rng, (40, 50, 90), "float32")
    with small_limits(binding=128 << 10, segment=1 << 20):
        got = host(xp.asarray(a) @ xp.asarray(b))
        td = host(xp.tensordot(xp.asarray(a), xp.asarray(b), axes=([1, 3], [0, 1])))
    np.testing.assert_allclose(got, a @ b, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(td, np.tensordot(a, b, axes=([1, 3], [0, 1])), rtol=1e-4,
                               atol=1e-3)


def test_vecdot_beyond_a_binding(wgpu_xp, small_limits):
    xp = wgpu_xp
    rng = np.random.default_rng(4)
    a = _rand(rng, (600, 700), "complex64")
    b = _rand(rng, (700,), "complex64")
    with small_limits(binding=256 << 10, segment=1 << 20):
        got = host(xp.vecdot(xp.asarray(a), xp.asarray(b)))
    np.testing.assert_allclose(got, np.sum(np.conj(a) * b, axis=-1), rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("activation", ["relu", "gelu"])
def test_gemm_epilogue_panels(wgpu_xp, small_limits, activation):
    from numr_array_api import ext

    xp = wgpu_xp
    rng = np.random.default_rng(5)
    a, b = _rand(rng, (2, 600, 200), "float32"), _rand(rng, (200, 500), "float32")
    bias, res = _rand(rng, (500,), "float32"), _rand(rng, (600, 500), "float32")
    ref = ext.linalg.gemm_epilogue(a, b, bias, activation=activation, residual=res)
    with small_limits(binding=128 << 10, segment=1 << 20):
        got = host(ext.linalg.gemm_epilogue(xp.asarray(a), xp.asarray(b), xp.asarray(bias),
                                            activation=activation,
                                            residual=xp.asarray(res)))
    np.testing.assert_allclose(got, np.asarray(ref), rtol=1e-4, atol=1e-3)


@pytest.mark.bigmem
def test_real_300mb_matmul_operand(wgpu_xp):
    """A 300 MB float32 operand (> lavapipe's 128 MiB binding) at the adapter's own limits."""
    xp = wgpu_xp
    m, k = 1_500_000, 50
    # int32 arange: float32 holds integers exactly only up to 2^24
    a = xp.reshape(xp.astype(xp.arange(m * k, dtype=xp.int32) % 7, xp.float32), (m, k))
    b = xp.ones((k, 2), dtype=xp.float32)
    got = host((a @ b)[::300_000])
    rows = (np.arange(m * k, dtype=np.float64) % 7).reshape(m, k)[::300_000]
    np.testing.assert_array_equal(got, np.repeat(rows.sum(1, keepdims=True), 2, 1))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("M,K,N,pieces_expected", [
    (64, 16384, 64, True),     # one output tile, long K: split
    (3, 5000, 7, True),        # K not a multiple of the piece count: a remainder panel
    (64, 2085, 64, True),
    (256, 4096, 256, True),
    (64, 1024, 64, True),
    (32, 256, 32, True),       # from SPLITK_MIN (QR's V^H V and Y C panels): 4 pieces
    (64, 250, 64, False),      # K too short to gain
])
def test_split_k_skinny_products(wgpu_xp, monkeypatch, dtype, M, K, N, pieces_expected):
    """Few output tiles over a long K run as a batch of K slices summed afterwards."""
    import importlib
    G = importlib.import_module("numr_array_api.backends.webgpu.ops.matmul.gemm")
    xp = wgpu_xp
    if dtype not in xp.__array_namespace_info__().dtypes():
        pytest.skip(f"no {dtype} on this adapter")
    calls = []
    real = G._gemm_split_k
    monkeypatch.setattr(G, "_gemm_split_k", lambda *a: calls.append(a[-1]) or real(*a))
    rng = np.random.default_rng(3)
    a, b = _rand(rng, (M, K), dtype), _rand(rng, (K, N), dtype)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    tol = 5e-6 if dtype == "float32" else 1e-13
    for xa in (xp.asarray(a), xp.asarray(np.ascontiguousarray(a.T)).mT):  # strided A too
        got = host(xa @ xp.asarray(b))
        np.testing.assert_allclose(got, ref, rtol=0, atol=tol * np.sqrt(K) * np.abs(ref).max())
    most = tuning.get("SPLITK_PIECES")
    assert bool(calls) is pieces_expected and all(4 <= p <= most for p in calls)


@pytest.mark.parametrize("shape", [((700, 20), (20, 300)), ((2, 300, 9), (9, 500))])
def test_more_tiles_than_one_grid_dimension(wgpu_xp, monkeypatch, shape):
    """Row / column tiles beyond the adapter's workgroups per dimension (65535; here shrunk
    to 2) run as panels: a (10 GiB / 64) x 64 @ 64 x 4 product on the H100 needed 81920 row
    tiles, which wgpu refused."""
    xp = wgpu_xp
    rng = np.random.default_rng(5)
    a, b = _rand(rng, shape[0], "float32"), _rand(rng, shape[1], "float32")
    A, B = xp.asarray(a), xp.asarray(b)
    from numr_array_api.backends.webgpu.codegen.spec import Kernel
    grids = []
    real = Kernel.launch

    def launch(self, groups, entry="main", **args):
        if type(self.spec).__name__ == "GemmSpec":
            grids.append(tuple(groups))
        return real(self, groups, entry, **args)

    monkeypatch.setattr(Kernel, "launch", launch)
    monkeypatch.setattr(A._data.client, "max_groups", 2)
    got = host(A @ B)
    assert len(grids) > 1 and max(max(g) for g in grids) <= 2, grids
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                               atol=1e-5)
