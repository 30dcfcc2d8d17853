"""Indexing: __getitem__ / __setitem__ and take / take_along_axis."""

import numpy as np

from .._core import dtypes as dt
from .._core.errors import (DTypeMismatch, InvalidArgument, InvalidIndex, NumrError,
                            ShapeMismatch)
from .._core.indexing import is_basic_key, normalize_key
from .._core.promotion import TABLE
from .._core.semantics import strict
from .._core.shapes import normalize_axis, broadcast_shapes
from ._common import (PY_SCALARS, cast_scalar, check_py_scalar, py_scalar, readonly_error,
                      require_array,
                      require_key_devices, require_kind)


def build(ctx):
    be = ctx.be
    A = ctx.ArrayT
    wrap = ctx.wrap
    basic = be.getitem_basic

    def numpy_keys(x, key):
        """NumPy index arrays in ``key`` as arrays of this namespace on x's device.

        scikit-learn's _safe_indexing (and PyTorch users) index with NumPy integer / boolean
        arrays; they are host data the caller hands over, so they are uploaded once.
        """
        keys = key if type(key) is tuple else (key,)
        lists = not strict() and any(k.__class__ is list for k in keys)
        if not lists and not any(k.__class__ is np.ndarray for k in keys):
            return key
        out = []
        for k in keys:
            if lists and k.__class__ is list:
                # the compatible semantics read a list of ints / bools as an index array,
                # as NumPy and CuPy do (SciPy's sosfilt tests index zi[..., [0, 1, 1]])
                k = np.asarray(k) if k else np.zeros(0, dtype=np.int64)
            if k.__class__ is np.ndarray:
                if k.dtype.kind not in "biu":
                    raise InvalidIndex(f"NumPy index arrays must have an integer or boolean "
                                       f"dtype, got {k.dtype}")
                k = ctx.api.asarray(k, device=x.device)
            out.append(k)
        return tuple(out) if type(key) is tuple else out[0]

    view_of = ctx.view_of
    is_ro = be.is_readonly

    def bool_scalar_key(x, key):
        """(key, position) for a key holding one Python / NumPy bool scalar, in the
        compatible semantics: NumPy reads ``x[True]`` as ``x[None]`` and ``x[False]`` as an
        empty new axis (``position`` is that axis in the result, else None). Keys mixing a
        bool scalar with integers or arrays (NumPy broadcasts them together) are refused."""
        keys = key if type(key) is tuple else (key,)
        where = [i for i, k in enumerate(keys) if type(k) is bool or isinstance(k, np.bool_)]
        if not where or strict():
            return key, None
        if len(where) > 1 or any(not (type(k) is slice or k is None or k is Ellipsis)
                                 for i, k in enumerate(keys) if i != where[0]):
            raise InvalidIndex("a boolean scalar index is supported alone or with slices, "
                               "None and Ellipsis; with integers or arrays use a boolean array")
        i = where[0]
        span = x.ndim - sum(1 for k in keys if type(k) is slice)
        pos = sum(span if k is Ellipsis else 1 for k in keys[:i])
        new = keys[:i] + (None,) + keys[i + 1:]
        return new, (None if keys[i] else pos)

    def getitem(x, key):
        if isinstance(key, (bool, np.bool_)) or (type(key) is tuple and not is_basic_key(key)):
            key, empty_at = bool_scalar_key(x, key)
            if empty_at is not None:
                r = getitem(x, key)
                return r[(slice(None),) * empty_at + (slice(0, 0),)]
        if is_basic_key(key):
            try:
                r = basic(x._data, key)
            except (IndexError, ValueError, TypeError, OverflowError) as e:
                normalize_key(key, x.shape, A)  # raises numr's InvalidIndex with context
                raise InvalidIndex(str(e)) from None
            return view_of(x, r)
        nkey, has_array = normalize_key(numpy_keys(x, key), x.shape, A)
        if not has_array:  # e.g. NumPy integer scalars, now plain ints: a view
            return view_of(x, basic(x._data, nkey))
        require_key_devices(ctx, "__getitem__", x, nkey)
        return wrap(be.getitem(x._data, nkey))

    def setitem(x, key, value):
        if is_ro(x._data):
            raise readonly_error("__setitem__")
        if isinstance(key, (bool, np.bool_)) or (type(key) is tuple and not is_basic_key(key)):
            key, empty_at = bool_scalar_key(x, key)
            if empty_at is not None:  # x[False] = v writes nothing (v must still fit)
                target = getitem(x, key)[(slice(None),) * empty_at + (slice(0, 0),)]
                if value.__class__ is A:
                    broadcast_shapes(value.shape, target.shape)
                return
        nkey, has_array = normalize_key(numpy_keys(x, key), x.shape, A)
        require_key_devices(ctx, "__setitem__", x, nkey, value)
        t = x._dtype
        value = py_scalar(value)
        if value.__class__ is A:
            if TABLE.get((value._dtype, t)) is not t and (
                    strict() or (value._dtype.kind == "c" and t.kind != "c")):
                raise DTypeMismatch(f"__setitem__: a value of dtype {value._dtype.name} cannot be "
                                    f"stored into an array of dtype {t.name} without a lossy "
                                    f"cast", t, value._dtype)
            # compatible semantics: NumPy's setitem casts the value as astype would
            v = value._data if value._dtype is t else be.astype(value._data, t)
        elif type(value) in PY_SCALARS:
            value = cast_scalar(value, t, "__setitem__")
            check_py_scalar(value, t, "__setitem__", "value")
            v = value
        else:
            require_array(ctx, value, "__setitem__", "value")
        try:
            be.setitem(x._data, nkey, v)
        except ValueError as e:
            msg = str(e)
            if "read-only" in msg:
                raise InvalidArgument("x", "__setitem__: this array is a read-only broadcast "
                                           "view; copy it first (asarray(x, copy=True))") from None
            if isinstance(e, NumrError) and not isinstance(e, ShapeMismatch):
                raise  # already numr's own error (a device or backend problem), not a shape
            raise ShapeMismatch(f"__setitem__: 'value' does not fit the indexed region of "
                                f"'x' (shape {x.shape}, key {key!r}): {msg}") from None

    ctx.getitem = getitem
    P = be.payload_type
    fix = be.fix_result
    DT = be.dtype_table

    def __getitem__(self, key, /):
        # fast path for the commonest keys (a slice or an int) on the wrapped module
        tk = key.__class__
        if tk is slice or tk is int:
            try:
                r = basic(self._data, key)
            except (IndexError, TypeError, ValueError, OverflowError):
                return getitem(self, key)
            if r.__class__ is not P:
                r = fix(r)
            a = A()
            a._data = r
            a._dtype = self._dtype
            return a
        return getitem(self, key)

    A.__getitem__ = __getitem__
    ctx.setitem = setitem

    def take(x, indices, /, *, axis=None):
        require_array(ctx, x, "take")
        if indices.__class__ is not A and isinstance(indices, (int, np.integer)) and \
                not isinstance(indices, (bool, np.bool_)) and not strict():
            # NumPy's take of one index drops the axis (Cubed's var / std combine their
            # partial results so): the compatible semantics read it as x[..., i, ...]
            if axis is None and x.ndim != 1:
                raise InvalidArgument("axis", "take: 'axis' is required for arrays with more "
                                              "than one dimension")
            ax = 0 if axis is None else normalize_axis(axis, x.ndim)
            return wrap(be.copy(getitem(x, (slice(None),) * ax + (int(indices),))._data))
        require_array(ctx, indices, "take", "indices")
        require_kind(indices, "iu", "take", "indices")
        if indices.ndim != 1:
            raise InvalidArgument("indices", f"take: must be 1-D, got {indices.ndim}-D")
        if axis is None:
            if x.ndim != 1:
                raise InvalidArgument("axis", "take: 'axis' is required for arrays with more "
                                              "than one dimension")
            ax = 0
        else:
            ax = normalize_axis(axis, x.ndim)
        return wrap(be.take(x._data, indices._data, ax))

    def take_along_axis(x, indices, /, *, axis=-1):
        require_array(ctx, x, "take_along_axis")
        require_array(ctx, indices, "take_along_axis", "indices")
        require_kind(indices, "iu", "take_along_axis", "indices")
        if indices.ndim != x.ndim:
            raise ShapeMismatch(f"take_along_axis: 'indices' has {indices.ndim} dimensions, "
                                f"'x' has {x.ndim}", x.ndim, indices.ndim)
        ax = normalize_axis(axis, x.ndim)
        other_x = tuple(s for i, s in enumerate(x.shape) if i != ax)
        other_i = tuple(s for i, s in enumerate(indices.shape) if i != ax)
        broadcast_shapes(other_x, other_i)
        return wrap(be.take_along_axis(x._data, indices._data, ax))

    return {"take": take, "take_along_axis": take_along_axis}
