"""Short rows sorted in workgroup memory: a workgroup per row (or per few short rows), a
bitonic network over (key, column) pairs.

Rows shorter than GROUP / 2 share a workgroup (GROUP / P rows, each its own segment of the
network). A row of ``m <= P`` elements (P a power of two sized so the P keys and P column
numbers fit the adapter's workgroup memory) is loaded once, padded with (all-ones key, column
0xffffffff) entries that sort after every real element, sorted by a bitonic network whose
compare-exchanges order by key then column (a total order, so the result is the stable
sort), and written as the same positions ``r * m + c`` the radix sort produces. Rows beyond
65535 workgroups launch on a 2-D grid. Many short rows (``axis=-1`` of a 2-D array) thus
take one dispatch instead of one radix pass per key byte and row byte.
"""

from __future__ import annotations

import dataclasses

from ..codegen.layout import Buf, Layout
from ..codegen.spec import KernelSpec
from ..codegen.template import Template
from .keys import KeyType, key_fn

__all__ = ["RowSortSpec", "row_capacity", "sort_rows", "variants"]

MAX_P = 4096

_FRAME = Template("""${layout}
${keyfn}
var<workgroup> sk: array<u32, ${pw}>;
var<workgroup> si: array<u32, ${gp}>;
fn elem(i: u32) -> u32 {
  let r = i / ${m};
  let c = i - r * ${m};
  return u32(i32(${S_off}) + i32(r) * bitcast<i32>(${s_rs}) + i32(c) * bitcast<i32>(${s_cs}));
}
fn after(a: u32, b: u32) -> bool {   // (key, column) of slot a sorts after slot b's
${cmp}
  return si[a] > si[b];
}
@compute @workgroup_size(${t})
fn main(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>,
        @builtin(num_workgroups) nw: vec3<u32>) {
  let row0 = (wid.x + wid.y * nw.x) * ${g}u;
  if (row0 >= ${rows}) { return; }
  for (var c = lid.x; c < ${gp}u; c += ${t}u) {
    let row = row0 + c / ${p}u;
    let cl = c & ${pm1}u;
    if (row < ${rows} && cl < ${m}) {
      var k = key(elem(row * ${m} + cl));
${store_key}
      si[c] = cl;
    } else {
${pad_key}
      si[c] = 0xffffffffu;
    }
  }
  workgroupBarrier();
  for (var k = 2u; k <= ${p}u; k <<= 1u) {
    for (var j = k >> 1u; j > 0u; j >>= 1u) {
      for (var t = lid.x; t < ${ghalf}u; t += ${t}u) {
        let seg = (t / ${half}u) * ${p}u;      // the row's segment of the shared arrays
        let tl = t & ${halfm1}u;
        let al = 2u * j * (tl / j) + (tl % j);
        let a = seg + al;
        let b = a + j;
        let up = (al & k) == 0u;
        if (after(a, b) == up) {
${swap}
        }
      }
      workgroupBarrier();
    }
  }
  for (var c = lid.x; c < ${gp}u; c += ${t}u) {
    let row = row0 + c / ${p}u;
    let cl = c & ${pm1}u;
    if (row < ${rows} && cl < ${m}) { O[${O_off} + row * ${m} + cl] = row * ${m} + si[c]; }
  }
}
""", "rowsort")

# rows shorter than this share a workgroup (GROUP / p rows each)
GROUP = 512


@dataclasses.dataclass(frozen=True)
class RowSortSpec(KernelSpec):
    kt: KeyType
    descending: bool
    p: int        # padded row length (power of two)
    t: int        # threads per workgroup
    g: int = 1    # rows per workgroup

    def layout(self, caps):
        return Layout([Buf("S", self.kt.raw.arr), Buf("O", "u32", "rw")],
                      ["m", "rows", "s_rs", "s_cs"], caps)

    def render(self, caps):
        lay = self.layout(caps)
        W = self.kt.words
        cmp = "\n".join(f"  if (sk[a * {W}u + {w}u] != sk[b * {W}u + {w}u]) {{ "
                        f"return sk[a * {W}u + {w}u] > sk[b * {W}u + {w}u]; }}"
                        for w in reversed(range(W)))
        store = "\n".join(f"      sk[c * {W}u + {w}u] = k[{w}];" for w in range(W))
        pad = "\n".join(f"      sk[c * {W}u + {w}u] = 0xffffffffu;" for w in range(W))
        swap = "\n".join([f"          let x{w} = sk[a * {W}u + {w}u]; "
                          f"sk[a * {W}u + {w}u] = sk[b * {W}u + {w}u]; sk[b * {W}u + {w}u] = x{w};"
                          for w in range(W)] +
                         ["          let xi = si[a]; si[a] = si[b]; si[b] = xi;"])
        gp = self.g * self.p
        return _FRAME.render(lay.tokens(), keyfn=key_fn(self.kt, "S", "key", self.descending),
                             pw=gp * W, gp=gp, p=self.p, pm1=self.p - 1, half=self.p // 2,
                             halfm1=self.p // 2 - 1, ghalf=gp // 2, g=self.g, t=self.t,
                             cmp=cmp, store_key=store, pad_key=pad, swap=swap)

    @property
    def label(self):
        return f"rowsort_{self.kt.name}_{self.p}x{self.g}" + ("_desc" if self.descending else "")


def row_capacity(kt, caps):
    """The longest row (a power of two) sorted in workgroup memory on ``caps``."""
    per = (kt.words + 1) * 4
    p = MAX_P
    while p > 2 and p * per > caps.workgroup_storage:
        p //= 2
    return p


def sort_rows(src, out, descending, caps):
    """Write the sorted positions of every row of the (rows, m) view ``src`` into the u32
    ``out`` (m <= row_capacity)."""
    from .keys import key_type
    client = src.client
    rows, m = src.shape
    kt = key_type(src.dtype)
    p = 2
    while p < m:
        p *= 2
    g = max(1, min(GROUP // p, rows)) if p < GROUP else 1
    g = 1 << (g.bit_length() - 1)   # a power of two: fewer variants
    t = min(g * p // 2, caps.wg_size(256))
    k = client.kernel(RowSortSpec(kt, descending, p, t, g))
    nwg = -(-rows // g)
    gx = min(nwg, client.max_groups)
    k.launch((gx, -(-nwg // gx), 1), S=src, O=out, m=m, rows=rows,
             s_rs=src.strides[0] if rows > 1 else 0, s_cs=src.strides[1] if m > 1 else 0)


def variants():
    from ...._core import dtypes as dt
    from ..codegen.caps import LAVAPIPE
    from .keys import key_type
    out = []
    for d in (dt.bool_, dt.int8, dt.float16, dt.int32, dt.float32, dt.float64, dt.complex128):
        kt = key_type(d)
        for p, g in ((2, 256), (64, 8), (row_capacity(kt, LAVAPIPE), 1)):
            out.append(RowSortSpec(kt, d is dt.float32, p, min(g * p // 2, 256), g))
    return out
