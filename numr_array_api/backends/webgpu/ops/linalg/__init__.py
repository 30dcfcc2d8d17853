"""The linalg extension on the GPU (eigen / singular-value functions: ops/linalg_spectral).

scalar.py  per-dtype WGSL arithmetic (real / complex) the kernels are written over
specs.py   FactorSpec (Cholesky, LU, Householder QR: one workgroup per matrix in workgroup
           memory, or per panel in global memory), ApplyHSpec, TrsmSpec, SwapSpec,
           LUDiagSpec; ``variants()``
factor.py  drivers: one dispatch for stacks of small matrices, blocked algorithms with
           the tiled GEMM for large ones (variants: NUMR_WEBGPU_* read per call)
plan.py    recorded plans: a blocked factorisation's dispatches captured once per shape
           and replayed
mixin.py   cholesky, solve, inv, det, slogdet, qr
simple.py  cross, diagonal, trace, outer, vector_norm, matrix_norm, matrix_power from
           existing GPU ops
"""

from .mixin import LinalgMixin
from .specs import variants

__all__ = ["LinalgMixin", "variants"]
