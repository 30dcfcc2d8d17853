"""GEMM epilogue with array API functions only: the fallback for every namespace that has
not registered a kernel (array-api-strict, PyTorch, CuPy, numr's GPUs until their kernels
land). Unfused by nature: correctness and portability, not speed."""

from . import activations

__all__ = ["gemm_epilogue", "gemm_epilogue_bwd", "reduce_to_shape"]


def _cast(xp, x, dtype):
    return x if x.dtype == dtype else xp.astype(x, dtype)


def gemm_epilogue(xp, a, b, bias, residual, *, activation, dtype):
    y = xp.matmul(_cast(xp, a, dtype), _cast(xp, b, dtype))
    if bias is not None:
        y = y + _cast(xp, bias, dtype)
    y = activations.forward(activation, xp, y)
    if residual is not None:
        y = y + _cast(xp, residual, dtype)
    return y


def reduce_to_shape(xp, g, shape):
    """Sum ``g`` over the axes that broadcasting added or stretched to reach ``g.shape``."""
    shape = tuple(shape)
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1)
    if axes:
        g = xp.sum(g, axis=axes, keepdims=True)
    if lead:
        g = xp.reshape(g, shape)
    return g


def gemm_epilogue_bwd(xp, grad, a, b, bias, *, activation, dtype):
    a = _cast(xp, a, dtype)
    b = _cast(xp, b, dtype)
    grad = _cast(xp, grad, dtype)
    if activation == "none":
        g = grad
    else:
        pre = xp.matmul(a, b)
        if bias is not None:
            pre = pre + _cast(xp, bias, dtype)
        g = activations.grad_pre(activation, xp, pre, grad)
    d_a = reduce_to_shape(xp, xp.matmul(g, xp.matrix_transpose(b)), a.shape)
    d_b = reduce_to_shape(xp, xp.matmul(xp.matrix_transpose(a), g), b.shape)
    d_bias = None
    if bias is not None:
        d_bias = reduce_to_shape(xp, g, (1,) * (g.ndim - 1) + (g.shape[-1],))
        d_bias = xp.reshape(d_bias, (g.shape[-1],))
    return d_a, d_b, d_bias
