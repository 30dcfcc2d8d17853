"""scipy.ndimage for numr webgpu arrays: filters.py (SciPy's API) over stencil / line-pass kernels."""
