"""GEMM epilogue on NumPy arrays (numpy, array_api_compat.numpy and numr's cpu namespace).

Why it is faster than ``matmul`` followed by elementwise ops: the unfused form streams the
full ``[..., M, N]`` result through memory once per operation (bias add, each step of the
activation, residual add) and allocates a fresh full-size array for each. Here the output
is allocated once and written by one BLAS call; the epilogue then makes a single pass over
it, block by block, each block staying in L2 through bias, activation and residual, with at
most one block-sized temporary. (Issuing the matmul per row panel so the epilogue finds the
panel in cache was measured and was not faster here: BLAS re-packs ``b`` per call.)
"""

import math

import numpy as np

from .._namespace import broadcast_shapes
from . import activations
from .portable import reduce_to_shape

__all__ = ["gemm_epilogue", "gemm_epilogue_bwd", "BLOCK_BYTES"]

# Epilogue block: the block plus its temporaries fit a 1 MiB L2 (256 KiB measured best
# among 32 KiB .. 512 KiB on a 1 MiB-L2 EPYC).
BLOCK_BYTES = 256 * 1024


def _blocks_2d(rows, cols, itemsize):
    per = max(1, BLOCK_BYTES // itemsize)
    cb = min(cols, per) if cols else 1
    rb = max(1, per // max(cb, 1))
    for r0 in range(0, rows, rb):
        for c0 in range(0, cols, cb):
            yield slice(r0, min(rows, r0 + rb)), slice(c0, min(cols, c0 + cb))


def _epilogue(out2, bias, res2, activation):
    """Apply bias, activation and residual in place to the 2-D view ``out2``."""
    rows, cols = out2.shape
    with np.errstate(over="ignore"):
        _epilogue_blocks(out2, bias, res2, activation, rows, cols)


def _epilogue_blocks(out2, bias, res2, activation, rows, cols):
    for rs, cs in _blocks_2d(rows, cols, out2.itemsize):
        blk = out2[rs, cs]
        if bias is not None:
            blk += bias[cs]
        activations.forward_inplace_numpy(activation, blk)
        if res2 is not None:
            blk += res2[rs, cs]


def _as_rows(x, rows, cols):
    """``x`` viewed as ``[rows, cols]`` without copying, or None if that needs a copy."""
    try:
        return np.reshape(x, (rows, cols), copy=False)
    except ValueError:
        return None


def gemm_epilogue(a, b, bias, residual, *, activation, dtype):
    dtype = np.dtype(dtype)
    a = a.astype(dtype, copy=False)
    b = b.astype(dtype, copy=False)
    bias = None if bias is None else bias.astype(dtype, copy=False)
    M, K = a.shape[-2:]
    N = b.shape[-1]
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    out = np.empty(batch + (M, N), dtype=dtype)
    if out.size == 0:
        return out
    if K:
        np.matmul(a, b, out=out)
    else:
        out[...] = 0
    R = math.prod(batch) * M
    out2 = out.reshape(R, N)
    res = None if residual is None else np.broadcast_to(residual.astype(dtype, copy=False), out.shape)
    res2 = None if res is None else _as_rows(res, R, N)
    if res is None or res2 is not None:
        _epilogue(out2, bias, res2, activation)
    else:
        # residual broadcasts over some batch axes: go matrix by matrix
        for idx in np.ndindex(*batch):
            _epilogue(out[idx], bias, res[idx], activation)
    return out


def gemm_epilogue_bwd(grad, a, b, bias, *, activation, dtype):
    dtype = np.dtype(dtype)
    a = a.astype(dtype, copy=False)
    b = b.astype(dtype, copy=False)
    grad = grad.astype(dtype, copy=False)
    M, K = a.shape[-2:]
    N = b.shape[-1]
    batch = grad.shape[:-2]
    R = math.prod(batch) * M
    if activation == "none":
        g = grad
    else:
        # recompute the pre-activation, then turn it into grad_pre block by block in place
        g = np.matmul(a, b)
        g2 = g.reshape(R, N)
        gr2 = np.reshape(grad, (R, N))
        bias_c = None if bias is None else bias.astype(dtype, copy=False)
        with np.errstate(over="ignore"):
            for rs, cs in _blocks_2d(R, N, g.itemsize):
                blk = g2[rs, cs]
                if bias_c is not None:
                    blk += bias_c[cs]
                blk[...] = activations.grad_pre(activation, np, blk, gr2[rs, cs])
    g2 = np.reshape(g, (R, N))
    folded = b.ndim == 2 and a.shape[:-2] == batch
    if folded:
        # the batch is just more rows: one GEMM each, and d_b needs no batch reduction
        d_a = (g2 @ b.T).reshape(a.shape)
        d_b = a.reshape(R, K).T @ g2
    else:
        d_a = reduce_to_shape(np, np.matmul(g, np.swapaxes(b, -1, -2)), a.shape)
        d_b = reduce_to_shape(np, np.matmul(np.swapaxes(a, -1, -2), g), b.shape)
    d_bias = None if bias is None else g2.sum(axis=0)
    return d_a, d_b, d_bias
