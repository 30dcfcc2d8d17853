"""The blocked Cholesky with the register panel (CholRegsSpec, ops/linalg/chol_regs.py).

Sizes from 33 (the smallest that leaves the one-dispatch batch kernels) cover one
workgroup (n <= 64 + tr), several (m2 > tr, m2 not a multiple of tr), a last step narrower
than the panel (kb = n % 64: 1, 3, 36, ...) and the D / o hand-over of the previous
diagonal block between steps. Each case checks the backward error, the upper factor, and
agreement with CholPanelSpec (the panel taken where the register panel does not fit); a
launch counter proves the register kernel ran.
"""

import numpy as np
import pytest

from numr_array_api._core.errors import InvalidArgument

from .test_linalg_gpu import DTYPES, _needs, bound, ct, host, nrm, random, ref, spd

SIZES = [33, 40, 64, 65, 67, 100, 130, 200, 257]


@pytest.fixture
def xp(wgpu_xp):
    return wgpu_xp


def _chol(xp, a, upper=False):
    return host(xp.linalg.cholesky(xp.asarray(a), upper=upper))


def _panel_only(monkeypatch):
    """CholPanelSpec from now on, as on an adapter the register panel does not fit."""
    from numr_array_api.backends.webgpu.ops.linalg import cholesky
    monkeypatch.setattr(cholesky, "regs_spec", lambda *a, **k: None)


# the global-memory panel kernel against the default (the GPU runs check it)
@pytest.mark.slow
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_backward_error_and_panel_kernel_agree(xp, n, dtype, monkeypatch):
    _needs(xp, dtype)
    rng = np.random.default_rng(n)
    a = spd(random(rng, (3 if n < 100 else 2, n, n), dtype))
    low = _chol(xp, a)
    assert low.dtype == a.dtype and low.shape == a.shape
    np.testing.assert_array_equal(np.triu(low, 1), 0)
    err = nrm(ref(a) - ref(low) @ ct(ref(low))) / nrm(a)
    assert err <= bound(n, dtype), err
    _panel_only(monkeypatch)
    other = _chol(xp, a)
    tol = 50 * n * np.finfo(low.real.dtype).eps
    np.testing.assert_allclose(low, other, rtol=0, atol=tol * np.abs(other).max())


@pytest.mark.parametrize("dtype", DTYPES)
def test_upper(xp, dtype):
    _needs(xp, dtype)
    a = spd(random(np.random.default_rng(5), (2, 130, 130), dtype))
    low, up = _chol(xp, a), _chol(xp, a, upper=True)
    np.testing.assert_array_equal(np.tril(up, -1), 0)
    np.testing.assert_allclose(up, ct(low), rtol=0, atol=0)


@pytest.mark.parametrize("wg,tr", [(256, 8), (512, 64), (64, 32)])
def test_the_register_kernel_runs_in_every_shape(xp, launches, knobs, wg, tr):
    """Workgroup sizes and row tiles (wg / 64 row groups, tr rows: 1 to 16 private rows of
    A21); float32 and complex128 (the widest registers)."""
    knobs(CHOL_WG=wg, CHOL_TR=tr)
    for dtype in ("float32", "complex128"):
        if dtype == "complex128" and not xp.asarray([0.0])._data.client.has("shader-f64"):
            continue
        a = spd(random(np.random.default_rng(1), (2, 150, 150), dtype))
        del launches[:]
        low = _chol(xp, a)
        assert "CholRegsSpec" in launches and "CholPanelSpec" not in launches, launches
        err = nrm(ref(a) - ref(low) @ ct(ref(low))) / nrm(a)
        assert err <= bound(150, dtype), (dtype, err)


def test_the_panel_kernel_takes_what_the_registers_do_not(xp, launches, monkeypatch):
    a = spd(random(np.random.default_rng(2), (1, 100, 100), "float32"))
    _chol(xp, a)
    assert "CholRegsSpec" in launches and "CholPanelSpec" not in launches
    del launches[:]
    _panel_only(monkeypatch)
    _chol(xp, a)
    assert "CholPanelSpec" in launches and "CholRegsSpec" not in launches


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n,bad", [(40, 39), (130, 5), (130, 100), (200, 129)])
def test_not_positive_definite_in_a_batch_raises(xp, n, bad, dtype):
    """The failing pivot in the first step (several workgroups), in a middle step and in
    the last, narrow one; the bad matrix in the middle of the batch."""
    _needs(xp, dtype)
    good = spd(random(np.random.default_rng(n), (3, n, n), dtype))
    a = good.copy()
    a[1, bad, bad] = -abs(a[1, bad, bad]) - n * n
    with pytest.raises(InvalidArgument, match="positive definite"):
        _chol(xp, a)
    a[1, bad, bad] = np.nan
    with pytest.raises(InvalidArgument):
        _chol(xp, a)
    _chol(xp, good)  # the status word is per call


# float32 1e-32, not lower: this matrix's smallest entries are 7e-6 of its largest, and
# NVIDIA's Vulkan driver flushes float32 subnormal inputs (docs/webgpu.md): at 1e-37 a tenth
# of the entries are subnormal and the H100 factors a different matrix (10 % error)
@pytest.mark.parametrize("dtype,scale", [("float32", 1e38), ("float32", 1e-32),
                                         ("complex64", 1e37), ("float64", 1e300),
                                         ("float64", 1e-300)])
def test_entries_near_the_ends_of_the_range(xp, dtype, scale):
    """The pivots d near the largest and smallest normal numbers: 1 / d of such a pivot
    would flush to zero or overflow, the kernel divides by d instead."""
    _needs(xp, dtype)
    a = spd(random(np.random.default_rng(7), (2, 130, 130), dtype)) / 130
    a = (ref(a) * scale).astype(dtype)
    low = ref(_chol(xp, a))
    want = np.linalg.cholesky(ref(a))
    assert np.all(np.isfinite(low))
    tol = 1e-9 if dtype == "float64" else 2e-3
    assert np.abs(low - want).max() <= tol * np.abs(want).max()
