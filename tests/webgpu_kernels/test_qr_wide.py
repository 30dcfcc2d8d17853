"""linalg.qr on webgpu through the many-workgroup Householder panel (ops/linalg/qr_wide.py)
against NumPy in float64 / complex128: ||A - QR|| / ||A|| and ||Q^H Q - I|| within
10 n eps, R upper triangular, and the panel counter proving the wide kernel ran.

Blocks of 32 rows (QR_WIDE_RPT=4) and a 32-row threshold (QR_WIDE_MIN) put several
workgroups on every panel at sizes lavapipe runs quickly; plans are off so every call
runs the kernels from Python (a replayed plan would not move the counter)."""

import numpy as np
import pytest

from numr_array_api import tuning

DTYPES = ["float32", "float64", "complex64", "complex128"]
C = 10.0


@pytest.fixture
def xp(wgpu_xp, knobs):
    """The namespace with the wide panel from 32 rows, plans off."""
    from numr_array_api._core.config import host_conversion
    knobs(QR_WIDE_MIN=32, QR_WIDE_MIN_F64=32, QR_WIDE_RPT=4, LINALG_PLAN=False)
    with host_conversion("allow"):
        yield wgpu_xp


def _one_workgroup_panels(knobs):
    """Every panel on FactorSpec "qr" (one workgroup walking global memory) from now on."""
    knobs(QR_WIDE_MIN=1 << 30, QR_WIDE_MIN_F64=1 << 30, QR_LOOP_MAX=0, QR_LOOP_MAX_F32=0)


@pytest.fixture
def panels():
    from numr_array_api.backends.webgpu.ops.linalg import qr_wide
    before = qr_wide.CALLS["panels"]
    return lambda: qr_wide.CALLS["panels"] - before


def _needs(xp, dtype):
    if dtype in ("float64", "complex128") and not \
            xp.__array_namespace_info__().capabilities().get("float64", True):
        pytest.skip("no shader-f64")


def _host(x):
    return np.asarray(x.to_device("cpu"))


def _random(rng, shape, dtype):
    a = rng.standard_normal(shape)
    if dtype.startswith("complex"):
        a = a + 1j * rng.standard_normal(shape)
    return a.astype(dtype)


def _eps(dtype):
    return float(np.finfo(np.float32 if dtype in ("float32", "complex64") else np.float64).eps)


def _check(xp, a, mode="reduced"):
    """QR of the host array ``a`` on the device, checked against float64 arithmetic."""
    dtype = a.dtype
    m, n = a.shape[-2:]
    q, r = (_host(y) for y in xp.linalg.qr(xp.asarray(a), mode=mode))
    qc = m if mode == "complete" else min(m, n)
    assert q.shape == a.shape[:-2] + (m, qc) and r.shape == a.shape[:-2] + (qc, n)
    assert q.dtype == dtype and r.dtype == dtype
    np.testing.assert_array_equal(np.tril(r, -1), 0)
    wide = np.complex128 if dtype.kind == "c" else np.float64
    ar, qr_, rr = a.astype(wide), q.astype(wide), r.astype(wide)
    mx = np.abs(ar).max() if ar.size and np.isfinite(ar).all() else 0.0
    if mx > 0:   # float64 entries of 1e200: the reference norms would overflow
        ar, rr = ar / mx, rr / mx
    tol = C * max(m, n, 2) * _eps(dtype.name)
    nrm = np.linalg.norm(ar.reshape(-1, m, n), axis=(-2, -1))
    err = np.linalg.norm((ar - qr_ @ rr).reshape(-1, m, n), axis=(-2, -1)) / np.maximum(
        nrm, np.finfo(np.float64).tiny)
    assert (err <= tol).all(), (a.shape, err.max(), tol)
    qh = np.conj(np.swapaxes(qr_, -1, -2))
    orth = np.linalg.norm((qh @ qr_ - np.eye(qc)).reshape(-1, qc, qc), axis=(-2, -1))
    assert (orth <= tol).all(), (a.shape, orth.max(), tol)
    return q, r


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(100, 100), (150, 40), (40, 150), (3, 70, 50), (161, 97)])
def test_wide_panel_against_numpy(xp, panels, dtype, shape):
    """Square, tall, wide and batched; 100, 150, 70, 161 rows: not multiples of the
    32-row block, several blocks per panel, short last panels (kb < 32)."""
    _needs(xp, dtype)
    a = _random(np.random.default_rng(sum(shape)), shape, dtype)
    _check(xp, a)
    assert panels() > 0


@pytest.mark.parametrize("dtype", DTYPES)
def test_many_blocks_of_different_scales(xp, panels, dtype):
    """More row blocks than a workgroup has slices (700 rows: 22 blocks of 32 on 8
    slices), each block's rows scaled by another power of ten, so every slice combines
    several partials whose scale grows and shrinks; a NaN
    in a late block reaches R."""
    _needs(xp, dtype)
    from numr_array_api.backends.webgpu.ops.linalg import qr_wide
    rng = np.random.default_rng(21)
    a = _random(rng, (700, 40), dtype)
    a *= (10.0 ** ((np.arange(700) // 32) % 7 - 3))[:, None].astype(a.real.dtype)
    _check(xp, a)
    assert panels() == 2
    t = xp.asarray(a)._data
    from numr_array_api.backends.webgpu.codegen.types import wtype
    spec = qr_wide.spec(t.client, wtype(t.dtype, t.client, "test"), 700)
    assert spec in t.client._kernels
    a[650, 3] = np.nan
    _, r = (_host(y) for y in xp.linalg.qr(xp.asarray(a)))
    assert np.isnan(r[:, 3:]).any() and not np.isnan(r[:3, :3]).any()


@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_wide_panel_complete_mode(xp, panels, dtype):
    a = _random(np.random.default_rng(3), (120, 45), dtype)
    _check(xp, a, mode="complete")
    assert panels() == 2


@pytest.mark.parametrize("dtype", DTYPES)
def test_wide_panel_rank_deficient_and_zero_columns(xp, panels, dtype):
    """Zero columns (tau = 0, as LAPACK), a column zero below the diagonal, a repeated
    column (its reflector built from rounding noise) and an all-zero matrix."""
    _needs(xp, dtype)
    rng = np.random.default_rng(5)
    a = _random(rng, (2, 90, 60), dtype)
    a[0, :, 3] = 0
    a[0, :, 40] = 0
    a[0, 6:, 20] = 0
    a[0, :, 10] = 2 * a[0, :, 2]
    a[1, :, 33:] = a[1, :, :27] @ _random(rng, (27, 27), dtype)   # rank 33
    _check(xp, a)
    q, r = _check(xp, np.zeros((70, 40), dtype))
    assert not np.abs(r).any()
    np.testing.assert_array_equal(q, np.eye(70, 40, dtype=dtype))
    assert panels() == 4


def test_wide_panel_ill_conditioned_float32(xp, panels):
    rng = np.random.default_rng(7)
    n = 96
    u = np.linalg.qr(rng.standard_normal((n, n)))[0]
    v = np.linalg.qr(rng.standard_normal((n, n)))[0]
    a = ((u * np.logspace(0, -6, n)) @ v).astype(np.float32)
    _check(xp, a)
    assert panels() == 3


@pytest.mark.parametrize("dtype,scale", [(d, s) for d in ("float32", "complex64")
                                         for s in (1e30, 1e-30, 1e20, 1e-20)]
                         + [("float64", 1e200), ("float64", 1e-200)])
def test_wide_panel_scaled_like_the_one_workgroup_panel(xp, panels, knobs, dtype, scale):
    """Entries near the ends of the dtype's range: no overflow or flush to zero of the
    squares, R as the one-workgroup panel's (the H100 gave NaN from 1e20 and a backward
    error of 0.5 from 1e-20 in float32 before the power-of-two normalisation)."""
    if dtype == "float64" and not xp.__array_namespace_info__().capabilities().get(
            "float64", True):
        pytest.skip("no shader-f64")
    a = (_random(np.random.default_rng(11), (80, 50), dtype) * scale).astype(dtype)
    _, r = _check(xp, a)
    assert panels() == 2
    _one_workgroup_panels(knobs)
    _, r0 = _check(xp, a)
    assert panels() == 2
    np.testing.assert_allclose(r, r0, rtol=0, atol=1e-4 * np.abs(r0).max())


def test_default_wide_panel_heights(xp, panels, knobs):
    """The shipped defaults: float64 takes 32-row blocks from panels of 129 rows (above
    the looped panels' 128), other dtypes from 256 with the one-workgroup panel (FactorSpec
    "qr") below; float32 loops panels of up to 512 rows on 32 row slices."""
    _needs(xp, "float64")
    from numr_array_api.backends.webgpu.ops.linalg import qr_loop
    knobs(QR_WIDE_MIN=None, QR_WIDE_MIN_F64=None, QR_WIDE_RPT=None)
    a = _random(np.random.default_rng(13), (300, 70), "float64")
    _, r = _check(xp, a)
    assert panels() == 3      # 300, 268 and 236 rows (panels() counts from the start)
    _check(xp, a[:160])
    assert panels() == 6      # 160 rows; 128 and 96 looped (counted too)
    knobs(QR_WIDE_MIN_F64=256)
    _check(xp, a)
    assert panels() == 8      # 300 and 268 rows; the third panel's 236 take FactorSpec
    with tuning.override(QR_WIDE_MIN_F64=1 << 30, QR_LOOP_MAX=0):
        _, r0 = _check(xp, a)
    assert panels() == 8
    np.testing.assert_allclose(r, r0, rtol=0, atol=1e-12 * np.abs(r0).max())
    knobs(QR_WIDE_MIN_F64=None)
    b = _random(np.random.default_rng(14), (530, 70), "float32")
    _check(xp, b)
    assert panels() == 11     # 530 rows wide; 498 and 466 looped
    t = xp.asarray(b)._data
    assert any(isinstance(k, qr_loop.QrLoopSpec) and k.ns == 32 and k.rows == 512
               for k in t.client._kernels)


def test_tall_panels_take_taller_blocks(xp, panels, monkeypatch):
    """Every workgroup combines every block's partials: beyond NBLK_CAP blocks the rows
    per thread double (up to 64) instead of the blocks multiplying."""
    from numr_array_api.backends.webgpu.codegen.types import WTYPES
    from numr_array_api.backends.webgpu.ops.linalg import qr_wide
    from numr_array_api._core import dtypes as dt
    t = WTYPES[dt.float32]
    client = xp.asarray([0.0])._data.client
    assert qr_wide.spec(client, t, 40000).rpt == 32     # from 4 (the fixture): 157 blocks
    monkeypatch.setattr(qr_wide, "NBLK_CAP", 2)
    assert [qr_wide.spec(client, t, m).rpt for m in (64, 65, 200, 10 ** 6)] == [4, 8, 16, 64]
    _check(xp, _random(np.random.default_rng(17), (200, 40), "float32"))
    assert panels() == 2
