"""Launch plans (kernels/launch_plan.py): the second and later identical elementwise launches
take the plan path; its results must equal the general path's (and NumPy's) in every case
the plan covers or hands back: views with offsets, broadcasts, scalars, packed outputs,
graph capture, and buffers destroyed in between."""

import gc

import numpy as np
import pytest

xp = pytest.importorskip("numr_array_api.webgpu")
pytestmark = pytest.mark.usefixtures("eager")  # counts of the eager path


def _np(a):
    return np.asarray(a.to_device("cpu"))


def _plans_used(fn, reps=4):
    """Run ``fn`` ``reps`` times (the first launch builds the plan); each result."""
    return [fn() for _ in range(reps)]


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint8, np.bool_, np.int64])
def test_repeated_binary_matches_numpy(dtype):
    rng = np.random.default_rng(0)
    a = (rng.random((7, 33)) * 50).astype(dtype)
    b = (rng.random((7, 33)) * 50 + 1).astype(dtype)
    xa, xb = xp.asarray(a), xp.asarray(b)
    op = np.logical_xor if dtype is np.bool_ else np.add
    fn = xp.logical_xor if dtype is np.bool_ else xp.add
    for r in _plans_used(lambda: fn(xa, xb)):
        np.testing.assert_array_equal(_np(r), op(a, b))
    # sliced views: nonzero element offsets, strided, and broadcast rows
    for r in _plans_used(lambda: fn(xa[2:, 1:], xb[:-2, :-1])):
        np.testing.assert_array_equal(_np(r), op(a[2:, 1:], b[:-2, :-1]))
    for r in _plans_used(lambda: fn(xa[:, ::-2], xb[3, ::-2])):
        np.testing.assert_array_equal(_np(r), op(a[:, ::-2], b[3, ::-2]))
    # size 1 and 2^k +- 1
    for n in (1, 31, 33):
        for r in _plans_used(lambda: fn(xa[0, :n], xb[1, :n])):
            np.testing.assert_array_equal(_np(r), op(a[0, :n], b[1, :n]))


def test_chain_with_scalars_and_specials():
    x = xp.asarray(np.array([0.0, -0.0, 1.5, np.inf, -np.inf, np.nan], np.float32))
    ref = np.array([0.0, -0.0, 1.5, np.inf, -np.inf, np.nan], np.float32)
    y, r = x, ref
    for _ in range(20):
        y = y * -0.0 + 2.0
        r = r * np.float32(-0.0) + np.float32(2.0)
    np.testing.assert_array_equal(_np(y), r)
    # -0.0 and 0.0 are distinct cached scalar operands (signs compared where not NaN: the
    # sign of inf * 0's NaN is the hardware's, set on x86, clear on NVIDIA)
    for z in (0.0, -0.0):
        got, want = _np(x * z), ref * np.float32(z)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        keep = ~np.isnan(want)
        np.testing.assert_array_equal(np.signbit(got[keep]), np.signbit(want[keep]))
    # Python int and bool with a float array, NaN scalar
    np.testing.assert_array_equal(_np(x + 3), ref + np.float32(3))
    np.testing.assert_array_equal(_np(x + True), ref + np.float32(1))
    assert np.isnan(_np(x + float("nan"))).all()


def test_int_scalar_out_of_range_still_raises():
    from numr_array_api._core.errors import OutOfRange
    x = xp.asarray(np.arange(5, dtype=np.int8))
    for _ in range(3):
        np.testing.assert_array_equal(_np(x + 1), np.arange(5, dtype=np.int8) + 1)
    with pytest.raises(OutOfRange):
        x + 1000


def test_scalar_on_left_and_reflected():
    a = np.arange(6, dtype=np.float32)
    x = xp.asarray(a)
    for _ in range(3):
        np.testing.assert_array_equal(_np(2.0 - x), 2.0 - a)
        np.testing.assert_array_equal(_np(x - 2.0), a - 2.0)


def test_plan_survives_empty_cache():
    a = np.arange(1000, dtype=np.float32)
    x = xp.asarray(a)
    y = x
    for _ in range(10):
        y = y + x
    gc.collect()
    import numr_array_api.backends.webgpu as W
    W.empty_cache()  # destroys the pooled buffers the cached bind groups named
    for _ in range(10):
        y = y + x
    np.testing.assert_array_equal(_np(y), a * 21)


def test_capture_replays_planned_launches():
    a = np.arange(100, dtype=np.float32)
    xa = xp.asarray(a)

    def chain(v):
        r = v
        for _ in range(5):
            r = r + v
        return r * 2.0

    for _ in range(3):  # the plans of these signatures exist before the capture
        chain(xa)
    g = xp.capture_graph(chain, xa)
    assert g.num_dispatches == 6
    np.testing.assert_array_equal(_np(g(xa)), a * 12)
    np.testing.assert_array_equal(_np(g(xp.asarray(a + 1))), (a + 1) * 12)
    np.testing.assert_array_equal(_np(chain(xa)), a * 12)  # eager after the capture


def test_repeated_launches_take_the_plan(monkeypatch):
    from numr_array_api.backends.webgpu.kernels import launch_plan
    calls = []
    run = launch_plan.LaunchPlan.run
    monkeypatch.setattr(launch_plan.LaunchPlan, "run",
                        lambda self, inputs: calls.append(1) or run(self, inputs))
    a = np.arange(37, dtype=np.float32)
    x = xp.asarray(a)
    for _ in range(4):
        r = x[1:] * 3.0
    np.testing.assert_array_equal(_np(r), a[1:] * 3)
    assert len(calls) >= 3


def test_left_scalars_match_numpy():
    from numr_array_api._core.errors import OutOfRange
    a = np.array([0.5, -0.0, 3.0], np.float32)
    c = np.array([1 + 2j, -0.5j], np.complex64)
    b = np.array([True, False])
    x, xc, xb = xp.asarray(a), xp.asarray(c), xp.asarray(b)
    for _ in range(3):
        np.testing.assert_array_equal(_np(2.0 ** x), np.float32(2.0) ** a)
        np.testing.assert_array_equal(_np(1 / x), np.float32(1) / a)
        np.testing.assert_array_equal(_np(xp.multiply(-0.0, x)), np.float32(-0.0) * a)
        np.testing.assert_array_equal(_np(1j * xc), np.complex64(1j) * c)
        np.testing.assert_array_equal(_np(True ^ xb), np.True_ ^ b)
        assert (2.0 * x).dtype == xp.float32 and (1j * xc).dtype == xp.complex64
    i8 = xp.asarray(np.arange(3, dtype=np.int8))
    np.testing.assert_array_equal(_np(5 - i8), 5 - np.arange(3, dtype=np.int8))
    with pytest.raises(OutOfRange):
        1000 - i8
