"""Kernel specs of the triangular solves op(T) x = b (float32 / float64 / complex64 /
complex128), in place on the vectors.

TrsmSpec      many vectors against one small triangle, a thread each.
TrsmTileSpec  the same for n <= 64, 16 vectors a workgroup in workgroup memory.

Their WGSL is in wgsl/ (trsm*.wgsl, trsv.wgsl).
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from .scalar import prelude
from .wgsl import kernel

__all__ = ["TrsmSpec", "TrsmTileSpec"]


def _triangle_vectors_layout(t, same, caps):
    """Bindings of the triangular solves on vectors: the triangle Tm (or, ``same``, inside
    X's buffer at element offset t_off) and the vectors X, solved in place."""
    words = ["n", "nv", "nbat", "t_rs", "t_cs", "t_bs", "x_es", "x_vs", "x_bs"]
    if same:
        return Layout([Buf("X", t.arr, "rw")], words + ["t_off"], caps)
    return Layout([Buf("Tm", t.arr), Buf("X", t.arr, "rw")], words, caps)


@dataclasses.dataclass(frozen=True)
class TrsmSpec(KernelSpec):
    """op(T) x = b for many vectors x (in place); op(T) = T or conj(T); T given by strides
    (a transposed view is a transposed triangle)."""

    t: WType
    lower: bool
    unit: bool
    conj: bool
    # > 0: n <= nmax, the vector in a private array: one load and one store per element
    # instead of a global access per product
    nmax: int = 0
    same: bool = False  # the triangle lives in X's buffer (element offset t_off): no copy

    def layout(self, caps):
        return _triangle_vectors_layout(self.t, self.same, caps)

    def render(self, caps):
        lay = self.layout(caps)
        row, k0, k1 = ("q", "0u", "i") if self.lower else ("n - 1u - q", "i + 1u", "n")
        divide = "" if self.unit else "s = dv(s, tt(tb, i, i));"
        extra = {"nmax": self.nmax} if self.nmax else {}
        tk = lay.tokens()
        if self.same:
            tk["Tm_off"] = tk["t_off"]
        text = kernel("trsm_local.wgsl" if self.nmax else "trsm.wgsl").render(
            tk, prelude=prelude(self.t), tconj="cj" if self.conj else "", row=row,
            k0=k0, k1=k1, divide=divide, **extra)
        return text.replace("Tm[", "X[") if self.same else text

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class TrsmTileSpec(KernelSpec):
    """TrsmSpec's solves (n <= 64) with 16 vectors per workgroup in workgroup memory and
    the triangle packed there too: a column of the triangle at a time over all (row,
    vector) pairs, one barrier per column, instead of one invocation walking n^2 / 2
    products per vector."""

    t: WType
    lower: bool
    unit: bool
    conj: bool
    same: bool = False
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # every index is structural: n is clamped to 64 in the kernel, so tl[li(i, k)]
    # (k <= i < n) < 2080 and xt[i * 16 + v] < 1024; the triangle / vectors through
    # the caller's words with i, k < n and v0 + v < nv; no index comes from data;
    # every loop is counted by n * n, n * 16, n or (n - q - 1) * 16
    trusted: bool = False
    # 1 / -1: the vectors are not read, they start as the identity's columns (times -1):
    # T^-1 (-T^-1) into X without an identity built and copied first
    ident: int = 0

    def layout(self, caps):
        return _triangle_vectors_layout(self.t, self.same, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        act = "i" if self.lower else f"({tk['n']} - 1u - i)"
        if self.unit:
            fin_prev = "xt[(q - 1u) * 16u + tid]"
            fin_last = "xt[(n - 1u) * 16u + tid]"
            xq = "xt[q * 16u + v]"
        else:
            fin_prev = "dv(xt[(q - 1u) * 16u + tid], tl[li(q - 1u, q - 1u)])"
            fin_last = "dv(xt[(n - 1u) * 16u + tid], tl[li(n - 1u, n - 1u)])"
            xq = "dv(xt[q * 16u + v], tl[li(q, q)])"
        if self.ident:
            one = "one()" if self.ident > 0 else "(zero() - one())"
            xload = f"if (act(i) == v0 + v) {{ x = {one}; }}"
        else:
            xload = f"if (v0 + v < nv) {{ x = X[xb + (v0 + v) * {tk['x_vs']} + act(i) * es]; }}"
        return kernel("trsm_tile.wgsl").render(
            tk, prelude=prelude(self.t), act=act, xload=xload, tconj="cj" if self.conj else "",
            TOFF=tk["t_off"] if self.same else tk["Tm_off"], TBUF="X" if self.same else "Tm",
            fin_prev=fin_prev, fin_last=fin_last, xq=xq)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()
