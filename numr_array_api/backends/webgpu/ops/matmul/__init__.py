"""matmul / tensordot / vecdot on the GPU, and the GEMM behind ext's fused epilogues.

configs.py  tile configurations (register blocks, K step, vec4 shared tiles) and the choice
            per shape (a built-in table, overridable by the adapter's tuning table)
spec.py     GemmSpec (the tiled kernel; optional epilogue fragment; accumulate mode) and
            DotSpec (row dots for vecdot), ``variants()``
gemm.py     ``gemm(a, b, ...)``: batching, panels over data beyond one binding / buffer
            (M / N panels, K panels accumulated), ``rowdot``
mixin.py    the backend methods
tune.py     the autotuner: fastest configuration per (dtype, shape bucket) of an adapter,
            written to its tuning table
"""

from .gemm import gemm, rowdot
from .mixin import MatmulMixin
from .spec import variants

__all__ = ["MatmulMixin", "gemm", "rowdot", "variants"]
