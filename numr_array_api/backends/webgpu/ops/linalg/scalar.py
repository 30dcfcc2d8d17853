"""Per-dtype scalar arithmetic shared by the factorisation kernels.

The kernels are written once over ``T`` (the element type) and ``R`` (its real type) with
the helpers below, so float32 / float64 / complex64 / complex128 share one text: for real
types ``cj`` is the identity and ``mul`` a product; for complex ones (vec2 re, im) they are
the conjugate and the complex product. Divisions by complex values scale the divisor first,
so |b|^2 neither overflows nor underflows before the quotient does (wgsl/scalar_real.wgsl,
wgsl/scalar_complex.wgsl). ``phase`` of a real value is exactly +-1: a / abs(a) is not on
NVIDIA, whose division is approximate (a det sign of -0.999998 after 4096 pivots, H100).
"""

from .wgsl import kernel


def prelude(t):
    """The helper block for WType ``t`` (float32 / float64 / complex64 / complex128)."""
    if t.val.startswith("vec2"):
        return kernel("scalar_complex.wgsl").render(R=t.val[5:-1])
    return kernel("scalar_real.wgsl").render(R=t.val)


def real_of(t):
    return t.val[5:-1] if t.val.startswith("vec2") else t.val
