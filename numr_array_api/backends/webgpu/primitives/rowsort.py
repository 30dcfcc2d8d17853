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

_FRAME = Template.file(__package__, "rowsort.wgsl")

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
