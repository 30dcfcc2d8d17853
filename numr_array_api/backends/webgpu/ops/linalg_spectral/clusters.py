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
- ``serial``: the longest loose chain has at most SERIAL_MAX members: as before.
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
import os

import numpy as np

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WType, wtype
from ...storage import new_output
from ..linalg.factor import gemm_acc
from ..matmul import gemm
from .tridiag_specs import _needs, _pre, loose_tol, tight_tol

SERIAL_MAX = 12   # the longest loose chain the serial mode takes (NUMR_WEBGPU_EIGH_SERIAL_MAX)
NS_STEPS = 3      # Newton-Schulz steps of the parallel mode


_CLUSTERS = Template("""${pre}
${layout}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>) {
  let b = gid.x;
  let n = ${n};
  if (b >= ${nbat}) { return; }
  let mb = ${MU_off} + b * n;
  let ob = ${BLK_off} + b * 2u * n;
  let tn = SC[${SC_off} + b * 2u + 1u];
  let lt = ${loose};
  let tt = ${tight};
  var cl = 1u;
  var ct = 1u;
  var ml = 1u;
  var mt = 1u;
  for (var s = 1u; s < n; s++) {
    let bp = BLK[ob + 2u * s];
    let same = bp < n && bp == BLK[ob + 2u * s - 2u];
    let g = MU[mb + s] - MU[mb + s - 1u];
    cl = select(1u, cl + 1u, same && g <= lt);
    ct = select(1u, ct + 1u, same && g <= tt);
    ml = max(ml, cl);
    mt = max(mt, ct);
  }
  CS[${CS_off} + 2u * b] = ml;
  CS[${CS_off} + 2u * b + 1u] = mt;
}
""", "trd_clusters")


@dataclasses.dataclass(frozen=True)
class ClusterSpec(KernelSpec):
    """One invocation per matrix: CS[b] = (longest loose chain, longest tight chain)."""
    t: WType

    def layout(self, caps):
        a = self.t.arr
        return Layout([Buf("MU", a), Buf("SC", a), Buf("BLK", "u32"), Buf("CS", "u32", "rw")],
                      ["n", "nbat"], caps)

    def render(self, caps):
        return _CLUSTERS.render(self.layout(caps).tokens(), pre=_pre(self.t),
                                loose=loose_tol(), tight=tight_tol())

    def needs(self):
        return _needs(self.t)


def cluster_sizes(client, mu, sc, blk):
    """(B, 2) uint32 on the device: each matrix's longest loose and tight chain."""
    from ....._core import dtypes as dt
    t = wtype(mu.dtype, client, "linalg.eigh")
    B, n = mu.shape
    cs = new_output((B, 2), dt.uint32, client)
    client.kernel(ClusterSpec(t)).launch((-(-B // 64), 1, 1), MU=mu, SC=sc, BLK=blk, CS=cs,
                                         n=n, nbat=B)
    return cs


def serial_max() -> int:
    v = os.environ.get("NUMR_WEBGPU_EIGH_SERIAL_MAX", "").strip()
    try:
        return int(v) if v else SERIAL_MAX
    except ValueError:
        return SERIAL_MAX


@dataclasses.dataclass(frozen=True)
class Plan:
    parallel: bool
    longest: int      # members of the longest chain InvIterSpec walks serially
    steps: int = 0    # Newton-Schulz steps (a recipe key: tests change NS_STEPS)


def plan(cs, serial=False) -> Plan:
    """The mode from ClusterSpec's sizes (the path's extra small read); ``serial``: that
    mode whatever the sizes."""
    m = cs.to_numpy().reshape(-1, 2).max(axis=0) if cs.size else np.array([1, 1])
    par = int(m[0]) > serial_max() and not serial
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
