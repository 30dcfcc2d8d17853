"""matmul's front-end against NumPy: 1-D / 2-D / stacked operands, broadcast batches, dtypes,
and its errors (the direct path for equal batch shapes must agree with the general one)."""

import numpy as np
import pytest

from _support import asxp, to_numpy

SHAPES = [((3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((0, 3, 4), (0, 4, 2)),
          ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (6, 4, 2)), ((4,), (4, 5)), ((3, 4), (4,)),
          ((4,), (4,)), ((2, 3, 4), (4,)), ((3, 0), (0, 2)), ((2, 2, 3, 4), (2, 2, 4, 1))]


@pytest.mark.parametrize("s1,s2", SHAPES, ids=[f"{a}@{b}" for a, b in SHAPES])
@pytest.mark.parametrize("dtype", ["float32", "int32", "complex64"])
def test_matmul_equals_numpy(xp, s1, s2, dtype):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(s1) * 4).astype(dtype)
    b = (rng.standard_normal(s2) * 4).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * a[..., ::-1] if a.ndim else a
    want = np.matmul(a.astype(np.complex128 if dtype == "complex64" else np.float64),
                     b.astype(np.complex128 if dtype == "complex64" else np.float64))
    got = xp.matmul(asxp(xp, a), asxp(xp, b))
    assert got.shape == want.shape and got.dtype == getattr(xp, dtype)
    np.testing.assert_allclose(to_numpy(got), want, rtol=1e-5, atol=1e-4)


@pytest.mark.strict_semantics
def test_matmul_errors(xp):
    from numr_array_api.errors import NumrError
    a = xp.ones((2, 3, 4))
    for b in (xp.ones((2, 5, 4)), xp.ones((3, 4, 5)), xp.ones((2, 4, 5), dtype=xp.int32)):
        with pytest.raises(NumrError):
            xp.matmul(a, b)
    with pytest.raises(NumrError):
        xp.matmul(xp.ones((2, 2), dtype=xp.bool), xp.ones((2, 2), dtype=xp.bool))
