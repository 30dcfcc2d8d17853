"""matmul / tensordot / vecdot on the GPU, and the GEMM behind ext's fused epilogues.

configs.py  tile configurations (register blocks, K step, vec4 shared tiles) and the choice
            per shape (a built-in table, overridable by a tuned table on disk)
spec.py     GemmSpec (the tiled kernel; optional epilogue fragment; accumulate mode) and
            DotSpec (row dots for vecdot), ``variants()``
gemm.py     ``gemm(a, b, ...)``: batching, panels over data beyond one binding / buffer
            (M / N panels, K panels accumulated), ``rowdot``
mixin.py    the backend methods
coop.py     float16 GEMM on cooperative matrices (tensor cores) where granted and self-tested
tune.py     the autotuner: fastest configuration per (dtype, shape bucket, adapter), on disk
"""

from .gemm import gemm, rowdot
from .mixin import MatmulMixin
from .spec import variants

__all__ = ["MatmulMixin", "gemm", "rowdot", "variants"]
