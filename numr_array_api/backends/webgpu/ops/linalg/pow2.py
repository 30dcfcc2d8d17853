"""Power-of-two normalisation of stacks of matrices before the kernels that form squares
or reassociable products of their entries (the wide QR panel, the eigh tridiagonalisation).

NVIDIA's compiler may reassociate a product with a scale ((x / s) p -> (x p) / s: Vulkan
floats carry no strictness): on an H100 the wide QR panel gave NaN for float32 entries
>= 1e20 and a backward error of 0.5 for <= 1e-20, where lavapipe was exact. Scaled so that
max |A| lies in [1, 2), no product can leave the range; entries tiny against max |A| only
lose what is negligible next to ||A||. The scale is a power of two, so the scaling and its
undoing are exact.

Past the max |A| reduction, one Pow2Spec dispatch turns each matrix's max into its scale
from the exponent bits (composed of elementwise ops it took ~12 dispatches), then one
multiply.
"""

from __future__ import annotations

import dataclasses

from ...codegen.layout import Buf, Layout
from ...codegen.spec import KernelSpec
from ...codegen.types import WTYPES, WType, wtype
from ...storage import new_output
from ...wgsl import math_library
from .scalar import prelude
from .wgsl import kernel


@dataclasses.dataclass(frozen=True)
class Pow2Spec(KernelSpec):
    """Per matrix: max |A| (real, Mx) -> Sc = 2^-e with max |A| Sc in [1, 2), in the
    matrices' element type (wgsl/pow2.wgsl: zero, inf and NaN matrices keep the scale 1;
    the exponent stays where 2^-e is normal)."""

    t: WType

    @property
    def real(self):
        """The WGSL real type (max |A| and the math library's)."""
        return "f64" if self.t.name in ("float64", "complex128") else "f32"

    def layout(self, caps):
        return Layout([Buf("Mx", self.real), Buf("Sc", self.t.arr, "rw")], ["nbat"], caps)

    def render(self, caps):
        f = self.real
        lo, hi = (-1021, 1022) if f == "f64" else (-125, 126)
        return kernel("pow2.wgsl").render(self.layout(caps).tokens(), prelude=prelude(self.t),
                                          math=math_library(["frexp"], f), F=f, elo=str(lo),
                                          ehi=str(hi))

    def needs(self):
        return ("f64", "int64") if self.real == "f64" else ()


def pow2_normalise(be, w):
    """w (B, m, n) scaled in place by a power of two per matrix bringing max |w| into
    [1, 2); returns the scales (B, 1, 1) in w's dtype (1 for zero or non-finite matrices)."""
    client = w.client
    t = wtype(w.dtype, client, "linalg")
    B = w.shape[0]
    mx = be.reduce("max", be.unary_kernel("abs")(w), (1, 2), True)
    sc = new_output((B, 1, 1), w.dtype, client)
    g = -(-B // 64)
    gx = min(g, client.max_groups)
    client.kernel(Pow2Spec(t)).launch((gx, -(-g // gx), 1), Mx=mx, Sc=sc, nbat=B)
    be.store(w, be.binary_kernel("multiply")(w, sc))
    return sc


def variants():
    from .specs import FLOATS
    return [Pow2Spec(WTYPES[d]) for d in FLOATS]
