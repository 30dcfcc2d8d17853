"""Requests for arrays beyond any address space are refused with numr's OutOfMemory (or a
clear NumrError) on every backend, before a backend allocates, and leave the device healthy.

Found on the H200 (2026-11-26): CuPy computes such byte counts in wrapping 64-bit integers, so
``fftfreq(2**62)`` allocated a tiny block and its kernel wrote past it, poisoning the CUDA
context for every later call in the process. NumPy refuses the same requests itself; the
front-end must not rely on the wrapped module to do so.
"""

import pytest

from numr_array_api.errors import NumrError

pytestmark = pytest.mark.filterwarnings("ignore")


def _view(xp, shape):
    return xp.broadcast_to(xp.ones(1, dtype=xp.float32), shape)


HUGE = {
    "arange": lambda xp: xp.arange(2 ** 62),
    "arange-int8": lambda xp: xp.arange(0, 2 ** 62, dtype=xp.int8),
    "linspace": lambda xp: xp.linspace(0, 1, 2 ** 62),
    "eye": lambda xp: xp.eye(2 ** 40),
    "eye-wide": lambda xp: xp.eye(3, 2 ** 62),
    "zeros": lambda xp: xp.zeros((2 ** 40, 2 ** 40)),
    "full": lambda xp: xp.full((2 ** 62,), 1.0),
    "tile": lambda xp: xp.tile(xp.ones(3), (2 ** 62,)),
    "fftfreq": lambda xp: xp.fft.fftfreq(2 ** 62, d=3.0),
    "rfftfreq": lambda xp: xp.fft.rfftfreq(2 ** 62),
    "fft-n": lambda xp: xp.fft.fft(xp.ones(3), n=2 ** 62),
    "broadcast_to": lambda xp: _view(xp, (2 ** 62, 3)),
    "repeat": lambda xp: xp.repeat(xp.ones(3), 2 ** 62),
    "tile-2d": lambda xp: xp.tile(xp.ones((2, 2)), (2 ** 31, 2 ** 31)),
    "eye-int8": lambda xp: xp.eye(2 ** 62, 2 ** 62, dtype=xp.int8),
    "broadcast_to-2**59": lambda xp: _view(xp, (2 ** 30, 2 ** 29)),
    "add-broadcast": lambda xp: _view(xp, (2 ** 40, 2 ** 20)) + 1,
    # 2**62-element float32 results: 2**64 bytes, a byte count that wraps to 0 in 64 bits
    "add-two-views": lambda xp: _view(xp, (2 ** 31, 1)) + _view(xp, (1, 2 ** 31)),
    "multiply-two-views": lambda xp: xp.multiply(_view(xp, (2 ** 31, 1)), _view(xp, (1, 2 ** 31))),
    "where-views": lambda xp: xp.where(xp.broadcast_to(xp.asarray([True]), (2 ** 31, 1)),
                                            _view(xp, (1, 2 ** 31)), 0.0),
    "ones_like-broadcast": lambda xp: xp.ones_like(_view(xp, (2 ** 40, 2 ** 20))),
    "astype-broadcast": lambda xp: xp.astype(_view(xp, (2 ** 40, 2 ** 20)), xp.float64),
    "concat-broadcast": lambda xp: xp.concat([_view(xp, (2 ** 57,))] * 4),
    "meshgrid": lambda xp: xp.meshgrid(_view(xp, (2 ** 32,)), _view(xp, (2 ** 32,))),
    "where-scalar": lambda xp: xp.where(xp.broadcast_to(xp.asarray([True]), (2 ** 31, 1)),
                                        _view(xp, (1, 2 ** 31)), _view(xp, (2 ** 31, 1))),
    "matmul-batch": lambda xp: xp.matmul(_view(xp, (2 ** 30, 1, 2, 2)),
                                         _view(xp, (1, 2 ** 30, 2, 2))),
    "tensordot": lambda xp: xp.tensordot(_view(xp, (2 ** 31, 2)), _view(xp, (2, 2 ** 31)),
                                         axes=1),
    "vecdot": lambda xp: xp.vecdot(_view(xp, (2 ** 31, 1, 3)), _view(xp, (1, 2 ** 31, 3))),
    "cross": lambda xp: xp.linalg.cross(_view(xp, (2 ** 31, 1, 3)), _view(xp, (1, 2 ** 31, 3))),
    "broadcast_arrays": lambda xp: xp.broadcast_arrays(_view(xp, (2 ** 31, 1)),
                                                       _view(xp, (1, 2 ** 31))),
    "clip-arrays": lambda xp: xp.clip(_view(xp, (2 ** 31, 1)), _view(xp, (1, 2 ** 31))),
    "outer": lambda xp: xp.linalg.outer(_view(xp, (2 ** 32,)), _view(xp, (2 ** 32,))),
}


@pytest.mark.parametrize("name", sorted(HUGE))
def test_huge_request_is_refused_and_the_device_stays_healthy(xp, name):
    with pytest.raises(NumrError):
        HUGE[name](xp)
    x = xp.asarray([1.0, 2.0, 3.0], dtype=xp.float32)
    assert float(xp.sum(x * 2)) == 12.0
    assert float(xp.sum(xp.fft.fftfreq(4))) == pytest.approx(-0.5)


def test_the_largest_view_computes_into_addressable_results(xp):
    # 2**58 elements is the bound: such a view is allowed, and complex128 results of it
    # (2**62 bytes) still have a byte count that fits; the allocation itself fails cleanly
    v = xp.broadcast_to(xp.asarray(1 + 1j, dtype=xp.complex64), (2 ** 29, 2 ** 29))
    assert v.shape == (2 ** 29, 2 ** 29)
    with pytest.raises(NumrError):
        xp.astype(v, xp.complex128)
    with pytest.raises(NumrError):
        -v
    assert float(xp.sum(xp.asarray([1.0, 2.0]))) == 3.0
