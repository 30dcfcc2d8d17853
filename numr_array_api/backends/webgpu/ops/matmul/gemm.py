"""``gemm`` and ``rowdot``: launching the kernels of spec.py, over data of any size.

A kernel binds each operand through one window of one buffer (the storage-binding limit)
and computes u32 indices. When A, B or C does not fit one binding (or spans two buffers of
a multi-buffer array) the product is computed in panels: batches one at a time, then
M x N output panels, and, when one row panel of A or column panel of B is still too big,
K panels whose partial products accumulate into C (the epilogue applies on the last).
"""

from __future__ import annotations

from ....._core.shapes import broadcast_shapes
from ...codegen.caps import Caps
from ...codegen.types import wtype
from ...kernels.launch_plan import MAX_PLANS, LaunchPlan, eligible
from ...kernels.nary import joint_collapse
from ...primitives.slabs import MAX_BOX_ELEMS
from ...storage import new_output
from .configs import choose, table_for
from .spec import WIDE, DotSpec, GemmSpec, PieceSumSpec
from ...runtime import caches as _caches
from .....tuning.registry import epoch as _tuning_epoch, get as tuned


def _fits(*views):
    return all(v.size <= MAX_BOX_ELEMS and v.fits_binding() for v in views)


def _epi_views(epilogue):
    return () if epilogue is None else epilogue.views()


def _style(t, client):
    """The db kernels' code style (spec.py GemmSpec.style): "u" the K loop unrolled, "uf"
    also explicit fma(); the GEMM_STYLE knob, "auto": "uf" for float32 operands, "u" for
    the others (H100, 2026-11-26: float32 4096^3 compiled without
    checks 31.2 TFLOP/s "u", 33.2 "uf"; "u" was +19% over the K loop)."""
    style = tuned("GEMM_STYLE", client)
    if style != "auto":
        return style
    return "uf" if t.name == "float32" else "u"


# Launch plans (kernels/launch_plan.py) of products that took one dispatch into a fresh
# output: a repeated product of the same shapes / strides / alignment skips the layers
# below (a small matmul's cost is mostly host time)
_PLANS = {}
_NO_PLAN = object()
_record = None


def gemm(a, b, epilogue=None):
    """Batched ``a @ b`` for a: (..., M, K), b: (..., K, N) strided views of one dtype.

    ``epilogue``: None, or an ext ``EpilogueCall`` (backends/webgpu/ext_kernels.py): a
    fragment spec applied in registers before each store, and the storages / words it
    binds per panel. Not supported with K == 0.
    """
    global _record
    if epilogue is not None:
        return _gemm(a, b, epilogue)
    sig = (a.client.index, a.dtype, a.shape, a.strides, a.offset // a.dtype.itemsize % 8,
           b.shape, b.strides, b.offset // b.dtype.itemsize % 8, _tuning_epoch())
    plan = _PLANS.get(sig, _NO_PLAN)
    if plan is not _NO_PLAN:
        if plan is not None:
            out = plan.run((a, b))
            if out is not None:
                return out
            return _gemm(a, b, None)
        # several dispatches (split-K, panels, a widened output): their recorded recipe
        return a.client.recipes.call(("gemm",) + sig, (a, b), lambda: _gemm(a, b, None))
    _record = []
    try:
        out = _gemm(a, b, None)
        rec = _record
    finally:
        _record = None
    if len(_PLANS) >= MAX_PLANS:
        _PLANS.clear()
    _PLANS[sig] = _plan(a.client, rec, out) if len(rec) == 1 else None
    return out


def _plan(client, rec, out):
    """A LaunchPlan repeating the one recorded GEMM dispatch into a fresh ``out``, or None."""
    k, args, grid, c = rec[0]
    if c is not out or out.offset or out.dtype is not args["A"].dtype:
        return None
    lay = k.layout
    vals = [0] * lay.nwords
    for name, v in args.items():
        if name in ("A", "B", "C"):
            continue
        pos, count = lay._index[name]
        if isinstance(v, (list, tuple)):
            vals[pos:pos + len(v)] = list(v)
        else:
            vals[pos] = v
    pa = lay._index["A_off"][0]
    if lay._index["B_off"][0] != pa + 1 or any(vals[pa + 2:]):
        return None
    pipe = k.pipes["main"]
    nbytes = out.size * out.dtype.itemsize
    if not eligible(client, pipe, out.size, nbytes, MAX_BOX_ELEMS):
        return None
    return LaunchPlan(client, pipe, lay, vals[:pa], 2, grid, out, nbytes)


def _gemm(a, b, epilogue):
    client = a.client
    M, K = a.shape[-2:]
    N = b.shape[-1]
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    dtype = a.dtype
    wide = WIDE.get(dtype, dtype)
    out = new_output(batch + (M, N), wide, client)
    if out.size == 0:
        return out if wide is dtype else out.astype(dtype)
    if K == 0 and epilogue is not None:
        raise ValueError("gemm epilogue with K == 0")
    if K == 0:  # empty sums are zero
        from ...kernels.fill import full
        return full(batch + (M, N), 0, dtype, client)
    t = wtype(dtype, client, "matmul")
    out_t = wtype(wide, client, "matmul")
    ab = a.broadcast_to(batch + (M, K)) if a.shape[:-2] != batch else a
    bb = b.broadcast_to(batch + (K, N)) if b.shape[:-2] != batch else b
    # a batch of one (the linalg kernels' (B, m, n) stacks with B = 1) is a 2-D product:
    # QR's V^H V and Y C (32 rows, K the panel's height) took half of qr 4096 float64 on
    # the H100 in one workgroup per 64 output columns (runtime/profile.py)
    a2, b2 = (_as_2d(ab), _as_2d(bb)) if batch and all(d == 1 for d in batch) else (ab, bb)
    pieces = _split_k(client, t, a2, b2, epilogue)
    if pieces > 1:
        out = _gemm_split_k(client, t, out_t, wide, a2, b2, pieces)
        if batch:
            out = out.reshape(batch + (M, N))
    else:
        _split(client, t, out_t, ab, bb, out, epilogue)
    return out if wide is dtype else out.astype(dtype)


def _as_2d(x):
    """The (M, K) view of a (1, ..., 1, M, K) operand."""
    return x.__class__(x.block, x.offset, x.shape[-2:], x.strides[-2:], x.dtype, x.client)


def _split_k(client, t, a, b, epilogue):
    """How many K pieces a 2-D GEMM with few output tiles and a long K is cut into (1: none).

    A 64 x 16384 @ 16384 x 64 product has one 64 x 64 output tile: one workgroup would walk
    all of K alone while the rest of the GPU idles. Cut K into pieces computed as a batch
    of partial products (every piece its own workgroups), then summed by the reduction
    kernel: more parallelism, and float sums of shorter runs. Real float accumulators only
    (float16 partials would round where one pass accumulates in f32); the epilogue path
    keeps one pass.
    """
    if epilogue is not None or a.ndim != 2 or t.name not in ("float32", "float64"):
        return 1
    M, K = a.shape
    N = b.shape[-1]
    if K < tuned("SPLITK_MIN", client):
        return 1
    cfg = choose(t.val, t.name, M, N, K, Caps.of(client).workgroup_storage,
                 table_for(client))
    tiles = -(-M // cfg.bm) * -(-N // cfg.bn)
    pieces = min(K // tuned("SPLITK_DEPTH", client),
                 -(-tuned("SPLITK_GROUPS", client) // tiles), tuned("SPLITK_PIECES", client))
    if pieces < 4:
        return 1
    return pieces


def _gemm_split_k(client, t, out_t, wide, a, b, pieces):
    """``a @ b`` as ``pieces`` batched partial products over K slices, summed over the batch;
    a remainder of K that does not divide evenly accumulates into the sum afterwards."""
    from ..reduction.plan import run as reduce_run
    M, K = a.shape
    N = b.shape[-1]
    ks = K // pieces
    # K slices as a batch dimension: views, no copies
    av = a.__class__(a.block, a.offset, (pieces, M, ks), (ks * a.strides[1],) + a.strides,
                     a.dtype, a.client)
    bv = b.__class__(b.block, b.offset, (pieces, ks, N), (ks * b.strides[0],) + b.strides,
                     b.dtype, b.client)
    partial = new_output((pieces, M, N), wide, client)
    _split(client, t, out_t, av, bv, partial, None)
    n = M * N
    if out_t.val in ("f32", "f64") and _fits(partial) and n <= client.max_groups * 256 * 64:
        # the pieces summed in order by one small kernel (fewer host layers than a reduction)
        out = new_output((M, N), wide, client)
        groups = -(-n // 256)
        gx = min(groups, client.max_groups)
        client.kernel(PieceSumSpec(out_t)).launch((gx, -(-groups // gx), 1), Parts=partial,
                                                  C=out, n=n, pieces=pieces)
    else:
        out = reduce_run("sum", partial, (0,), wide)
        if out.dtype is not wide:
            out = out.astype(wide)
    rest = K - pieces * ks
    if rest:
        _panels(client, t, out_t, a[:, K - rest:], b[K - rest:], out, None, True)
    return out


def _split(client, t, out_t, a, b, c, epilogue):
    """One launch when every operand fits; else halves of the leading batch dimension
    (each checked again: a half may straddle a buffer boundary), down to single matrices,
    which go to ``_panels``."""
    if _fits(a, b, c, *_epi_views(epilogue)):
        _launch(client, t, out_t, a, b, c, epilogue, False)
    elif c.ndim == 2:
        _panels(client, t, out_t, a, b, c, epilogue)
    elif c.shape[0] == 1:
        _split(client, t, out_t, a[0], b[0], c[0], None if epilogue is None else
               epilogue.sub((0,)))
    else:
        h = (c.shape[0] + 1) // 2
        for key in (slice(0, h), slice(h, c.shape[0])):
            _split(client, t, out_t, a[key], b[key], c[key], None if epilogue is None else
                   epilogue.sub((key,)))


def _launch(client, t, out_t, ab, bb, out, epilogue, accumulate):
    """One dispatch: C (a view, rows contiguous) (+)= A @ B (+ epilogue); a product with
    more row or column tiles than one grid dimension holds (65535) is cut into panels."""
    M = ab.shape[-2]
    N = bb.shape[-1]
    cfg = choose(t.val, t.name, M, N, ab.shape[-1], Caps.of(client).workgroup_storage,
                 table_for(client))
    rows, cols = client.max_groups * cfg.bm, client.max_groups * cfg.bn
    if M > rows or N > cols:
        if epilogue is not None and out.ndim > 2:
            from ....._core.errors import BackendLimitation
            raise BackendLimitation("webgpu", f"gemm_epilogue of {ab.shape} and {bb.shape}",
                                    "batched outputs with more than 65535 tiles per matrix")
        lead = (slice(None),) * (out.ndim - 2)
        for r0 in range(0, M, rows):
            for c0 in range(0, N, cols):
                rs, cs = slice(r0, min(M, r0 + rows)), slice(c0, min(N, c0 + cols))
                e = None if epilogue is None else epilogue.sub((rs, cs))
                _launch_grid(client, t, out_t, ab[lead + (rs, slice(None))],
                             bb[lead + (slice(None), cs)], out[lead + (rs, cs)], e,
                             accumulate, cfg)
        return
    _launch_grid(client, t, out_t, ab, bb, out, epilogue, accumulate, cfg)


def _launch_grid(client, t, out_t, ab, bb, out, epilogue, accumulate, cfg):
    batch = out.shape[:-2]
    M, K = ab.shape[-2:]
    N = bb.shape[-1]
    bshape, (sa, sb) = joint_collapse(batch, [ab.strides[:-2], bb.strides[:-2]])
    nb = 1
    for n in batch:
        nb *= n
    vload = cfg.db and _vec_aligned(ab, bb, K, N, sa, sb)
    vstore = cfg.db and N % 4 == 0 and out.strides[-1] == 1 and \
        out.strides[-2] % 4 == 0 and (not batch or out.strides[-3] % 4 == 0) and \
        out.binding()[3] % 4 == 0
    # db kernels without an epilogue compile without wgpu's runtime checks (GemmSpec.trusted;
    # H100, the GEMM configurations compared in one process: float32 4096^3 0.52-0.54 -> 0.61 of cuBLAS,
    # 16384 x 64 @ 64 x 16384 0.73 -> 0.86)
    spec = GemmSpec(t, out_t, len(bshape), cfg,
                    None if epilogue is None else epilogue.spec, accumulate, vload, vstore,
                    _style(t, client) if cfg.db else "", cfg.db and epilogue is None,
                    epilogue is not None and tuned("GEMM_EPI_LOOP", client))
    k = client.kernel(spec)
    words = []
    for d in range(len(bshape)):
        words += [bshape[d], sa[d], sb[d]]
    # C's batch dims are those of a contiguous output (or a slice of its first dim):
    # flattened batch bi starts at bi * (M * N)
    c_bs = out.strides[-3] if batch else 0
    args = dict(A=ab, B=bb, C=out, M=M, N=N, K=K, nb=nb, a_rs=ab.strides[-2],
                a_cs=ab.strides[-1], b_rs=bb.strides[-2], b_cs=bb.strides[-1],
                c_rs=out.strides[-2], c_bs=c_bs, batch=words or [0])
    if epilogue is not None:
        args.update(epilogue.args())
    grid = (-(-N // cfg.bn), -(-M // cfg.bm), max(1, min(nb, client.max_groups)))
    if _record is not None:
        _record.append((k, dict(args), grid, out))
    k.launch(grid, **args)


def _vec_aligned(a, b, K, N, sa, sb):
    """Whether A and B can be read 4 elements at a time: rows contiguous, every row start
    (offsets, row and batch strides) a multiple of 4 elements, K and N multiples of 4."""
    if a.strides[-1] != 1 or b.strides[-1] != 1 or K % 4 or N % 4:
        return False
    if a.shape[-2] > 1 and a.strides[-2] % 4 or b.strides[-2] % 4:
        return False
    if any(s % 4 for s in sa) or any(s % 4 for s in sb):
        return False
    return a.binding()[3] % 4 == 0 and b.binding()[3] % 4 == 0


def _panels(client, t, out_t, a, b, c, epilogue, accumulate=False):
    """2-D ``c (+)= a @ b`` (+ epilogue) beyond one binding: halve M, N or K (K halves
    accumulate; the epilogue applies to the second) until every operand fits; each piece
    is checked again, so pieces straddling a buffer boundary are split too."""
    if _fits(a, b, c, *_epi_views(epilogue)):
        _launch(client, t, out_t, a, b, c, epilogue, accumulate)
        return
    M, K = a.shape
    N = b.shape[1]
    # split the GEMM dimension that is the outer (largest-stride) axis of the first operand
    # that does not fit: cutting it shrinks that operand's window
    dim = None
    operands = [(c, "MN"), (a, "MK"), (b, "KN")]
    if epilogue is not None:  # the residual is (M, N); the bias (N,): a column range
        operands += [(v, "MN" if v.ndim == 2 else "N") for v in epilogue.views()]
    for v, dims in operands:
        if not _fits(v):
            if v.ndim == 1:
                dim = "N"
                break
            axes = [i for i in (0, 1) if v.shape[i] > 1]
            if axes:
                dim = dims[max(axes, key=lambda i: abs(v.strides[i]))]
                break
    if dim == "M":
        h = _half(M)
        for rows in (slice(0, h), slice(h, M)):
            e = None if epilogue is None else epilogue.sub((rows, slice(None)))
            _panels(client, t, out_t, a[rows], b, c[rows], e, accumulate)
    elif dim == "N":
        h = _half(N)
        for cols in (slice(0, h), slice(h, N)):
            e = None if epilogue is None else epilogue.sub((slice(None), cols))
            _panels(client, t, out_t, a, b[:, cols], c[:, cols], e, accumulate)
    elif dim == "K":
        h = _half(K)
        _panels(client, t, out_t, a[:, :h], b[:h], c, None, accumulate)
        _panels(client, t, out_t, a[:, h:], b[h:], c, epilogue, True)
    else:
        from ....._core.errors import BackendLimitation
        raise BackendLimitation("webgpu", f"matmul of {a.shape} and {b.shape}",
                                "one element does not fit a storage binding")


def _half(n):
    """About half of ``n``, kept a multiple of 128 (a whole number of tiles) when large."""
    h = (n + 1) // 2
    return h - h % 128 if h > 256 else h


def fits_rowdot(a, b):
    """Whether ``rowdot`` can take the views in one launch (else compose, see mixin.py)."""
    return _fits(a, b) and a.size // max(a.shape[-1], 1) <= MAX_BOX_ELEMS


def rowdot(a, b):
    """sum over the last axis of conj(a) * b; a and b: views of one shape and dtype that
    fit one binding (``fits_rowdot``)."""
    client = a.client
    dtype = a.dtype
    wide_dt = WIDE.get(dtype, dtype)
    K = a.shape[-1]
    batch = a.shape[:-1]
    out = new_output(batch, wide_dt, client)
    R = out.size
    if R and K:
        t = wtype(dtype, client, "vecdot")
        out_t = wtype(wide_dt, client, "vecdot")
        bshape, (sa, sb) = joint_collapse(batch, [a.strides[:-1], b.strides[:-1]])
        wide = K > 64
        k = client.kernel(DotSpec(t, out_t, len(bshape), wide))
        words = []
        for d in range(len(bshape)):
            words += [bshape[d], sa[d], sb[d]]
        groups = R if wide else -(-R // 256)
        gx = min(groups, client.max_groups)
        gy = min(-(-groups // gx), client.max_groups)
        k.launch((gx, gy, 1), A=a, B=b, C=out, nb=R, K=K, a_cs=a.strides[-1],
                 b_cs=b.strides[-1], batch=words or [0])
    elif R:
        from ...kernels.fill import full
        return full(batch, 0, dtype, client)
    return out if wide_dt is dtype else out.astype(dtype)


_caches.register("ops.matmul.gemm _PLANS", _PLANS.clear)
