"""Cubed chunk namespace over numr's cuda backend: ``numr_array_api.cuda`` plus the NumPy
behaviour Cubed's chunk functions rely on (see _namespace.py and docs/scale-out.md).

    CUBED_BACKEND_ARRAY_API_MODULE=numr_array_api.distributed.cuda
"""

from ._namespace import build as _build

_build(globals(), "numr_array_api.cuda")
