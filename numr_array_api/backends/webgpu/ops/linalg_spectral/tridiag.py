"""eigh / eigvalsh of large real symmetric matrices through a tridiagonal form.

1. Householder tridiagonalisation A = Q T Q^T, blocked like LAPACK sytrd / latrd: per
   column two dispatches over many workgroups (TrdUpdSpec: the previous column's w and
   this column's update by the panel, with partials of the reflector's norm; TrdSymv2Spec:
   the reflector from those partials, the symmetric matrix-vector product with the
   trailing matrix and the panel's dot products), every NB columns the trailing rank-2 NB
   update A22 -= V W^T + W V^T by the tiled GEMM. No host reads (trd_chain.py).
2. Eigenvalues of T by multisection with Sturm counts (BisectSpec, a workgroup per
   eigenvalue: trd_values.py); eigenvectors by inverse iteration (InvIterSpec: trd_vectors.py;
   clusters of close eigenvalues re-orthogonalised by modified Gram-Schmidt, or in
   parallel and then Newton-Schulz: clusters.py).
3. V = Q Z through the block reflectors (T from LarftSpec) and the GEMM.
4. The vectors are checked on the device (max |Z^T Z - I|, one small read); a failure
   returns None and the caller takes the Jacobi path.

Real float32 / float64 (float16 computed in float32), computed in the input dtype.
"""

from __future__ import annotations

import math

import numpy as np

from ...runtime.adapters import is_cpu
from ....._core import dtypes as dt
from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...kernels.fill import full
from ...storage import new_output
from ..linalg.blas import gemm_acc, gemm_sub
from ..linalg.dispatch import grid
from ..linalg.pow2 import pow2_normalise
from ..linalg.specs import LARFT_KB_MAX, LarftSpec
from .....tuning.registry import get as tuned
from ..matmul import gemm
from .clusters import Plan, cluster_sizes, orthonormalise, orthonormalise_chains, plan
from .trd_chain import NB, UPD_RPW, TrdSymv2Spec, TrdUpdSpec
from .trd_values import MSECT_ROUNDS, BisectSpec, BlockBisectSpec, RankSpec
from .trd_vectors import INV_ITERS, GatherSpec, InvIterSpec

CHAIN_ROUNDS = 2     # QR orthonormalisations of the long tight chains, one more solve of
                     # their members between two (a subspace iteration: the raw members'
                     # block is ill-conditioned where shifts a few eps apart converged to
                     # one eigenvector; the next solve from orthonormal vectors parts them)
ORTH_TOL = 4.0       # the vectors pass when max |Z^T Z - I| <= ORTH_TOL n eps

CALLS = {"tridiag": 0, "vectors": 0, "fallback": 0, "parallel": 0,
         "tight_qr": 0}   # tests read these


def applies(a):
    """Whether eigh / eigvalsh of ``a`` take the tridiagonal path (from n = the
    EIGH_TRIDIAG_MIN knob)."""
    if 0 in a.shape or a.shape[-1] < max(2, tuned("EIGH_TRIDIAG_MIN", a.client)):
        return False
    return solvable(a.client, a.dtype, a.shape[-1])


def solvable(client, dtype, n):
    """Whether this path can solve real symmetric n x n matrices of ``dtype`` on the
    adapter (svd_aug.py asks it for its augmented matrices)."""
    if dtype not in (dt.float16, dt.float32, dt.float64):
        return False
    caps = Caps.of(client)
    if dtype is dt.float64 and not (caps.f64 and caps.int64):
        return False
    if is_cpu(client.info):
        # lavapipe stops loops beyond 65535 iterations per invocation: the Sturm loop
        # runs n times per multisection round (inverse iteration: tridiag._cluster_round)
        it = MSECT_ROUNDS["f64" if dtype is dt.float64 else "f32"]
        if n * (it + 8) > 65000:
            return False
    return True


def _cdiv(a, b):
    return -(-a // b)


def _symmetric(be, x):
    """The symmetric matrices of x's lower triangles (NumPy's eigh reads UPLO='L')."""
    low = be.tri(x, 0, False)
    strict = be.tri(x, -1, False)
    return be.binary_kernel("add")(low, strict.permute((0, 2, 1)))


def normalised_tridiagonal(be, a):
    """tridiagonalize(a) of a scaled in place by a power of two per matrix bringing max |a|
    into [1, 2) first (factor.pow2_normalise: the wide kernels' partials scale every
    square, but NVIDIA's compiler may reassociate (x / s) p into (x p) / s, which broke the
    wide QR panel at float32 1e+-20 on the H100); returns (d, e, tau, ref, scales (B, 1, 1))
    and the eigenvalues are those of the scaled matrices (``unscale``)."""
    sc = pow2_normalise(be, a)
    return tridiagonalize(be, a) + (sc,)


def unscale(be, w, sc):
    """Eigenvalues (B, k) of the scaled matrices back to the input's scale (exact)."""
    return be.binary_kernel("divide")(w, sc.reshape((sc.shape[0], 1)))


def tridiagonalize(be, a):
    """Blocked Householder tridiagonalisation of the contiguous (B, n, n) stack ``a``
    (overwritten) through TrdUpdSpec + TrdSymv2Spec (trd_chain.py): per column two
    dispatches over many workgroups, every NB columns the GEMM update. Returns d (B, n),
    e (B, n; e[:, n-1] unused), tau (B, n) and the reflectors REF (B, n, n): column j holds
    v_j (zeros above row j + 1, 1 at j + 1)."""
    client = a.client
    t = wtype(a.dtype, client, "linalg.eigh")
    B, n, _ = a.shape
    nx, yt, ref, p, dot, wk, d, e, tau = _chain_arrays(B, n, a.dtype, client)
    srpw = tuned("EIGH_SYMV_RPW", client)
    upd = client.kernel(TrdUpdSpec(t))
    symv = client.kernel(TrdSymv2Spec(t, srpw))
    # one bind group layout (trd_chain.CHAIN_BUFS): both kernels bind every buffer
    bufs = dict(A=a, PV=p, DOT=dot, TAU=tau, NX=nx, YT=yt, D=d, WK=wk, REF=ref, E=e)
    for k in range(0, n, NB):
        nbk = min(NB, n - k)
        for jj in range(nbk):
            j = k + jj
            nwu = _cdiv(n - j, UPD_RPW)
            upd.launch((nwu, B, 1), n=n, nbat=B, j=j, jj=jj, fin=0,
                       nrbp=_cdiv(n - j, srpw), **bufs)
            if j + 1 < n:
                nrb = _cdiv(n - j - 1, srpw)
                symv.launch((nrb + 2 * jj, B, 1), n=n, nbat=B, j=j, jj=jj, nrb=nrb, nwu=nwu,
                            **bufs)
        if k + NB < n:
            j = k + NB
            upd.launch((_cdiv(n - j, UPD_RPW), B, 1), n=n, nbat=B, j=j, jj=NB, fin=1,
                       nrbp=_cdiv(n - j, srpw), **bufs)
            gemm_acc(client, t, nx[:, j:, :], yt[:, :, j:], a[:, j:, j:])
    return d, e, tau, ref


# the column chain's arrays: (name, shape of one matrix's part)
def _chain_shapes(n):
    return (("nx", (n, 2 * NB)), ("yt", (2 * NB, n)), ("ref", (n, n)), ("p", (n,)),
            ("dot", (2 * NB,)), ("wk", (3 * n,)), ("d", (n,)), ("e", (n,)), ("tau", (n,)))


def chain_words(n):
    """Elements of the column chain's workspace per matrix."""
    return sum(math.prod(sh) for _, sh in _chain_shapes(n))


def _chain_arrays(B, n, dtype, client):
    """NX, YT, REF, PV, DOT, WK, D, E, TAU as views of one zeroed buffer (each array's
    (B, ...) block contiguous): the chain's dispatches then bind A and that one buffer,
    and wgpu tracks and fences two buffers a dispatch instead of ten (its per-dispatch host
    work at the submit grows with the buffers bound); separate buffers where the workspace
    would not fit one storage binding."""
    if B * chain_words(n) * dtype.itemsize > client.max_binding - 256:
        return tuple(full((B,) + sh, 0, dtype, client) for _, sh in _chain_shapes(n))
    ws = full((B * chain_words(n),), 0, dtype, client)
    out, o = [], 0
    for _, sh in _chain_shapes(n):
        m = B * math.prod(sh)
        out.append(ws[o:o + m].reshape((B,) + sh))
        o += m
    return tuple(out)


def eigenvalues(client, d, e):
    t = wtype(d.dtype, client, "linalg.eigh")
    B, n = d.shape
    w = new_output((B, n), d.dtype, client)
    mw = tuned("EIGH_MSECT_WG", client)
    client.kernel(BisectSpec(t, mw)).launch((n, B, 1), D=d, E=e, W=w, n=n, nbat=B)
    return w


def _cluster_round(client, n):
    """Cluster members one InvIterSpec dispatch computes: all on GPUs; on CPU adapters
    (lavapipe stops an invocation's loops beyond 65535 iterations) as many as the
    per-member loop count (factor, solves, normalisations, Gram-Schmidt) allows."""
    if not is_cpu(client.info):
        return n
    per = 8 * n + (INV_ITERS + 1) * n * (1 + 2 * _cdiv(n, 64)) + 2 * n
    return max(1, 40000 // per)


def eigen_setup(client, d, e):
    """Eigenvalues of T split where |e| is negligible, each block's by bisection (slot =
    row of the block), their ranks giving the order; and the cluster sizes (clusters.py).
    Returns (mu, sc, blk, w, slot, ch, cs): w (B, n) ascending, ch and cs for
    ``clusters.plan``."""
    t = wtype(d.dtype, client, "linalg.eigh")
    B, n = d.shape
    mu = full((B, n), 0, d.dtype, client)
    sc = full((B, 2), 1, d.dtype, client)
    blk = full((B, n, 2), n, dt.uint32, client)
    client.kernel(BlockBisectSpec(t, tuned("EIGH_MSECT_WG", client))).launch(
        (n, B, 1), D=d, E=e, MU=mu, SC=sc, BLK=blk, n=n, nbat=B)
    g = (_cdiv(n, 64), B, 1)
    w = new_output((B, n), d.dtype, client)
    slot = new_output((B, n), dt.uint32, client)
    client.kernel(RankSpec(t)).launch(g, MU=mu, SC=sc, W=w, SLOT=slot, n=n, nbat=B)
    return (mu, sc, blk, w, slot) + cluster_sizes(client, mu, sc, blk)


def eigen_vectors(be, d, e, mu, sc, blk, slot, ch, pl):
    """Z (B, n, n) row-major, column k the unit eigenvector of T for w[:, k], by inverse
    iteration in the mode of the plan ``pl`` (clusters.py)."""
    client = d.client
    t = wtype(d.dtype, client, "linalg.eigh")
    B, n = d.shape
    zs = full((B, n, n), 0, d.dtype, client)
    per = 5 * n * B * d.dtype.itemsize    # scratch bytes of one cluster leader
    nl = max(1, min(n, (client.max_binding - 256) // per))
    s = new_output((B, 5, nl, n), d.dtype, client)
    k = client.kernel(InvIterSpec(t))
    step = _cluster_round(client, n)
    for r0 in range(0, pl.longest if step < n else n, step):
        for a0 in range(0, n, nl):
            k.launch((min(nl, n - a0), B, 1), D=d, E=e, MU=mu, SC=sc, BLK=blk, CH=ch, ZS=zs,
                     S=s, n=n, nbat=B, r0=r0, r1=min(n, r0 + step), l0=a0, nl=nl,
                     tight=int(pl.parallel), tmax=pl.tmax, refine=0)
    for rnd in range(CHAIN_ROUNDS if pl.chains else 0):
        orthonormalise_chains(be, zs, pl.chains)
        if rnd + 1 < CHAIN_ROUNDS:
            for a0 in range(0, n, nl):
                k.launch((min(nl, n - a0), B, 1), D=d, E=e, MU=mu, SC=sc, BLK=blk, CH=ch,
                         ZS=zs, S=s, n=n, nbat=B, r0=0, r1=1, l0=a0, nl=nl, tight=1,
                         tmax=pl.tmax, refine=1)
    z = new_output((B, n, n), d.dtype, client)
    client.kernel(GatherSpec(t)).launch((n, B, 1), ZS=zs, SLOT=slot, Z=z, n=n, nbat=B)
    return orthonormalise(be, z, pl.steps) if pl.parallel else z


def serial_vectors(be, d, e):
    """(w, Z) of T in the serial mode, no read on GPUs (svd_aug.py's recipe; CPU adapters
    read the cluster sizes for their rounds)."""
    client = d.client
    mu, sc, blk, w, slot, ch, cs = eigen_setup(client, d, e)
    n = d.shape[-1]
    pl = plan(cs, ch, blk, serial=True) if _cluster_round(client, n) < n else Plan(False, n)
    return w, eigen_vectors(be, d, e, mu, sc, blk, slot, ch, pl)


def back_transform(be, ref, tau, z):
    """z <- Q z, Q = H_0 H_1 ... H_{n-2}, block reflectors of EIGH_BT_NB (a knob) columns
    (last first), the T of every block in one LarftSpec dispatch before the products (one
    dispatch per block between them took ~280 us of one workgroup each on an H100)."""
    client = z.client
    t = wtype(z.dtype, client, "linalg.eigh")
    n = z.shape[1]
    larft = client.kernel(LarftSpec(t))
    bnb = min(LARFT_KB_MAX, tuned("EIGH_BT_NB", client))
    starts = list(range(0, n - 1, bnb))
    tms = _block_ts(be, larft, t, ref, tau, starts, bnb)
    for i in reversed(range(len(starts))):
        k = starts[i]
        kb = min(bnb, n - 1 - k)
        v = ref[:, k + 1:, k:k + kb]
        vh = v.permute((0, 2, 1))
        tm = tms[:, i, :kb, :kb]
        c = z[:, k + 1:, :]
        gemm_sub(be, v, gemm(tm, gemm(vh, c)), c)
    return z


def _block_ts(be, larft, t, ref, tau, starts, bnb):
    """T (B, nblk, bnb, bnb) of every block reflector of the back-transformation in one
    LarftSpec dispatch (the blocks are independent): G = V^T V of each block into a zeroed
    stack, tau into a zeroed (B, nblk bnb) row; a narrower last block's padding (G and tau
    zero) only gives T's padding rows and columns, never its kb x kb corner."""
    client = ref.client
    B, n, _ = ref.shape
    nblk = len(starts)
    g = full((B, nblk, bnb, bnb), 0, ref.dtype, client)
    for i, k in enumerate(starts):
        kb = min(bnb, n - 1 - k)
        v = ref[:, k + 1:, k:k + kb]
        gemm_acc(client, t, v.permute((0, 2, 1)), v, g[:, i, :kb, :kb], acc=False)
    tp = full((B, nblk * bnb), 0, ref.dtype, client)
    be.store(tp[:, :n - 1], tau[:, :n - 1])
    tms = new_output((B, nblk, bnb, bnb), ref.dtype, client)
    larft.launch(grid(B * nblk, client), G=g, tau=tp, Tm=tms, kb=bnb, nbat=B * nblk,
                 tau_bs=bnb)
    return tms


def _orth_dev(be, z):
    """max |Z^T Z - I| per matrix, (B,) on the device."""
    n = z.shape[-1]
    g = gemm(z.permute((0, 2, 1)), z)
    eye = be.eye(n, n, 0, z.dtype, be.device_of(z))
    dev = be.unary_kernel("abs")(be.binary_kernel("subtract")(g, eye))
    return be.reduce("max", dev, (1, 2), False)


def _job_values(be, x):
    """Every dispatch of eigvalsh, no host transfer (replayable as a recipe)."""
    a = _symmetric(be, x)
    d, e, tau, ref, sc = normalised_tridiagonal(be, a)
    return unscale(be, eigenvalues(x.client, d, e), sc)


def _job_setup(be, x):
    """eigh up to the eigenvalues and cluster sizes (the first recipe of a call)."""
    a = _symmetric(be, x)
    d, e, tau, ref, sc = normalised_tridiagonal(be, a)
    return (d, e, tau, ref, sc) + eigen_setup(x.client, d, e)


def _job_vectors(be, d, e, tau, ref, sc, mu, tsc, blk, w, slot, ch, pl):
    """eigh after the cluster read (the second recipe of a call)."""
    z = eigen_vectors(be, d, e, mu, tsc, blk, slot, ch, pl)
    w = unscale(be, w, sc)
    dev = _orth_dev(be, z)
    v = back_transform(be, ref, tau, z)
    return w, v, dev


def batch_step(client, n, itemsize, vectors):
    """Matrices per call of ``eigh`` whose n x n buffers fit one storage binding (the
    inverse iteration's scratch goes in leader ranges, eigenvectors()), 0 when not even
    one does."""
    per = n * n * itemsize
    return min(65535, (client.max_binding - 256) // per)


def eigh(be, x, vectors):
    """w (B, n) ascending and (vectors) V (B, n, n) of the contiguous real (B, n, n) stack
    ``x`` in its work dtype; None when the vectors fail the orthogonality check."""
    client = x.client
    CALLS["tridiag"] += 1
    B, n, _ = x.shape
    # the same call again replays its recorded dispatches (runtime/recipes.py): the ~2 n
    # launches of the tridiagonalisation cost no Python planning then
    key = ("eigh_tridiag",)
    if not vectors:
        return client.recipes.call(key + ("values",), (x,), lambda: _job_values(be, x))
    CALLS["vectors"] += 1
    parts = client.recipes.call(key + ("setup",), (x,), lambda: _job_setup(be, x))
    pl = plan(parts[-1], parts[-2], parts[7])   # the cluster read (clusters.py)
    CALLS["parallel"] += int(pl.parallel)
    CALLS["tight_qr"] += len(pl.chains)
    args = parts[:-1]
    w, v, dev = client.recipes.call(key + (pl,), args, lambda: _job_vectors(be, *args, pl))
    dev = dev.to_numpy().astype(np.float64)      # the path's status read
    eps = float(np.finfo(x.dtype.np).eps)
    bad = ~(dev <= ORTH_TOL * n * eps)           # NaN fails too
    if bad.any():
        # NaN / inf input gives NaN eigenvalues (and NaN vectors), as the other paths
        nanm = np.isnan(w.to_numpy()).any(axis=1)
        if (bad & ~nanm).any():
            CALLS["fallback"] += 1
            return None
        for b in np.flatnonzero(nanm):
            be.store(v[int(b)], full((n, n), float("nan"), x.dtype, client))
    return w, v
