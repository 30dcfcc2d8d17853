"""Sorting, searching and set functions on the GPU.

mixin.py    SortingMixin: sort / argsort / searchsorted / nonzero / diff / unique / isin,
            ordered through primitives/keys.py, sorted by primitives/radix_keys.py
            (real keys) or primitives/radix.py
kernels.py  the small kernels around the radix sort: gathers by position, index outputs,
            the set functions' boundary flags / counts / inverse, searchsorted (plain or
            with cached top levels) and isin
"""

from .mixin import SortingMixin

__all__ = ["SortingMixin"]
