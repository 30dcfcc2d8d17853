"""Casts between all numr dtypes, following NumPy's ``astype`` results.

float -> int truncates toward zero; out-of-range and NaN -> int are unspecified (the GPU
saturates; narrow unsigned targets wrap like NumPy on x86); -> bool tests bit patterns, so
NaN and -0.0 behave as in NumPy; complex -> real keeps the real part; float16 rounding is
done in software (round-to-nearest-even, with round-to-odd narrowing from float64).
Reads strided views directly, so a cast never needs a prior copy.
"""

from ._map import map_into


def cast(src, dtype):
    if dtype is src.dtype:
        return map_into(src, dtype, raw=True)
    return map_into(src, dtype, raw=False)
