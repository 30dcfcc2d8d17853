"""Eigenvalues of the symmetric tridiagonal T (tridiag.py): W-point multisection with Sturm
counts, a workgroup per eigenvalue.

BisectSpec      (trd_bisect.wgsl) the eigenvalues of T in ascending index order (eigvalsh).
BlockBisectSpec (trd_blockbis.wgsl) T split where |e| is negligible: each slot's block and
                its eigenvalue within that block (eigh: inverse iteration works per block).
RankSpec        (trd_rank.wgsl) each slot's rank among all slots' eigenvalues: the order
                of the eigenvalues and of their vectors.
Shared fragments: trd_sturm.wgsl (the Sturm count of T - x I, the next row's d and e loaded
a step ahead so their loads overlap the division chain: H100 2026-11-27,
2026-11-27, eigh 512 float64 15.0 / 14.2 ms against 15.8 / 14.5),
trd_msect.wgsl (a multisection round: each invocation one Sturm count, log2(W + 1) bits a
round instead of bisection's 1), trd_norms.wgsl (scale, Gershgorin norm, pivmin, split).
"""

from __future__ import annotations

import dataclasses
import math

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType
from .trd_common import nan, needs, prelude

MSECT_ROUNDS = {"f32": 8, "f64": 14}   # rounds of 64 points (6 bits each)
SPLIT_C = 8.0      # |e| <= SPLIT_C eps ||T|| splits T (a perturbation of that size)


def _file(name):
    return Template.file(__package__, name)


def msect_rounds(val, mw):
    """Rounds of ``mw`` points giving the bits of MSECT_ROUNDS[val] rounds of 64."""
    return math.ceil(MSECT_ROUNDS[val] * math.log2(65) / math.log2(mw + 1) - 1e-9)


def _sturm():
    return "\n" + _file("trd_sturm.wgsl").render()


def _msect(t, mw):
    return "\n" + _file("trd_msect.wgsl").render(rounds=msect_rounds(t.val, mw), mw1=mw + 1,
                                                  mw=mw)


def _norms():
    return "\n" + _file("trd_norms.wgsl").render(split_c=repr(SPLIT_C))


@dataclasses.dataclass(frozen=True)
class BisectSpec(KernelSpec):
    """Eigenvalues of T by W-point multisection (``mw``: the workgroup)."""

    t: WType
    mw: int = 64

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("D", a), Buf("E", a), Buf("W", a, "rw")], ["n", "nbat"], caps)

    def render(self, caps):
        return _file("trd_bisect.wgsl").render(
            self.layout(caps).tokens(), pre=prelude(self.t), sturm=_sturm(), mw=self.mw,
            nan=nan(self.t), msect=_msect(self.t, self.mw), norms=_norms())

    def needs(self):
        return needs(self.t)


@dataclasses.dataclass(frozen=True)
class BlockBisectSpec(KernelSpec):
    """Eigenvalues of the split T's blocks (as BisectSpec: ``mw`` points a round): a
    workgroup per slot s finds the block [bp, bq] of the split T holding row s and the
    block's eigenvalue s - bp (scaled), MU[s]; BLK[s] = (bp, bq)."""

    t: WType
    mw: int = 64

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("D", a), Buf("E", a), Buf("MU", a, "rw"), Buf("SC", a, "rw"),
                       Buf("BLK", "u32", "rw")], ["n", "nbat"], caps)

    def render(self, caps):
        return _file("trd_blockbis.wgsl").render(
            self.layout(caps).tokens(), pre=prelude(self.t), sturm=_sturm(), norms=_norms(),
            msect=_msect(self.t, self.mw), mw=self.mw, nan=nan(self.t))

    def needs(self):
        return needs(self.t)


@dataclasses.dataclass(frozen=True)
class RankSpec(KernelSpec):
    """One invocation per slot: its rank among all slots' eigenvalues (ties by slot) is
    its column: W[rank] (unscaled), SLOT[rank] = slot."""

    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("MU", a), Buf("SC", a), Buf("W", a, "rw"),
                       Buf("SLOT", "u32", "rw")], ["n", "nbat"], caps)

    def render(self, caps):
        return _file("trd_rank.wgsl").render(self.layout(caps).tokens(), pre=prelude(self.t),
                                             nan=nan(self.t))

    def needs(self):
        return needs(self.t)


def variants():
    """Every eigenvalue kernel, for each multisection width the knob offers (render tests)."""
    out = []
    for d in (dt.float32, dt.float64):
        t = WTYPES[d]
        out.append(RankSpec(t))
        for mw in (64, 128, 256):
            out += [BisectSpec(t, mw), BlockBisectSpec(t, mw)]
    return out
