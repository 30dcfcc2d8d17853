"""The knob declarations, one module per family (importing this package declares them all).

Each module calls ``registry.declare`` with its family's knobs and may define
``workloads(xp, quick)``: the representative calls the tune command times while it tries
each knob's choices (see ``numr_array_api.tuning.tune``).
"""

from importlib import import_module

FAMILIES = ("runtime", "gemm", "reduction", "primitives", "sorting", "fft", "linalg", "spectral",
            "cuda")

for _name in FAMILIES:
    import_module(f"{__name__}.{_name}")
