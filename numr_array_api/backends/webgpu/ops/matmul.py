"""matmul / tensordot / vecdot on the GPU: one templated tiled GEMM kernel.

Kernel: a 16x16 workgroup computes a 64x64 output tile, each thread a 4x4 register block
(rows ``ly + 16 i``, columns ``lx + 16 j``: interleaved so stores and shared reads stay
contiguous across a warp). K advances in shared-memory tiles of BK (16, or 8 for 16-byte
types so two tiles fit 32 KiB of workgroup memory); tiles are padded by one element per row.
Operands are read through their own (row, column, batch) strides, so transposed, flipped
and broadcast (batch stride 0) views feed the kernel without a copy; batches beyond the
z-dimension limit are a grid-stride loop. The accumulator is the operand's WGSL value type:
f32 (also for float16), f64, wrapping i32/u32 (also for 8/16-bit ints) and i64/u64, vec2 for
complex. Sub-word results are computed into a 4-byte array and narrowed by one cast (the
narrowing wraps like NumPy's integer arithmetic; float16 rounds once from the f32 sum).

tensordot = permute/reshape views + matmul (a copy only when a reshape needs contiguity);
vecdot = a row-dot kernel (one thread per row, or a workgroup per long row) that conjugates a.
"""

from ...._core import dtypes as dt
from ...._core.shapes import broadcast_shapes
from ..codegen.render import Params
from ..codegen.types import load, render_helpers, wtype
from ..storage import WgpuStorage
from ..kernels.nary import joint_collapse

WGX = WGY = 16       # threads per workgroup (x: columns, y: rows)


class _Cfg:
    """Tile shape: each thread owns a TM x TN register block (rows ly*TM + i, columns
    lx*TN + j); K advances BK at a time through shared tiles. ``vec``: f32 only, shared
    tiles are vec4 rows so each thread reads its TM (TN) values in TM/4 (TN/4) loads and
    accumulates TN/4 vec4 per row."""

    def __init__(self, tm, tn, bk, vec):
        self.tm, self.tn, self.bk, self.vec = tm, tn, bk, vec
        self.bm, self.bn = WGY * tm, WGX * tn
        self.key = (tm, tn, bk, vec)


def _config(t, M, N):
    if t.val == "f32" and t.name == "float32":
        if M >= 128 and N >= 128:
            return _Cfg(8, 8, 8, True)   # 128x128 tiles: 64 FMAs per 4 vec4 shared loads
        return _Cfg(4, 4, 16, True)
    # 16-byte accumulators: two tiles must fit 32 KiB of workgroup memory
    return _Cfg(4, 4, 8 if t.val == "vec2<f64>" else 16, False)


# 4-byte compute dtype of sub-word operands (the result is narrowed afterwards)
_WIDE = {dt.int8: dt.int32, dt.int16: dt.int32, dt.uint8: dt.uint32, dt.uint16: dt.uint32,
         dt.float16: dt.float32, dt.bool_: dt.uint32}


def _zero(v):
    return {"f32": "0.0f", "f64": "0.0lf", "i32": "0i", "u32": "0u", "i64": "0li",
            "u64": "0lu", "vec2<f32>": "vec2<f32>(0.0f)", "vec2<f64>": "vec2<f64>(0.0lf)",
            "vec4<f32>": "vec4<f32>(0.0f)"}[v]


def _batch_fn(P, brank):
    # params: M N K nb | a_off a_rs a_cs | b_off b_rs b_cs | per batch dim: n, sa, sb
    boff = ["  var r = bi;", f"  var oa = {P(4)};", f"  var ob = {P(7)};"]
    for d in reversed(range(brank)):
        n, sa, sb = P(10 + 3 * d), P(11 + 3 * d), P(12 + 3 * d)
        if d == 0:
            boff.append(f"  oa += r * {sa}; ob += r * {sb};")
        else:  # unsigned division only: signed % is miscompiled on some drivers
            boff.append(f"  let q{d} = r / {n}; let c{d} = r - q{d} * {n}; r = q{d};")
            boff.append(f"  oa += c{d} * {sa}; ob += c{d} * {sb};")
    boff.append("  return vec2<u32>(oa, ob);")
    return "fn batch_off(bi: u32) -> vec2<u32> {\n" + "\n".join(boff) + "\n}"


def _render(client, t, out_t, brank, cfg, params, epilogue=None):
    P = params.P
    helpers = set()
    # epilogue hook: a WGSL function ``epilogue(x, row, col, bi) -> t.val`` applied to each
    # accumulator in registers right before its single store (bindings 3.., params after
    # the GEMM's own words); None: plain matmul (source unchanged)
    epi_src = "" if epilogue is None else epilogue.render(P, 10 + 3 * brank, t, helpers, 3)

    def fin(v, r, c):
        return v if epilogue is None else f"epilogue({v}, {r}, {c}, bi)"
    V = t.val
    tm, tn, bk, bm, bn = cfg.tm, cfg.tn, cfg.bk, cfg.bm, cfg.bn
    la = load(t, "A", "ia", helpers)
    lb = load(t, "B", "ib", helpers)
    # shared tiles: As[k][m], Bs[k][n]; scalar tiles get one padding element per row
    if cfg.vec:
        sa_t, sa_row, sb_row = "vec4<f32>", bm // 4, bn // 4
        a_put = f"As[ak * {sa_row}u + am / 4u][am % 4u] = v;"
        b_put = f"Bs[bkk * {sb_row}u + bnn / 4u][bnn % 4u] = w;"
    else:
        sa_t, sa_row, sb_row = V, bm + 1, bn + 1
        a_put = f"As[ak * {sa_row}u + am] = v;"
        b_put = f"Bs[bkk * {sb_row}u + bnn] = w;"
    nthr = WGX * WGY
    loads = []
    for i in range(bm * bk // nthr):
        loads.append(f"""      {{
        let e = tid + {i * nthr}u;
        let am = e / {bk}u; let ak = e % {bk}u;
        let gm = row0 + am; let gk = k0 + ak;
        var v = {_zero(V)};
        if (gm < M && gk < K) {{ let ia = o.x + gm * {P(5)} + gk * {P(6)}; v = {la}; }}
        {a_put}
      }}""")
    for i in range(bn * bk // nthr):
        loads.append(f"""      {{
        let e = tid + {i * nthr}u;
        let bkk = e / {bn}u; let bnn = e % {bn}u;
        let gk = k0 + bkk; let gn = col0 + bnn;
        var w = {_zero(V)};
        if (gk < K && gn < N) {{ let ib = o.y + gk * {P(8)} + gn * {P(9)}; w = {lb}; }}
        {b_put}
      }}""")
    inner, decl, stores = [], [], []
    if cfg.vec:
        for i in range(tm // 4):
            inner.append(f"        let a{i} = As[kk * {sa_row}u + ly * {tm // 4}u + {i}u];")
        for j in range(tn // 4):
            inner.append(f"        let b{j} = Bs[kk * {sb_row}u + lx * {tn // 4}u + {j}u];")
        for i in range(tm):
            for j in range(tn // 4):
                decl.append(f"    var c{i}_{j} = vec4<f32>(0.0f);")
                inner.append(f"        c{i}_{j} += a{i // 4}[{i % 4}] * b{j};")
                for q in range(4):
                    stores.append(f"    if (r{i} < M && cc + {4 * j + q}u < N) "
                                  f"{{ C[cb + r{i} * N + cc + {4 * j + q}u] = "
                                  f"{fin(f'c{i}_{j}[{q}]', f'r{i}', f'cc + {4 * j + q}u')}; }}")
    else:
        for i in range(tm):
            inner.append(f"        let a{i} = As[kk * {sa_row}u + ly * {tm}u + {i}u];")
        for j in range(tn):
            inner.append(f"        let b{j} = Bs[kk * {sb_row}u + lx * {tn}u + {j}u];")
        for i in range(tm):
            for j in range(tn):
                decl.append(f"    var c{i}_{j} = {_zero(V)};")
                if V.startswith("vec2"):
                    inner.append(f"        c{i}_{j} += vec2(a{i}.x * b{j}.x - a{i}.y * b{j}.y, "
                                 f"a{i}.x * b{j}.y + a{i}.y * b{j}.x);")
                else:
                    inner.append(f"        c{i}_{j} += a{i} * b{j};")
                stores.append(f"    if (r{i} < M && cc + {j}u < N) "
                              f"{{ C[cb + r{i} * N + cc + {j}u] = "
                              f"{fin(f'c{i}_{j}', f'r{i}', f'cc + {j}u')}; }}")
    rows = [f"    let r{i} = row0 + ly * {tm}u + {i}u;" for i in range(tm)]
    nl = "\n"
    src = f"""{render_helpers(helpers, client.has("shader-int64"))}
{params.decl()}
@group(0) @binding(0) var<storage, read> A: array<{t.arr}>;
@group(0) @binding(1) var<storage, read> B: array<{t.arr}>;
@group(0) @binding(2) var<storage, read_write> C: array<{out_t.arr}>;
var<workgroup> As: array<{sa_t}, {bk * sa_row}>;
var<workgroup> Bs: array<{sa_t}, {bk * sb_row}>;
{_batch_fn(P, brank)}
{epi_src}
@compute @workgroup_size({WGX}, {WGY})
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let M = {P(0)}; let N = {P(1)}; let K = {P(2)}; let nb = {P(3)};
  let lx = l.x; let ly = l.y;
  let tid = ly * {WGX}u + lx;
  let row0 = wg.y * {bm}u; let col0 = wg.x * {bn}u;
  for (var bi = wg.z; bi < nb; bi += nw.z) {{
    let o = batch_off(bi);
{nl.join(decl)}
    for (var k0 = 0u; k0 < K; k0 += {bk}u) {{
{nl.join(loads)}
      workgroupBarrier();
      for (var kk = 0u; kk < {bk}u; kk++) {{
{nl.join(inner)}
      }}
      workgroupBarrier();
    }}
    let cb = bi * M * N;
    let cc = col0 + lx * {tn}u;
{nl.join(rows)}
{nl.join(stores)}
  }}
}}
"""
    rw = ("read", "read", "rw") + ("read",) * (0 if epilogue is None else epilogue.nbuf)
    return {"source": src, "entry": "main", "bindings": params.layout(rw),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": f"gemm_{t.name}_b{brank}_{tm}x{tn}"
                     + ("" if epilogue is None else "_epi")}


def gemm(a, b, epilogue=None):
    """Batched a @ b for a: (..., M, K), b: (..., K, N) strided views of one dtype.

    ``epilogue``: None, or an object applied in registers before the store (the ext
    fused GEMM epilogues, backends/webgpu/ext_kernels.py) with ``key`` (hashable, part of
    the pipeline key), ``nbuf`` (extra read buffers, bound at 3..), ``render(P, first_word,
    t, helpers, first_binding)`` -> WGSL defining ``fn epilogue(x, row, col, bi)``, and
    ``prepare(batch, M, N)`` -> (bindings, words) per call. Not supported with K == 0.
    """
    client = a.client
    M, K = a.shape[-2:]
    N = b.shape[-1]
    batch = broadcast_shapes(a.shape[:-2], b.shape[:-2])
    dtype = a.dtype
    wide = _WIDE.get(dtype, dtype)
    out = WgpuStorage._new(batch + (M, N), wide, client)
    nb = out.size // max(M * N, 1) if M * N else 0
    if out.size == 0:
        return out if wide is dtype else out.astype(dtype)
    if K == 0 and epilogue is not None:
        raise ValueError("gemm epilogue with K == 0")
    if K == 0:  # empty sums are zero
        from ..kernels.fill import full
        return full(batch + (M, N), 0, dtype, client)
    t = wtype(dtype, client, "matmul")
    out_t = wtype(wide, client, "matmul")
    ab = a.broadcast_to(batch + (M, K)) if a.shape[:-2] != batch else a
    bb = b.broadcast_to(batch + (K, N)) if b.shape[:-2] != batch else b
    bshape, (sa, sb) = joint_collapse(batch, [ab.strides[:-2], bb.strides[:-2]])
    brank = len(bshape)
    cfg = _config(t, M, N)
    if epilogue is None:
        params = Params.of(client, 10 + 3 * brank, binding=3)
        pkey = ("gemm", t.name, out_t.name, brank, cfg.key, params.immediate)
        extra_bind, extra_words = [], []
    else:
        extra_bind, extra_words = epilogue.prepare(batch, M, N)
        params = Params.of(client, 10 + 3 * brank + len(extra_words), binding=3 + epilogue.nbuf)
        pkey = ("gemm", t.name, out_t.name, brank, cfg.key, params.immediate, epilogue.key)
    pipe = client.pipelines.get_rendered(
        pkey, lambda: _render(client, t, out_t, brank, cfg, params, epilogue))
    blk_a, oa_b, sa_b, eoa = ab.binding()
    blk_b, ob_b, sb_b, eob = bb.binding()
    words = [M, N, K, nb, eoa, ab.strides[-2], ab.strides[-1], eob, bb.strides[-2],
             bb.strides[-1]]
    for d in range(brank):
        words += [bshape[d], sa[d], sb[d]]
    grid = (-(-N // cfg.bn), -(-M // cfg.bm), max(1, min(nb, client.max_groups)))
    client.launch(pipe, [(blk_a, oa_b, sa_b), (blk_b, ob_b, sb_b), out.out_binding()]
                  + extra_bind, params.pack(words + extra_words), grid)
    return out if wide is dtype else out.astype(dtype)


class MatmulMixin:
    def matmul(self, a, b):
        if a.dtype is not b.dtype:
            from ...._core.promotion import promote
            t = promote(a.dtype, b.dtype)
            a, b = self.astype(a, t), self.astype(b, t)
        va = a.expand_dims(0) if a.ndim == 1 else a      # (K,) -> (1, K)
        vb = b.expand_dims(1) if b.ndim == 1 else b      # (K,) -> (K, 1)
        r = gemm(va, vb)
        if a.ndim == 1:
            r = r.squeeze(r.ndim - 2)
        if b.ndim == 1:
            r = r.squeeze(r.ndim - 1)
        return r

    def tensordot(self, a, b, axes):
        if isinstance(axes, int):
            ax_a = tuple(range(a.ndim - axes, a.ndim))
            ax_b = tuple(range(axes))
        else:
            ax_a = tuple(x % a.ndim if a.ndim else x for x in axes[0])
            ax_b = tuple(x % b.ndim if b.ndim else x for x in axes[1])
        free_a = [d for d in range(a.ndim) if d not in ax_a]
        free_b = [d for d in range(b.ndim) if d not in ax_b]
        # contracted dims may broadcast (size 1 against n): bring both to the larger
        kshape = tuple(max(a.shape[i], b.shape[j]) for i, j in zip(ax_a, ax_b))
        pa = a.permute(free_a + list(ax_a))
        pb = b.permute(list(ax_b) + free_b)
        fa = tuple(a.shape[d] for d in free_a)
        fb = tuple(b.shape[d] for d in free_b)
        pa = pa.broadcast_to(fa + kshape)
        pb = pb.broadcast_to(kshape + fb)
        k = 1
        for n in kshape:
            k *= n
        ma = pa.reshape((_prod(fa), k)) if not _viewable2(pa, len(fa)) else _as2(pa, len(fa))
        mb = pb.reshape((k, _prod(fb))) if not _viewable2(pb, len(kshape)) else \
            _as2(pb, len(kshape))
        if ma.dtype is not mb.dtype:
            from ...._core.promotion import promote
            t = promote(ma.dtype, mb.dtype)
            ma, mb = self.astype(ma, t), self.astype(mb, t)
        return gemm(ma, mb).reshape(fa + fb)

    def vecdot(self, a, b, axis):
        if a.dtype is not b.dtype:
            from ...._core.promotion import promote
            t = promote(a.dtype, b.dtype)
            a, b = self.astype(a, t), self.astype(b, t)
        shape = broadcast_shapes(a.shape, b.shape)
        a, b = a.broadcast_to(shape), b.broadcast_to(shape)
        nd = len(shape)
        axis = axis % nd
        order = [d for d in range(nd) if d != axis] + [axis]
        return rowdot(a.permute(order), b.permute(order))


def _render_dot(client, t, out_t, brank, wide, params):
    """out[r] = sum_k conj(a[r, k]) * b[r, k]: one thread per row (``wide`` False) or one
    64-thread workgroup per row with a shared-memory tree sum (long rows)."""
    P = params.P
    helpers = set()
    V = t.val
    la = load(t, "A", "ia", helpers)
    lb = load(t, "B", "ib", helpers)
    if V.startswith("vec2"):
        mac = "s += vec2(x.x * y.x + x.y * y.y, x.x * y.y - x.y * y.x);"  # conj(x) * y
    else:
        mac = "s += x * y;"
    step = "64u" if wide else "1u"
    first = "l.x" if wide else "0u"
    loop = f"""    var s = {_zero(V)};
    for (var k = {first}; k < K; k += {step}) {{
      let ia = o.x + k * {P(6)}; let ib = o.y + k * {P(8)};
      let x = {la}; let y = {lb};
      {mac}
    }}"""
    if wide:
        body = f"""  for (var r = wg.x + wg.y * nw.x; r < R; r += nw.x * nw.y) {{
    let o = batch_off(r);
{loop}
    sh[l.x] = s;
    workgroupBarrier();
    for (var d = 32u; d > 0u; d >>= 1u) {{
      if (l.x < d) {{ sh[l.x] += sh[l.x + d]; }}
      workgroupBarrier();
    }}
    if (l.x == 0u) {{ C[r] = sh[0]; }}
    workgroupBarrier();
  }}"""
        wgsize, shared = 64, f"var<workgroup> sh: array<{V}, 64>;"
    else:
        body = f"""  let stride = nw.x * nw.y * 256u;
  for (var r = (wg.x + wg.y * nw.x) * 256u + l.x; r < R; r += stride) {{
    let o = batch_off(r);
{loop}
    C[r] = s;
  }}"""
        wgsize, shared = 256, ""
    src = f"""{render_helpers(helpers, client.has("shader-int64"))}
{params.decl()}
@group(0) @binding(0) var<storage, read> A: array<{t.arr}>;
@group(0) @binding(1) var<storage, read> B: array<{t.arr}>;
@group(0) @binding(2) var<storage, read_write> C: array<{out_t.arr}>;
{shared}
{_batch_fn(P, brank)}
@compute @workgroup_size({wgsize})
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let R = {P(3)}; let K = {P(2)};
{body}
}}
"""
    return {"source": src, "entry": "main", "bindings": params.layout(("read", "read", "rw")),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": f"dot_{t.name}_b{brank}_{'wg' if wide else 'th'}"}


def rowdot(a, b):
    """sum over the last axis of conj(a) * b; a and b: views of one shape and dtype."""
    client = a.client
    dtype = a.dtype
    wide_dt = _WIDE.get(dtype, dtype)
    K = a.shape[-1]
    batch = a.shape[:-1]
    out = WgpuStorage._new(batch, wide_dt, client)
    R = out.size
    if R and K:
        t = wtype(dtype, client, "vecdot")
        out_t = wtype(wide_dt, client, "vecdot")
        bshape, (sa, sb) = joint_collapse(batch, [a.strides[:-1], b.strides[:-1]])
        brank = len(bshape)
        wide = K > 64
        params = Params.of(client, 10 + 3 * brank, binding=3)
        pipe = client.pipelines.get_rendered(
            ("vecdot", t.name, out_t.name, brank, wide, params.immediate),
            lambda: _render_dot(client, t, out_t, brank, wide, params))
        blk_a, oa_b, sa_b, eoa = a.binding()
        blk_b, ob_b, sb_b, eob = b.binding()
        words = [0, 0, K, R, eoa, 0, a.strides[-1], eob, b.strides[-1], 0]
        for d in range(brank):
            words += [bshape[d], sa[d], sb[d]]
        groups = R if wide else -(-R // 256)
        gx = min(groups, client.max_groups)
        gy = min(-(-groups // gx), client.max_groups)
        client.launch(pipe, [(blk_a, oa_b, sa_b), (blk_b, ob_b, sb_b), out.out_binding()],
                      params.pack(words), (gx, gy, 1))
    elif R:
        from ..kernels.fill import full
        return full(batch, 0, dtype, client)
    return out if wide_dt is dtype else out.astype(dtype)


def _prod(s):
    p = 1
    for n in s:
        p *= n
    return p


def _viewable2(x, split):
    """Can x be seen as 2-D (prod(shape[:split]), prod(shape[split:])) without a copy?"""
    from ..codegen.render import collapse
    for part in (slice(0, split), slice(split, None)):
        shp, st = collapse(x.shape[part], x.strides[part])
        if len(shp) > 1:
            return False
    return True


def _as2(x, split):
    from ..codegen.render import collapse
    dims = []
    for part in (slice(0, split), slice(split, None)):
        shp, st = collapse(x.shape[part], x.strides[part])
        n = _prod(x.shape[part])
        dims.append((n, st[0] if st else 0))
    return x._view((dims[0][0], dims[1][0]), (dims[0][1], dims[1][1]))
