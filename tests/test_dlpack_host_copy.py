"""DLPack host hand-over: a GPU array reaches the host through DLPack as a copy.

``x.__dlpack__(dl_device=(kDLCPU, 0), copy=True)`` must return a host capsule, and
``xp.from_dlpack(x, device="cpu")`` an array whose memory the interpreter can read, on every
backend; copy=False where a copy is needed raises (BufferError from ``__dlpack__``, ValueError
from ``from_dlpack``), as the standard requires.
"""

import numpy as np
import pytest

import numr_array_api.cpu as cx

KDL_CPU = 1


class _Producer:
    """Hands a fixed ``__dlpack__`` call of ``x`` to NumPy (which passes its own keywords)."""

    def __init__(self, x, **kw):
        self.x, self.kw = x, kw

    def __dlpack__(self, **_ignored):
        return self.x.__dlpack__(**self.kw)

    def __dlpack_device__(self):
        return (KDL_CPU, 0)


CASES = [
    np.arange(7, dtype=np.float32) - 3.5,
    np.array([0.0, -0.0, np.inf, np.nan]),
    np.arange(12, dtype=np.int64).reshape(3, 4)[:, ::2],
    np.array([True, False, True]),
    np.array([], dtype=np.float32),
    np.array(5, dtype=np.int16),
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_dunder_dlpack_cpu_copy(xp, case):
    a = CASES[case]
    x = xp.asarray(a)
    for kw in ({"dl_device": (KDL_CPU, 0), "copy": True}, {"dl_device": (KDL_CPU, 0)},
               {"dl_device": (KDL_CPU, 0), "copy": True, "max_version": (1, 0)}):
        h = np.from_dlpack(_Producer(x, **kw))
        assert h.dtype == a.dtype and h.shape == a.shape
        np.testing.assert_array_equal(h, a)


def test_dunder_dlpack_copy_false_to_cpu(xp, backend_name):
    x = xp.asarray([1.0, 2.0])
    if backend_name == "cpu":
        np.testing.assert_array_equal(
            np.from_dlpack(_Producer(x, dl_device=(KDL_CPU, 0), copy=False)), [1, 2])
    else:
        with pytest.raises(BufferError):
            x.__dlpack__(dl_device=(KDL_CPU, 0), copy=False)


@pytest.mark.parametrize("device", ["cpu", cx.__array_namespace_info__().devices()[0]])
def test_from_dlpack_device_cpu(xp, device):
    a = np.arange(6, dtype=np.float64).reshape(2, 3)
    x = xp.asarray(a)
    y = xp.from_dlpack(x, device=device)
    assert str(y.device) == "cpu"
    assert isinstance(y, cx.Array)
    np.testing.assert_array_equal(np.asarray(y), a)
    # the interpreter can read it: NumPy takes it without another hand-over
    np.testing.assert_array_equal(np.from_dlpack(y), a)
    y2 = xp.from_dlpack(x, device=device, copy=True)
    np.testing.assert_array_equal(np.asarray(y2), a)


def test_from_dlpack_device_cpu_copy_false(xp, backend_name):
    x = xp.asarray([1.0, 2.0])
    if backend_name == "cpu":
        y = xp.from_dlpack(x, device="cpu", copy=False)
        np.testing.assert_array_equal(np.asarray(y), [1, 2])
    else:
        with pytest.raises(ValueError):
            xp.from_dlpack(x, device="cpu", copy=False)
