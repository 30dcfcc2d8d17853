"""Dtype objects shared by every numr namespace.

``numr_array_api.cpu.float32 is numr_array_api.webgpu.float32``: one object per dtype, so
arrays of different backends compare dtypes with ``==`` (identity) and the promotion table
is written once. Each dtype knows its NumPy equivalent, whose byte layout every backend
uses, so host transfers are plain copies.
"""

import numpy as np

__all__ = ["DType", "ALL_DTYPES", "STANDARD_DTYPES", "from_numpy", "coerce", "by_name", "KIND_NAMES"]


class DType:
    """An array API data type (immutable, compared by identity)."""

    __slots__ = ("name", "kind", "itemsize", "np", "_rank", "__weakref__")

    def __init__(self, name, kind, itemsize, rank):
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "itemsize", itemsize)
        object.__setattr__(self, "np", np.dtype(name))
        object.__setattr__(self, "_rank", rank)

    def __setattr__(self, key, value):
        raise AttributeError("numr dtypes are immutable")

    def __repr__(self):
        return f"numr_array_api.{self.name}"

    __str__ = __repr__

    # Equality and hashing are object identity (the defaults): one object per dtype, and
    # C-level hashing keeps `dtype in frozenset` off the per-call cost of every function.

    def __reduce__(self):
        return (by_name, (self.name,))

    # np.dtype(numr dtype) is its NumPy equivalent: __numpy_dtype__ (NumPy >= 2.4) and the
    # older .dtype attribute protocol. Consumers such as Cubed and Zarr normalise dtypes so.
    @property
    def __numpy_dtype__(self):
        return self.np

    @property
    def dtype(self):
        return self.np

    @property
    def bits(self):
        return self.itemsize * 8

    @property
    def is_float(self):
        return self.kind == "f"

    @property
    def is_complex(self):
        return self.kind == "c"

    @property
    def is_integer(self):
        return self.kind in "iu"


# kind codes follow NumPy: b bool, i signed, u unsigned, f real floating, c complex floating
bool_ = DType("bool", "b", 1, 0)
int8 = DType("int8", "i", 1, 1)
int16 = DType("int16", "i", 2, 2)
int32 = DType("int32", "i", 4, 3)
int64 = DType("int64", "i", 8, 4)
uint8 = DType("uint8", "u", 1, 1)
uint16 = DType("uint16", "u", 2, 2)
uint32 = DType("uint32", "u", 4, 3)
uint64 = DType("uint64", "u", 8, 4)
float16 = DType("float16", "f", 2, 0)
float32 = DType("float32", "f", 4, 1)
float64 = DType("float64", "f", 8, 2)
complex64 = DType("complex64", "c", 8, 1)
complex128 = DType("complex128", "c", 16, 2)

# The 13 dtypes of the standard; float16 is a numr extension (native on WebGPU adapters
# with shader-f16) and takes part in promotion as the narrowest real floating type.
STANDARD_DTYPES = (
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float32, float64, complex64, complex128,
)
ALL_DTYPES = STANDARD_DTYPES + (float16,)

_BY_NAME = {d.name: d for d in ALL_DTYPES}
_BY_NUMPY = {d.np: d for d in ALL_DTYPES}

# Standard kind names (for isdtype and __array_namespace_info__().dtypes(kind=...)).
KIND_NAMES = {
    "bool": "b",
    "signed integer": "i",
    "unsigned integer": "u",
    "integral": "iu",
    "real floating": "f",
    "complex floating": "c",
    "numeric": "iufc",
}

REAL_FLOAT_OF_COMPLEX = {complex64: float32, complex128: float64}
COMPLEX_OF_REAL_FLOAT = {float32: complex64, float64: complex128, float16: complex64}


def by_name(name):
    return _BY_NAME[name]


def coerce(value):
    """``value`` as a numr dtype: a numr dtype itself, or the numr dtype of a NumPy dtype
    instance (consumers that normalise dtypes through ``np.dtype``, such as Cubed and Zarr,
    hand those back); in the compatible semantics also a NumPy scalar type (``np.float32``),
    a Python type (``float``) or a dtype string (``"float32"``, ``"f4"``), as NumPy and CuPy
    accept them. None for anything else, which callers refuse."""
    if value.__class__ is DType:
        return value
    if isinstance(value, np.dtype):
        return from_numpy(value)
    if isinstance(value, (str, type)):
        from .semantics import strict
        if strict():
            return None
        if isinstance(value, type) and not (issubclass(value, np.generic) or
                                            value in (bool, int, float, complex)):
            return None
        try:
            return from_numpy(np.dtype(value))
        except (TypeError, ValueError):
            return None
    return None


def spelling_note(value):
    """Why ``value`` was refused as a dtype, for messages: strings and types are accepted
    only in the compatible semantics."""
    if isinstance(value, (str, type)):
        from .semantics import strict
        if strict():
            return " (dtype strings and types are accepted in the compatible semantics only)"
    return ""


def from_numpy(npdtype):
    """The numr dtype of a NumPy dtype, or None if numr has no such dtype."""
    d = _BY_NUMPY.get(npdtype)
    if d is None:
        try:
            d = _BY_NUMPY.get(np.dtype(npdtype).newbyteorder("="))
        except TypeError:
            return None
    return d
