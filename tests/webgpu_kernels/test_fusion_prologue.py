"""A reduction of a pending elementwise expression runs it as its first pass's prologue
(ops/reduction/prologue.py): bit for bit the result of computing the expression, then
reducing it, on every path the reduction plans (row chunks, the row split of whole
arrays, the one-launch tail, argmax's indices, var's states), without writing it."""

import numpy as np
import pytest

from numr_array_api import tuning


def _host(x):
    return np.asarray(x.to_device("cpu"))


def _both(xp, f):
    with xp.fusion(False):
        eager = _host(f())
    with xp.fusion(True):
        xp.fusion_stats(reset=True)
        fused = _host(f())
        stats = xp.fusion_stats()
    return eager, fused, stats


def _data(xp, dtype, shape, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "c":
        h = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    elif np.dtype(dtype).kind == "f":
        h = rng.standard_normal(shape).astype(dtype)
    else:
        h = rng.integers(-50, 50, shape).astype(dtype)
    return xp.asarray(h)


CASES = {
    "sum((x - m) ** 2)": lambda xp, x, m, ax: xp.sum((x - m) ** 2, axis=ax),
    "mean(x * m + 1)": lambda xp, x, m, ax: xp.mean(x * m + 1, axis=ax),
    "max(exp(x) - m)": lambda xp, x, m, ax: xp.max(xp.exp(x) - m, axis=ax),
    "argmin(abs(x - m))": lambda xp, x, m, ax: xp.argmin(xp.abs(x - m),
                                                         axis=None if ax is None else -1),
    "var(x / m)": lambda xp, x, m, ax: xp.var(x / m, axis=ax),
    "prod(x * 0.01 + 1)": lambda xp, x, m, ax: xp.prod(x * 0.01 + 1, axis=ax),
}


@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("shape,ax", [((300, 1000), None), ((300, 1000), -1),
                                      ((7, 9, 4099), (1, 2)), ((5, 3), -1)])
def test_float_expressions_equal_the_eager_result_bit_for_bit(wgpu_xp, case, shape, ax):
    xp = wgpu_xp
    if case.startswith("argmin") and isinstance(ax, tuple):
        pytest.skip("argmin takes one axis")
    x = _data(xp, "float32", shape)
    m = xp.abs(_data(xp, "float32", shape[-1:], seed=1)) + 0.5
    eager, fused, stats = _both(xp, lambda: CASES[case](xp, x, m, ax))
    assert fused.tobytes() == eager.tobytes()
    assert stats["prologues"] == 1 and stats["kernels"] == 0, stats


@pytest.mark.parametrize("dtype", ["float64", "int32", "int64", "uint32", "complex64"])
def test_other_dtypes(wgpu_xp, dtype):
    xp = wgpu_xp
    if dtype in ("float64", "int64") and \
            xp.__array_namespace_info__().default_dtypes()["integral"] != xp.int64:
        pytest.skip("adapter without 64-bit types")
    x = _data(xp, dtype, (64, 3001))
    y = _data(xp, dtype, (3001,), seed=2)
    eager, fused, stats = _both(xp, lambda: xp.sum(x * y - x, axis=-1))
    assert fused.tobytes() == eager.tobytes()
    assert stats["prologues"] == 1
    if dtype != "complex64":
        eager, fused, stats = _both(xp, lambda: xp.max(x - y))
        assert fused.tobytes() == eager.tobytes() and stats["prologues"] == 1


@pytest.mark.parametrize("knobs", [dict(), dict(REDUCE_TAIL=1, REDUCE_ROW_SPLIT=0),
                                   dict(REDUCE_ROW_SPLIT=8192)])
def test_big_whole_array_paths(wgpu_xp, knobs):
    """2^22 elements: the row split (n / 8192 rows, then the row results) or the chunked
    one launch with its tail, each with the expression as the first pass's elements."""
    xp = wgpu_xp
    x = _data(xp, "float32", (1 << 22,), seed=4)
    with tuning.override(**knobs):
        for f in (lambda: xp.sum(x * x - 1), lambda: xp.argmax(x * 3 + 1),
                  lambda: xp.mean(xp.sin(x))):
            eager, fused, stats = _both(xp, f)
            assert fused.tobytes() == eager.tobytes(), knobs
            assert stats["prologues"] == 1


def test_cases_not_taken_compute_the_expression_first(wgpu_xp):
    xp = wgpu_xp
    x = _data(xp, "float32", (64, 100))
    h16 = _data(xp, "float16", (64, 100))
    for f in (lambda: xp.sum(x - 1, axis=0),              # not the trailing axes
              lambda: xp.sum(h16 * 2, axis=-1),           # a sub-word dtype
              lambda: xp.any(x > 0, axis=-1),             # reads bools
              lambda: xp.sum((x - 1)[::2], axis=-1)):     # a view of the expression
        eager, fused, stats = _both(xp, f)
        assert fused.tobytes() == eager.tobytes()
        assert stats["prologues"] == 0


def test_the_expression_stays_pending_and_correct(wgpu_xp):
    """The reduction reads the expression without computing it; reading it afterwards
    computes it, with the values its inputs had when it was built (a later write into
    an input flushes it first)."""
    xp = wgpu_xp
    h = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = xp.asarray(h)
    with xp.fusion(True):
        y = x * 2 + 1
        s = xp.sum(y, axis=-1)
        x[0, 0] = 100.0   # flushes y first
        np.testing.assert_array_equal(_host(y), h * 2 + 1)
        np.testing.assert_array_equal(_host(s), (h * 2 + 1).sum(axis=-1))
        z = x - 1
        t = xp.max(z, axis=-1)
        np.testing.assert_array_equal(_host(t), (_host(x) - 1).max(axis=-1))
        np.testing.assert_array_equal(_host(z), _host(x) - 1)


def test_repeated_calls_replay_with_new_data_and_scalars(wgpu_xp):
    """A repeated prologue reduction replays its recipe: new leaves every call, and a new
    Python scalar is a new signature (its words are parameters, not data)."""
    xp = wgpu_xp
    rng = np.random.default_rng(21)
    with xp.fusion(True):
        for c in (0.5, 0.5, 0.25, 0.25, 0.5):
            h = rng.standard_normal((40, 5000)).astype(np.float32)
            x = xp.asarray(h)
            got = _host(xp.sum((x - c) ** 2, axis=-1))
            with xp.fusion(False):
                ref = _host(xp.sum((x - c) ** 2, axis=-1))
            assert got.tobytes() == ref.tobytes(), c


# ---- random programs ending in reductions (the elementwise generator of test_fusion.py) ----
from hypothesis import HealthCheck, given, settings  # noqa: E402

from .test_fusion import programs, run_program  # noqa: E402

REDUCTIONS = [("sum", {}), ("sum", {"axis": -1}), ("max", {"axis": -1}), ("min", {}),
              ("argmax", {"axis": -1}), ("mean", {}), ("var", {"axis": -1}), ("prod", {})]


def _bytes(a):
    """``a``'s bytes, every float NaN (complex parts too) as one NaN: a NaN that a sum or
    a product makes from NaN operands (or from inf - inf) takes its sign and payload from
    whichever operand the compiler put first, which WGSL (and IEEE 754) leave open; the
    eager path's own variants (16-byte loads or not) differ there too."""
    if a.dtype.kind in "fc":
        r = a if a.dtype.kind == "f" else \
            a.view(np.float32 if a.dtype == np.complex64 else np.float64)
        a = np.where(np.isnan(r), np.nan, r).astype(r.dtype)
    return a.tobytes()


def _reduce_last(xp, prog):
    """The program's values are built (pending under fusion), then every reduction of
    REDUCTIONS runs on the last value of each dtype (error class or result bytes, NaNs
    as one)."""
    vals = run_program(xp, prog, keep=0, values=True)
    out = []
    for v in vals[-3:]:
        if v is None or v.ndim == 0:
            continue
        for name, kw in REDUCTIONS:
            try:
                r = getattr(xp, name)(v, **kw)
                out.append((name, str(r.dtype), _bytes(np.asarray(r.to_device("cpu")))))
            except Exception as e:  # noqa: BLE001 (both paths must agree on the class)
                out.append((name, type(e).__name__))
    return out


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture,
                                 HealthCheck.too_slow], deadline=None, max_examples=25)
@given(prog=programs(max_ops=8, light=True))
def test_random_programs_then_reductions_bit_identical(wgpu_xp, prog):
    xp = wgpu_xp
    with xp.fusion(False):
        eager = _reduce_last(xp, prog)
    with xp.fusion(True):
        fused = _reduce_last(xp, prog)
    assert fused == eager
