"""Direct n-dimensional correlation on the GPU: one WGSL kernel, workgroup-memory tiles.

Everything (convolve, correlate, convolve2d, correlate2d, every mode) is reduced to one
correlation form with a start offset per axis:

    out[o] = sum_j  a_ext[o + start + j] * k[j]        (j over the kernel's shape)

where ``a_ext`` extends ``a`` past its edges by the boundary rule (fill value, wrap,
symmetric reflection with the edge repeated, mirror reflection without, or the nearest
edge value). Convolution passes the kernel as a flipped view, correlation of
complex data its conjugate, so the kernel itself never flips or conjugates.

A workgroup owns ``TW`` consecutive outputs along the last axis of one output row. For
each position of the kernel's outer axes it stages the input row segment those outputs
read (``TW + TK`` values) and ``TK`` kernel taps in workgroup memory, then every thread
sums its window from there: each input value is read from global memory about once per
kernel row instead of once per tap. Kernels longer than ``TK`` along the last axis run in
chunks of ``TK``. Views (any strides, negative included) are read in place.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as D
from ...codegen.layout import Buf, Layout, Words
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES
from ...storage import new_output

__all__ = ["CorrSpec", "correlate_direct", "correlate_rows", "variants", "BOUNDARIES"]

TW = 256                      # outputs of one workgroup along the last axis
WINDOW_SLACK = 1024           # a view's binding window starts at an aligned offset before it
BOUNDARIES = ("fill", "wrap", "symm", "mirror", "nearest")

_SRC = Template("""${layout}
var<workgroup> s_a: array<${T}, ${SA}>;
var<workgroup> s_k: array<${T}, ${TK}>;

// index of the value at position i of an axis of length n, -1 where the fill value is read
fn bmap(i: i32, n: i32) -> i32 {
${bmap}
}

fn mul(x: ${T}, y: ${T}) -> ${T} {
  return ${mul};
}

@compute @workgroup_size(${TW})
fn main(@builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let tid = lid.x;
  let tiles = ${tiles};
  let total = ${total};
  let step = nw.x * nw.y;
  let fv = fill[${fill_off}];
  // the grid-stride loop bound, tile and row are workgroup-uniform: barriers are legal
  for (var w = wid.x + wid.y * nw.x; w < total; w += step) {
    let tile = w % tiles;
    let row = w / tiles;
    var rem = row;
${decode_out}
    let t0 = i32(tile * ${TW}u);
    var acc = ${zero};
    for (var jo = 0u; jo < ${kouter}; jo++) {
      var r = jo;
      var aoff: i32 = i32(${a_off});
      var koff: i32 = i32(${k_off});
      var inside = true;
${decode_kernel}
      for (var jc = 0u; jc < ${klast}; jc += ${TK}u) {
        for (var p = tid; p < ${SA}u; p += ${TW}u) {
          let ii = bmap(t0 + ${st_last} + i32(jc + p), ${alen_last});
          var v = fv;
          if (inside && ii >= 0) { v = a[u32(aoff + ii * ${astr_last})]; }
          s_a[p] = v;
        }
        for (var p = tid; p < ${TK}u; p += ${TW}u) {
          var v = ${zero};
          if (jc + p < ${klast}) { v = k[u32(koff + i32(jc + p) * ${kstr_last})]; }
          s_k[p] = v;
        }
        workgroupBarrier();
        let cnt = min(${TK}u, ${klast} - jc);
        for (var u = 0u; u < cnt; u++) {
          acc += mul(s_a[tid + u], s_k[u]);
        }
        workgroupBarrier();
      }
    }
    let ol = u32(t0) + tid;
    if (ol < ${olen_last}) { out[${out_off} + row * ${olen_last} + ol] = acc; }
  }
}
""", "direct_correlate")

_BMAP = {
    "fill": "  return select(-1, i, i >= 0 && i < n);",
    "wrap": "  var m = i - n * (i / n);\n  if (m < 0) { m += n; }\n  return m;",
    # period 2n: 0..n-1 forwards, then n-1..0 (the edge value repeats, as SciPy's 'symm')
    "symm": ("  let p = 2 * n;\n  var m = i - p * (i / p);\n  if (m < 0) { m += p; }\n"
             "  return select(m, p - 1 - m, m >= n);"),
    # period 2n - 2: the edge value once (ndimage's 'mirror'); a single value repeats
    "mirror": ("  if (n == 1) { return 0; }\n  let p = 2 * n - 2;\n  var m = i - p * (i / p);\n"
               "  if (m < 0) { m += p; }\n  return select(m, p - m, m >= n);"),
    "nearest": "  return clamp(i, 0, n - 1);",
}


def _i(word):
    return f"bitcast<i32>({word})"


@dataclasses.dataclass(frozen=True)
class CorrSpec(KernelSpec):
    dtype: object       # numr DType of a, k and out (one dtype: the caller casts)
    rank: int           # >= 1
    boundary: str       # one of BOUNDARIES
    tk: int             # kernel taps staged per chunk (power of two, <= TW)

    def needs(self):
        need = WTYPES[self.dtype].need
        return {"shader-f64": ("f64",), "shader-int64": ("int64",)}.get(need, ())

    def layout(self, caps):
        t = WTYPES[self.dtype].arr
        R = self.rank
        return Layout([Buf("a", t), Buf("k", t), Buf("fill", t), Buf("out", t, "rw")],
                      ["tiles", "total", "kouter", Words("olen", R), Words("alen", R),
                       Words("astr", R), Words("klen", R), Words("kstr", R),
                       Words("start", R)], caps)

    def render(self, caps):
        lay = self.layout(caps)
        w = lay.word
        R = self.rank
        T = WTYPES[self.dtype].val
        cplx = T.startswith("vec2")
        mul = ("vec2(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x)" if cplx else "x * y")
        zero = f"{T}()"
        dec_out, dec_k = [], []
        for d in range(R - 2, -1, -1):
            dec_out.append(f"    let o{d} = i32(rem % {w('olen', d)});\n"
                           f"    rem = rem / {w('olen', d)};")
            dec_k.append(
                f"      {{\n        let j = r % {w('klen', d)};\n        r = r / {w('klen', d)};\n"
                f"        let ii = bmap(o{d} + {_i(w('start', d))} + i32(j), "
                f"{_i(w('alen', d))});\n"
                f"        inside = inside && ii >= 0;\n"
                f"        aoff += max(ii, 0) * {_i(w('astr', d))};\n"
                f"        koff += i32(j) * {_i(w('kstr', d))};\n      }}")
        L = R - 1
        toks = lay.tokens()
        return _SRC.render(
            toks, T=T, SA=str(TW + self.tk), TK=str(self.tk), TW=str(TW),
            bmap=_BMAP[self.boundary], mul=mul, zero=zero,
            decode_out="\n".join(dec_out), decode_kernel="\n".join(dec_k),
            st_last=_i(w("start", L)), alen_last=_i(w("alen", L)),
            astr_last=_i(w("astr", L)), kstr_last=_i(w("kstr", L)),
            klast=w("klen", L), olen_last=w("olen", L))


def _tk(klast):
    t = 8
    while t < klast and t < TW:
        t *= 2
    return t


def _grid(total, client):
    gx = min(total, 32768, client.max_groups)
    return (gx, -(-total // gx), 1)


def correlate_direct(a, k, out_shape, start, boundary, fill, out=None):
    """``out`` (a fresh contiguous storage of ``out_shape``) of the correlation of the
    storages ``a`` and ``k`` (same dtype and rank) with per-axis ``start`` offsets.
    ``fill`` is a one-element storage of the dtype: the value read past the edges under
    'fill'. ``out``: a contiguous storage (or row-contiguous view) to write instead."""
    client = a.client
    R = len(out_shape)
    if out is None:
        out = new_output(out_shape, a.dtype, client)
    if out.size == 0:
        return out
    klast = k.shape[-1]
    spec = CorrSpec(a.dtype, R, boundary, _tk(klast))
    kern = client.kernel(spec)
    tiles = -(-out_shape[-1] // TW)
    total = tiles * (out.size // out_shape[-1])
    kouter = k.size // klast
    kern.launch(_grid(total, client), a=a, k=k, fill=fill, out=out, tiles=tiles, total=total,
                kouter=kouter, olen=list(out_shape), alen=list(a.shape),
                astr=list(a.strides), klen=list(k.shape), kstr=list(k.strides),
                start=list(start))
    return out


def correlate_rows(x, k, out_len, start, boundary, fill):
    """The correlation of every row of the contiguous (rows, L) storage ``x`` with the
    (1, m) kernel ``k``: a (rows, out_len) storage, its first output at ``start``. Rows go
    in groups whose input and output fit one storage binding each."""
    client = x.client
    rows, L = x.shape
    out = new_output((rows, out_len), x.dtype, client)
    if out.size == 0:
        return out
    row_bytes = max(L, out_len) * x.itemsize
    budget = client.max_binding - WINDOW_SLACK
    group = max(1, min(rows, budget // max(row_bytes, 1)))
    for r0 in range(0, rows, group):
        r1 = min(rows, r0 + group)
        correlate_direct(x[r0:r1], k, (r1 - r0, out_len), (0, start), boundary, fill,
                         out=out[r0:r1])
    return out


def variants():
    specs = []
    for dt in (D.float32, D.float64, D.complex64, D.int64):
        for b in BOUNDARIES:
            specs.append(CorrSpec(dt, 1 if b == "fill" else 2, b, 8))
    specs.append(CorrSpec(D.float32, 3, "fill", 256))
    return specs
