"""linalg.qr on webgpu with short panels on the looped wide kernel (qr_wide.py, looped:
one dispatch walks a panel's columns, QR_LOOP_MAX rows and fewer) after
wide ones: against NumPy as test_qr_wide.py checks (backward error and orthogonality
within 10 n eps), with the panel counter proving the looped kernel ran."""

import numpy as np
import pytest

from .test_qr_wide import DTYPES, _check, _needs, _random
from .test_qr_wide import xp  # noqa: F401  (the fixture: plans off, wide panels from 32 rows)


@pytest.fixture
def looped(monkeypatch, knobs):
    """Counts the looped panels: the wide kernel's panels taken with one launch."""
    from numr_array_api.backends.webgpu.ops.linalg import qr_wide
    knobs(QR_LOOP_MAX=64, QR_LOOP_MAX_F32=64)
    seen = []
    orig = qr_wide.WidePanel.factor

    def factor(self, panel, tau):
        seen.append((self.looped, panel.shape[1]))
        return orig(self, panel, tau)

    monkeypatch.setattr(qr_wide.WidePanel, "factor", factor)
    return seen


def _expected(m, n):
    """(looped panels, wide panels): 32 columns a panel, looped from 64 rows down, wide
    (threshold 32) above."""
    lo = wi = 0
    for k in range(0, min(m, n), 32):
        if m - k <= 64:
            lo += 1
        elif m - k >= 32:
            wi += 1
    return lo, wi


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(100, 100), (150, 40), (40, 150), (3, 70, 50), (161, 97),
                                   (45, 20)])
def test_looped_panels_against_numpy(xp, looped, dtype, shape):  # noqa: F811
    """Square, tall (never reaching 64 rows), wide (looped from the first panel), batched,
    odd sizes, a panel of 45 rows (a block of 64 with 19 idle rows)."""
    _needs(xp, dtype)
    a = _random(np.random.default_rng(sum(shape)), shape, dtype)
    _check(xp, a)
    m, n = shape[-2:]
    lo, wi = _expected(m, n)
    assert sum(1 for lp, _ in looped if lp) == lo
    assert sum(1 for lp, _ in looped if not lp) == wi


@pytest.mark.parametrize("dtype", ["float32", "complex64", "float64"])
def test_looped_rank_deficient_complete(xp, looped, dtype):  # noqa: F811
    """Zero, half-zero and repeated columns inside the looped panels, complete mode."""
    _needs(xp, dtype)
    rng = np.random.default_rng(9)
    a = _random(rng, (90, 80), dtype)
    a[:, 60] = 0
    a[40:, 62] = 0
    a[:, 70] = 3 * a[:, 65]
    _check(xp, a, mode="complete")
    q, r = _check(xp, np.zeros((50, 40), dtype))
    assert not np.abs(r).any()
    assert any(lp for lp, _ in looped)


@pytest.mark.parametrize("dtype,scale", [("float32", 1e30), ("float32", 1e-30),
                                         ("float64", 1e200)])
def test_looped_scaled(xp, looped, dtype, scale):  # noqa: F811
    """Entries near the ends of the range: the power-of-two normalisation covers the
    looped panels too (a matrix short enough to take no wide panel at all)."""
    _needs(xp, dtype)
    a = (_random(np.random.default_rng(4), (60, 45), dtype) * scale).astype(dtype)
    _check(xp, a)
    assert [lp for lp, _ in looped] == [True, True]


def test_looped_off(xp, looped, knobs):  # noqa: F811
    knobs(QR_LOOP_MAX=0, QR_LOOP_MAX_F32=0)
    _check(xp, _random(np.random.default_rng(1), (100, 100), "float32"))
    assert not any(lp for lp, _ in looped)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_looped_1024_invocations(xp, looped, knobs, dtype):  # noqa: F811
    """32 row slices (a 1024-invocation workgroup), panels of up to 200 rows looped:
    8 rows a thread, blocks of 256 rows."""
    _needs(xp, dtype)
    knobs(QR_LOOP_NS=32, QR_LOOP_NS_F32=32, QR_LOOP_MAX=200, QR_LOOP_MAX_F32=200)
    _check(xp, _random(np.random.default_rng(6), (2, 260, 120), dtype))
    assert [lp for lp, _ in looped] == [False, False, True, True]
