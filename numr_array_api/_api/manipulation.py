"""Manipulation functions (views where the backend can make them)."""

import math
import sys

from .._core import dtypes as dt
from .._core.errors import DTypeMismatch, InvalidArgument, InvalidType, ShapeMismatch
from .._core.shapes import (MAX_ELEMENTS, as_int, check_addressable, broadcast_shapes as _broadcast_shapes, check_shape,
                            normalize_axes, normalize_axis)
from ._common import no_promotion, require_array, require_same_device


def build(ctx):
    be = ctx.be
    wrap = ctx.wrap
    ro = be.readonly
    view_of = ctx.view_of

    def _arrays(arrays, fname):
        if not isinstance(arrays, (tuple, list)):
            raise TypeError(f"{fname}: 'arrays' must be a tuple or list of arrays, got "
                            f"{type(arrays).__name__}")
        if not arrays:
            raise InvalidArgument("arrays", f"{fname}: at least one array is required")
        for i, a in enumerate(arrays):
            require_array(ctx, a, fname, f"arrays[{i}]")
        require_same_device(ctx, fname, *arrays, names=())
        t = arrays[0]._dtype
        for i, a in enumerate(arrays[1:], 1):
            r = ctx.promote(t, a._dtype, be.device_of(arrays[0]._data))
            if r is None:
                raise no_promotion(fname, t, a._dtype, ("arrays[0..]", f"arrays[{i}]"))
            t = r
        return [a._data if a._dtype is t else be.astype(a._data, t) for a in arrays], t

    def broadcast_shapes(*shapes):
        norm = []
        for i, s in enumerate(shapes):
            if not isinstance(s, (tuple, list)):
                raise TypeError(f"broadcast_shapes: shapes[{i}] must be a tuple, got {s!r}")
            dims = tuple(None if d is None else as_int(d, f"shapes[{i}]") for d in s)
            if any(d is not None and d < 0 for d in dims):
                raise InvalidArgument(f"shapes[{i}]", f"broadcast_shapes: dimensions must be "
                                                      f"non-negative, got {tuple(s)}")
            norm.append(dims)
        return _broadcast_shapes(*norm)

    def broadcast_to(x, /, shape):
        require_array(ctx, x, "broadcast_to")
        shape = check_shape(shape)
        try:
            target = _broadcast_shapes(x.shape, shape)
        except ShapeMismatch:
            target = None
        if target != shape:
            raise ShapeMismatch(f"broadcast_to: 'x' of shape {x.shape} cannot be broadcast to "
                                f"'shape' {shape}", shape, x.shape)
        if math.prod(shape) > MAX_ELEMENTS:
            # any result computed from the view must stay addressable (shapes.MAX_ELEMENTS)
            raise InvalidArgument("shape", f"broadcast_to: shape {shape} has more than 2**58 "
                                           f"elements, the most a numr array may have")
        # always read-only, as NumPy's: a write would land on the source (and on every
        # element that aliases it), even where no dimension is repeated
        return wrap(ro(be.broadcast_to(x._data, shape)))

    def broadcast_arrays(*arrays):
        for i, a in enumerate(arrays):
            require_array(ctx, a, "broadcast_arrays", f"arrays[{i}]")
        shape = _broadcast_shapes(*(a.shape for a in arrays))
        if math.prod(shape) > MAX_ELEMENTS:
            raise InvalidArgument("arrays", f"broadcast_arrays: shape {shape} has more than "
                                            f"2**58 elements, the most a numr array may have")
        return tuple(a if a.shape == shape else wrap(ro(be.broadcast_to(a._data, shape)))
                     for a in arrays)

    def concat(arrays, /, *, axis=0):
        datas, t = _arrays(arrays, "concat")
        if axis is None:
            datas = [be.reshape(d, (-1,), copy=None) for d in datas]
            return wrap(be.concat(datas, 0))
        ndim = arrays[0].ndim
        if ndim == 0:
            raise InvalidArgument("arrays", "concat: 0-d arrays cannot be concatenated (use "
                                            "axis=None or stack)")
        ax = normalize_axis(axis, ndim)
        ref = arrays[0].shape
        for i, a in enumerate(arrays):
            if a.ndim != ndim or any(s != r for j, (s, r) in enumerate(zip(a.shape, ref))
                                     if j != ax):
                raise ShapeMismatch(f"concat: arrays[{i}] has shape {a.shape}, incompatible "
                                    f"with {ref} along axis {axis}", ref, a.shape)
        return wrap(be.concat(datas, ax))

    def stack(arrays, /, *, axis=0):
        datas, t = _arrays(arrays, "stack")
        ref = arrays[0].shape
        for i, a in enumerate(arrays):
            if a.shape != ref:
                raise ShapeMismatch(f"stack: arrays[{i}] has shape {a.shape}, expected {ref}",
                                    ref, a.shape)
        ax = normalize_axis(axis, len(ref) + 1)
        return wrap(be.stack(datas, ax))

    def expand_dims(x, /, axis):
        require_array(ctx, x, "expand_dims")
        axes = axis if isinstance(axis, tuple) else (axis,)
        out_ndim = x.ndim + len(axes)
        norm = [normalize_axis(a, out_ndim) for a in axes]
        if len(set(norm)) != len(norm):
            raise InvalidArgument("axis", f"expand_dims: repeated axes {axis}")
        shape = list(x.shape)
        for a in sorted(norm):
            shape.insert(a, 1)
        return view_of(x, be.reshape(x._data, tuple(shape), copy=None))

    def flip(x, /, *, axis=None):
        require_array(ctx, x, "flip")
        axes = normalize_axes(axis, x.ndim)
        return view_of(x, be.flip(x._data, axes))

    def permute_dims(x, /, axes):
        require_array(ctx, x, "permute_dims")
        if not isinstance(axes, (tuple, list)):
            raise TypeError(f"permute_dims: 'axes' must be a tuple, got {type(axes).__name__}")
        norm = tuple(normalize_axis(a, x.ndim, "axes") for a in axes)
        if sorted(norm) != list(range(x.ndim)):
            raise InvalidArgument("axes", f"permute_dims: {tuple(axes)} is not a permutation of "
                                          f"the {x.ndim} axes")
        return view_of(x, be.permute(x._data, norm))

    def moveaxis(x, source, destination, /):
        require_array(ctx, x, "moveaxis")
        src = source if isinstance(source, (tuple, list)) else (source,)
        dst = destination if isinstance(destination, (tuple, list)) else (destination,)
        if len(src) != len(dst):
            raise InvalidArgument("destination", "moveaxis: 'source' and 'destination' must "
                                                 "have the same number of axes")
        src = [normalize_axis(a, x.ndim, "source") for a in src]
        dst = [normalize_axis(a, x.ndim, "destination") for a in dst]
        if len(set(src)) != len(src) or len(set(dst)) != len(dst):
            raise InvalidArgument("source", "moveaxis: repeated axes")
        order = [a for a in range(x.ndim) if a not in src]
        for d, s in sorted(zip(dst, src)):
            order.insert(d, s)
        return view_of(x, be.permute(x._data, tuple(order)))

    def reshape(x, /, shape, *, copy=None):
        require_array(ctx, x, "reshape")
        if isinstance(shape, int):
            shape = (shape,)
        if not isinstance(shape, (tuple, list)):
            raise InvalidType(f"reshape: 'shape' must be a tuple of ints, got "
                              f"{type(shape).__name__}")
        shape = tuple(as_int(s, "shape") for s in shape)
        if sum(1 for s in shape if s == -1) > 1 or any(s < -1 for s in shape):
            raise InvalidArgument("shape", f"reshape: invalid shape {shape}")
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        size = x.size
        if -1 in shape:
            if known == 0 or size % known:
                raise ShapeMismatch(f"reshape: 'x' of shape {x.shape} (size {size}) cannot "
                                    f"take 'shape' {shape}", shape, x.shape)
            shape = tuple(size // known if s == -1 else s for s in shape)
        elif known != size:
            raise ShapeMismatch(f"reshape: 'x' of shape {x.shape} (size {size}) cannot take "
                                f"'shape' {shape}", shape, x.shape)
        if copy not in (None, True, False):
            raise InvalidArgument("copy", f"must be True, False or None, got {copy!r}")
        r = be.reshape(x._data, shape, copy=copy)
        return wrap(r) if copy else view_of(x, r)

    def squeeze(x, /, axis):
        require_array(ctx, x, "squeeze")
        axes = normalize_axes(axis, x.ndim, allow_none=False)
        for a in axes:
            if x.shape[a] != 1:
                raise InvalidArgument("axis", f"squeeze: axis {a} has size {x.shape[a]}, not 1")
        shape = tuple(s for i, s in enumerate(x.shape) if i not in axes)
        return view_of(x, be.reshape(x._data, shape, copy=None))

    def roll(x, /, shift, *, axis=None):
        require_array(ctx, x, "roll")
        if axis is None:
            if isinstance(shift, tuple):
                raise InvalidArgument("shift", "roll: a tuple shift needs a tuple axis")
            return wrap(be.roll(x._data, (as_int(shift, "shift"),), None))
        axes = axis if isinstance(axis, tuple) else (axis,)
        shifts = shift if isinstance(shift, tuple) else (shift,) * len(axes)
        if len(shifts) != len(axes):
            raise InvalidArgument("shift", "roll: 'shift' and 'axis' must have the same length")
        axes = tuple(normalize_axis(a, x.ndim) for a in axes)
        shifts = tuple(as_int(s, "shift") for s in shifts)
        if not axes:  # nothing rolls: a copy (NumPy's own refuses the empty tuple)
            return wrap(be.copy(x._data))
        return wrap(be.roll(x._data, shifts, axes))

    def repeat(x, repeats, /, *, axis=None):
        require_array(ctx, x, "repeat")
        if repeats.__class__ is ctx.ArrayT:
            if repeats._dtype.kind not in "iu":
                raise DTypeMismatch("repeat: 'repeats' must have an integer dtype",
                                    repeats._dtype, None)
            if repeats.ndim > 1:
                raise InvalidArgument("repeats", "repeat: must be 0-d or 1-D")
            rep = repeats._data
        else:
            rep = as_int(repeats, "repeats")
            if rep < 0:
                raise InvalidArgument("repeats", f"repeat: must be non-negative, got {rep}")
            n = x.size if axis is None else x.shape[normalize_axis(axis, x.ndim)]
            check_addressable(be, "repeat", (x.size // max(n, 1) if n else 0, n, rep),
                              x._dtype.itemsize)
        data = x._data
        if axis is None:
            data = be.reshape(data, (-1,), copy=None)
            ax = 0
        else:
            ax = normalize_axis(axis, x.ndim)
        return wrap(be.repeat(data, rep, ax))

    def tile(x, repetitions, /):
        require_array(ctx, x, "tile")
        if not isinstance(repetitions, tuple):
            raise InvalidType(f"tile: 'repetitions' must be a tuple of ints, got "
                              f"{type(repetitions).__name__}")
        reps = tuple(as_int(r, "repetitions") for r in repetitions)
        if any(r < 0 for r in reps):
            raise InvalidArgument("repetitions", "tile: repetitions must be non-negative")
        out = (1,) * (len(reps) - x.ndim) + x.shape
        out = tuple(m * r for m, r in zip(out, (1,) * (x.ndim - len(reps)) + reps))
        if any(n > sys.maxsize for n in out):  # even with no elements (NumPy refuses too)
            raise InvalidArgument("repetitions", f"tile: a dimension of the result "
                                  f"{out} exceeds {sys.maxsize}")
        check_addressable(be, "tile", out, x._dtype.itemsize)
        return wrap(be.tile(x._data, reps))

    def unstack(x, /, *, axis=0):
        require_array(ctx, x, "unstack")
        if x.ndim == 0:
            raise InvalidArgument("x", "unstack: needs at least one dimension")
        ax = normalize_axis(axis, x.ndim)
        return tuple(view_of(x, d) for d in be.unstack(x._data, ax))

    return {"broadcast_arrays": broadcast_arrays, "broadcast_shapes": broadcast_shapes,
            "broadcast_to": broadcast_to, "concat": concat, "expand_dims": expand_dims,
            "flip": flip, "moveaxis": moveaxis, "permute_dims": permute_dims,
            "repeat": repeat, "reshape": reshape, "roll": roll, "squeeze": squeeze,
            "stack": stack, "tile": tile, "unstack": unstack}
