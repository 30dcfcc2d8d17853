"""Reductions on the GPU: sum, prod, max, min, mean, all, any, var/std, argmax/argmin,
count_nonzero, sum_all (cumulative sums / products: ops/cumulative.py).

One templated segmented reduction kernel. The reduced axes are moved last through a strided
view (a permute, no copy); one workgroup reduces one output element: every thread
accumulates a strided subset of the reduced extent in the accumulator type, then a
workgroup-shared tree combines the partials (pairwise-like summation: good float accuracy).
Workgroups cover the outputs on a 2D grid, so no forward progress between workgroups is
needed. Accumulators: the front-end's accumulator dtype (ints wrap in it), float16 in f32,
complex as vec2, bool as u32 0/1. max/min propagate NaN with explicit bit tests (WGSL
min/max are undefined on NaN); argmax/argmin keep the FIRST index of the extreme (the first
NaN, like NumPy). var/std are two-pass inside the workgroup (the mean, then the sum of
squared deviations). Results are written unpacked (a 4- or 8-byte type) and cast to packed
dtypes (bool, int8, float16, ...) afterwards, so no two workgroups share an output word.
"""

import math
import struct

import numpy as np

from ...._core import dtypes as dt
from ..codegen.render import Params, collapse, strided_index_fn
from ..codegen.types import WTYPES, convert, load, render_helpers
from ..kernels.cast import cast
from ..kernels.fill import full
from ..storage import WgpuStorage
from .host_fallback import _make

# host round trips kept for adapters lacking a needed feature (they warn)
_HOST = {n: _make(n) for n in ("reduce", "var", "argmax", "argmin", "count_nonzero")}

# dtype of the unpacked buffer a kernel writes for each WGSL value type
_VAL_DTYPE = {"i32": dt.int32, "u32": dt.uint32, "f32": dt.float32, "i64": dt.int64,
              "u64": dt.uint64, "f64": dt.float64, "vec2<f32>": dt.complex64,
              "vec2<f64>": dt.complex128, "bool": dt.uint32}

_ZERO = {"i32": "0i", "u32": "0u", "i64": "0li", "u64": "0lu", "f32": "0.0f", "f64": "0.0lf",
         "vec2<f32>": "vec2<f32>(0.0f)", "vec2<f64>": "vec2<f64>(0.0lf)"}
_ONE = {"i32": "1i", "u32": "1u", "i64": "1li", "u64": "1lu", "f32": "1.0f", "f64": "1.0lf",
        "vec2<f32>": "vec2<f32>(1.0f, 0.0f)", "vec2<f64>": "vec2<f64>(1.0lf, 0.0lf)"}
# lowest / highest values (identities of max / min)
_LOW = {"i32": "bitcast<i32>(0x80000000u)", "u32": "0u",
        "i64": "bitcast<i64>(0x8000000000000000lu)", "u64": "0lu",
        "f32": "bitcast<f32>(0xff800000u)", "f64": "bitcast<f64>(0xfff0000000000000lu)"}
_HIGH = {"i32": "bitcast<i32>(0x7fffffffu)", "u32": "0xffffffffu",
         "i64": "bitcast<i64>(0x7ffffffffffffffflu)", "u64": "0xfffffffffffffffflu",
         "f32": "bitcast<f32>(0x7f800000u)", "f64": "bitcast<f64>(0x7ff0000000000000lu)"}

_INF = {"f32": "bitcast<f32>(0x7f800000u)", "f64": "bitcast<f64>(0x7ff0000000000000lu)"}
_QNAN = {"f32": "bitcast<f32>(0x7fc00000u)", "f64": "bitcast<f64>(0x7ff8000000000000lu)"}

_NAN_FNS = """
fn isnan_f32(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn isnan_f64(x: f64) -> bool {
  return (bitcast<u64>(x) & 0x7ffffffffffffffflu) > 0x7ff0000000000000lu;
}
"""


def _acc_type(dtype):
    """WType whose ``val`` is the accumulator of ``dtype`` (float16 -> f32)."""
    if dtype is dt.float16:
        return WTYPES[dt.float32]
    return WTYPES[dtype]


def _wg_size(m):
    return 256 if m >= 512 else 32


def _render(op, in_t, acc_t, wg, ro, rr, params, has64):
    """op: sum prod max min mean all any cnz var std argmax argmin."""
    P = params.P
    h = set()
    a = acc_t.val
    raw = load(in_t, "S", "j", h)
    isf = a in ("f32", "f64")
    isc = a.startswith("vec2")
    nan = f"isnan_{a}" if isf else None
    sh_t = "u32" if a == "bool" else a
    if op in ("all", "any", "cnz"):
        sh_t = "u32"
        v = f"select(0u, 1u, {convert(in_t, WTYPES[dt.bool_], raw, h, has64)})"
    else:
        v = convert(in_t, acc_t, raw, h, has64)
    # combine(x, y) and identity
    if op in ("sum", "mean", "var", "std", "cnz", "any"):
        comb = "return x + y;" if op != "any" else "return x | y;"
        ident = _ZERO[sh_t]
    elif op == "all":
        comb, ident = "return x & y;", "1u"
    elif op == "prod":
        ident = _ONE[a]
        comb = ("return vec2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);" if isc
                else "return x * y;")
    elif op in ("max", "min", "argmax", "argmin"):
        big = op in ("max", "argmax")
        ident = _LOW[a] if big else _HIGH[a]
        cmp = "y > x" if big else "y < x"
        if isf:
            comb = (f"if ({nan}(x)) {{ return x; }} if ({nan}(y)) {{ return y; }} "
                    f"return select(x, y, {cmp});")
        else:
            comb = f"return select(x, y, {cmp});"
    else:
        raise AssertionError(op)
    arg = op in ("argmax", "argmin")
    if arg:
        cmp = "y > x" if op == "argmax" else "y < x"
        # y wins over x: y is better, or (equal / both NaN) and an earlier index
        if isf:
            better = (f"fn better(x: {a}, ix: u32, y: {a}, iy: u32) -> bool {{\n"
                  f"  if (iy == 0xffffffffu) {{ return false; }}\n"
                  f"  if (ix == 0xffffffffu) {{ return true; }}\n"
                      f"  let nx = {nan}(x); let ny = {nan}(y);\n"
                      f"  if (nx || ny) {{ return ny && (!nx || iy < ix); }}\n"
                      f"  return {cmp} || (y == x && iy < ix);\n}}")
        else:
            better = (f"fn better(x: {a}, ix: u32, y: {a}, iy: u32) -> bool {{\n"
                  f"  if (iy == 0xffffffffu) {{ return false; }}\n"
                  f"  if (ix == 0xffffffffu) {{ return true; }}\n"
                      f"  return {cmp} || (y == x && iy < ix);\n}}")
    out_ty = "u32" if arg else sh_t
    loop_acc = "acc = comb(acc, v);"
    if arg:
        loop_acc = "if (better(acc, ai, v, r)) { acc = v; ai = r; }"
    rf = a if not isc else ("f32" if a == "vec2<f32>" else "f64")
    # var / std: divisor m - correction, computed on the host in f64, as an f32 pair
    div = f"({rf}(bitcast<f32>({P(2)})) + {rf}(bitcast<f32>({P(6)})))"
    tree_arg = """
  shi[l] = ai;
  workgroupBarrier();
  for (var s = WGH; s > 0u; s >>= 1u) {
    if (l < s && better(sh[l], shi[l], sh[l + s], shi[l + s])) {
      sh[l] = sh[l + s]; shi[l] = shi[l + s];
    }
    workgroupBarrier();
  }"""
    tree = """
  for (var s = WGH; s > 0u; s >>= 1u) {
    if (l < s) { sh[l] = comb(sh[l], sh[l + s]); }
    workgroupBarrier();
  }"""
    body = [f"  var acc: {sh_t} = {ident};"]
    if arg:
        body.append("  var ai = 0xffffffffu;")
    body.append(f"""  for (var r = lo + l; r < m; r += {wg}u) {{
    let j = base + red_index(r);
    let v = {v};
    {loop_acc}
  }}
  sh[l] = acc;""")
    if arg:
        body.append(tree_arg)
        body.append("  if (l == 0u) { D[gid] = shi[0]; }")
    else:
        body.append("  workgroupBarrier();" + tree)
        if op in ("mean", "var", "std"):
            body.append(f"  let mu = sh[0] / {rf}({P(5)});")
        if op in ("var", "std"):
            body.append(f"""  workgroupBarrier();
  var acc2: {a} = {ident};
  for (var r = l; r < m; r += {wg}u) {{
    let j = base + red_index(r);
    let d = {v} - mu;
    acc2 += d * d;
  }}
  sh[l] = acc2;
  workgroupBarrier();{tree}
  let dv = {div};
  var res = sh[0] / dv;""")
            if op == "std":
                body.append("  res = sqrt(res);")
            inf, qnan = _INF[a], _QNAN[a]
            # m - correction <= 0: NumPy divides by 0 (inf, or NaN for 0 / 0 and NaN)
            body.append(f"  if (!(dv > {_ZERO[a]})) {{ res = select({inf}, {qnan}, "
                        f"!(sh[0] > {_ZERO[a]})); }}")
            body.append("  if (l == 0u) { D[gid] = res; }")
        elif op == "mean":
            body.append("  if (l == 0u) { D[gid] = mu; }")
        else:
            body.append("  if (l == 0u) { D[gid] = sh[0]; }")
    shared = f"var<workgroup> sh: array<{sh_t}, {wg}>;"
    if arg:
        shared += f"\nvar<workgroup> shi: array<u32, {wg}>;"
    nan_fns = _NAN_FNS if has64 else _NAN_FNS.split("fn isnan_f64")[0]
    src = f"""{render_helpers(h, has64)}
{nan_fns}
{params.decl()}
@group(0) @binding(0) var<storage, read> S: array<{in_t.arr}>;
@group(0) @binding(1) var<storage, read_write> D: array<{out_ty}>;
{shared}
fn comb(x: {sh_t}, y: {sh_t}) -> {sh_t} {{ {comb} }}
{better if arg else ""}
{strided_index_fn(ro, P, 7, "out_index")}
{strided_index_fn(rr, P, 8 + 2 * ro, "red_index")}
const WGH: u32 = {wg // 2}u;
@compute @workgroup_size({wg})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wgid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {{
  let gid = wgid.x + wgid.y * nw.x;
  if (gid >= {P(0)}) {{ return; }}
  let o = gid / {P(3)};
  let lo = (gid - o * {P(3)}) * {P(4)};
  let l = lid.x;
  let m = min(lo + {P(4)}, {P(1)});
  let base = out_index(o);
{chr(10).join(body)}
}}
"""
    return {"source": src, "entry": "main", "bindings": params.layout(("read", "rw")),
            "imm_size": params.imm_size, "uniform_size": params.uniform_size,
            "label": f"reduce_{op}_{in_t.name}_{a}"}


def _segmented(op, data, axes, acc_dtype, correction=None, count=None):
    """Unpacked storage of the kept shape: ``op`` over ``axes`` of ``data``."""
    client = data.client
    nd = data.ndim
    axes = tuple(range(nd)) if axes is None else tuple(axes)
    keep = [d for d in range(nd) if d not in axes]
    view = data.permute(tuple(keep) + axes) if nd else data
    kshape = tuple(data.shape[d] for d in keep)
    nout = math.prod(kshape)
    m = math.prod(data.shape[d] for d in axes)
    in_t = WTYPES[data.dtype]
    acc_t = _acc_type(acc_dtype)
    arg = op in ("argmax", "argmin")
    if op in ("all", "any", "cnz") or arg:
        out_dtype = dt.uint32
    else:
        out_dtype = _VAL_DTYPE[acc_t.val]
    if nout == 0:
        return WgpuStorage._new(kshape, out_dtype, client)
    # long reductions with few outputs: K chunks per output (pass 1), then a second pass
    # over the (nout, K) partials (max/min/all/any/sum/prod/cnz/mean; not var / arg*)
    k = 1
    if op not in ("var", "std", "argmax", "argmin") and m >= _SPLIT_MIN and nout < 512:
        k = min(-(-m // _CHUNK), max(1, 2048 // nout))
    if k > 1:
        op1 = "sum" if op == "mean" else op
        part = _segmented_pass(op1, view, len(keep), nout, m, k, in_t, acc_t, count or m,
                               correction, client, (nout, k), out_dtype)
        op2 = {"cnz": "sum"}.get(op, op)
        acc2 = dt.uint32 if op == "cnz" else (acc_dtype if op not in ("all", "any")
                                              else dt.bool_)
        if acc2 is dt.float16:
            acc2 = dt.float32
        return _segmented(op2, part, (1,), acc2, count=m).reshape(kshape)
    return _segmented_pass(op, view, len(keep), nout, m, 1, in_t, acc_t, count or m,
                           correction, client, kshape, out_dtype)


_SPLIT_MIN = 1 << 15
_CHUNK = 1 << 13


def _segmented_pass(op, view, nkeep, nout, m, k, in_t, acc_t, count, correction, client,
                    shape, out_dtype):
    out = WgpuStorage._new(shape, out_dtype, client)
    oshape, ostr = collapse(view.shape[:nkeep], view.strides[:nkeep])
    rshape, rstr = collapse(view.shape[nkeep:], view.strides[nkeep:])
    ro, rr = len(oshape), len(rshape)
    chunk = -(-m // k)
    wg = _wg_size(chunk)
    has64 = client.has("shader-int64")
    block, boff, bsize, eoff = view.binding()
    words = [nout * k, m, 0, k, chunk, count, 0, eoff]
    for n, s in zip(oshape, ostr):
        words += [n, s]
    words.append(0)
    for n, s in zip(rshape, rstr):
        words += [n, s]
    if correction is not None:
        div = float(m) - correction
        hi = float(np.float32(div))
        lo = float(np.float32(div - hi))
        words[2] = struct.unpack("<I", struct.pack("<f", hi))[0]
        words[6] = struct.unpack("<I", struct.pack("<f", lo))[0]
    # P(7) = out offset, then (n, s) * ro; P(8 + 2ro) = red offset (0), then (n, s) * rr
    params = Params.of(client, len(words), binding=2)
    key = ("reduce", op, in_t.name, acc_t.name, wg, ro, rr, params.immediate)
    pipe = client.pipelines.get_rendered(
        key, lambda: _render(op, in_t, acc_t, wg, ro, rr, params, has64))
    gx = min(nout * k, client.max_groups)
    client.launch(pipe, [(block, boff, bsize), out.out_binding()], params.pack(words),
                  (gx, -(-(nout * k) // gx), 1))
    return out


def _keep(out, shape, axes, keepdims):
    if not keepdims:
        return out
    nd = len(shape)
    axes = range(nd) if axes is None else axes
    return out.reshape(tuple(1 if d in axes else n for d, n in enumerate(shape)))


def _supported(client, *dtypes):
    return all(not WTYPES[d].need or client.has(WTYPES[d].need) for d in dtypes)




class ReductionMixin:
    def _red_ok(self, data, *dtypes):
        return _supported(data.client, data.dtype, *dtypes)

    def reduce(self, name, data, axes, keepdims, dtype=None):
        if not self._red_ok(data, *([dtype] if dtype is not None else [])):
            return _HOST["reduce"](self, name, data, axes, keepdims, dtype)
        if name in ("all", "any"):
            out = cast(_segmented(name, data, axes, dt.bool_), dt.bool_)
            return _keep(out, data.shape, axes, keepdims)
        if name in ("sum", "prod"):
            acc = dtype if dtype is not None else data.dtype
        else:
            acc = data.dtype
        if name in ("max", "min") and acc.kind == "f" and not data.client.has("shader-int64") \
                and acc is dt.float64:
            return _HOST["reduce"](self, name, data, axes, keepdims, dtype)
        m = math.prod(data.shape[d] for d in (range(data.ndim) if axes is None else axes))
        if name == "mean" and m == 0:
            kshape = tuple(n for d, n in enumerate(data.shape)
                           if axes is not None and d not in axes)
            out = full(kshape, float("nan") if acc.kind == "f" else complex("nan+nanj"), acc,
                       data.client)
            return _keep(out, data.shape, axes, keepdims)
        out = _segmented(name, data, axes, acc)
        if out.dtype is not acc:
            out = cast(out, acc)
        return _keep(out, data.shape, axes, keepdims)

    def sum_all(self, data):
        return self.reduce("sum", data, None, False, data.dtype)

    def var(self, data, axes, correction, keepdims, std):
        m = math.prod(data.shape[d] for d in (range(data.ndim) if axes is None else axes))
        if not self._red_ok(data) or (
                data.dtype is dt.float64 and not data.client.has("shader-int64")):
            return _HOST["var"](self, data, axes, correction, keepdims, std)
        out = _segmented("std" if std else "var", data, axes, data.dtype,
                         correction=float(correction))
        if out.dtype is not data.dtype:
            out = cast(out, data.dtype)
        return _keep(out, data.shape, axes, keepdims)

    def _arg(self, name, data, axis, keepdims):
        if not self._red_ok(data) or (data.dtype is dt.float64
                                      and not data.client.has("shader-int64")):
            return _HOST[name](self, data, axis, keepdims)
        axes = None if axis is None else (axis,)
        out = _segmented(name, data, axes, data.dtype)
        if keepdims:
            out = _keep(out, data.shape, axes, True)
        return out

    def argmax(self, data, axis, keepdims):
        return self._arg("argmax", data, axis, keepdims)

    def argmin(self, data, axis, keepdims):
        return self._arg("argmin", data, axis, keepdims)

    def count_nonzero(self, data, axes, keepdims):
        if not self._red_ok(data):
            return _HOST["count_nonzero"](self, data, axes, keepdims)
        out = cast(_segmented("cnz", data, axes, dt.uint32), self.default_index)
        return _keep(out, data.shape, axes, keepdims)
