"""The spectral half of the linalg extension on the GPU: eigh / eigvalsh, svd / svdvals,
pinv, matrix_rank (Jacobi methods, one workgroup per matrix).

eigh.wgsl   two-sided round-robin Jacobi for symmetric matrices
svd.wgsl    one-sided (Hestenes) Jacobi on the columns, basis completion for U
spec.py     EighSpec / SvdSpec (workgroup-memory buckets or scratch slots), ``variants()``
small.py    stacks of small real matrices (n <= 32): a column per invocation, in registers
            (small_spec.py, small_eigh.wgsl, small_svd.wgsl)
cut.py      CutSpec: the rtol * max(s) cut of pinv and matrix_rank
mixin.py    the backend methods, and ``svdvals(backend, storage)`` for other linalg code
"""

from .mixin import SpectralMixin, svdvals

__all__ = ["SpectralMixin", "svdvals"]
