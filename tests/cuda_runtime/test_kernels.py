"""Custom kernels on numr arrays, preload."""

import numpy as np
import pytest

from numr_array_api._core.errors import InvalidArgument

pytestmark = pytest.mark.gpu

SAXPY = r"""
extern "C" __global__ void saxpy(const float a, const float* x, float* y, const int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""

TEMPLATED = r"""
template<typename T>
__global__ void twice(const T* x, T* y, const int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = x[i] * (T)2;
}
"""


def test_custom_kernel_saxpy(cx):
    k = cx.custom_kernel(SAXPY, "saxpy")
    n = 1000
    x = cx.arange(n, dtype=cx.float32)
    y = cx.ones(n, dtype=cx.float32)
    k(((n + 127) // 128,), (128,), (np.float32(3.0), x, y, np.int32(n)))
    expect = 3.0 * np.arange(n, dtype=np.float32) + 1.0
    np.testing.assert_array_equal(np.asarray(y.to_device("cpu")), expect)


def test_custom_kernel_templated(cx):
    k = cx.custom_kernel(TEMPLATED, "twice<double>", name_expressions=["twice<double>"])
    x = cx.linspace(0, 1, 50, dtype=cx.float64)
    y = cx.zeros(50, dtype=cx.float64)
    k((1,), (64,), (x, y, np.int32(50)))
    np.testing.assert_array_equal(np.asarray(y.to_device("cpu")), 2 * np.linspace(0, 1, 50))


def test_custom_kernel_in_graph(cx):
    k = cx.custom_kernel(SAXPY, "saxpy")
    x = cx.ones(256, dtype=cx.float32)
    y = cx.zeros(256, dtype=cx.float32)

    def step(x, y):
        k((2,), (128,), (np.float32(2.0), x, y, np.int32(256)))
        return y

    g = cx.capture_graph(step, x, y, warmup=False)
    for _ in range(3):
        g.replay()
    assert float(cx.sum(y)) == 256 * 2.0 * 3


def test_custom_kernel_rejects_non_contiguous(cx):
    k = cx.custom_kernel(SAXPY, "saxpy")
    x = cx.ones((8, 8), dtype=cx.float32)
    with pytest.raises(InvalidArgument, match="C-contiguous"):
        k((1,), (64,), (np.float32(1.0), x.T, x, np.int32(64)))


def test_preload(cx):
    assert cx.preload() >= 2
    assert cx.preload(elementwise=["add", "exp"], dtypes=("float32",)) >= 4
