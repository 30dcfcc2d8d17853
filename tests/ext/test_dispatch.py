"""The backend registry: registered kernels win, everything else falls back to portable."""

import numpy as np
import pytest

import array_api_strict as xs
from numr_array_api._core.errors import InvalidArgument
from numr_array_api._algorithms import dispatch as _dispatch
from numr_array_api.ext import linalg, random as R
from numr_array_api._algorithms.gemm import portable


def test_registered_kernel_is_used_then_portable_again():
    calls = []

    def fake(xp, a, b, bias, residual, *, activation, dtype):
        calls.append(activation)
        return portable.gemm_epilogue(xp, a, b, bias, residual, activation=activation, dtype=dtype)

    assert _dispatch.lookup("gemm_epilogue", xs) is portable.gemm_epilogue
    _dispatch.register("gemm_epilogue", "array_api_strict", fake)
    try:
        linalg.gemm_epilogue(xs.ones((2, 3)), xs.ones((3, 4)), activation="relu")
        assert calls == ["relu"]
        assert _dispatch.registered()[("gemm_epilogue", "array_api_strict")] is fake
    finally:
        _dispatch.unregister("gemm_epilogue", "array_api_strict")
    linalg.gemm_epilogue(xs.ones((2, 3)), xs.ones((3, 4)))
    assert calls == ["relu"]


def test_sobol_kernel_receives_scrambled_directions():
    seen = {}

    @_dispatch.register("sobol", "array_api_strict")
    def fake(xp, n, skip, v, shift, *, bits, dtype, device):
        seen.update(v=v, shift=shift, bits=bits)
        return xp.zeros((n, v.shape[1]), dtype=dtype)

    try:
        R.sobol(4, 3, scramble=True, seed=0, bits=20, xp=xs)
    finally:
        _dispatch.unregister("sobol", "array_api_strict")
    assert seen["v"].shape == (20, 3) and seen["v"].dtype == np.uint32
    assert seen["shift"].shape == (3,) and seen["bits"] == 20


def test_numpy_backed_namespaces_use_numpy_kernels():
    import array_api_compat.numpy as cnp

    assert _dispatch.lookup("gemm_epilogue", cnp) is not portable.gemm_epilogue
    assert _dispatch.lookup("gemm_epilogue", np) is not portable.gemm_epilogue


def test_unknown_operation_rejected():
    with pytest.raises(InvalidArgument, match="'op'"):
        _dispatch.register("fft", "cupy", lambda: None)
