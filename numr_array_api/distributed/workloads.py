"""The scale-out example's operations, each with its check against NumPy.

Every operation reads arrays generated chunk by chunk on the workers (generate.py), so its
throughput is the bytes of its main input per second of ``compute()``:

- ``mean``, ``std``: whole-array reductions of a 1-D array (partials per chunk, combined in
  rounds);
- ``matvec``: a (rows, cols) matrix times a vector;
- ``rowsum``, ``colsum``: a reduction along each axis of the same matrix (rows: within a
  chunk row; columns: partials of every chunk row combined);
- ``matmul``: the matrix times a (cols, 16) matrix: a contraction across chunks whose
  partial products move between workers through Cubed's storage.

Checks: the same pipeline on a leading slice (its own generated array) against NumPy on
the same elements, sampled rows against NumPy, and statistical bounds on whole results
(U[0, 1): mean 1/2, variance 1/12).
"""

from __future__ import annotations

import math

import numpy as np

from . import chunks as _chunks

__all__ = ["OPS", "run_op"]

OPS = ("mean", "std", "matvec", "rowsum", "colsum", "matmul")
_K = 16   # columns of matmul's right operand


def _matrix(n, itemsize, cb, args):
    cols = min(args.cols, n)
    rows = max(1, n // cols)
    return rows, cols, _chunks.chunk_shape((rows, cols), itemsize, cb)


def _row_refs(reference, picks, cols, dt):
    return [reference(i * cols + np.arange(cols), seed=1, dtype=dt).astype(np.float64)
            for i in picks]


def run_op(op, cx, hashed_uniform, reference, n, cb, itemsize, args, spec, compute):
    """``op`` over about ``n`` generated elements in chunks of ``cb`` bytes; ``compute(arr,
    progress)`` -> (NumPy result, seconds). Returns seconds, bytes, GB/s, ok, check."""
    progress = not args.no_progress
    dt = args.dtype
    rtol = 1e-10 if dt == "float64" else 2e-4
    if op in ("mean", "std"):
        x = hashed_uniform((n,), chunks=_chunks.chunk_shape((n,), itemsize, cb), dtype=dt,
                           spec=spec)
        f = cx.mean if op == "mean" else cx.std
        val, secs = compute(f(x), progress)
        nbytes = n * itemsize
        # exact subsample: the same pipeline on the first m elements (a generated array of
        # its own: values depend only on the flat index, and a slice of x would make Cubed
        # store x), against NumPy on the same elements
        m = min(n, max(1, 4 * cb // itemsize), 2**22)
        head = hashed_uniform((m,), chunks=_chunks.chunk_shape((m,), itemsize, cb), dtype=dt,
                              spec=spec)
        sub, _ = compute(f(head), False)
        ref = reference(np.arange(m), dtype=dt).astype(np.float64)
        want = ref.mean() if op == "mean" else ref.std()
        sub_ok = bool(np.isclose(float(sub), want, rtol=rtol, atol=0))
        expect = 0.5 if op == "mean" else math.sqrt(1 / 12)
        tol = 6 * math.sqrt(1 / 12 / n) + (1e-6 if dt == "float32" else 0)
        full_ok = abs(float(val) - expect) <= tol
        check = (f"subsample of {m}: {float(sub):.12g} vs NumPy {want:.12g}; full {float(val):.9g}"
                 f" vs {expect:.9g} +- {tol:.2g}")
        return _result(secs, nbytes, sub_ok and full_ok, check)
    rows, cols, cshape = _matrix(n, itemsize, cb, args)
    a = hashed_uniform((rows, cols), chunks=cshape, seed=1, dtype=dt, spec=spec)
    nbytes = rows * cols * itemsize
    picks = np.unique(np.linspace(0, rows - 1, num=min(rows, 8)).astype(np.int64))
    if op == "matvec":
        v = hashed_uniform((cols,), chunks=(cshape[1],), seed=2, dtype=dt, spec=spec)
        y, secs = compute(a @ v, progress)
        vref = reference(np.arange(cols), seed=2, dtype=dt).astype(np.float64)
        want = np.array([r @ vref for r in _row_refs(reference, picks, cols, dt)])
        return _rows_result(secs, nbytes, y, (rows,), picks, want, rtol)
    if op == "rowsum":
        y, secs = compute(cx.sum(a, axis=1), progress)
        want = np.array([r.sum() for r in _row_refs(reference, picks, cols, dt)])
        return _rows_result(secs, nbytes, y, (rows,), picks, want, rtol)
    if op == "matmul":
        b = hashed_uniform((cols, _K), chunks=(cshape[1], _K), seed=3, dtype=dt, spec=spec)
        y, secs = compute(a @ b, progress)
        bref = reference(np.arange(cols * _K), seed=3, dtype=dt).astype(np.float64)
        want = np.stack([r @ bref.reshape(cols, _K) for r in _row_refs(reference, picks, cols,
                                                                       dt)])
        return _rows_result(secs, nbytes, y, (rows, _K), picks, want, rtol)
    if op == "colsum":
        y, secs = compute(cx.sum(a, axis=0), progress)
        # exact: the same reduction over the leading rows (an array of its own), then the
        # whole result statistically: each column sums `rows` draws of U[0, 1)
        mr = max(1, min(rows, max(1, 4 * cb // (cols * itemsize)), max(1, 2**22 // cols)))
        head = hashed_uniform((mr, cols), chunks=_chunks.chunk_shape((mr, cols), itemsize, cb),
                              seed=1, dtype=dt, spec=spec)
        sub, _ = compute(cx.sum(head, axis=0), False)
        want = reference(np.arange(mr * cols), seed=1, dtype=dt).astype(np.float64) \
            .reshape(mr, cols).sum(axis=0)
        sub_ok = bool(np.allclose(sub.astype(np.float64), want, rtol=rtol * 10, atol=0))
        tol = 6 * math.sqrt(rows / 12) + (1e-4 * rows if dt == "float32" else 0)
        dev = float(np.max(np.abs(y.astype(np.float64) - rows / 2))) if y.size else 0.0
        ok = bool(y.shape == (cols,) and sub_ok and dev <= tol)
        check = (f"{mr} leading rows against NumPy ({'equal' if sub_ok else 'DIFFERENT'}); "
                 f"every column within {dev:.3g} of {rows / 2:g} (bound {tol:.3g})")
        return _result(secs, nbytes, ok, check)
    raise ValueError(f"unknown op {op!r}; choose from {OPS}")


def _rows_result(secs, nbytes, y, shape, picks, want, rtol):
    got = y[picks].astype(np.float64)
    ok = bool(y.shape == shape and np.allclose(got, want, rtol=rtol * 10, atol=0))
    err = float(np.max(np.abs(got - want) / np.abs(want)))
    return _result(secs, nbytes, ok,
                   f"{len(picks)} rows of {shape[0]} against NumPy, max rel err {err:.2g}")


def _result(secs, nbytes, ok, check):
    return {"seconds": secs, "bytes": int(nbytes), "gbps": nbytes / secs / 1e9, "ok": ok,
            "check": check}
