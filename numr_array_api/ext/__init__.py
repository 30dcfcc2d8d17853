"""numr extensions beyond the array API: fused GEMM epilogues (:mod:`.linalg`) and
quasi-random sequences (:mod:`.random`). Both accept arrays / namespaces of any array-API
library; see docs/ext.md."""

from .._algorithms import dispatch as _dispatch
from . import linalg, random

__all__ = ["linalg", "random", "register"]

register = _dispatch.register
