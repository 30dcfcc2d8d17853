"""Sorting, searching and set functions on the GPU: see mixin.py."""

from .mixin import SortingMixin

__all__ = ["SortingMixin"]
