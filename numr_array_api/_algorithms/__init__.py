"""Algorithms beyond the standard, below both ``numr_array_api.ext`` and the backends.

``ext`` is the public front-end (validation, documentation); the backends supply fast
kernels. What both need lives here, so every import points down:

gemm/        GEMM-epilogue activation formulas, the portable (any array-API namespace) and
             NumPy implementations, gradient reduction to an input's shape
qmc/         Sobol direction numbers (Joe & Kuo table in _data/), Halton, Latin hypercube,
             seeding; portable and NumPy generators
dispatch.py  the registry of backend kernels per (operation, namespace name)
_namespace.py  namespace resolution and argument helpers shared by the above
"""
