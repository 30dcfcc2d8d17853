"""Sorting, searching and set functions on the GPU (issue 10): see mixin.py."""

from .mixin import SortingMixin

__all__ = ["SortingMixin"]
