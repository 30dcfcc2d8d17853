"""Kernel specs of the blocked factorisations' trailing updates: the operands the tiled
GEMM multiplies, and the block reflector of a QR panel (compact WY, I - V T V^H, so the
update and the forming of Q are GEMMs).

LarftSpec    the triangular factor T of a panel's block reflector from G = V^H V and tau.
NegCopySpec  the GEMM update's operands -A and B as copies, one dispatch.
QrVSpec      a QR panel's explicit V and V^H.
QrTSpec      T in workgroup memory, then the update's left operands -(V T)^H, -(V T^H)^H.

Their WGSL is in wgsl/ (larft.wgsl, neg_copy.wgsl, qr_v.wgsl, qr_t.wgsl).
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WType
from .scalar import prelude
from .wgsl import kernel

__all__ = ["LARFT_KB_MAX", "LarftSpec", "NegCopySpec", "QrTSpec", "QrVSpec"]

LARFT_KB_MAX = 256   # widest block reflector LarftSpec builds (T: kb^2 entries of global memory)


@dataclasses.dataclass(frozen=True)
class LarftSpec(KernelSpec):
    """The upper triangular T of a block reflector I - V T V^H (LAPACK's larft, forward,
    columnwise) from G = V^H V and tau; G and T contiguous (B, kb, kb), kb <=
    LARFT_KB_MAX."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("G", self.t.arr), Buf("tau", self.t.arr), Buf("Tm", self.t.arr, "rw")],
                      ["kb", "nbat", "tau_bs"], caps)

    def render(self, caps):
        return kernel("larft.wgsl").render(self.layout(caps).tokens(), prelude=prelude(self.t))

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class NegCopySpec(KernelSpec):
    """The GEMM update's operands in one dispatch: N = -A and Pc = B as contiguous copies
    (A and B may be views of the buffer the update writes, which a GEMM cannot bind)."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("Sa", self.t.arr), Buf("Sb", self.t.arr), Buf("N", self.t.arr, "rw"),
                       Buf("Pc", self.t.arr, "rw")],
                      ["nbat", "ar", "ac", "a_rs", "a_cs", "a_bs", "br", "bc", "b_rs", "b_cs",
                       "b_bs"], caps)

    def render(self, caps):
        return kernel("neg_copy.wgsl").render(self.layout(caps).tokens(),
                                              prelude=prelude(self.t))

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class QrVSpec(KernelSpec):
    """A QR panel's reflectors as explicit V (m x kb: unit diagonal, zeros above) and
    V^H (kb x m), contiguous, for the GEMMs of the block reflector."""

    t: WType

    def layout(self, caps):
        return Layout([Buf("Pn", self.t.arr), Buf("V", self.t.arr, "rw"),
                       Buf("VH", self.t.arr, "rw")],
                      ["m", "kb", "nbat", "p_rs", "p_cs", "p_bs"], caps)

    def render(self, caps):
        return kernel("qr_v.wgsl").render(self.layout(caps).tokens(), prelude=prelude(self.t))

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()


@dataclasses.dataclass(frozen=True)
class QrTSpec(KernelSpec):
    """T of a panel's block reflector from G = V^H V and tau (in workgroup memory, every
    workgroup), then -(V T)^H and -(V T^H)^H row by row: the left operands of the trailing
    update C += V (-(V T)^H C) and of forming Q, q += V (-(T V^H) q)."""

    t: WType
    kbmax: int = 32

    def layout(self, caps):
        return Layout([Buf("G", self.t.arr), Buf("tau", self.t.arr), Buf("V", self.t.arr),
                       Buf("Y1", self.t.arr, "rw"), Buf("Y2", self.t.arr, "rw")],
                      ["m", "kb", "nbat", "nblk", "tau_bs"], caps)

    def render(self, caps):
        return kernel("qr_t.wgsl").render(self.layout(caps).tokens(), prelude=prelude(self.t),
                                          kk=self.kbmax * self.kbmax,
                                          kq=self.kbmax * self.kbmax // 4,
                                          kbm=self.kbmax, rw=self.rows)

    @property
    def rows(self) -> int:
        """Rows of V a workgroup covers (256 invocations, one per (row, column))."""
        return 256 // self.kbmax

    def needs(self):
        return ("f64",) if self.t.need == "shader-f64" else ()
