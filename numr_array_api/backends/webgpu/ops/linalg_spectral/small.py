"""eigh / eigvalsh and svd / svdvals of stacks of small real matrices (n <= 32).

The workgroup-per-matrix Jacobi kernels (eigh.wgsl, svd.wgsl) give each matrix 256
invocations that mostly wait: three workgroup barriers per round, every element update a
workgroup-memory round trip, float32 widened to float64 (twice the memory, a fraction of
the arithmetic rate), and 8-16 KiB of workgroup memory per matrix keeping few matrices in
flight. Here an invocation owns one column in registers and a matrix takes one (svd) or
two (eigh) barriers per round, several matrices per workgroup, in the input's dtype
(float32 Jacobi stays within the library's c n eps tolerances). small_spec.py has the why
of the kernels.

Taken for stacks of at least SMALL_SPECTRAL_MIN matrices (a knob) of real float16 /
float32 / float64. Knobs: SMALL_SPECTRAL_EIGH_WG / SMALL_SPECTRAL_SVD_WG, the invocations
per workgroup; SMALL_SPECTRAL_NBUF, single / double column buffers (_config). float64 eigh
with vectors of large stacks in the 32 bucket is preconditioned by the float32 kernel
(small_prep.py; knobs SMALL_SPECTRAL_PRE, SMALL_SPECTRAL_PRE_MIN).
"""

from __future__ import annotations

import dataclasses

from ...runtime.adapters import is_cpu
from ....._core import dtypes as dt
from ....._core.errors import BackendLimitation
from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...codegen.types import WTYPES, wtype
from ...storage import new_output
from . import small_prep
from .small_spec import (BUCKETS, SmallEighSpec, SmallSvdSpec, bucket, wg_bytes_eigh,
                         wg_bytes_svd)

CALLS = {"eigh": 0, "svd": 0, "eigh_pre": 0}    # tests read these: proof the kernels ran
_MAX_GROUPS = 65535
_MAXSW = {dt.float32: 30, dt.float64: 40}


def _work(a):
    """The dtype the kernels compute a real input in, or None (not real floating)."""
    d = a.dtype
    if d in (dt.float16, dt.float32):
        return dt.float32
    if d is dt.float64:
        return dt.float64 if Caps.of(a.client).f64 else None
    return None


DOUBLE_MAX = 20 << 10   # bytes per matrix up to which its columns are double-buffered
# eigh: 32 invocations per workgroup (SMALL_SPECTRAL_EIGH_WG; svd 64) and single-buffered:
# H100 (2026-11-27, numr / CuPy) eigh
# 10000 x 32x32 float32 1.25 -> 0.67, float64 2.54 -> 1.22, 100000 x 8x8 float64 0.40 -> 0.24:
# the barrier saved by a second buffer cost more in matrices in flight (and two matrices of a
# workgroup wait on each other's sweeps); svd 10000 x 32x32 float64 unchanged (0.72)


def _config(caps, nbytes, force, single=False):
    """Column buffers per matrix (2: one barrier fewer per round) that fit workgroup memory
    (``nbytes(per, nbuf)``), None where not even one matrix fits. Double buffers only up to
    DOUBLE_MAX a matrix: beyond (float64 svd of 32 columns with vectors: 33 KiB) they would
    leave an H100 SM (228 KiB) 6 matrices in flight. ``force`` (the SMALL_SPECTRAL_NBUF
    knob) 1 / 2 forces one choice where it fits, 0 picks."""
    order = (1,) if force == 1 or (single and force != 2) else \
        (2,) if force == 2 else (2, 1)
    for nbuf in order:
        b = nbytes(1, nbuf)
        if b <= caps.workgroup_storage and (nbuf == 1 or force == 2 or b <= DOUBLE_MAX):
            return nbuf
    return None


def _per(caps, cap, nbytes, nbuf, wg):
    per = 1
    while 2 * per * cap <= min(wg, caps.invocations):
        per *= 2
    while per > 1 and nbytes(per, nbuf) > caps.workgroup_storage:
        per //= 2      # whole subgroups: a partial one idles lanes
    return per


def _batch(a):
    nb = 1
    for s in a.shape[:-2]:
        nb *= s
    return nb


def _on(a):
    if 0 in a.shape or _batch(a) < tuned("SMALL_SPECTRAL_MIN", a.client):
        return False
    return _work(a) is not None


def eigh_fit(caps, t, cap, vectors, client=None):
    """The SmallEighSpec of bucket ``cap`` on ``caps`` (the knobs of ``client``'s adapter),
    None where not even one matrix fits workgroup memory."""
    nbytes = (lambda p, b: wg_bytes_eigh(t.itemsize, cap, p, b))
    nbuf = _config(caps, nbytes, tuned("SMALL_SPECTRAL_NBUF", client), single=True)
    if nbuf is None:
        return None
    wg = tuned("SMALL_SPECTRAL_EIGH_WG", client)
    return SmallEighSpec(t, cap, _per(caps, cap, nbytes, nbuf, wg), nbuf, vectors)


def _svd_fit(caps, t, capr, capc, vectors, client=None):
    nbytes = (lambda p, b: wg_bytes_svd(t.itemsize, capr, capc, p, b, vectors))
    nbuf = _config(caps, nbytes, tuned("SMALL_SPECTRAL_NBUF", client))
    if nbuf is None:
        return None
    wg = tuned("SMALL_SPECTRAL_SVD_WG", client)
    return SmallSvdSpec(t, capr, capc, _per(caps, capc, nbytes, nbuf, wg), nbuf, vectors)


def eigh_spec(a, vectors):
    """The SmallEighSpec for a (..., n, n), or None where this path does not apply."""
    if not _on(a):
        return None
    cap = bucket(max(a.shape[-1], 2))
    if not cap:
        return None
    return eigh_fit(Caps.of(a.client), wtype(_work(a)), cap, vectors, a.client)


def svd_spec(a, vectors, full_matrices):
    """The SmallSvdSpec for a (..., M, N), or None where this path does not apply
    (full_matrices of a non-square matrix needs a basis beyond C columns: the old path)."""
    if not _on(a):
        return None
    M, N = a.shape[-2:]
    if vectors and full_matrices and M != N:
        return None
    capr, capc = bucket(max(M, N)), bucket(max(min(M, N), 2))
    if not capr or not capc:
        return None
    return _svd_fit(Caps.of(a.client), wtype(_work(a)), capr, capc, vectors, a.client)


def _launch_plan(client, what, nb, per, per_bytes, loops_per_group):
    """Batch chunks [(b0, b1, workgroups)]: each chunk's operands fit one binding, and on
    CPU adapters (lavapipe stops a loop after 65535 iterations per invocation) the grid
    keeps each workgroup's loop count below that."""
    step = max(per, (client.max_binding - 256) // max(per_bytes, 1) // per * per)
    out = []
    for b0 in range(0, nb, step):
        b1 = min(nb, b0 + step)
        groups = -(-(b1 - b0) // per)
        wgs = min(groups, _MAX_GROUPS)
        if is_cpu(client.info) and -(-groups // wgs) * loops_per_group > 65000:
            raise BackendLimitation("webgpu", f"linalg.{what} of {nb} small matrices on a "
                                    "CPU adapter", "lavapipe stops loops beyond 65535 "
                                    "iterations; the kernel could exceed that here")
        out.append((b0, b1, wgs))
    return out


def _flat(a, wdt):
    x = a if a.dtype is wdt else a.astype(wdt)
    x = x.contiguous()
    return x.reshape((_batch(a),) + tuple(a.shape[-2:]))


def _back(x, dtype):
    return x if x.dtype is dtype else x.astype(dtype)


def _finite_in(be, x):
    """(x with every non-finite entry 0, (nb,) bool: the matrix held one). The kernels
    never see NaN or inf: on the H100 a stack with one NaN matrix gave finite singular
    values for it and wrong ones for the matrices sharing its workgroup (NVIDIA's max /
    min drop NaN, its compiler may fold x != x and NaN comparisons), where lavapipe
    propagated the NaN; numr's isfinite kernel tests the bits."""
    fin = be.unary_kernel("isfinite")(x)
    bad = be.unary_kernel("logical_not")(be.reduce("all", fin, (1, 2), False))
    return be.where(fin, x, be.scalar_operand(0, x.dtype)), bad


def _nan_out(be, bad, outs):
    """``outs`` (each (nb, ...)) with NaN for the matrices ``bad`` marks (NumPy's LAPACK
    gives NaN or raises for such input; the old kernels gave NaN)."""
    nb = bad.shape[0]
    nan = be.scalar_operand(float("nan"), outs[0].dtype)
    return [be.where(bad.reshape((nb,) + (1,) * (y.ndim - 1)), nan, y) for y in outs]


def launch_eigh(client, spec, x, w, v, vi=None):
    """The SmallEighSpec kernel on the finite (nb, n, n) stack x of its dtype: w (nb, n)
    ascending, v (nb, n, n) (spec.vectors) its eigenvector columns (spec.vinit: vi V')."""
    nb, n = x.shape[0], x.shape[-1]
    k = client.kernel(spec)
    loops = _MAXSW[x.dtype] * spec.cap + 4 * 40 + 3 * spec.cap   # sweeps x rounds, scale, ranks
    for b0, b1, wgs in _launch_plan(client, "eigh", nb, spec.per, n * n * x.itemsize,
                                    loops):
        args = dict(A=x[b0:b1], W=w[b0:b1], n=n, nb=b1 - b0)
        if spec.vectors:
            args["V"] = v[b0:b1]
        if spec.vinit:
            args["VI"] = vi[b0:b1]
        k.launch((wgs, 1, 1), **args)


def _eigh_prep(be, x, spec):
    """(w, v) of the finite float64 stack x through small_prep.py's preconditioner."""
    client = x.client
    nb, n, _ = x.shape
    x32 = new_output((nb, n, n), dt.float32, client)
    q32 = new_output((nb, n, n), dt.float32, client)
    cast = client.kernel(small_prep.ScaleCastSpec())
    for b0, b1, wgs in _launch_plan(client, "eigh", nb, 1, n * n * 8, 4 * n * n + 200):
        cast.launch((wgs, 1, 1), A=x[b0:b1], X32=x32[b0:b1], n=n, nb=b1 - b0)
    spec32 = eigh_fit(Caps.of(client), WTYPES[dt.float32], spec.cap, True, client)
    launch_eigh(client, spec32, x32, new_output((nb, n), dt.float32, client), q32)
    ap = new_output((nb, n, n), dt.float64, client)
    q = new_output((nb, n, n), dt.float64, client)
    k = client.kernel(small_prep.PrepSpec())
    for b0, b1, wgs in _launch_plan(client, "eigh", nb, 1, n * n * 8, 5 * n + 8):
        k.launch((wgs, 1, 1), Q32=q32[b0:b1], A=x[b0:b1], AP=ap[b0:b1], QO=q[b0:b1], n=n,
                 nb=b1 - b0)
    w = new_output((nb, n), dt.float64, client)
    v = new_output((nb, n, n), dt.float64, client)
    launch_eigh(client, dataclasses.replace(spec, vinit=True), ap, w, v, q)
    return w, v


def eigh(be, a, vectors, spec):
    """(w, v) or w of the real symmetric stack a (..., n, n), w ascending."""
    client = a.client
    batch, n = tuple(a.shape[:-2]), a.shape[-1]
    wdt = _work(a)
    nb = _batch(a)
    x, bad = _finite_in(be, _flat(a, wdt))
    if vectors and small_prep.applies(client, wdt, spec.cap, nb):
        w, v = _eigh_prep(be, x, spec)
        CALLS["eigh_pre"] += 1
    else:
        w = new_output((nb, n), wdt, client)
        v = new_output((nb, n, n), wdt, client) if vectors else None
        launch_eigh(client, spec, x, w, v)
    CALLS["eigh"] += 1
    if vectors:
        w, v = _nan_out(be, bad, [w, v])
    else:
        (w,) = _nan_out(be, bad, [w])
    w = _back(w.reshape(batch + (n,)), a.dtype)
    if not vectors:
        return w
    return w, _back(v.reshape(batch + (n, n)), a.dtype)


def svd(be, a, vectors, spec):
    """(u, s, vh) (thin, or full for square input) or (None, s, None) of the real stack a."""
    client = a.client
    batch = tuple(a.shape[:-2])
    M, N = a.shape[-2:]
    K = min(M, N)
    nb = _batch(a)
    wdt = _work(a)
    x, bad = _finite_in(be, _flat(a, wdt))
    tall = M >= N
    R, C = (M, N) if tall else (N, M)
    s = new_output((nb, K), wdt, client)
    words = dict(R=R, C=C, xrs=N if tall else 1, xcs=1 if tall else N, xbs=M * N)
    u = vh = None
    if vectors:
        u = new_output((nb, M, K), wdt, client)
        vh = new_output((nb, K, N), wdt, client)
        if tall:   # U = P (M x K), Vh = Q^T (K x N)
            words.update(prs=K, pcs=1, pbs=M * K, qrs=1, qcs=N, qbs=N * N)
        else:      # U = Q (M x M), Vh = P^T (K x N)
            words.update(prs=1, pcs=N, pbs=K * N, qrs=M, qcs=1, qbs=M * M)
    k = client.kernel(spec)
    loops = _MAXSW[wdt] * spec.capc + 4 * 40 + spec.capc * (3 * spec.capc + 4)   # + completion
    for b0, b1, wgs in _launch_plan(client, "svd", nb, spec.per, M * N * wdt.itemsize,
                                    loops):
        args = dict(words, X=x[b0:b1], SV=s[b0:b1], nb=b1 - b0)
        if vectors:
            args["PO"], args["QO"] = (u[b0:b1], vh[b0:b1]) if tall else (vh[b0:b1], u[b0:b1])
        k.launch((wgs, 1, 1), **args)
    CALLS["svd"] += 1
    if vectors:
        s, u, vh = _nan_out(be, bad, [s, u, vh])
    else:
        (s,) = _nan_out(be, bad, [s])
    s = _back(s.reshape(batch + (K,)), a.dtype)
    if not vectors:
        return None, s, None
    return (_back(u.reshape(batch + (M, K)), a.dtype), s,
            _back(vh.reshape(batch + (K, N)), a.dtype))


def variants(caps=None):
    """Every kernel variant this module can launch on ``caps`` (render tests; None: on the
    adapter descriptions the render tests use, LAVAPIPE and NVIDIA: the matrices per
    workgroup and the buffering follow the workgroup memory)."""
    if caps is None:
        from ...codegen.caps import LAVAPIPE, NVIDIA
        return list(dict.fromkeys(variants(LAVAPIPE) + variants(NVIDIA)))
    pre = eigh_fit(caps, WTYPES[dt.float64], small_prep.CAP, True)
    out = [small_prep.PrepSpec(), small_prep.ScaleCastSpec()]
    if pre is not None:
        out.append(dataclasses.replace(pre, vinit=True))
    for d in (dt.float32, dt.float64):
        t = WTYPES[d]
        for capr in BUCKETS:
            for vec in (False, True):
                out.append(eigh_fit(caps, t, capr, vec))
                out += [_svd_fit(caps, t, capr, capc, vec) for capc in BUCKETS
                        if capc <= capr]
    return [s for s in out if s is not None]
