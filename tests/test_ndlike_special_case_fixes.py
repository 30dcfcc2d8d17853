"""The CuPy special-case corrections in backends/ndlike/kernels.py, tested without a GPU.

The wrapped module is NumPy with CuPy's faults planted (remainder by the naive formula, NaN
for every non-finite complex input): the corrected path, taken for any module that is not
NumPy, must give NumPy's (standard) results, signed zeros included.
"""

import types

import numpy as np
import pytest

from numr_array_api.backends.ndlike import kernels

VALS = np.array([0.0, -0.0, 1.5, -2.5, np.inf, -np.inf, np.nan])


@pytest.fixture(scope="module")
def tables():
    fake = types.ModuleType("not_numpy")
    fake.__dict__.update({k: getattr(np, k) for k in dir(np) if not k.startswith("__")})
    fake.__name__ = "not_numpy"

    def remainder(a, b, out=None):  # CuPy's formula: NaN for x % inf, +0 for 0 % negative
        return np.subtract(a, np.multiply(b, np.floor(np.divide(a, b))), out=out)

    def planted(f, bad):
        def g(z, out=None):
            r = f(z)
            if r.dtype.kind == "c":
                r = np.where(bad(np.real(z), np.imag(z)), complex(np.nan, np.nan), r)
            return r
        return g

    # the inputs where CuPy 14 was seen to return NaN + NaN j (conformance run on an H200)
    inf_nan = lambda re, im: (np.isinf(re) & np.isnan(im)) | (np.isnan(re) & np.isinf(im))
    fake.remainder = remainder
    fake.log = planted(np.log, inf_nan)
    fake.log1p = planted(np.log1p, inf_nan)
    fake.arccosh = planted(np.arccosh, lambda re, im: (re == 0) & np.isnan(im))
    fake.tanh = planted(np.tanh, lambda re, im: (re == 0) & ~np.isfinite(im))
    return kernels.elementwise_tables(fake), kernels.elementwise_tables(np)


def _same(got, want):
    assert got.dtype == want.dtype
    assert np.array_equal(np.isnan(got), np.isnan(want))
    fin = ~np.isnan(want)
    assert np.array_equal(got[fin], want[fin])
    assert np.array_equal(np.signbit(got[fin]), np.signbit(want[fin]))


def test_remainder_special_cases(tables):
    (_, fixed), (_, ref) = tables
    a, b = np.meshgrid(VALS, VALS)
    with np.errstate(all="ignore"):
        _same(fixed["remainder"](a, b), ref["remainder"](a, b))
        _same(fixed["remainder"](a, 2.0), ref["remainder"](a, 2.0))


@pytest.mark.parametrize("name", ["log", "log1p", "acosh", "tanh"])
def test_complex_special_cases(tables, name):
    (fixed, _), (ref, _) = tables
    re, im = np.meshgrid(VALS, VALS)
    z = np.empty(re.shape, dtype=np.complex128)
    z.real, z.imag = re, im
    with np.errstate(all="ignore"):
        got, want = fixed[name](z), ref[name](z)
    for part in (np.real, np.imag):
        _same(part(got), part(want))
