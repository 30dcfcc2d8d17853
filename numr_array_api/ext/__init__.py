"""numr extensions beyond the array API: fused GEMM epilogues (:mod:`.linalg`) and
quasi-random sequences (:mod:`.random`). Both accept arrays / namespaces of any array-API
library; see docs/ext.md."""

from . import _dispatch, linalg, random, reductions

__all__ = ["linalg", "random", "reductions", "register"]

register = _dispatch.register
