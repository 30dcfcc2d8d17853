"""scipy.special on webgpu arrays: elementwise WGSL kernels (one N-ary dispatch per call).

_launch.py    ``call(name, args, kwargs)``: SciPy's result dtype, operands converted on the
              device, one launch of the N-ary template (kernels/nary.py), ``out=``
_snippets.py  the per-element WGSL of each function and its math-library dependencies
              (the functions themselves: wgsl/_special.py)
_snippets_series.py  the zeta family's, gamma ratios', yn's and lpmv's entries, and the
              calls whose signature is not a fixed-arity ufunc's (zeta's optional q,
              multigammaln's host integer d)
_snippets_inverse.py  the inverse distribution functions' and the F distribution's entries
              (and why hyp1f1 has none)

``FUNCTIONS``: the names with a kernel.
"""

from ._launch import call, result_dtype
from ._snippets import SNIPPETS

FUNCTIONS = frozenset(SNIPPETS)

__all__ = ["FUNCTIONS", "call", "result_dtype"]
