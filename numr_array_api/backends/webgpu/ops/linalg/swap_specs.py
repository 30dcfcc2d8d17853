"""Kernel specs applying LU's row interchanges outside the factorised panel.

SwapSpec      the interchanges in order, a column per invocation (and B's columns).
PermSpec      the same as one permutation replayed in workgroup memory.
LeafSwapSpec  one LU leaf's interchanges on whole rows at once, no serial replay.

Their WGSL is in wgsl/ (swap.wgsl, perm.wgsl, leaf_swap.wgsl).
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from .scalar import prelude
from .wgsl import kernel

__all__ = ["LSWAP_KMAX", "LSWAP_RPT", "LSWAP_WG", "PERM_MAPN", "PERM_RPT", "PERM_WG",
           "LeafSwapSpec", "PermSpec", "SwapSpec"]

PERM_MAPN = 4096  # rows the permutation kernel's map holds (2 x 16 KiB of u32 in all)
PERM_WG = 256
PERM_RPT = 16     # values each invocation gathers: wg * rpt (row, column) pairs a workgroup

LSWAP_KMAX = 128  # interchanges LeafSwapSpec applies in one dispatch
LSWAP_WG = 256
LSWAP_RPT = 8


@dataclasses.dataclass(frozen=True)
class SwapSpec(KernelSpec):
    """Rows i <-> ipiv[i] - pbase, for i in order, in every column (moves raw bits)."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32")],
                      ["nc", "nbat", "kb", "a_rs", "a_cs", "a_bs", "p_bs", "pbase"], caps)

    def render(self, caps):
        return kernel("swap.wgsl").render(self.layout(caps).tokens())

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class PermSpec(KernelSpec):
    """SwapSpec's interchanges as one permutation: every workgroup replays the pivots on
    row indices in workgroup memory (a serial loop of shared-memory swaps, not of global
    loads), then gathers the rows that move for its ``cw`` columns and writes them back."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32")],
                      ["m", "nc", "nbat", "kb", "ncb", "cw", "a_rs", "a_cs", "a_bs", "p_bs",
                       "pbase"], caps)

    def render(self, caps):
        return kernel("perm.wgsl").render(self.layout(caps).tokens(), prelude=prelude(self.t),
                                          mapn=PERM_MAPN, wg=PERM_WG, rpt=PERM_RPT)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class LeafSwapSpec(KernelSpec):
    """The kb (<= LSWAP_KMAX) interchanges of one LU leaf applied at once to whole rows of
    the matrix outside the leaf's own columns (columns [s0, s0 + sw) skipped): at most 2 kb
    rows change; each is gathered from the row a backward walk of the interchanges names
    (an invocation per row, no serial replay), then written, ``cw`` columns a workgroup.
    Applying a leaf's interchanges to every column at once (as LAPACK's getrf does after
    each panel) replaces the recursion's interchanges of whole half-blocks (PermSpec)."""

    t: WType
    rhs: bool = False  # also the rows of X (B, rows, kx): columns nc .. nc + kx - 1

    def layout(self, caps):
        bufs = [Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32")]
        words = ["nc", "nbat", "kb", "ncb", "cw", "s0", "sw", "a_rs", "a_cs", "a_bs",
                 "p_bs", "pbase"]
        if self.rhs:
            bufs.append(Buf("X", self.t.arr, "rw"))
            words += ["kx", "x_rs", "x_cs", "x_bs"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        a_ld = ("let cc = c + select(0u, ${sw}, c >= ${s0});\n"
                "        v[q] = A[ab + srow[a] * ${a_rs} + cc * ${a_cs}];")
        a_st = ("let cc = c + select(0u, ${sw}, c >= ${s0});\n"
                "        A[ab + drow[a] * ${a_rs} + cc * ${a_cs}] = v[q];")
        if self.rhs:
            xb = "${X_off} + b * ${x_bs}"
            x_ld = f"v[q] = X[{xb} + srow[a] * ${{x_rs}} + (c - ${{nc}}) * ${{x_cs}}];"
            x_st = f"X[{xb} + drow[a] * ${{x_rs}} + (c - ${{nc}}) * ${{x_cs}}] = v[q];"
            load = f"if (c < ${{nc}}) {{\n        {a_ld}\n        }} else {{ {x_ld} }}"
            store = f"if (c < ${{nc}}) {{\n        {a_st}\n        }} else {{ {x_st} }}"
        else:
            load, store = a_ld, a_st
            tk = dict(tk, kx="0u")
        for k, v in tk.items():
            load = load.replace("${" + k + "}", v)
            store = store.replace("${" + k + "}", v)
        return kernel("leaf_swap.wgsl").render(tk, prelude=prelude(self.t), load=load,
                                               store=store, kmax=LSWAP_KMAX,
                                               smax=2 * LSWAP_KMAX, wg=LSWAP_WG,
                                               rpt=LSWAP_RPT)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()
