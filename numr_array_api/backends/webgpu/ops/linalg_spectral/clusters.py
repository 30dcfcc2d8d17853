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
  A tight chain of more than EIGH_TIGHT_SERIAL_MAX (a knob) members is not walked
  serially either (O(m^2 n) on one workgroup): each member is its own leader from a start
  vector of its own, i.e. an independent random vector of the (near-)degenerate
  eigenspace, and the chain's block is orthonormalised by Householder QR
  (orthonormalise_chains; a random basis of a large eigenspace overlaps far beyond
  Newton-Schulz's reach), its members solved once more and QR'd again (tridiag.py's
  CHAIN_ROUNDS). The host reads the chains (ChainSpec's CH) only when the longest tight
  chain is that long.
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
from ..linalg.qr import form_q, qr
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


@dataclasses.dataclass(frozen=True)
class ChainSpec(KernelSpec):
    """An invocation per slot: CH[b, s] = (first slot, members) of slot s's tight chain
    (apart from ClusterSpec, whose single invocation per matrix would walk n more slots
    serially on every call)."""
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("MU", a), Buf("SC", a), Buf("BLK", "u32"), Buf("CH", "u32", "rw")],
                      ["n", "nbat"], caps)

    def render(self, caps):
        return Template.file(__package__, "trd_chains.wgsl").render(
            self.layout(caps).tokens(), pre=prelude(self.t), tight=tight_tol())

    def needs(self):
        return needs(self.t)


def cluster_sizes(client, mu, sc, blk):
    """(ch, cs) uint32 on the device: ch (B, n, 2) each slot's tight chain (first slot,
    members), cs (B, 2) each matrix's longest loose and tight chain."""
    t = wtype(mu.dtype, client, "linalg.eigh")
    B, n = mu.shape
    cs = new_output((B, 2), dt.uint32, client)
    ch = new_output((B, n, 2), dt.uint32, client)
    client.kernel(ClusterSpec(t)).launch((-(-B // 64), 1, 1), MU=mu, SC=sc, BLK=blk, CS=cs,
                                         n=n, nbat=B)
    client.kernel(ChainSpec(t)).launch((-(-n // 64), B, 1), MU=mu, SC=sc, BLK=blk, CH=ch,
                                       n=n, nbat=B)
    return ch, cs


@dataclasses.dataclass(frozen=True)
class Plan:
    parallel: bool
    longest: int      # members of the longest chain InvIterSpec walks serially
    steps: int = 0    # Newton-Schulz steps (a recipe key: tests change NS_STEPS)
    tmax: int = 0     # tight chains of more members are computed independently ...
    chains: tuple = ()  # ... these: (matrix, first slot, members, rows of T's block),
                        # QR-orthonormalised


def plan(cs, ch, blk, serial=False) -> Plan:
    """The mode from ClusterSpec's sizes (the path's extra small read; a second one of
    the chains when a tight chain outgrows EIGH_TIGHT_SERIAL_MAX); ``serial``: that mode
    whatever the sizes."""
    m = cs.to_numpy().reshape(-1, 2).max(axis=0) if cs.size else np.array([1, 1])
    par = int(m[0]) > tuned("EIGH_SERIAL_MAX", cs.client) and not serial
    if not par:
        return Plan(False, int(m[0]))
    tmax = tuned("EIGH_TIGHT_SERIAL_MAX", cs.client)
    if int(m[1]) <= tmax:
        return Plan(True, int(m[1]), NS_STEPS, tmax)
    c = ch.to_numpy().reshape(ch.shape[0], -1, 2).astype(np.int64)
    b, s = np.nonzero((c[..., 0] == np.arange(c.shape[1])) & (c[..., 1] > tmax))
    rows = blk.to_numpy().reshape(c.shape)[b, s]
    chains = tuple(zip(b.tolist(), s.tolist(), c[b, s, 1].tolist(), rows[:, 0].tolist(),
                       (rows[:, 1] + 1).tolist()))
    # the serial walk's length bounds CPU adapters' dispatch rounds (tridiag._cluster_round)
    short = c[..., 1][c[..., 1] <= tmax]
    return Plan(True, int(short.max()) if short.size else 1, NS_STEPS, tmax, chains)


def orthonormalise_chains(be, zs, chains):
    """Each long tight chain's rows of the slot-ordered vectors ``zs`` (B, n, n), random
    vectors of one (near-)degenerate eigenspace, replaced by an orthonormal basis of their
    span: Householder QR of the chain's (rows of its block of T) x m block (overlaps of a
    random basis are far beyond Newton-Schulz's reach). The mixing stays within
    eigenvalues TIGHT unit roundoffs apart, so the residuals keep eps ||T||; only the rows
    of the chain's block take part (the QR's rounding elsewhere would leak into other
    blocks' eigenvectors). Chains of one shape share one batched QR."""
    client = zs.client
    groups = {}
    for b, s0, m, p, q in chains:
        groups.setdefault((m, q - p), []).append((b, s0, p))
    dev = be.device_of(zs)
    for (m, r), members in groups.items():
        k = len(members)
        w = new_output((k, r, m), zs.dtype, client)
        for i, (b, s0, p) in enumerate(members):
            be.store(w[i], zs[b, s0:s0 + m, p:p + r].permute((1, 0)))
        tau = new_output((k, m), zs.dtype, client)
        qm = be.eye(r, m, 0, zs.dtype, dev).broadcast_to((k, r, m)).copy()
        form_q(be, qr(be, w, tau), qm)
        for i, (b, s0, p) in enumerate(members):
            be.store(zs[b, s0:s0 + m, p:p + r], qm[i].permute((1, 0)))
    return zs


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
    return [cls(WTYPES[d]) for d in (dt.float32, dt.float64) for cls in (ClusterSpec, ChainSpec)]
