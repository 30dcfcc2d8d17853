"""Invalid input raises the documented numr exception (which is also the built-in class the
standard expects) with a message naming the offending argument."""

import numpy as np
import pytest

import numr_array_api as numr

E = numr.errors


def _f64(xp, shape=(2, 3)):
    return xp.asarray(np.arange(float(np.prod(shape))).reshape(shape))


def _i64(xp, shape=(2, 3)):
    return xp.asarray(np.arange(int(np.prod(shape))).reshape(shape))



# (id, callable(xp), numr class, built-in class, text the message must contain)
CASES = [
    # --- wrong dtype
    ("sin-int", lambda xp: xp.sin(_i64(xp)), E.DTypeMismatch, TypeError, "'x'"),
    ("bitwise_and-float", lambda xp: xp.bitwise_and(_f64(xp), _f64(xp)), E.DTypeMismatch,
     TypeError, "'x1'"),
    ("add-int8-float64", lambda xp: xp.add(xp.asarray([1], dtype=xp.int8), _f64(xp, (1,))),
     E.DTypeMismatch, TypeError, "'x1'"),
    ("mean-int", lambda xp: xp.mean(_i64(xp)), E.DTypeMismatch, TypeError, "'x'"),
    ("sort-complex", lambda xp: xp.sort(xp.asarray(np.asarray([1j, 2j]))), E.DTypeMismatch,
     TypeError, "'x'"),
    ("take-float-indices", lambda xp: xp.take(_f64(xp, (3,)), _f64(xp, (2,))),
     E.DTypeMismatch, TypeError, "'indices'"),
    ("where-float-condition", lambda xp: xp.where(_f64(xp), _f64(xp), _f64(xp)),
     E.DTypeMismatch, TypeError, "'condition'"),
    ("astype-complex-to-float", lambda xp: xp.astype(xp.asarray(np.asarray([1j])), xp.float64),
     E.DTypeMismatch, TypeError, "complex"),
    ("setitem-lossy-value", lambda xp: _i64(xp).__setitem__(0, _f64(xp, (3,))),
     E.DTypeMismatch, TypeError, "value"),
    # --- bad axis
    ("sum-axis", lambda xp: xp.sum(_f64(xp), axis=2), E.InvalidIndex, IndexError, "'axis'"),
    ("sum-axis-neg", lambda xp: xp.sum(_f64(xp), axis=-3), E.InvalidIndex, IndexError,
     "'axis'"),
    ("argmax-axis", lambda xp: xp.argmax(_f64(xp), axis=5), E.InvalidIndex, IndexError,
     "'axis'"),
    ("concat-axis", lambda xp: xp.concat([_f64(xp), _f64(xp)], axis=2), E.InvalidIndex,
     IndexError, "'axis'"),
    ("sort-axis", lambda xp: xp.sort(_f64(xp), axis=2), E.InvalidIndex, IndexError, "'axis'"),
    ("expand_dims-axis", lambda xp: xp.expand_dims(_f64(xp), axis=4), E.InvalidIndex,
     IndexError, "'axis'"),
    ("cumulative_sum-axis", lambda xp: xp.cumulative_sum(_f64(xp), axis=2), E.InvalidIndex,
     IndexError, "'axis'"),
    ("flip-repeated-axis", lambda xp: xp.flip(_f64(xp), axis=(0, 0)), E.InvalidArgument,
     ValueError, "'axis'"),
    ("squeeze-not-1", lambda xp: xp.squeeze(_f64(xp), axis=0), E.InvalidArgument, ValueError,
     "'axis'"),
    ("permute_dims-not-permutation", lambda xp: xp.permute_dims(_f64(xp), (0, 0)),
     E.InvalidArgument, ValueError, "'axes'"),
    # --- mismatched shapes
    pytest.param("add-shapes", lambda xp: xp.add(_f64(xp, (2,)), _f64(xp, (3,))),
                 E.ShapeMismatch, ValueError, "'x1'"),
    ("add-shapes-values", lambda xp: xp.add(_f64(xp, (2,)), _f64(xp, (3,))), E.ShapeMismatch,
     ValueError, "(2,)"),
    pytest.param("operator-shapes", lambda xp: _f64(xp, (2, 3)) * _f64(xp, (2,)),
                 E.ShapeMismatch, ValueError, "multiply"),
    ("concat-shapes", lambda xp: xp.concat([_f64(xp, (2, 3)), _f64(xp, (2, 4))]),
     E.ShapeMismatch, ValueError, "arrays[1]"),
    ("stack-shapes", lambda xp: xp.stack([_f64(xp, (2,)), _f64(xp, (3,))]), E.ShapeMismatch,
     ValueError, "arrays[1]"),
    pytest.param("reshape-size", lambda xp: xp.reshape(_f64(xp), (4, 4)), E.ShapeMismatch,
                 ValueError, "'shape'"),
    pytest.param("broadcast_to", lambda xp: xp.broadcast_to(_f64(xp, (3,)), (4,)),
                 E.ShapeMismatch, ValueError, "'shape'"),
    pytest.param("where-shapes", lambda xp: xp.where(xp.asarray([True, False]), _f64(xp, (3,)),
                                                     1.0),
                 E.ShapeMismatch, ValueError, "'x1'"),
    pytest.param("setitem-shape", lambda xp: _f64(xp).__setitem__(slice(None), _f64(xp, (4,))),
                 E.ShapeMismatch, ValueError, "'value'"),
    # --- out-of-range index
    ("getitem-int", lambda xp: _f64(xp, (3,))[5], E.InvalidIndex, IndexError, "5"),
    ("getitem-neg", lambda xp: _f64(xp, (3,))[-4], E.InvalidIndex, IndexError, "-4"),
    ("getitem-2d", lambda xp: _f64(xp)[0, 3], E.InvalidIndex, IndexError, "3"),
    ("getitem-too-many", lambda xp: _f64(xp)[0, 0, 0], E.InvalidIndex, IndexError,
     "too many"),
    pytest.param("getitem-int-array", lambda xp: _f64(xp, (3,))[xp.asarray([0, 7])],
                 E.InvalidIndex, IndexError, "7"),
    pytest.param("take-out-of-range", lambda xp: xp.take(_f64(xp, (3,)), xp.asarray([5])),
                 E.InvalidIndex, IndexError, "5"),
    ("setitem-int", lambda xp: _f64(xp, (3,)).__setitem__(3, 1.0), E.InvalidIndex,
     IndexError, "3"),
    ("getitem-bool-mask-shape", lambda xp: _f64(xp, (3,))[xp.asarray([True, False])],
     E.InvalidIndex, IndexError, "boolean"),
    ("getitem-float-key", lambda xp: _f64(xp, (3,))[1.0], E.InvalidIndex, IndexError,
     "float"),
    # --- non-array input
    ("sin-list", lambda xp: xp.sin([1.0]), TypeError, TypeError, "'x'"),
    ("add-lists", lambda xp: xp.add([1.0], [2.0]), TypeError, TypeError, "'x1'"),
    ("add-numpy", lambda xp: xp.add(_f64(xp, (1,)), np.ones(1)), TypeError, TypeError, "'x2'"),
    ("sum-numpy", lambda xp: xp.sum(np.ones(3)), TypeError, TypeError, "'x'"),
    ("concat-numpy", lambda xp: xp.concat([_f64(xp, (2,)), np.ones(2)]), TypeError, TypeError,
     "'arrays[1]'"),
    ("where-list", lambda xp: xp.where(xp.asarray([True]), [1.0], _f64(xp, (1,))), TypeError,
     TypeError, "'x1'"),
    ("sort-float", lambda xp: xp.sort(3.0), TypeError, TypeError, "'x'"),
    ("take-list-indices", lambda xp: xp.take(_f64(xp, (3,)), [0]), TypeError, TypeError,
     "'indices'"),
    # --- other invalid arguments
    ("zeros-negative-shape", lambda xp: xp.zeros((-1, 2)), E.InvalidArgument, ValueError,
     "'shape'"),
    ("zeros-float-shape", lambda xp: xp.zeros((2.0,)), TypeError, TypeError, "shape"),
    ("zeros-bad-dtype", lambda xp: xp.zeros((2,), dtype="float64"), TypeError, TypeError,
     "'dtype'"),
    ("var-negative-correction", lambda xp: xp.var(_f64(xp), correction=-1),
     E.InvalidArgument, ValueError, "'correction'"),
    ("searchsorted-side", lambda xp: xp.searchsorted(_f64(xp, (3,)), _f64(xp, (1,)),
                                                     side="middle"),
     E.InvalidArgument, ValueError, "'side'"),
    ("max-empty", lambda xp: xp.max(_f64(xp, (0,))), E.InvalidArgument, ValueError, "'x'"),
    ("device-string", lambda xp: xp.zeros((1,), device="gpu:0"), E.InvalidArgument,
     ValueError, "'device'"),
]


# refusals of the strict semantics only (the compatible semantics answer as NumPy does,
# tests/test_semantics.py)
STRICT_ONLY = {"sin-int", "add-int8-float64", "mean-int", "setitem-lossy-value",
               "zeros-bad-dtype"}


def _params():
    out = []
    for c in CASES:
        if hasattr(c, "marks"):  # a pytest.param carrying marks
            out.append(pytest.param(*c.values[1:], id=c.values[0], marks=c.marks))
        else:
            marks = [pytest.mark.strict_semantics] if c[0] in STRICT_ONLY else []
            out.append(pytest.param(*c[1:], id=c[0], marks=marks))
    return out


@pytest.mark.parametrize("call,numr_cls,builtin_cls,text", _params())
def test_invalid_input(xp, call, numr_cls, builtin_cls, text):
    with pytest.raises(builtin_cls) as info:
        call(xp)
    exc = info.value
    assert isinstance(exc, numr_cls), f"raised {type(exc).__name__}, expected {numr_cls.__name__}"
    if numr_cls is not TypeError:
        assert isinstance(exc, E.NumrError)
    assert text in str(exc), f"message {str(exc)!r} does not name {text!r}"


def test_taxonomy():
    assert issubclass(E.InvalidArgument, ValueError)
    assert issubclass(E.InvalidIndex, IndexError)
    assert issubclass(E.ShapeMismatch, ValueError)
    assert issubclass(E.DTypeMismatch, TypeError)
    assert issubclass(E.BackendLimitation, NotImplementedError)
    assert issubclass(E.BackendUnavailable, RuntimeError)
    assert issubclass(E.OutOfMemory, MemoryError)
    for cls in (E.InvalidArgument, E.InvalidIndex, E.ShapeMismatch, E.DTypeMismatch,
                E.BackendLimitation, E.BackendUnavailable, E.OutOfMemory,
                E.HostTransferError):
        assert issubclass(cls, E.NumrError)
    e = E.InvalidArgument("axis", "bad")
    assert e.arg == "axis" and "'axis'" in str(e)


def test_cross_namespace_arrays_rejected(xp, backend_name):
    """Arrays of another numr namespace are not silently mixed."""
    if backend_name == "cpu":
        pytest.skip("needs a second namespace")
    import numr_array_api.cpu as cpu
    with pytest.raises(TypeError, match="x2"):
        xp.add(xp.asarray([1.0]), cpu.asarray([1.0]))
