"""Cubed chunk namespace over numr's cpu backend: ``numr_array_api.cpu`` plus the NumPy
behaviour Cubed's chunk functions rely on (see _namespace.py and docs/scale-out.md).

    CUBED_BACKEND_ARRAY_API_MODULE=numr_array_api.distributed.cpu
"""

from ._namespace import build as _build

_build(globals(), "numr_array_api.cpu")
