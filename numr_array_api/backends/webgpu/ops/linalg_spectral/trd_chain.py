"""The Householder tridiagonalisation's per-column kernels (tridiag.py): TrdUpdSpec
(trd_upd.wgsl) and TrdSymv2Spec (trd_symv.wgsl).

Per column j two dispatches, both over many workgroups (no one-workgroup step):
  TrdUpdSpec   rows i >= j, UPD_RPW rows a workgroup (a slice of 32 invocations per row:
               lane c the panel column c, NX rows read coalesced): w of column j - 1 (the
               scalar v^T w from the symv's partials of v^T p and the panel's dot
               products: v^T (p - V W^T v - W V^T v) = v^T p - 2 (V^T v).(W^T v), so no
               reduction over w), then column j updated by the panel (a[i], into WK) and
               per-workgroup partials (max |a|, sum (a/max)^2) of the reflector's norm.
               Row j's w (every row's coefficient) is computed again by every workgroup
               (the same code on the same inputs).
  TrdSymv2Spec every workgroup combines the norm partials (the same order everywhere:
               identical tau, beta, scale), and computes p = A22 v (row workgroups, which
               also store v and a partial of v^T p) or the panel's dot products V^T v,
               W^T v (2 jj workgroups).
WK (B, 3 n): a [0, n); TrdUpdSpec's norm partials (max, ss) at n + 2 k (k < ceil((n - j) /
UPD_RPW) <= n / 2: within [n, 2 n)); TrdSymv2Spec's v^T p partials at 2 n + k (k <
ceil((n - j - 1) / rpw) <= n). Each dispatch reads only what the previous ones wrote.

The chain runs two small dependent dispatches a column, so a kernel's time is its
critical path, not its arithmetic (these kernels replaced ones whose global loads came
after the barriers of reductions they did not depend on, one element a step; H100 eigh
512 float64 14.2 / 12.6 ms against 15.1 / 13.3: 2026-11-28).
So:
  - every load a workgroup needs is issued at the top, before any barrier, so their
    latencies overlap;
  - the reductions that do not depend on one another share one tree (one barrier a
    level): in UPD the scalar v^T w of column j - 1 (the symv's partials minus 2
    (V^T v).(W^T v)) with the 32-lane panel sums of each row; in SYMV the reflector's
    norm with the row dot products;
  - SYMV forms A22 v as A[i, j+1] + scal (A[i, j+2:] . a[j+2:]) (v = (1, a scal)), so the
    dot product needs no norm and runs while the norm is combined, four loads in flight
    per invocation;
  - SYMV takes ``rpw`` rows a workgroup (the EIGH_SYMV_RPW knob: 1, 2 or 4).
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType
from .trd_common import nan, needs, prelude

NB = 32        # panel width of the blocked tridiagonalisation (columns per GEMM update)
UPD_RPW = 7    # rows of one TrdUpdSpec workgroup (8 slices of 32: slice 0 is row j)
SYMV_RPW = 4   # rows of one TrdSymv2Spec row workgroup unless the knob says otherwise

UPD = Template.file(__package__, "trd_upd.wgsl")
SYMV = Template.file(__package__, "trd_symv.wgsl")

_COMB = """
struct MS { m: R, s: R }

// (max, sum of (x / max)^2) of two parts
fn comb(x: MS, y: MS) -> MS {
  let m = max(x.m, y.m);
  if (m > R(0.0)) {
    let p = x.m / m;
    let q = y.m / m;
    return MS(m, x.s * p * p + y.s * q * q);
  }
  return MS(m, x.s + y.s);
}
"""


# Every buffer of the per-column chain, in one order, all read_write: TrdUpdSpec and
# TrdSymv2Spec have one bind group layout, so a column's two dispatches bind one bind group
# and a replay sets it once per panel instead of once per dispatch (the chain is bound by
# the host's ~9 us of native calls and wgpu bookkeeping a dispatch on an H100, not by the
# GPU's ~4 us)
CHAIN_BUFS = ("A", "YT", "NX", "REF", "PV", "DOT", "WK", "E", "TAU", "D")


def chain_layout(elem, words, caps):
    return Layout([Buf(nm, elem, "rw") for nm in CHAIN_BUFS], words, caps)


@dataclasses.dataclass(frozen=True)
class TrdUpdSpec(KernelSpec):
    t: WType

    # compiled without wgpu's runtime checks (KernelSpec.runtime_checks): workgroup indices
    # are structural (tid < 256, lane < NB, slot < 8, q < NB); every loop is counted by
    # constants or uniforms (nrbp, q); global indices come from the uniforms n, j, jj
    # within the bound buffers (robust buffer access beyond that). H100
    # (2026-11-26): eigvalsh 2048 float32 43.0 ->
    # 37.2 ms, eigh 73.7 -> 70.4 ms against the checked build
    trusted = True

    def layout(self, caps):
        return chain_layout(self.t.arr, ["n", "nbat", "j", "jj", "fin", "nrbp"], caps)

    def render(self, caps):
        return UPD.render(self.layout(caps).tokens(), pre=prelude(self.t), nb=NB,
                          rpw=UPD_RPW, comb=_COMB, nan=nan(self.t))

    def needs(self):
        return needs(self.t)


@dataclasses.dataclass(frozen=True)
class TrdSymv2Spec(KernelSpec):
    t: WType
    rpw: int = SYMV_RPW     # rows a row workgroup (1, 2 or 4)

    # compiled without wgpu's runtime checks (as TrdUpdSpec): workgroup indices: tid < 256,
    # tid + h < 256 with h < 256 / 2 ... 1, r * seg < 256; loops counted by constants or
    # uniforms (nwu, n, rows per workgroup)
    trusted = True

    def layout(self, caps):
        return chain_layout(self.t.arr, ["n", "nbat", "j", "jj", "nrb", "nwu"], caps)

    def render(self, caps):
        if self.rpw not in (1, 2, 4):
            raise ValueError(f"TrdSymv2Spec: rpw {self.rpw} is not 1, 2 or 4")
        return SYMV.render(self.layout(caps).tokens(), pre=prelude(self.t), nb=NB,
                           rpw=self.rpw, comb=_COMB)

    def needs(self):
        return needs(self.t)


def variants():
    """Every kernel of the column chain, for each rows-a-workgroup choice (render tests)."""
    out = []
    for d in (dt.float32, dt.float64):
        t = WTYPES[d]
        out += [TrdUpdSpec(t)] + [TrdSymv2Spec(t, rpw) for rpw in (1, 2, 4)]
    return out
