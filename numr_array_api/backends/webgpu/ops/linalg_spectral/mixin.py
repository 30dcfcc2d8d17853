"""eigh / eigvalsh, svd / svdvals, eig / eigvals, pinv, matrix_rank on the GPU (real and
complex inputs).

float16 is computed in float32 and cast back (as the cpu backend does); float64 and
complex128 need the adapter's shader-f64.
"""

from __future__ import annotations

import math

import numpy as np

from ...runtime.adapters import is_cpu
from ....._core import dtypes as dt
from ....._core.errors import BackendLimitation, InvalidArgument
from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...kernels.fill import full
from ...storage import new_output
from ..matmul import gemm
from .conj import ConjPairSpec
from .cut import CutSpec
from . import small, svd_aug, tridiag
from .eig_spec import EigSpec
from .jacobi_common import UNROLL
from .rounds import FinishSpec, RoundSpec
from .spec import EighSpec, SvdSpec, pick_cap, wg_size

_MAX_GROUPS = 65535
_SCRATCH_SLOTS = 1024     # workgroups (each with its own scratch slot) for cap-0 kernels


_REAL = {dt.complex64: dt.float32, dt.complex128: dt.float64}
_COMPLEX = {dt.float16: dt.complex64, dt.float32: dt.complex64, dt.float64: dt.complex128,
            dt.complex64: dt.complex64, dt.complex128: dt.complex128}


def _work_dtype(dtype):
    return dt.float32 if dtype is dt.float16 else dtype


_WIDER = {dt.float16: dt.float64, dt.float32: dt.float64, dt.complex64: dt.complex128}


def _wider(dtype, client, keeps_cap=None):
    """The dtype eigh / svd compute a 32-bit (or float16) input in: its 64-bit counterpart
    where the adapter grants shader-f64 (the SPECTRAL_F32 knob, "f64" by default), else
    None (computed in 32 bits). Jacobi's float32 vectors are orthogonal to about
    sqrt(M) eps (its convergence threshold); computed in float64 and rounded once they are
    to about eps, as LAPACK's float32 solvers are, which scikit-learn's float32 tests
    compare against at ~1 ulp (Ridge(solver="svd") predictions).
    Except where ``keeps_cap(wide)`` is False: float64 would move the matrices out of
    workgroup memory that the 32-bit kernel fits (n in 49..64 on 48 KiB adapters), which
    cost 4-13x for stacks (1000 x 48 x 48 before the 48 bucket, H200) against 1.1-1.5x
    elsewhere."""
    wide = _WIDER.get(dtype)
    if wide is None:
        return None
    if not (tuned("SPECTRAL_F32", client) == "f64" and Caps.of(client).f64):
        return None
    return wide if keeps_cap is None or keeps_cap(wide) else None


def _keeps_cap(client, make, n, dtype, wide):
    """False where the 32-bit kernel fits workgroup memory for n and the wide one does not."""
    caps = Caps.of(client)
    narrow = pick_cap(lambda c: make(wtype(_work_dtype(dtype)), c), n, caps)
    return not narrow or bool(pick_cap(lambda c: make(wtype(wide), c), n, caps))


def _real(dtype):
    return _REAL.get(dtype, dtype)


def _prod(shape):
    return math.prod(shape)


def _flat(a, wdt):
    """(B, M, N) contiguous in the work dtype."""
    x = a if a.dtype is wdt else a.astype(wdt)
    x = x.contiguous()
    return x.reshape((_prod(a.shape[:-2]),) + tuple(a.shape[-2:]))


def _chunks(client, nb, per_bytes):
    """Batch ranges whose every operand fits one storage binding."""
    step = max(1, (client.max_binding - 256) // max(per_bytes, 1))
    for b0 in range(0, nb, step):
        yield b0, min(nb, b0 + step)


def _slots(client, nbc, cap, scratch, itemsize):
    """Workgroups of one launch, and the scratch buffer (cap 0: one slot per workgroup)."""
    if cap:
        return min(nbc, _MAX_GROUPS), None
    slots = max(1, min(nbc, _SCRATCH_SLOTS, (client.max_binding - 256) // (scratch * itemsize)))
    return slots, slots


def _check_loops(client, what, n, counts):
    """CPU adapters (lavapipe) silently stop a loop after 65535 iterations per invocation,
    counted over all its entries: refuse sizes whose worst case (every sweep allowed) could
    reach that, rather than return a wrong answer."""
    if not is_cpu(client.info):
        return
    if max(counts) > 65000:
        raise BackendLimitation("webgpu", f"linalg.{what} of {n} matrices on a CPU adapter",
                                "lavapipe stops loops beyond 65535 iterations; the "
                                "kernel could exceed that at this size")


ROUNDS = None   # tests set True / False to force the multi-workgroup path on or off


def _use_rounds(client, cap, single_ok):
    """Matrices beyond workgroup memory take the dispatch-per-round path on GPUs; CPU
    adapters (lavapipe) run the one-workgroup kernel where its loops fit (far fewer
    dispatches) and the round path beyond."""
    if ROUNDS is not None:
        return ROUNDS
    if cap:
        return False
    return not (is_cpu(client.info) and single_ok)


def _cdiv(a, b):
    return -(-a // b)


def _back(x, dtype):
    return x if x.dtype is dtype else x.astype(dtype)


def svdvals(backend, a):
    """Singular values (descending) of a real floating storage (..., M, N): the kernel behind
    linalg.svdvals, for other GPU linalg code (matrix_norm's 2 / -2 / 'nuc')."""
    return _svd(backend, a, False, False)[1]


def _eye_stack(backend, batch, n, dtype, client):
    """Identity matrices (batch + (n, n)): zeros, then ones stored through the diagonal."""
    z = full(batch + (n, n), 0, dtype, client)
    if z.size:
        st = z.strides
        diag = z._view(batch + (n,), tuple(st[:-2]) + (st[-2] + st[-1],))
        backend.store(diag, full((n,), 1, dtype, client))
    return z


def _completion_loops(R, C, pc, wg):
    """Worst-case iterations of svd.wgsl's completion loops (per loop statement): columns
    of negligible singular values (at most C) may take two Gram-Schmidt attempts."""
    return [pc * pc * _cdiv(R, wg), _cdiv(R, wg) * (pc * pc // 2 + C * pc),
            _cdiv(R, UNROLL) * (pc + C) * _cdiv(pc, wg)]


def _eigh_tridiag(be, a, vectors):
    """Real symmetric eigh / eigvalsh through the tridiagonal form (tridiag.py), in the
    input dtype (float16 in float32); None when the vectors fail its check."""
    batch, n = tuple(a.shape[:-2]), a.shape[-1]
    wdt = _work_dtype(a.dtype)
    x = _flat(a, wdt)
    nb = x.shape[0]
    step = tridiag.batch_step(a.client, n, wdt.itemsize, vectors)
    if step < 1:
        return None
    ws, vs = [], []
    for b0 in range(0, nb, step):
        r = tridiag.eigh(be, x[b0:min(nb, b0 + step)].contiguous(), vectors)
        if r is None:
            return None
        ws.append(r[0] if vectors else r)
        if vectors:
            vs.append(r[1])
    w = ws[0] if len(ws) == 1 else be.concat(ws, 0)
    w = _back(w.reshape(batch + (n,)), a.dtype)
    if not vectors:
        return w
    v = vs[0] if len(vs) == 1 else be.concat(vs, 0)
    return w, _back(v.reshape(batch + (n, n)), a.dtype)


def _eigh(be, a, vectors):
    spec = small.eigh_spec(a, vectors)
    if spec is not None:
        return small.eigh(be, a, vectors, spec)
    if tridiag.applies(a):
        out = _eigh_tridiag(be, a, vectors)
        if out is not None:
            return out
    wide = _wider(a.dtype, a.client, lambda w: _keeps_cap(
        a.client, lambda t, c: EighSpec(t, c, vectors), a.shape[-1], a.dtype, w))
    if wide is None or 0 in a.shape:
        return _eigh_in(be, a, vectors)
    out = _eigh_in(be, a.astype(wide), vectors)
    if not vectors:
        return _back(out, _real(a.dtype))
    return _back(out[0], _real(a.dtype)), _back(out[1], a.dtype)


def _eigh_in(be, a, vectors):
    client = a.client
    batch, n = tuple(a.shape[:-2]), a.shape[-1]
    wdt = _work_dtype(a.dtype)
    nb = _prod(batch)
    if n == 0 or nb == 0:
        w = new_output(batch + (n,), _real(a.dtype), client)
        return (w, new_output(batch + (n, n), a.dtype, client)) if vectors else w
    t = wtype(wdt, client, "linalg.eigh")
    caps = Caps.of(client)
    cap = pick_cap(lambda c: EighSpec(t, c, vectors), n, caps)
    spec = EighSpec(t, cap, vectors)
    wg, m, sw = wg_size(cap), n + n % 2, 30 if wdt is dt.float32 else 40
    single = [(m - 1) * sw * _cdiv(m // 2 * n, UNROLL * wg), (m - 1) * sw * _cdiv(m // 2, wg),
              n * _cdiv(n, wg)]
    if _use_rounds(client, cap, max(single) <= 65000):
        return _eigh_rounds(be, a, vectors, t, sw)
    _check_loops(client, "eigh", f"{n}x{n}", single)
    k = client.kernel(spec)
    x = _flat(a, wdt)
    w = new_output((nb, n), _real(wdt), client)
    v = new_output((nb, n, n), wdt, client) if vectors else None
    isz = wdt.itemsize
    scratch = EighSpec.scratch(n, vectors)
    for b0, b1 in _chunks(client, nb, n * n * isz):
        groups, slots = _slots(client, b1 - b0, cap, scratch, isz)
        args = dict(A=x[b0:b1], W=w[b0:b1], n=n, nb=b1 - b0, sstride=scratch)
        if vectors:
            args["V"] = v[b0:b1]
        if slots:
            args["S"] = new_output((slots * scratch,), wdt, client)
        k.launch((groups, 1, 1), **args)
    w = _back(w.reshape(batch + (n,)), _real(a.dtype))
    if not vectors:
        return w
    return w, _back(v.reshape(batch + (n, n)), a.dtype)


def _pow2_scale(be, x):
    """A power of two bringing max |x| into [0.5, 1) (one small read), 1 for 0 / inf / NaN."""
    ab = be.unary_kernel("abs")(x)
    amax = float(be.reduce("max", ab, tuple(range(ab.ndim)), False).to_numpy())
    if not math.isfinite(amax) or amax == 0.0:
        return 1.0, amax
    return math.ldexp(1.0, -math.frexp(amax)[1]), amax


def _columns(be, x, tall, cplx):
    """The scaled work columns of (B, M, N) x as a contiguous (B, C, R): A^T (tall) or
    conj(A) (wide: the columns of A^H), and the scale."""
    sc, _ = _pow2_scale(be, x)
    y = x.permute((0, 2, 1)) if tall else x
    if cplx and not tall:
        y = be.unary_kernel("conj")(y)
    return be.binary_kernel("multiply")(y, be.scalar_operand(sc, x.dtype)), sc


def _rotate_all(client, t, u, v, nb, R, C, vectors, maxsw):
    """Round-robin one-sided Jacobi sweeps over u (B, C, R) and v (B, C, C), a dispatch per
    round, until a sweep rotates nothing (its counters read back after each sweep)."""
    k = client.kernel(RoundSpec(t, vectors))
    cnt = full((nb, maxsw), 0, dt.uint32, client)
    m = C + C % 2
    per = max(R * C, C * C if vectors else 0) * t.itemsize
    for sw in range(maxsw):
        for b0, b1 in _chunks(client, nb, per):
            for c0 in range(b0, b1, _MAX_GROUPS):
                c1 = min(b1, c0 + _MAX_GROUPS)
                args = dict(U=u[c0:c1], CNT=cnt[c0:c1], R=R, C=C, sw=sw, maxsw=maxsw)
                if vectors:
                    args["V"] = v[c0:c1]
                for r in range(m - 1):
                    k.launch((m // 2, c1 - c0, 1), rnd=r, **args)
        if not cnt[:, sw].to_numpy().any():
            break


def _eigh_rounds(be, a, vectors, t, maxsw):
    """Large symmetric / Hermitian matrices: B = A + sigma I with sigma >= -lambda_min is
    positive semidefinite, so its one-sided Jacobi SVD is its eigendecomposition (B V = U S,
    eigenvectors V, eigenvalues s - sigma), and the rounds run over many workgroups. Errors
    scale with ||B|| = lambda_max + sigma. sigma = ||A||_inf (Gershgorin) is safe but, for
    random matrices, sqrt(n) / 2 times ||A||_2: eigenvalues stay within n eps ||A||, while
    the vectors' reconstruction did not on NVIDIA (1.1 x 10 n eps at n = 100, float32).
    So eigh first gets the eigenvalues that way, then solves again with sigma = ||A||_2 / 8
    - lambda_min (the estimates are within 1e-3 ||A||, so B stays semidefinite with room,
    and ||B|| <= 2.125 ||A||_2)."""
    batch, n = tuple(a.shape[:-2]), a.shape[-1]
    wdt = _work_dtype(a.dtype)
    x = _flat(a, wdt)
    rt = _real(wdt)
    mul = be.binary_kernel("multiply")
    # sigma_b = ||A_b||_inf >= |lambda| per matrix (Gershgorin), on the device
    sigma = be.reduce("max", be.reduce("sum", be.unary_kernel("abs")(x), (2,), False), (1,),
                      False)
    sc, _ = _pow2_scale(be, sigma)
    sigma = mul(sigma, be.scalar_operand(sc, rt))
    w, _ = _eigh_shifted(be, x, sigma, sc, False, t, maxsw)
    if vectors:
        # w ascends (scaled back): lambda_min = w[:, 0], ||A||_2 = max(-w[:, 0], w[:, -1])
        lo, hi = w[:, 0], w[:, n - 1]
        nrm = be.binary_kernel("maximum")(be.unary_kernel("abs")(lo), be.unary_kernel("abs")(hi))
        s2 = be.binary_kernel("subtract")(mul(nrm, be.scalar_operand(0.125, rt)), lo)
        w, v = _eigh_shifted(be, x, mul(s2, be.scalar_operand(sc, rt)), sc, True, t, maxsw)
    w = _back(w.reshape(batch + (n,)), _real(a.dtype))
    if not vectors:
        return w
    return w, _back(v.reshape(batch + (n, n)), a.dtype)


def _eigh_shifted(be, x, sigma, sc, vectors, t, maxsw):
    """Eigenvalues (ascending, (B, n)) and vectors of the (B, n, n) stack x through the SVD
    of sc x + sigma I (sigma: (B,) on the device, already times sc)."""
    client = x.client
    nb, n = x.shape[0], x.shape[-1]
    wdt = x.dtype
    rt = _real(wdt)
    mul, add = be.binary_kernel("multiply"), be.binary_kernel("add")
    u = mul(x.permute((0, 2, 1)), be.scalar_operand(sc, wdt))    # columns of B, stored
    diag = u._view((nb, n), (n * n, n + 1))
    be.store(diag, add(diag, _back(sigma, wdt).expand_dims(1)))
    vin = _eye_stack(be, (nb,), n, wdt, client) if vectors else None
    _rotate_all(client, t, u, vin, nb, n, n, vectors, maxsw)
    s = new_output((nb, n), rt, client)
    words = {}
    if vectors:
        p = new_output((nb, n, n), wdt, client)
        vh = new_output((nb, n, n), wdt, client)
        words = dict(urs=n, ucs=1, ubs=n * n, vrs=1, vcs=n, vbs=n * n, pcj=0,
                     qcj=int(wdt.kind == "c"))
    # P (= B V / s) is not needed, so its basis is never completed here
    _finish(client, t, u, vin, nb, n, n, vectors, words, s, p if vectors else None,
            vh if vectors else None, False, check=False)
    # ascending eigenvalues (s descends) and their vectors: columns of V = rows of Vh^H
    w = mul(be.binary_kernel("subtract")(s.flip(1), sigma.expand_dims(1)),
            be.scalar_operand(1.0 / sc, rt))
    if not vectors:
        return w.contiguous(), None
    v = vh.flip(1).permute((0, 2, 1))
    if wdt.kind == "c":
        v = be.unary_kernel("conj")(v)
    return w.contiguous(), v.contiguous()


_OUT_WORDS = ("urs", "ucs", "ubs", "vrs", "vcs", "vbs", "pcj", "qcj")


def _finish(client, t, u, vin, nb, R, C, vectors, words, s, po, qo, complete_full,
            check=True):
    """Norms, order and outputs of RoundSpec's result, a workgroup per (column, matrix).
    Returns False (nothing written) when P's basis needs completing (negligible columns, or
    ``complete_full``): SvdSpec(resume=True) then does all of it."""
    k = client.kernel(FinishSpec(t, vectors))
    rt = s.dtype
    nrm = new_output((nb, C), rt, client)
    zc = full((nb,), 0, dt.uint32, client)
    ow = {w: words[w] for w in _OUT_WORDS} if vectors else {}
    per = max(R * C, C * C if vectors else 0) * t.itemsize
    launches = []
    for b0, b1 in _chunks(client, nb, per):
        for c0 in range(b0, b1, _MAX_GROUPS):
            c1 = min(b1, c0 + _MAX_GROUPS)
            args = dict(ow, U=u[c0:c1], NRM=nrm[c0:c1], ZC=zc[c0:c1], SV=s[c0:c1], R=R, C=C)
            if vectors:
                args.update(UO=po[c0:c1], VO=qo[c0:c1], VIN=vin[c0:c1])
            launches.append(((C, c1 - c0, 1), args))
    for groups, args in launches:
        k.launch(groups, "norms", **dict(args))
    if check and vectors:
        for groups, args in launches:
            k.launch((1,) + groups[1:], "small", **dict(args))
    if check and vectors and (complete_full or zc.to_numpy().any()):
        return False
    for groups, args in launches:
        k.launch(groups, "write", **dict(args))
    return True


def _svd_wider(a, vectors):
    return _wider(a.dtype, a.client, lambda w: _keeps_cap(
        a.client, lambda t, c: SvdSpec(t, c, vectors), max(a.shape[-2:]), a.dtype, w))


def _svd(be, a, vectors, full_matrices):
    spec = small.svd_spec(a, vectors, full_matrices)
    if spec is not None:
        return small.svd(be, a, vectors, spec)
    if svd_aug.applies(a, vectors, full_matrices):
        out = svd_aug.svd(be, a, vectors)
        if out is not None:
            return out if vectors else (None, out, None)
    wide = _svd_wider(a, vectors)
    if wide is None or 0 in a.shape:
        return _svd_in(be, a, vectors, full_matrices)
    u, s, vh = _svd_in(be, a.astype(wide), vectors, full_matrices)
    s = _back(s, _real(a.dtype))
    if not vectors:
        return None, s, None
    return _back(u, a.dtype), s, _back(vh, a.dtype)


def _svd_in(be, a, vectors, full_matrices):
    client = a.client
    batch = tuple(a.shape[:-2])
    M, N = a.shape[-2:]
    K = min(M, N)
    nb = _prod(batch)
    ucols, vrows = (M, N) if full_matrices else (K, K)
    if K == 0 or nb == 0:
        s = new_output(batch + (K,), _real(a.dtype), client)
        if not vectors:
            return None, s, None
        if full_matrices:
            return (_eye_stack(be, batch, M, a.dtype, client), s,
                    _eye_stack(be, batch, N, a.dtype, client))
        return (new_output(batch + (M, K), a.dtype, client), s,
                new_output(batch + (K, N), a.dtype, client))
    wdt = _work_dtype(a.dtype)
    t = wtype(wdt, client, "linalg.svd")
    caps = Caps.of(client)
    tall = M >= N
    R, C = (M, N) if tall else (N, M)
    cap = pick_cap(lambda c: SvdSpec(t, c, vectors), R, caps)
    wg, m, sw = wg_size(cap), C + C % 2, 30 if wdt is dt.float32 else 40
    pc = (R if full_matrices else C) if vectors else 0
    x = _flat(a, wdt)
    cplx = wdt.kind == "c"
    vin, sc = None, 1.0
    single = [(m - 1) * sw * _cdiv(m // 2, wg) * _cdiv(R, UNROLL),
              (m - 1) * sw * _cdiv(m // 2 * R, UNROLL * wg)] + _completion_loops(R, C, pc, wg)
    rounds = _use_rounds(client, cap, max(single) <= 65000)
    if not rounds:
        _check_loops(client, "svd", f"{M}x{N}", single)
        k = client.kernel(SvdSpec(t, cap, vectors))
    else:
        # beyond workgroup memory: a dispatch per round over every pair and matrix, then
        # the one-workgroup kernel only orders, writes and completes (resume)
        _check_loops(client, "svd", f"{M}x{N}", [_cdiv(C, 256) * (R + C)] +
                     _completion_loops(R, C, pc, 256))
        x, sc = _columns(be, x, tall, cplx)
        vin = _eye_stack(be, (nb,), C, wdt, client) if vectors else None
        _rotate_all(client, t, x, vin, nb, R, C, vectors, sw)
        k = client.kernel(SvdSpec(t, 0, vectors, True))
    s = new_output((nb, K), _real(wdt), client)
    isz = wdt.itemsize
    scratch = SvdSpec.scratch(R, C, vectors)
    # complex: wide inputs are solved as A^H (loaded conjugated); Vh is Q^H (tall) or P^H
    if not rounds:
        words = dict(R=R, C=C, xrs=N if tall else 1, xcs=1 if tall else N, xbs=M * N,
                     sstride=scratch, xcj=int(cplx and not tall))
    else:     # the rotated columns, stored column after column
        words = dict(R=R, C=C, xrs=1, xcs=R, xbs=R * C, sstride=scratch, xcj=0)
    u = vh = None
    if vectors:
        pcols = R if full_matrices else C
        u = new_output((nb, M, ucols), wdt, client)
        vh = new_output((nb, vrows, N), wdt, client)
        if tall:   # U = P (M x pcols), Vh = Q^T (N x N)
            words.update(pcols=pcols, urs=pcols, ucs=1, ubs=M * pcols, vrs=1, vcs=N, vbs=N * N,
                         pcj=0, qcj=int(cplx))
        else:      # U = Q (M x M), Vh = P^T (pcols x N)
            words.update(pcols=pcols, urs=1, ucs=N, ubs=pcols * N, vrs=M, vcs=1, vbs=M * M,
                         pcj=int(cplx), qcj=0)
    per = max(M * N, M * ucols if vectors else 0, vrows * N if vectors else 0) * isz
    kcap = 0 if rounds else cap
    done = False
    if rounds:
        po, qo = (u, vh) if tall else (vh, u)
        done = _finish(client, t, x, vin, nb, R, C, vectors, words, s, po, qo,
                       vectors and full_matrices and R > C)
    for b0, b1 in ([] if done else _chunks(client, nb, per)):
        groups, slots = _slots(client, b1 - b0, kcap, scratch, isz)
        args = dict(words, X=x[b0:b1], SV=s[b0:b1], nb=b1 - b0)
        if vectors:
            args["UO"], args["VO"] = (u[b0:b1], vh[b0:b1]) if tall else (vh[b0:b1], u[b0:b1])
            if vin is not None:
                args["VIN"] = vin[b0:b1]
        if slots:
            args["S"] = new_output((slots * scratch,), wdt, client)
        k.launch((groups, 1, 1), **args)
    if sc != 1.0:
        s = be.binary_kernel("multiply")(s, be.scalar_operand(1.0 / sc, s.dtype))
    s = _back(s.reshape(batch + (K,)), _real(a.dtype))
    if not vectors:
        return None, s, None
    return (_back(u.reshape(batch + (M, ucols)), a.dtype), s,
            _back(vh.reshape(batch + (vrows, N)), a.dtype))


def _eig(be, a, vectors):
    """Eigenvalues (and unit eigenvectors) of general square matrices, complex results."""
    client = a.client
    batch, n = tuple(a.shape[:-2]), a.shape[-1]
    ct = _COMPLEX[a.dtype]
    nb = _prod(batch)
    if n == 0 or nb == 0:
        w = new_output(batch + (n,), ct, client)
        return (w, new_output(batch + (n, n), ct, client)) if vectors else w
    wdt = _work_dtype(a.dtype)
    spec = EigSpec(wtype(wdt, client, "linalg.eig"), vectors)
    # element work is loop-free up to the workgroup size; the bulge-chase loop ran out of
    # lavapipe's budget near n = 95 for random matrices (~7 n^2 passes): a cut chase leaves
    # a bulge that could deflate wrongly, so CPU adapters keep a 2x margin (n <= 65)
    _check_loops(client, "eig", f"{n}x{n}", [15 * n * n, n * n // 2,
                                             n * n * n // spec.wg() if vectors else 0])
    k = client.kernel(spec)
    x = _flat(a, wdt)
    w = new_output((nb, n), ct, client)
    st = new_output((nb,), dt.uint32, client)
    v = new_output((nb, n, n), ct, client) if vectors else None
    scratch = EigSpec.scratch(n, vectors)
    isz = ct.itemsize
    for b0, b1 in _chunks(client, nb, n * n * isz):
        groups, slots = _slots(client, b1 - b0, 0, scratch, isz)
        args = dict(A=x[b0:b1], W=w[b0:b1], ST=st[b0:b1], n=n, nb=b1 - b0, sstride=scratch,
                    S=new_output((slots * scratch,), ct, client))
        if vectors:
            args["V"] = v[b0:b1]
        k.launch((groups, 1, 1), **args)
    # one small read: NumPy raises when the QR iteration does not converge
    if int(st.to_numpy().max()):
        raise InvalidArgument("x", f"linalg.eig{'' if vectors else 'vals'}: Eigenvalues did "
                              f"not converge")
    if a.dtype.kind == "f":
        k = client.kernel(ConjPairSpec(wtype(ct, client, "linalg.eig")))
        k.launch((max(1, min(-(-nb // 64), _MAX_GROUPS)), 1, 1), W=w,
                 F=new_output((nb * n,), dt.uint32, client), nb=nb, n=n)
    w = w.reshape(batch + (n,))
    return (w, v.reshape(batch + (n, n))) if vectors else w


def _cut(be, s, a, rtol, rank):
    """Per matrix: the count of s_j > rtol * max(s) (rank) or 1 / s_j there, else 0."""
    client = s.client
    batch, K = tuple(s.shape[:-1]), s.shape[-1]
    nb = _prod(batch)
    wdt = s.dtype
    if rtol is None:
        rtol = float(max(a.shape[-2:]) * np.finfo(a.dtype.np).eps)
    if isinstance(rtol, (int, float)):
        rt = full((nb,), rtol, wdt, client)
    else:
        rt = _back(rtol, wdt).broadcast_to(batch).contiguous().reshape((nb,))
    k = client.kernel(CutSpec(wtype(wdt, client, "linalg"), rank))
    o = new_output((nb,) if rank else (nb, K), dt.int32 if rank else wdt, client)
    k.launch((max(1, min(-(-nb // 64), _MAX_GROUPS)), 1, 1), S=s.reshape((nb, K)), RT=rt, O=o,
             nb=nb, K=K)
    return o.reshape(batch if rank else batch + (K,))


class SpectralMixin:
    def linalg_eig(self, a, vectors):
        return _eig(self, a, vectors)

    def linalg_eigh(self, a, vectors):
        return _eigh(self, a, vectors)

    def linalg_svd(self, a, full_matrices):
        return _svd(self, a, True, full_matrices)

    def linalg_svdvals(self, a):
        return svdvals(self, a)

    def linalg_matrix_rank(self, a, rtol, index_dtype):
        batch = tuple(a.shape[:-2])
        if 0 in a.shape:
            return full(batch, 0, index_dtype, a.client)
        wdt = _svd_wider(a, False) or _work_dtype(a.dtype)
        s = svdvals(self, a if a.dtype is wdt else a.astype(wdt))
        return _back(_cut(self, s, a, rtol, True), index_dtype)

    def linalg_pinv(self, a, rtol):
        """V diag(1 / s where kept) U^H from the thin SVD: one scaling, one GEMM."""
        batch, (M, N) = tuple(a.shape[:-2]), a.shape[-2:]
        if 0 in a.shape:
            return full(batch + (N, M), 0, a.dtype, a.client)
        wdt = _svd_wider(a, True) or _work_dtype(a.dtype)
        u, s, vh = _svd(self, a if a.dtype is wdt else a.astype(wdt), True, False)
        sinv = _cut(self, s, a, rtol, False)
        nd = vh.ndim
        swap = tuple(range(nd - 2)) + (nd - 1, nd - 2)
        v, ut = vh.permute(swap), u.permute(swap)
        if wdt.kind == "c":
            conj = self.unary_kernel("conj")
            v, ut, sinv = conj(v), conj(ut), sinv.astype(wdt)
        v = self.binary_kernel("multiply")(v, sinv.expand_dims(nd - 2))
        return _back(gemm(v, ut), a.dtype)
