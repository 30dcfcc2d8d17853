"""Kernel specs of the panel factorisations (Cholesky, LU with partial pivoting, QR).

FactorSpec     one workgroup per matrix (or per panel): Cholesky, LU, Householder QR,
               right-looking, in place. ``nmax > 0``: the whole matrix (at most nmax x
               nmax) lives in workgroup memory (the many-small-matrices path); ``nmax ==
               0``: it works on global memory (the panel of a blocked factorisation, any
               number of rows, at most ``PANEL`` (QR: ``QR_PANEL``) columns).
LULeafSpec     LU of a panel of up to 16 columns held in registers (the recursive LU's leaf).
CholPanelSpec  one blocked-Cholesky step (diagonal block + the rows below) per dispatch.

Their WGSL is in wgsl/ (factor*.wgsl, lu_*.wgsl, chol_*.wgsl).
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from .scalar import prelude
from .wgsl import fragment, kernel

__all__ = ["CHOL_HEAD", "LEAF_ROWS", "PANEL", "PIVOT_WG_SUBGROUP", "PIVOT_WG_TREE", "QR_PANEL",
           "CholPanelSpec", "FactorSpec", "LULeafSpec", "shuffles", "small_wg"]

PANEL = 64     # widest panel of the global-memory Cholesky kernel (blocked algorithm)
QR_PANEL = 32  # widest QR panel: 8 row slices per column in a 256-thread workgroup
LEAF_ROWS = (1, 2, 4, 8)  # rows per invocation of LULeafSpec

# the start of a Cholesky step (CholPanelSpec, chol_regs.CholRegsSpec): this workgroup's
# matrix b and row block blk, the previous diagonal block's size o, the step's base in A
CHOL_HEAD = kernel("chol_head.wgsl").text

# the register LU kernels' pivot search over the workgroup (LULeafSpec,
# tslu): a tree in workgroup memory, or subgroup shuffles inside each subgroup, one
# barrier, then every invocation scans the subgroups' candidates (same choice as the
# tree: the largest, the first row on ties); ``${wg}``: the workgroup size
PIVOT_WG_TREE = fragment("lu_pivot_tree.wgsl").text
PIVOT_WG_SUBGROUP = fragment("lu_pivot_subgroup.wgsl").text

_SG_ARGS = (", @builtin(subgroup_size) sgs: u32, @builtin(subgroup_invocation_id) "
            "sgi: u32, @builtin(subgroup_id) sid: u32, @builtin(num_subgroups) nsg: u32")

# a global-memory panel's writes must be visible to the other invocations' next reads
_BAR = "storageBarrier(); workgroupBarrier();"


def small_wg(nmax):
    return 64 if nmax <= 16 else 128


def shuffles(t):
    """WGSL ``shr`` / ``sht``: subgroupShuffleXor of the real / element type (64-bit
    values travel as two u32)."""
    if "64" in t.name and t.name != "complex64":  # float64, complex128
        out = ("fn shr(v: R, k: u32) -> R { return bitcast<R>(subgroupShuffleXor("
               "bitcast<vec2<u32>>(v), k)); }\n")
        if t.name == "complex128":
            return out + "fn sht(v: T, k: u32) -> T { return T(shr(v.x, k), shr(v.y, k)); }"
        return out + "fn sht(v: T, k: u32) -> T { return shr(v, k); }"
    return ("fn shr(v: R, k: u32) -> R { return subgroupShuffleXor(v, k); }\n"
            "fn sht(v: T, k: u32) -> T { return subgroupShuffleXor(v, k); }")


def _register_lu_parts(t, wg, sg):
    """(prelude, pivot search, extra entry-point builtins) of the register LU kernels."""
    pivot = fragment("lu_pivot_subgroup.wgsl" if sg else "lu_pivot_tree.wgsl").render(wg=wg)
    pre = prelude(t) + ("\n" + shuffles(t) if sg else "")
    return pre, pivot, _SG_ARGS if sg else ""


@dataclasses.dataclass(frozen=True)
class FactorSpec(KernelSpec):
    t: WType
    kind: str     # "chol" | "lu" | "qr"; small path only: "lus" (LU, then solve the
                  # right-hand sides X in place), "qrq" (QR, then Q into its own buffer)
    nmax: int     # > 0: the matrix in workgroup memory (rows and columns <= nmax); 0: global
    wg: int

    def layout(self, caps):
        bufs = [Buf("A", self.t.arr, "rw")]
        words = ["m", "nc", "nbat", "a_rs", "a_cs", "a_bs"]
        if self.kind in ("lu", "lus"):
            bufs.append(Buf("ipiv", "i32", "rw"))
            words += ["p_bs", "pbase"]
        if self.kind == "lus":
            bufs.append(Buf("X", self.t.arr, "rw"))
            words += ["kx", "x_rs", "x_cs", "x_bs", "ident"]
        if self.kind in ("qr", "qrq"):
            bufs.append(Buf("tau_", self.t.arr, "rw"))
            words += ["tau_bs"]
        else:
            bufs.append(Buf("st", "atomic<u32>", "rw", offset=False))
        if self.kind == "qrq":
            bufs.append(Buf("Q", self.t.arr, "rw"))
            words += ["qc", "q_rs", "q_bs"]
        return Layout(bufs, words, caps)

    def render(self, caps):
        lay = self.layout(caps)
        tk = lay.tokens()
        T = "T"
        wg = self.wg
        local = self.nmax > 0
        shared = []
        if local:
            shared.append(f"var<workgroup> S: array<{T}, {self.nmax * self.nmax}>;")
            access = (f"fn ld(i: u32, j: u32) -> T {{ return S[i * {self.nmax}u + j]; }}\n"
                      f"fn st_(i: u32, j: u32, v: T) {{ S[i * {self.nmax}u + j] = v; }}")
            idx = f"base + i * {tk['a_rs']} + j * {tk['a_cs']}"
            load = (f"  for (var e = tid; e < m * nc; e += {wg}u) {{\n"
                    f"    let i = e / nc; let j = e % nc;\n"
                    f"    S[i * {self.nmax}u + j] = A[{idx}];\n  }}\n  workgroupBarrier();")
            save = (f"  workgroupBarrier();\n"
                    f"  for (var e = tid; e < m * nc; e += {wg}u) {{\n"
                    f"    let i = e / nc; let j = e % nc;\n"
                    f"    A[{idx}] = S[i * {self.nmax}u + j];\n  }}")
            bar = "workgroupBarrier();"
        else:
            access = (f"fn ld(i: u32, j: u32) -> T {{ return A[base + i * {tk['a_rs']} + "
                      f"j * {tk['a_cs']}]; }}\n"
                      f"fn st_(i: u32, j: u32, v: T) {{ A[base + i * {tk['a_rs']} + "
                      f"j * {tk['a_cs']}] = v; }}")
            load = save = ""
            bar = _BAR
        # Fused tails of the small path (the factor stays in workgroup memory): each
        # thread owns one right-hand side ("lus") / one column of Q ("qrq") in a private
        # array.
        tail = ""
        record = ""
        if self.kind == "chol":
            # L (lower) overwrites the lower triangle; the upper one is left as is
            shared.append("var<workgroup> shr: R;")
            body = fragment("factor_chol.wgsl").render(bar=bar, wg=wg)
        elif self.kind in ("lu", "lus"):
            # pivot = first entry of largest |re| + |im| (LAPACK's choice); a zero pivot
            # column is left unscaled and flags the matrix singular. In workgroup memory
            # (at most 32 rows) one thread scans the column: one barrier, not a tree of them
            shared += [f"var<workgroup> rv: array<R, {wg}>;",
                       f"var<workgroup> ri: array<u32, {wg}>;"]
            pivot = (fragment("factor_pivot_scan.wgsl").render() if local
                     else fragment("factor_pivot_tree.wgsl").render(wg=wg))
            if self.kind == "lus":
                shared.append(f"var<workgroup> pvs: array<u32, {self.nmax}>;")
                record = "pvs[j] = p;"
                tail = kernel("factor_lus_tail.wgsl").render(tk, wg=wg, nmax=self.nmax)
                save = ""  # only X leaves the workgroup
            body = fragment("factor_lu.wgsl").render(tk, pivot=pivot, record=record, bar=bar,
                                                     wg=wg)
        else:
            # Householder QR (LAPACK's geqr2 conventions: beta real, v_0 = 1 not stored,
            # tau with H = I - tau v v^H); the column norm is scaled by its largest
            # component so squares neither overflow nor flush to zero
            ncap = self.nmax if local else QR_PANEL
            shared += [f"var<workgroup> red: array<R, {wg}>;",
                       f"var<workgroup> wv: array<T, {ncap}>;",
                       f"var<workgroup> part: array<T, {wg}>;"]
            norm = (fragment("factor_norm_scan.wgsl").render() if local
                    else fragment("factor_norm_tree.wgsl").render(wg=wg))
            if self.kind == "qrq":
                shared.append(f"var<workgroup> tw: array<T, {self.nmax}>;")
                record = "tw[j] = tau;"
                tail = kernel("factor_qrq_tail.wgsl").render(tk, wg=wg, nmax=self.nmax)
            body = fragment("factor_qr.wgsl").render(tk, norm=norm, record=record, bar=bar,
                                                     wg=wg, ncap=ncap, ns=wg // ncap)
        return kernel("factor.wgsl").render(tk, prelude=prelude(self.t),
                                            shared="\n".join(shared), access=access, wg=wg,
                                            load=load, body=body, save=save, tail=tail)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class LULeafSpec(KernelSpec):
    """LU with partial pivoting of an m x nc panel (nc <= leaf, m <= rpt * wg) held in
    registers: each invocation owns rows tid, tid + wg, ..., so the rank-1 updates touch
    no shared or global memory; the pivot row travels through workgroup memory. The
    latency-bound panel of the recursive LU, without a global access per update."""

    t: WType
    wg: int
    rpt: int
    leaf: int = 16
    sg: bool = False  # pivot search by subgroup shuffles (one barrier, not log2(wg))

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("ipiv", "i32", "rw"),
                       Buf("st", "atomic<u32>", "rw", offset=False)],
                      ["m", "nc", "nbat", "a_rs", "a_cs", "a_bs", "p_bs", "pbase"], caps)

    def render(self, caps):
        pre, pivot, sgargs = _register_lu_parts(self.t, self.wg, self.sg and caps.subgroup)
        return kernel("lu_leaf.wgsl").render(self.layout(caps).tokens(), prelude=pre,
                                             wg=self.wg, rpt=self.rpt, leaf=self.leaf,
                                             regs=self.rpt * self.leaf, pivot=pivot,
                                             sgargs=sgargs)

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class CholPanelSpec(KernelSpec):
    """One step of the blocked Cholesky in one dispatch: the kb x kb diagonal block
    (kb <= nb) factorised in workgroup memory by every workgroup, and the m2 rows below
    it solved against it, one per invocation; the trailing update's operands -L21 and
    L21^H leave in their own buffers (GEMM reads them, never ``A``). With several
    workgroups the factor of the diagonal block goes to D[par] (the others may still be
    reading A11) and reaches A in the next step's dispatch (``o``: its size; ``A`` is
    bound from that previous block on)."""

    t: WType
    nb: int
    wg: int = 64
    # > 0: tr rows of A21 per workgroup in workgroup memory (else a row each): x L11^H = a
    # a column of L11 at a time over all (row, column) pairs (column j's divide lands one
    # step late, so every invocation of step j reads it raw); then A21, Nn = -x, Pt = x^H
    tr: int = 0
    # trusted (compiled without wgpu's runtime checks, KernelSpec.runtime_checks):
    # every index is structural: the packed triangle's li(i, j) with j <= i < kb <= nb
    # (the caller's panel width), the row tiles' i < tr, j < kb, private x[j] with
    # j < kb; every loop is counted by kb, m2, tr or the workgroup size
    trusted: bool = False

    def layout(self, caps):
        return Layout([Buf("A", self.t.arr, "rw"), Buf("st", "atomic<u32>", "rw", offset=False),
                       Buf("Nn", self.t.arr, "rw"), Buf("Pt", self.t.arr, "rw"),
                       Buf("D", self.t.arr, "rw")],
                      ["kb", "m2", "nbat", "nblk", "a_rs", "a_cs", "a_bs", "n_bs", "p_bs",
                       "o", "par", "d_bs"],
                      caps)

    def render(self, caps):
        tk = self.layout(caps).tokens()
        rows = fragment("chol_rows_tile.wgsl" if self.tr else "chol_rows_thread.wgsl")
        rows = rows.render(tk, {"wg": self.wg, "nb": self.nb, "tr": self.tr})
        tilevar = f"var<workgroup> xt: array<T, {self.tr * self.nb}>;" if self.tr else ""
        return kernel("chol_panel.wgsl").render(
            tk, prelude=prelude(self.t), head=fragment("chol_head.wgsl").render(tk),
            wg=self.wg, nb=self.nb, packed=self.nb * (self.nb + 1) // 2, rows=rows,
            tilevar=tilevar)

    def shared_bytes(self):
        return (self.nb * (self.nb + 1) // 2 + self.tr * self.nb) * self.t.itemsize + 64

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()
