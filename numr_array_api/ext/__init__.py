"""numr extensions beyond the array API: fused GEMM epilogues (:mod:`.linalg`), quasi-random
sequences (:mod:`.random`) and NaN-ignoring reductions (:mod:`.reductions`). All accept
arrays / namespaces of any array-API library; see docs/ext.md."""

from .._algorithms import dispatch as _dispatch
from . import linalg, random, reductions

__all__ = ["linalg", "random", "reductions", "register"]

register = _dispatch.register
register.__module__ = __name__  # numr_array_api.ext.register is its public name
