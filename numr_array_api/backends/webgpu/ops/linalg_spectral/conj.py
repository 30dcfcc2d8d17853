"""Eigenvalues of real matrices as exact conjugate pairs (eig / eigvals of real input).

The eig kernel works in complex arithmetic (complex Schur form), so the two eigenvalues of a
real matrix's complex pair come out conjugate only to rounding, and a real eigenvalue may
carry an imaginary part of a few ulps. LAPACK's real Schur form returns exact pairs and
exactly real values, and consumers count on it (SciPy's tf2zpk test sorts z and conj(z)
and compares them exactly). Per matrix, one thread: each eigenvalue with a positive
imaginary part is paired with the unpaired one nearest its conjugate, both within
sqrt(eps) * max|lambda|, and the pair is replaced by its mean (re, +-im); an unpaired
eigenvalue whose imaginary part is within that tolerance becomes real.
"""

from __future__ import annotations

import dataclasses

from ....._core import dtypes as dt
from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.template import Template
from ...codegen.types import WTYPES, WType


@dataclasses.dataclass(frozen=True)
class ConjPairSpec(KernelSpec):
    ct: WType     # complex64 / complex128 eigenvalues

    def needs(self):
        return ("f64",) if "f64" in self.ct.val else ()

    def layout(self, caps):
        return Layout([Buf("W", self.ct.val, "rw"), Buf("F", "u32", "rw")], ["nb", "n"], caps)

    def render(self, caps):
        f64 = "f64" in self.ct.val
        T = "f64" if f64 else "f32"
        lit = (lambda v: f"{v!r}lf") if f64 else (lambda v: f"{v!r}f")
        eps = 2.0 ** -52 if f64 else 2.0 ** -23
        return Template.file(__package__, "eig_conj_pairs.wgsl").render(
            self.layout(caps).tokens(), E=f"vec2<{T}>", zero=lit(0.0), half=lit(0.5),
            tol=lit(eps ** 0.5))

    @property
    def label(self):
        return f"eig_conj_{self.ct.name}"


def variants():
    return [ConjPairSpec(WTYPES[d]) for d in (dt.complex64, dt.complex128)]
