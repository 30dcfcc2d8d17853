"""Round trips of every dtype, bit-exact against NumPy, through contiguous and strided views."""

import numpy as np
import pytest

from .helpers import ALL, rand


@pytest.mark.parametrize("dt", ALL, ids=lambda d: d.name)
@pytest.mark.parametrize("shape", [(), (0,), (3, 0), (1,), (7,), (3, 5, 4), (2, 1, 9)])
def test_round_trip_bit_exact(W, dt, shape):
    a = rand(np.random.default_rng(1), dt, shape)
    s = W.from_numpy(a)
    assert s.shape == a.shape and s.dtype is dt and s.nbytes == a.nbytes
    r = W.to_numpy(s)
    assert r.dtype == a.dtype and r.shape == a.shape
    assert r.tobytes() == a.tobytes()


_KEYS = [
    (slice(None, None, 2),),
    (slice(1, None, 3), slice(None, None, -1), 2),
    (Ellipsis, slice(2, 4)),
    (None, 1, slice(None, None, -2), None),
    (-1, slice(5, 0, -2), slice(1, 2)),
    (slice(2, 2),),
]


@pytest.mark.parametrize("dt", ALL, ids=lambda d: d.name)
def test_strided_views_materialise_exactly(W, dt):
    a = rand(np.random.default_rng(2), dt, (6, 7, 5))
    s = W.from_numpy(a)
    for key in _KEYS:
        v = s[key]
        assert v.block is s.block  # a view: nothing copied
        assert W.to_numpy(v).tobytes() == np.ascontiguousarray(a[key]).tobytes(), key
    assert W.to_numpy(s.transpose()).tobytes() == np.ascontiguousarray(a.T).tobytes()
    assert (W.to_numpy(s.permute((1, 2, 0))).tobytes()
            == np.ascontiguousarray(a.transpose(1, 2, 0)).tobytes())
    b = np.broadcast_to(a[:, :1], (4, 6, 3, 5))
    assert W.to_numpy(s[:, :1].broadcast_to((4, 6, 3, 5))).tobytes() == b.tobytes()
    assert W.to_numpy(s.flip((0, 2))).tobytes() == np.ascontiguousarray(a[::-1, :, ::-1]).tobytes()
    assert (W.to_numpy(s.reshape((7, -1))).tobytes() == a.reshape(7, -1).tobytes())
    assert W.to_numpy(s.expand_dims(1).squeeze(1)).tobytes() == a.tobytes()
    # a contiguous view at an odd byte offset (sub-word types) reads back without a kernel
    assert W.to_numpy(s[3, 2, 1:]).tobytes() == a[3, 2, 1:].tobytes()


def test_view_attributes(W):
    s = W.from_numpy(np.arange(24, dtype=np.int16).reshape(2, 3, 4))
    v = s[:, ::2, ::-1]
    assert v.shape == (2, 2, 4) and v.ndim == 3 and v.size == 16
    assert v.strides == (12, 8, -1) and not v.is_contiguous
    assert v.offset == 3 * 2
    assert s.is_contiguous and s[1].is_contiguous
    with pytest.raises(IndexError):
        s[2]
    with pytest.raises(ValueError):
        s.reshape((5, 5))


def test_non_contiguous_reshape_copies(W):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    s = W.from_numpy(a).transpose()
    r = s.reshape((12,))
    assert r.block is not s.block
    assert np.array_equal(W.to_numpy(r), a.T.reshape(12))


def test_non_native_byte_order_and_views_upload(W):
    a = np.arange(10, dtype=">i4")
    assert np.array_equal(W.to_numpy(W.from_numpy(a)), a)
    b = np.arange(30, dtype=np.float64).reshape(5, 6)[:, ::2]
    assert np.array_equal(W.to_numpy(W.from_numpy(b)), b)
    with pytest.raises(TypeError):
        W.from_numpy(np.array(["x"]))
