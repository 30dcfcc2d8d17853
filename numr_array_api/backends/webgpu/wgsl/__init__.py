"""WGSL sources shared by the WebGPU backend's kernels (see math.py)."""
from .math import FLOAT_TYPES, REQUIRED_FEATURES, available_functions, math_library

__all__ = ["FLOAT_TYPES", "REQUIRED_FEATURES", "available_functions", "math_library"]
