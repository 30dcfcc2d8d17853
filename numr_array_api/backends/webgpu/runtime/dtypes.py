"""Which numr dtypes kernels compute on, per adapter: the single source of truth.

Imports no wgpu, so the namespace can use it at import time on machines without wgpu.
Every dtype can still be *stored*, copied and read back on any adapter (sub-word and 8/16-byte
elements are moved as u32 words); this table is about computing on them.
"""

from ...._core import dtypes as D

# Device features kernels need per dtype. float16 is converted in software (codegen/types.py):
# it needs no shader-f16. f64 code needs shader-int64 as well: the WGSL math library
# manipulates f64 bits through u64 (wgsl/math.py REQUIRED_FEATURES).
DTYPE_FEATURES = {
    D.int64: ("shader-int64",), D.uint64: ("shader-int64",),
    D.float64: ("shader-f64", "shader-int64"), D.complex128: ("shader-f64", "shader-int64"),
}


def dtypes_for_features(features):
    """The numr dtypes kernels compute on with these device features, in ALL_DTYPES order."""
    feats = frozenset(features)
    return tuple(d for d in D.ALL_DTYPES if all(f in feats for f in DTYPE_FEATURES.get(d, ())))
