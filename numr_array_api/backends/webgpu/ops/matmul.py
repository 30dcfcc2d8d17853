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
vecdot = batched [..., 1, K] x [..., K, 1] matmul, with conj(a) first for complex.
"""

from ...._core import dtypes as dt
from ...._core.shapes import broadcast_shapes
from ..codegen.render import Params
from ..codegen.types import load, render_helpers, wtype
from ..storage import WgpuStorage
from ._nary import joint_collapse

TM = TN = 4          # register block per thread
WGX = WGY = 16       # threads per workgroup (x: columns, y: rows)
BM, BN = WGY * TM, WGX * TN
PAD = 1

# 4-byte compute dtype of sub-word operands (the result is narrowed afterwards)
_WIDE = {dt.int8: dt.int32, dt.int16: dt.int32, dt.uint8: dt.uint32, dt.uint16: dt.uint32,
         dt.float16: dt.float32, dt.bool_: dt.uint32}


def _zero(v):
    return {"f32": "0.0f", "f64": "0.0lf", "i32": "0i", "u32": "0u", "i64": "0li",
            "u64": "0lu", "vec2<f32>": "vec2<f32>(0.0f)", "vec2<f64>": "vec2<f64>(0.0lf)"}[v]


def _render(client, t, out_t, brank, params):
    P = params.P
    helpers = set()
    V = t.val
    bk = 8 if out_t.itemsize > 8 else 16
    la = load(t, "A", "ia", helpers)
    lb = load(t, "B", "ib", helpers)
    if V.startswith("vec2"):
        mac = "acc[{r}] += vec2(a{i}.x * b{j}.x - a{i}.y * b{j}.y, a{i}.x * b{j}.y + a{i}.y * b{j}.x);"
    else:
        mac = "acc[{r}] += a{i} * b{j};"
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
    per = BM * bk // (WGX * WGY)
    loads = []
    for i in range(per):
        loads.append(f"""      {{
        let e = tid + {i * WGX * WGY}u;
        let am = e / {bk}u; let ak = e % {bk}u;
        let gm = row0 + am; let gk = k0 + ak;
        var v = {_zero(V)};
        if (gm < M && gk < K) {{ let ia = o.x + gm * {P(5)} + gk * {P(6)}; v = {la}; }}
        As[ak * {BM + PAD}u + am] = v;
        let bkk = e / {BN}u; let bn = e % {BN}u;
        let gk2 = k0 + bkk; let gn = col0 + bn;
        var w = {_zero(V)};
        if (gk2 < K && gn < N) {{ let ib = o.y + gk2 * {P(8)} + gn * {P(9)}; w = {lb}; }}
        Bs[bkk * {BN + PAD}u + bn] = w;
      }}""")
    inner = []
    for i in range(TM):
        inner.append(f"        let a{i} = As[kk * {BM + PAD}u + ly + {16 * i}u];")
    for j in range(TN):
        inner.append(f"        let b{j} = Bs[kk * {BN + PAD}u + lx + {16 * j}u];")
    for i in range(TM):
        for j in range(TN):
            inner.append("        " + mac.format(r=i * TN + j, i=i, j=j))
    stores = []
    for i in range(TM):
        for j in range(TN):
            stores.append(f"    {{ let r = row0 + ly + {16 * i}u; let c = col0 + lx + {16 * j}u;"
                          f" if (r < M && c < N) {{ C[cb + r * N + c] = acc[{i * TN + j}]; }} }}")
    nl = "\n"
    src = f"""{render_helpers(helpers, client.has("shader-int64"))}
{params.decl()}
@group(0) @binding(0) var<storage, read> A: array<{t.arr}>;
@group(0) @binding(1) var<storage, read> B: array<{t.arr}>;
@group(0) @binding(2) var<storage, read_write> C: array<{out_t.arr}>;
var<workgroup> As: array<{V}, {bk * (BM + PAD)}>;
var<workgroup> Bs: array<{V}, {bk * (BN + PAD)}>;
fn batch_off(bi: u32) -> vec2<u32> {{
{nl.join(boff)}
}}
@compute @workgroup_size({WGX}, {WGY})
fn main(@builtin(local_invocation_id) l: vec3<u32>, @builtin(workgroup_id) wg: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let M = {P(0)}; let N = {P(1)}; let K = {P(2)}; let nb = {P(3)};
  let lx = l.x; let ly = l.y;
  let tid = ly * {WGX}u + lx;
  let row0 = wg.y * {BM}u; let col0 = wg.x * {BN}u;
  for (var bi = wg.z; bi < nb; bi += nw.z) {{
    let o = batch_off(bi);
    var acc: array<{V}, {TM * TN}>;
    for (var q = 0u; q < {TM * TN}u; q++) {{ acc[q] = {_zero(V)}; }}
    for (var k0 = 0u; k0 < K; k0 += {bk}u) {{
{nl.join(loads)}
      workgroupBarrier();
      for (var kk = 0u; kk < {bk}u; kk++) {{
{nl.join(inner)}
      }}
      workgroupBarrier();
    }}
    let cb = bi * M * N;
{nl.join(stores)}
  }}
}}
"""
    return {"source": src, "entry": "main", "bindings": params.layout(("read", "read", "rw")),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": f"gemm_{t.name}_b{brank}"}


def gemm(a, b):
    """Batched a @ b for a: (..., M, K), b: (..., K, N) strided views of one dtype."""
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
    if K == 0:  # empty sums are zero
        from ..kernels.fill import full
        return full(batch + (M, N), 0, dtype, client)
    t = wtype(dtype, client, "matmul")
    out_t = wtype(wide, client, "matmul")
    ab = a.broadcast_to(batch + (M, K)) if a.shape[:-2] != batch else a
    bb = b.broadcast_to(batch + (K, N)) if b.shape[:-2] != batch else b
    bshape, (sa, sb) = joint_collapse(batch, [ab.strides[:-2], bb.strides[:-2]])
    brank = len(bshape)
    params = Params.of(client, 10 + 3 * brank, binding=3)
    pipe = client.pipelines.get_rendered(
        ("gemm", t.name, out_t.name, brank, params.immediate),
        lambda: _render(client, t, out_t, brank, params))
    blk_a, oa_b, sa_b, eoa = ab.binding()
    blk_b, ob_b, sb_b, eob = bb.binding()
    words = [M, N, K, nb, eoa, ab.strides[-2], ab.strides[-1], eob, bb.strides[-2],
             bb.strides[-1]]
    for d in range(brank):
        words += [bshape[d], sa[d], sb[d]]
    grid = (-(-N // BN), -(-M // BM), max(1, min(nb, client.max_groups)))
    client.launch(pipe, [(blk_a, oa_b, sa_b), (blk_b, ob_b, sb_b), out.out_binding()],
                  params.pack(words), grid)
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
        if a.dtype.kind == "c":
            a = self.unary_kernel("conj")(a)
        shape = broadcast_shapes(a.shape, b.shape)
        a, b = a.broadcast_to(shape), b.broadcast_to(shape)
        nd = len(shape)
        axis = axis % nd
        order = [d for d in range(nd) if d != axis] + [axis]
        pa, pb = a.permute(order), b.permute(order)
        r = gemm(pa.expand_dims(nd - 1), pb.expand_dims(nd))  # [...,1,K] x [...,K,1]
        return r.squeeze((nd - 1, nd))


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
