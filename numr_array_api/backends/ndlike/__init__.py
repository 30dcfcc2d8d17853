"""One backend over a NumPy-like module: NumPy for cpu, CuPy for cuda."""

from .backend import NdBackend

__all__ = ["NdBackend"]
