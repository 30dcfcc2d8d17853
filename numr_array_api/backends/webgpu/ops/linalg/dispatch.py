"""Launch geometry and limits every linalg driver shares: grids over a stack, the status
word, the global-memory panel's workgroup, and FactorSpec dispatches (a workgroup per
matrix in workgroup memory, or per panel in global memory).
"""

from __future__ import annotations

from ....._core import dtypes as dt
from ....._core.errors import BackendLimitation
from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...kernels.fill import full
from ...runtime.adapters import is_cpu
from .specs import FactorSpec, small_wg


def grid(n, client):
    """(gx, gy, 1) covering ``n`` workgroups (2-D beyond the per-dimension limit)."""
    mg = client.max_groups
    gx = max(1, min(n, mg))
    return gx, max(1, -(-n // gx)), 1


def thread_grid(n, client, wg=64):
    """The grid of ``n`` invocations in workgroups of ``wg``."""
    return grid(-(-n // wg), client)


def status_word(client):
    """One u32, zero: the kernels or bits into it (mixin.py reads it once a call)."""
    return full((1,), 0, dt.uint32, client)


def panel_wg(client, t):
    """Threads of a global-memory panel workgroup (PANEL_WG): the panel loops are latency
    bound, so GPUs get as many warps in flight as one workgroup holds, as far as the
    per-thread reduction slots fit workgroup memory; CPU adapters, whose barriers cost in
    proportion to the invocations, take fewer (their table)."""
    caps = Caps.of(client)
    wg = caps.wg_size(tuned("PANEL_WG", client))
    while wg > 256 and wg * (t.itemsize + 8) + 4096 > caps.workgroup_storage:
        wg //= 2
    return wg


def check_rows(client, what, m):
    """CPU adapters (lavapipe) silently end a loop after 65535 iterations per invocation,
    counted over all its entries; the panel kernels loop about 2 * m / 256 * 256 times
    per thread over a panel of m rows: refuse what could reach that."""
    if m > 30000 and is_cpu(client.info):
        raise BackendLimitation("webgpu", f"linalg {what} of matrices with {m} rows on a "
                                "CPU adapter", "lavapipe stops loops beyond 65535 "
                                "iterations; the panel kernel could exceed that")


def factor_launch(client, t, kind, nmax, w, status=None, ipiv=None, tau=None, pbase=0):
    """One FactorSpec dispatch over every matrix of the (B, m, nc) view ``w`` (``nmax``
    0: the global-memory panel)."""
    wg = small_wg(nmax) if nmax else panel_wg(client, t)
    k = client.kernel(FactorSpec(t, kind, nmax, wg))
    B, m, nc = w.shape
    args = dict(A=w, m=m, nc=nc, nbat=B, a_rs=w.strides[1], a_cs=w.strides[2],
                a_bs=w.strides[0])
    if kind == "lu":
        args.update(ipiv=ipiv, p_bs=ipiv.strides[0], pbase=pbase, st=status)
    elif kind == "qr":
        args.update(tau_=tau, tau_bs=tau.strides[0])
    else:
        args.update(st=status)
    k.launch(grid(B, client), **args)
