"""Clusters of close eigenvalues in the tridiagonal eigensolver (tridiag.py), and the
parallel path for long ones.

Inverse iteration loses about eps ||T|| / gap of orthogonality between the vectors of two
eigenvalues ``gap`` apart, so InvIterSpec computes a cluster (consecutive eigenvalues of
one block within ORTOL_N / n ||T||, chained) serially in one workgroup, each vector
re-orthogonalised against the cluster's earlier ones: O(m^2 n) work on one workgroup for m
members. A random symmetric matrix has clusters of 2-3; a covariance G G^T / n + I has
the dense low end of its Marchenko-Pastur spectrum chained into one cluster of about n / 2
members (H100: 4.7 s of eigh 2048 float32, where cuSOLVER takes 26 ms).

So one small read after the eigenvalues (ClusterSpec: the longest loose and tight chain
of every matrix) decides the mode:
- ``serial``: the longest loose chain has at most EIGH_SERIAL_MAX (a knob) members.
- ``parallel``: only tight chains (eigenvalues within TIGHT unit roundoffs of ||T||: near
  degenerate, where independent vectors need not span the eigenspace well) stay serial;
  every other vector is its own workgroup's, and Z then takes NS_STEPS Newton-Schulz
  steps towards its orthogonal polar factor, Z <- Z - Z (Z^T Z - I) / 2, all GEMMs.
  The step mixes z_i and z_j by about their overlap, ~ eps ||T|| / gap_ij, so it moves
  each residual by ~ eps ||T||: accuracy is kept where orthogonality is restored
  (overlaps up to ~0.03 after the tight chains: max |Z^T Z - I| of a covariance's raw
  vectors 2e-2 at n = 1024 float32, 5e-4 after one step, 8e-7 after two).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType, wtype
from ...storage import new_output
from .....tuning.registry import get as tuned
from ..linalg.blas import gemm_acc
from ..matmul import gemm
from .trd_common import needs, prelude
from .trd_vectors import loose_tol, tight_tol

NS_STEPS = 3      # Newton-Schulz steps of the parallel mode



@dataclasses.dataclass(frozen=True)
class ClusterSpec(KernelSpec):
    """One invocation per matrix: CS[b] = (longest loose chain, longest tight chain)."""
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("MU", a), Buf("SC", a), Buf("BLK", "u32"), Buf("CS", "u32", "rw")],
                      ["n", "nbat"], caps)

    def render(self, caps):
        return Template.file(__package__, "trd_clusters.wgsl").render(
            self.layout(caps).tokens(), pre=prelude(self.t), loose=loose_tol(),
            tight=tight_tol())

    def needs(self):
        return needs(self.t)


def cluster_sizes(client, mu, sc, blk):
    """(B, 2) uint32 on the device: each matrix's longest loose and tight chain."""
    t = wtype(mu.dtype, client, "linalg.eigh")
    B, n = mu.shape
    cs = new_output((B, 2), dt.uint32, client)
    client.kernel(ClusterSpec(t)).launch((-(-B // 64), 1, 1), MU=mu, SC=sc, BLK=blk, CS=cs,
                                         n=n, nbat=B)
    return cs


@dataclasses.dataclass(frozen=True)
class Plan:
    parallel: bool
    longest: int      # members of the longest chain InvIterSpec walks serially
    steps: int = 0    # Newton-Schulz steps (a recipe key: tests change NS_STEPS)


def plan(cs, serial=False) -> Plan:
    """The mode from ClusterSpec's sizes (the path's extra small read); ``serial``: that
    mode whatever the sizes."""
    m = cs.to_numpy().reshape(-1, 2).max(axis=0) if cs.size else np.array([1, 1])
    par = int(m[0]) > tuned("EIGH_SERIAL_MAX", cs.client) and not serial
    return Plan(par, int(m[1] if par else m[0]), NS_STEPS if par else 0)


def orthonormalise(be, z, steps):
    """Newton-Schulz steps Z <- Z - Z (Z^T Z - I) / 2 on (B, n, k) Z (columns the vectors);
    the correction is formed small and added, so it rounds relative to itself."""
    client = z.client
    t = wtype(z.dtype, client, "matmul")
    k = z.shape[-1]
    eye = be.eye(k, k, 0, z.dtype, be.device_of(z))
    half = be.scalar_operand(-0.5, z.dtype)
    bk = be.binary_kernel
    for _ in range(steps):
        s = gemm(z.permute((0, 2, 1)), z)
        h = bk("multiply")(bk("subtract")(s, eye), half)
        out = z.copy()
        gemm_acc(client, t, z, h, out)
        z = out
    return z


def variants():
    return [ClusterSpec(WTYPES[d]) for d in (dt.float32, dt.float64)]
