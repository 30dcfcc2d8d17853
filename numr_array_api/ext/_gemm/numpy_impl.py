"""GEMM epilogue on NumPy arrays (numpy, array_api_compat.numpy and numr's cpu namespace).

Why it is faster than ``matmul`` followed by elementwise ops: the unfused form streams the
full ``[..., M, N]`` result through memory once per operation (bias add, each step of the
activation, residual add) and allocates a fresh full-size array for each. Here the output
is allocated once; the epilogue runs block by block while the block sits in L2, with
block-sized temporaries only. When the batch folds into rows (``b`` 2-D) the matmul itself
is issued per row panel, so a panel is still in cache when its epilogue runs.
"""

import numpy as np

from . import activations
from .portable import reduce_to_shape

__all__ = ["gemm_epilogue", "gemm_epilogue_bwd", "BLOCK_BYTES", "PANEL_BYTES"]

# Epilogue block: the block plus the two or three block-sized temporaries an activation
# formula creates fit a 1 MiB L2 with room to spare.
BLOCK_BYTES = 128 * 1024
# Matmul row panel: large enough that BLAS stays efficient (it re-packs b per call),
# small enough to stay in L3 until its epilogue has run.
PANEL_BYTES = 4 * 1024 * 1024
_MIN_PANEL_ROWS = 256


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
    for rs, cs in _blocks_2d(rows, cols, out2.itemsize):
        blk = out2[rs, cs]
        if bias is not None:
            blk += bias[cs]
        if activation != "none":
            blk[...] = activations.forward(activation, np, blk)
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
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    out = np.empty(batch + (M, N), dtype=dtype)
    R = int(np.prod(batch, dtype=np.int64)) * M
    res = None if residual is None else np.broadcast_to(residual.astype(dtype, copy=False), out.shape)
    if out.size == 0:
        return out
    if K == 0:
        out[...] = 0
    out2 = out.reshape(R, N)
    res2 = None if res is None else _as_rows(res, R, N)
    a2 = _as_rows(a, R, K) if (b.ndim == 2 and a.shape[:-2] == batch) else None
    if K and a2 is not None and (res is None or res2 is not None):
        panel = max(_MIN_PANEL_ROWS, PANEL_BYTES // max(1, N * dtype.itemsize))
        for r0 in range(0, R, panel):
            r1 = min(R, r0 + panel)
            np.matmul(a2[r0:r1], b, out=out2[r0:r1])
            _epilogue(out2[r0:r1], bias, None if res2 is None else res2[r0:r1], activation)
        return out
    if K:
        np.matmul(a, b, out=out)
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
    R = int(np.prod(batch, dtype=np.int64)) * M
    if activation == "none":
        g = grad
    else:
        # recompute the pre-activation, then turn it into grad_pre block by block in place
        g = np.matmul(a, b)
        g2 = g.reshape(R, N)
        gr2 = np.reshape(grad, (R, N))
        bias_c = None if bias is None else bias.astype(dtype, copy=False)
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
