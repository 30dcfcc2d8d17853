"""Creation functions."""

import math
import operator

import numpy as np

from .._core import dtypes as dt
from .._core.array import Array
from .._core.errors import DTypeMismatch, InvalidArgument, InvalidType, OutOfRange
from .._core.shapes import check_addressable, check_shape, as_int
from ._common import PY_SCALARS, cast_scalar, check_py_scalar, require_array, require_kind, scalar_dtype


def build(ctx):
    be = ctx.be
    A = ctx.ArrayT
    wrap = ctx.wrap

    def _dtype_arg(dtype):
        return ctx.check_dtype(dtype)

    def asarray(obj, /, *, dtype=None, device=None, copy=None):
        dtype = _dtype_arg(dtype)
        if copy not in (None, True, False):
            raise InvalidArgument("copy", f"must be True, False or None, got {copy!r}")
        if obj.__class__ is A:
            dev = be.device_of(obj._data)
            target = dev if device is None else ctx.resolve_device(device)
            if target != dev:
                if copy is False:
                    raise ValueError("asarray: copy=False but the array is on another device")
                obj = wrap(be.to_device(obj._data, target))
                copy = None
            if dtype is None or dtype is obj._dtype:
                return wrap(be.copy(obj._data)) if copy else obj
            if copy is False:
                raise ValueError(f"asarray: copy=False but casting {obj._dtype.name} to "
                                 f"{dtype.name} needs a copy")
            if obj._dtype.kind == "c" and dtype.kind != "c":
                raise DTypeMismatch(f"asarray: cannot cast complex {obj._dtype.name} to "
                                    f"{dtype.name}", obj._dtype, dtype)
            return wrap(be.astype(obj._data, dtype, copy=True))
        device = ctx.resolve_device(device)
        if isinstance(obj, Array):
            # an array of another numr namespace: an explicit transfer through the host
            if copy is False:
                raise ValueError("asarray: copy=False but the array belongs to another "
                                 "namespace")
            host = obj._ctx.be.to_numpy(obj._data)
            return wrap(be.from_numpy(host if dtype is None else host.astype(dtype.np),
                                      device, copy=True))
        t = type(obj)
        if t in PY_SCALARS:
            d = dtype or scalar_dtype(ctx, obj, device)
            if dtype is not None and dtype.kind == "b" and t is int:
                # an explicit conversion the promotion rules leave to the library: NumPy and
                # array-api-strict give its truth value (SciPy's ndimage relies on it)
                obj = bool(obj)
            elif dtype is not None:
                check_py_scalar(obj, dtype, "asarray", "obj")
            elif t is int:
                _check_int_fits(obj, d)
            return wrap(be.full((), obj, d, device))
        return wrap(be.asarray_obj(obj, dtype, device, copy, ctx))

    def _fill_value(value, dtype, fname, device=None):
        if value.__class__ is A and value.ndim == 0:
            value = be.item(value._data)
        t = type(value)
        if t not in PY_SCALARS:
            if isinstance(value, (np.generic,)):
                value = value.item()
                t = type(value)
            else:
                raise TypeError(f"{fname}: 'fill_value' must be a Python scalar, got {t.__name__}")
        if dtype is None:
            dtype = scalar_dtype(ctx, value, device)
            if t is int:
                _check_int_fits(value, dtype)
        else:
            value = cast_scalar(value, dtype, fname, "fill_value")
            t = type(value)
            if t is bool or dtype.kind == "b":
                if dtype.kind == "b" and t is not bool:
                    raise DTypeMismatch(f"{fname}: 'fill_value' {value!r} cannot fill a bool "
                                        f"array", dtype, None)
            else:
                check_py_scalar(value, dtype, fname, "fill_value")
        return value, dtype

    def _float_on(dtype, device):
        dev = ctx.resolve_device(device)
        return _dtype_arg(dtype) or ctx.defaults_for(dev)[0], dev

    def _addressable(fname, shape, d):
        return check_addressable(be, fname, shape, d.itemsize, f"shape {shape} of {d.name}")

    def empty(shape, *, dtype=None, device=None):
        shape = check_shape(shape)
        d, dev = _float_on(dtype, device)
        return wrap(be.empty(_addressable("empty", shape, d), d, dev))

    def zeros(shape, *, dtype=None, device=None):
        shape = check_shape(shape)
        d, dev = _float_on(dtype, device)
        return wrap(be.full(_addressable("zeros", shape, d), 0, d, dev))

    def ones(shape, *, dtype=None, device=None):
        shape = check_shape(shape)
        d, dev = _float_on(dtype, device)
        return wrap(be.full(_addressable("ones", shape, d), 1, d, dev))

    def full(shape, fill_value, *, dtype=None, device=None):
        shape = check_shape(shape)
        dev = ctx.resolve_device(device)
        value, d = _fill_value(fill_value, _dtype_arg(dtype), "full", dev)
        return wrap(be.full(_addressable("full", shape, d), value, d, dev))

    def _like(x, dtype, device, fname):
        require_array(ctx, x, fname)
        d = _dtype_arg(dtype) or x._dtype
        dev = be.device_of(x._data) if device is None else ctx.resolve_device(device)
        return x.shape, d, dev

    def empty_like(x, /, *, dtype=None, device=None):
        shape, d, dev = _like(x, dtype, device, "empty_like")
        return wrap(be.empty(shape, d, dev))

    def zeros_like(x, /, *, dtype=None, device=None):
        shape, d, dev = _like(x, dtype, device, "zeros_like")
        return wrap(be.full(shape, 0, d, dev))

    def ones_like(x, /, *, dtype=None, device=None):
        shape, d, dev = _like(x, dtype, device, "ones_like")
        return wrap(be.full(shape, 1, d, dev))

    def full_like(x, /, fill_value, *, dtype=None, device=None):
        shape, d, dev = _like(x, dtype, device, "full_like")
        value, d = _fill_value(fill_value, d, "full_like", dev)
        return wrap(be.full(shape, value, d, dev))

    def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
        d = _dtype_arg(dtype)
        if start is None or step is None:
            raise InvalidType(f"arange: '{'start' if start is None else 'step'}' must be an int "
                              f"or float (or a 0-d array), got None")
        start, stop, step = (_bound(v, "arange", name, complex_ok=False) for name, v in
                             (("start", start), ("stop", stop), ("step", step)))
        if stop is None:
            start, stop = 0, start
        if step == 0:
            raise InvalidArgument("step", "arange: step must not be zero")
        dev = ctx.resolve_device(device)
        if d is None:
            is_int = all(type(v) is int for v in (start, stop, step))
            f, i, _, _ = ctx.defaults_for(dev)
            d = i if is_int else f
        elif d.kind in "iu" and not all(type(v) is int for v in (start, stop, step)):
            raise DTypeMismatch("arange: float bounds with an integer dtype", d, None)
        if d.kind == "b":
            raise DTypeMismatch(f"arange: dtype {d.name} is not numeric", d, None)
        if d.kind in "iu":
            # as NumPy 2: start and step must be values of the dtype; later values wrap
            check_py_scalar(start, d, "arange", "start")
            check_py_scalar(step, d, "arange", "step")
        if d.kind == "c":
            # as NumPy (and array-api-strict): the real range, then the complex dtype
            real = arange(start, stop, step, dtype=dt.REAL_FLOAT_OF_COMPLEX[d], device=dev)
            return ctx.module.astype(real, d)
        n = max(0, math.ceil((stop - start) / step))
        _addressable("arange", (n,), d)
        return wrap(be.arange(start, stop, step, n, d, dev))

    def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
        n_rows = as_int(n_rows, "n_rows")
        n_cols = n_rows if n_cols is None else as_int(n_cols, "n_cols")
        k = as_int(k, "k")
        if n_rows < 0 or n_cols < 0:
            raise InvalidArgument("n_rows", "eye: sizes must be non-negative")
        k = max(-n_rows, min(k, n_cols))  # a diagonal beyond the matrix: none, any k
        d, dev = _float_on(dtype, device)
        _addressable("eye", (n_rows, n_cols), d)
        return wrap(be.eye(n_rows, n_cols, k, d, dev))

    def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
        d = _dtype_arg(dtype)
        num = as_int(num, "num")
        if num < 0:
            raise InvalidArgument("num", f"linspace: must be non-negative, got {num}")
        for name, v in (("start", start), ("stop", stop)):
            if v is None:
                raise InvalidType(f"linspace: '{name}' must be an int, float or complex (or a "
                                  f"0-d array), got None")
        work = _narrow_work_dtype(start, stop)
        start = _wide_to_float(_bound(start, "linspace", "start"), "start")
        stop = _wide_to_float(_bound(stop, "linspace", "stop"), "stop")
        dev = ctx.resolve_device(device)
        if d is None:
            f, _, c, _ = ctx.defaults_for(dev)
            d = c if complex in (type(start), type(stop)) else f
        if d.kind in "iu" and complex not in (type(start), type(stop)):
            # as NumPy (and array-api-strict): the floating-point points, rounded down
            f, _, _, _ = ctx.defaults_for(dev)
            y = linspace(start, stop, num, dtype=f, device=dev, endpoint=endpoint)
            return ctx.module.astype(ctx.module.floor(y), d)
        if d.kind not in "fc":
            raise DTypeMismatch(f"linspace: dtype must be numeric, got {d.name}", d, None)
        if d.kind == "f" and complex in (type(start), type(stop)):
            raise DTypeMismatch("linspace: complex bounds need a complex dtype", d, None)
        _addressable("linspace", (num,), d)
        if d.kind == "f" and num > 0:
            if work is None and getattr(be, "compose_linspace", False):
                work = ctx.defaults_for(dev)[0]
            if work is not None:
                return _linspace_numpy_order(start, stop, num, bool(endpoint), d, dev, work)
        return wrap(be.linspace(start, stop, num, bool(endpoint), d, dev))

    def _narrow_work_dtype(*bounds):
        """NumPy's computation dtype for float16 / float32 bounds (0-d arrays, NumPy
        scalars; Python numbers are weak), or None for float64 (every backend's own path).
        SciPy's histograms pass float32 bounds and compare bin edges with NumPy's: computed
        in float64 then cast, an edge lands an ulp away and a value on it changes bin."""
        kinds = []
        for v in bounds:
            if type(v) in (int, float, complex) or isinstance(v, bool):
                continue
            name = getattr(getattr(v, "dtype", None), "name", None)
            if name is None:
                continue
            if name not in ("float16", "float32"):
                return None  # float64, integers (promote to float64), complex
            kinds.append(name)
        if not kinds:
            return None
        return dt.float32 if "float32" in kinds else dt.float16

    def _linspace_numpy_order(start, stop, num, endpoint, d, dev, work):
        # NumPy's algorithm with its roundings in the work dtype: y = arange * step + start
        # as two separate operations (no fused multiply-add: one kernel computing
        # start + i * step is contracted to an fma by NVIDIA's Vulkan compiler, an ulp off
        # NumPy), the last point set to stop
        w = work.np.type
        start_w, stop_w = w(start), w(stop)
        div = num - 1 if endpoint else num
        m = ctx.module
        with np.errstate(all="ignore"):
            delta = np.subtract(stop_w, start_w, dtype=w)
            y = arange(0, num, dtype=work, device=dev)
            if div > 0:
                step = delta / div
                if step == 0:
                    y = m.multiply(m.divide(y, float(div)), float(delta))
                else:
                    y = m.multiply(y, float(step))
            else:
                y = m.multiply(y, float(delta))
        y = m.add(y, float(start_w))
        if endpoint and num > 1:
            y[-1] = float(stop_w)
        return y if d == work else m.astype(y, d)

    def _wide_to_float(v, name):
        # the points are floating: an int beyond 64 bits is its nearest float (NumPy's own
        # linspace fails on it, object dtype), or out of range beyond any float
        if type(v) is int and not -(1 << 63) <= v < 1 << 63:
            try:
                return float(v)
            except OverflowError:
                raise OutOfRange(f"linspace: '{name}' (an int of {v.bit_length()} bits) is "
                                 f"beyond every floating dtype") from None
        return v

    def _bound(v, fname, name, complex_ok=True):
        """A Python number for a range bound. 0-d arrays (SciPy passes ``xp.max(x)``) and
        NumPy scalars are read as Python numbers, as array-api-strict and NumPy accept them."""
        if v is None or type(v) in (int, float) or (complex_ok and type(v) is complex):
            return v
        if isinstance(v, bool) or getattr(v, "ndim", 0) != 0 or not (
                hasattr(v, "__float__") or hasattr(v, "__index__")):
            kinds = "int, float or complex" if complex_ok else "int or float"
            raise InvalidType(f"{fname}: '{name}' must be an {kinds} (or a 0-d array), got "
                              f"{type(v).__name__}")
        kind = getattr(getattr(v, "dtype", None), "kind", None)
        if kind is None and isinstance(v, (int, float, complex)):  # NumPy scalars, subclasses
            kind = "i" if isinstance(v, int) else "f" if isinstance(v, float) else "c"
        if kind in ("i", "u"):
            return int(v)
        if kind == "f":
            return float(v)
        if kind == "c" and complex_ok:
            return complex(v)
        raise InvalidType(f"{fname}: '{name}' must be a real number, got {type(v).__name__} "
                          f"of dtype {getattr(v, 'dtype', '?')}")

    def meshgrid(*arrays, indexing="xy"):
        if indexing not in ("xy", "ij"):
            raise InvalidArgument("indexing", f"must be 'xy' or 'ij', got {indexing!r}")
        for i, a in enumerate(arrays):
            require_array(ctx, a, "meshgrid", f"arrays[{i}]")
            if a.ndim != 1:
                raise InvalidArgument(f"arrays[{i}]", f"meshgrid: must be 1-D, got {a.ndim}-D")
        if len({a._dtype for a in arrays}) > 1:
            raise DTypeMismatch("meshgrid: all arrays must have the same dtype")
        if not arrays:
            return ()
        shape = [a.shape[0] for a in arrays]
        if indexing == "xy" and len(arrays) > 1:
            shape[0], shape[1] = shape[1], shape[0]
        _addressable("meshgrid", tuple(shape), arrays[0]._dtype)
        out = []
        for i, a in enumerate(arrays):
            ax = i
            if indexing == "xy" and len(arrays) > 1 and i < 2:
                ax = 1 - i
            view = [1] * len(shape)
            view[ax] = shape[ax]
            r = be.reshape(a._data, tuple(view), copy=None)
            out.append(wrap(be.copy(be.broadcast_to(r, tuple(shape)))))
        return tuple(out)

    def _tri(x, k, upper, fname):
        require_array(ctx, x, fname)
        if x.ndim < 2:
            raise InvalidArgument("x", f"{fname}: needs at least 2 dimensions, got {x.ndim}")
        rows, cols = x.shape[-2:]
        # beyond the matrix every k means the same: keep kernels' k within 32 bits
        k = max(-rows, min(as_int(k, "k"), cols))
        return wrap(be.tri(x._data, k, upper))

    def tril(x, /, *, k=0):
        return _tri(x, k, False, "tril")

    def triu(x, /, *, k=0):
        return _tri(x, k, True, "triu")

    return {"asarray": asarray, "arange": arange, "empty": empty, "empty_like": empty_like,
            "eye": eye, "full": full, "full_like": full_like, "linspace": linspace,
            "meshgrid": meshgrid, "ones": ones, "ones_like": ones_like, "zeros": zeros,
            "zeros_like": zeros_like, "tril": tril, "triu": triu}


def _check_int_fits(value, dtype):
    ii = np.iinfo(dtype.np)
    if value < ii.min or value > ii.max:
        raise OverflowError(f"Python int {value} does not fit the default integer dtype "
                            f"{dtype.name}")
