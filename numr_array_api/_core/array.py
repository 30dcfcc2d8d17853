"""The one Array class of numr.

An Array is a backend payload (``_data``) plus a numr dtype (``_dtype``). Each namespace
makes a subclass that binds its backend and its functions (``_ctx``) so operators reach
the namespace's fast paths without a lookup per call; every behaviour lives here or in the
shared ``_api`` modules, so all backends act alike.
"""

import math

from .config import check_host_conversion
from .errors import DTypeMismatch, InvalidArgument, InvalidType

__all__ = ["Array"]

_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12", "2025.12")


class Array:
    """An n-dimensional array of a numr namespace (cpu, cuda or webgpu)."""

    __slots__ = ("_data", "_dtype", "__weakref__")
    _ctx = None  # the namespace context; set on each backend's subclass

    def __init__(self, *args, **kwargs):
        raise InvalidType("numr arrays are created with namespace functions such as "
                        "numr_array_api.cpu.asarray, not by calling Array()")

    # -- attributes -------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._data.shape

    @property
    def ndim(self):
        return len(self._data.shape)

    @property
    def size(self):
        return math.prod(self._data.shape)

    @property
    def device(self):
        return self._ctx.be.device_of(self._data)

    @property
    def T(self):
        if self.ndim != 2:
            raise InvalidArgument("x", f"x.T requires a 2-D array, got {self.ndim}-D "
                                       f"(use matrix_transpose / x.mT for stacks)")
        return self._ctx.api.permute_dims(self, (1, 0))

    @property
    def mT(self):
        return self._ctx.api.matrix_transpose(self)

    @property
    def nbytes(self):
        return self.size * self._dtype.itemsize

    def __array_namespace__(self, /, *, api_version=None):
        if api_version is not None and api_version not in _API_VERSIONS:
            raise InvalidArgument("api_version", f"unsupported version {api_version!r}; "
                                                 f"supported: {', '.join(_API_VERSIONS)}")
        return self._ctx.module

    def to_device(self, device, /, *, stream=None):
        return self._ctx.to_device(self, device, stream)

    # -- Python protocol --------------------------------------------------------
    def __repr__(self):
        import numpy as np
        host = self._ctx.be.to_numpy(self._data)
        body = np.array2string(host, separator=", ", prefix="Array(")
        dev = self.device
        suffix = "" if dev.kind == "cpu" else f", device={dev}"
        return f"Array({body}, dtype={self._dtype.name}{suffix})"

    __str__ = __repr__

    __hash__ = None  # mutable, like NumPy arrays

    def __len__(self):
        shape = self._data.shape
        if not shape:
            raise InvalidType("len() of a 0-d array")
        return shape[0]

    def __iter__(self):
        shape = self._data.shape
        if not shape:
            raise InvalidType("iteration over a 0-d array")
        getitem = self.__getitem__
        return (getitem(i) for i in range(shape[0]))

    def _scalar(self, what):
        if self._data.shape != ():
            raise InvalidType(f"only 0-d arrays can be converted to a Python {what}; "
                            f"got shape {self._data.shape}")
        return self._ctx.be.item(self._data)

    def __bool__(self):
        return bool(self._scalar("bool"))

    def __complex__(self):
        return complex(self._scalar("complex"))

    def __float__(self):
        if self._dtype.kind == "c":
            raise InvalidType("cannot convert a complex array to float; use real() or abs()")
        return float(self._scalar("float"))

    def __int__(self):
        if self._dtype.kind == "c":
            raise InvalidType("cannot convert a complex array to int")
        v = self._scalar("int")
        return int(v)

    def __index__(self):
        if self._dtype.kind not in "iu":
            raise InvalidType(f"only integer arrays can be used as an index, got {self._dtype.name}")
        return int(self._scalar("int"))

    # -- host interop -----------------------------------------------------------
    def __array__(self, dtype=None, copy=None):
        ctx = self._ctx
        if ctx.checks_host_conversion:
            check_host_conversion(self.device, "__array__")
        out = ctx.be.to_numpy(self._data)
        if dtype is not None and out.dtype != dtype:
            if copy is False:
                raise ValueError("a copy is required to convert to the requested dtype")
            return out.astype(dtype)
        if copy:
            return out.copy()
        return out

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return self._ctx.be.dlpack(self._data, stream=stream, max_version=max_version,
                                   dl_device=dl_device, copy=copy)

    def __dlpack_device__(self):
        return self._ctx.be.dlpack_device(self._data)

    # -- indexing ---------------------------------------------------------------
    def __getitem__(self, key, /):
        return self._ctx.getitem(self, key)

    def __setitem__(self, key, value, /):
        self._ctx.setitem(self, key, value)

    # Operators are attached to each backend's subclass by the elementwise builder
    # (numr_array_api._api.elementwise), bound to that namespace's fast paths.

    def __copy__(self):
        # numr arrays are mutable: a copy that shared memory would let a write through the
        # copy change the original (NumPy and CuPy copy here too)
        return self._ctx.api.asarray(self, copy=True)

    def __deepcopy__(self, memo):
        return self._ctx.api.asarray(self, copy=True)

    def __reduce__(self):
        return (_rebuild, (self._ctx.module.__name__, self._ctx.be.to_numpy(self._data).copy(),
                           str(self.device)))


def _rebuild(module_name, host, device):
    import importlib
    xp = importlib.import_module(module_name)
    return xp.asarray(host, device=device)


def dtype_error(fname, argname, dtype, accepted):
    return DTypeMismatch(f"{fname}: '{argname}' has dtype {dtype.name}, but {fname} accepts "
                         f"only {accepted} dtypes", dtype, None)
