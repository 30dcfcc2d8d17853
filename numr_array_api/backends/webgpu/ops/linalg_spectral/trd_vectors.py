"""Eigenvectors of the symmetric tridiagonal T (tridiag.py) by inverse iteration.

InvIterSpec  (trd_invit.wgsl) a workgroup per cluster leader: T - mu I factored by
             tridiagonal LU with partial pivoting, INV_ITERS solves per vector; T is split
             where |e| is negligible, and a cluster of close eigenvalues of one block is
             computed by its first member's workgroup, serially, each vector
             re-orthogonalised (modified Gram-Schmidt) against the cluster's earlier ones
             (clusters.py decides which chains stay serial; the members of a longer tight
             chain are computed independently, then orthonormalised by QR).
GatherSpec   (trd_gather.wgsl) the eigenvector slots of InvIterSpec into eigenvalue order.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType
from .trd_common import needs, prelude

ORTOL = 1e-3       # eigenvalues of one block closer than min(ORTOL, ORTOL_N / n) ||T||: a
ORTOL_N = 0.5      # cluster. LAPACK stein's 1e-3 alone would make the bulk of a random
                   # n > 1000 spectrum one cluster (mean gap ~ pi / (2 n) ||T||), computed
                   # serially; inverse iteration loses ~ eps ||T|| / gap of orthogonality
INV_ITERS = 3      # inverse iteration solves per vector
TIGHT = 256.0      # chains within TIGHT unit roundoffs of ||T|| stay serial in clusters.py's
                   # parallel mode (up to EIGH_TIGHT_SERIAL_MAX members; longer: QR)


def loose_tol() -> str:
    """The WGSL expression of the loose chaining distance (InvIterSpec and clusters.py's
    ClusterSpec must round it identically: the read's sizes bound the kernel's clusters)."""
    return f"min(R({ORTOL!r}), R({ORTOL_N!r}) / R(n)) * tn"


def tight_tol() -> str:
    return f"R({TIGHT!r}) * EPS * tn"


def _trees(names, wg):
    """WGSL workgroup tree reductions over ``red`` (one value an invocation, every
    invocation gets the result): a sum and a max named ``names``, the halvings spelled out
    (lavapipe counts loop iterations per invocation across all calls)."""
    out = []
    for name, comb in zip(names, ("{a} + {b}", "max({a}, {b})")):
        lines = [f"fn {name}(tid: u32, x: R) -> R {{", "  red[tid] = x;", "  workgroupBarrier();",
                 "  // unrolled: lavapipe counts loop iterations per invocation across all calls"]
        s = wg // 2
        while s:
            c = comb.format(a="red[tid]", b=f"red[tid + {s}u]")
            lines += [f"  if (tid < {s}u) {{ red[tid] = {c}; }}", "  workgroupBarrier();"]
            s //= 2
        lines += ["  let r = red[0];", "  workgroupBarrier();", "  return r;", "}"]
        out.append("\n".join(lines))
    return "\n\n".join(out)


@dataclasses.dataclass(frozen=True)
class InvIterSpec(KernelSpec):
    """A workgroup per slot; the first slot of each cluster (consecutive slots of one block
    whose eigenvalues are within the chaining distance) computes the cluster's vectors in
    order: invocation 0 factors T - mu I and solves, the workgroup normalises and
    re-orthogonalises against the cluster's earlier vectors."""

    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("D", a), Buf("E", a), Buf("MU", a), Buf("SC", a),
                       Buf("BLK", "u32"), Buf("CH", "u32"), Buf("ZS", a, "rw"),
                       Buf("S", a, "rw")],
                      ["n", "nbat", "r0", "r1", "l0", "nl", "tight", "tmax", "refine"],
                      caps)

    def render(self, caps):
        return Template.file(__package__, "trd_invit.wgsl").render(
            self.layout(caps).tokens(), pre=prelude(self.t), trees=_trees(("wsum", "wmax"), 64),
            loose=loose_tol(), tightd=tight_tol(), iters=INV_ITERS)

    def needs(self):
        return needs(self.t)


@dataclasses.dataclass(frozen=True)
class GatherSpec(KernelSpec):
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("ZS", a), Buf("SLOT", "u32"), Buf("Z", a, "rw")], ["n", "nbat"],
                      caps)

    def render(self, caps):
        return Template.file(__package__, "trd_gather.wgsl").render(
            self.layout(caps).tokens(), pre=prelude(self.t))

    def needs(self):
        return needs(self.t)


def variants():
    return [cls(WTYPES[d]) for d in (dt.float32, dt.float64) for cls in (InvIterSpec, GatherSpec)]
