"""numr's cpu namespace: the complete array API (2025.12) on NumPy memory.

Arrays are NumPy arrays underneath; ``numpy.asarray(x)`` is zero-copy.
"""

from .._core.namespace import populate as _populate
from ..backends.ndlike.cpu import CPUBackend as _CPUBackend

_populate(globals(), _CPUBackend())
