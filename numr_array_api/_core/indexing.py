"""Index-key normalisation shared by every backend.

``normalize_key`` validates a key against a shape and returns it as a tuple in which
Ellipsis is expanded, every slice and int is checked, and array indices are numr arrays
of this namespace. Backends receive only such keys.
"""

import operator

import numpy as np

from .errors import InvalidIndex

__all__ = ["normalize_key", "is_basic_key"]


def is_basic_key(key):
    """True for the keys every backend can serve as a view: ints, slices, None, Ellipsis."""
    t = type(key)
    if t is int or t is slice:
        return True
    if t is tuple:
        for k in key:
            tk = type(k)
            if not (tk is int or tk is slice or k is None or k is Ellipsis):
                return False
        return True
    return key is Ellipsis or key is None


def _index_int(v, what):
    if v is None:
        return None
    if type(v) is int:
        return v
    if isinstance(v, bool) or not hasattr(v, "__index__"):
        raise InvalidIndex(f"slice {what} must be an integer or None, got {type(v).__name__}")
    return operator.index(v)


def normalize_key(key, shape, ArrayT):
    """Validate ``key`` for an array of ``shape``; return (key tuple, has_array_index)."""
    if type(key) is not tuple:
        key = (key,)
    ndim = len(shape)
    n_ellipsis = sum(1 for k in key if k is Ellipsis)
    if n_ellipsis > 1:
        raise InvalidIndex("an index can have at most one ellipsis ('...')")
    # axes the ellipsis stands for, so that keys after it are checked against their own axis
    spanned = sum(k.ndim if k.__class__ is ArrayT and k._dtype.kind == "b" else 1
                  for k in key if k is not None and k is not Ellipsis)
    ellipsis_span = max(0, ndim - spanned)
    consumed = 0
    has_array = False
    out = []
    for k in key:
        if k is Ellipsis:
            out.append(k)
            consumed += ellipsis_span
        elif k is None:
            out.append(k)
        elif type(k) is bool or isinstance(k, np.bool_):
            raise InvalidIndex("Python bools are not valid indices; use a boolean array")
        elif type(k) is int or isinstance(k, np.integer) or (
                hasattr(k, "__index__") and k.__class__ is not ArrayT
                and not hasattr(k, "__array_namespace__")):
            # NumPy integer scalars (which carry __array_namespace__ in NumPy 2) are ints;
            # 0-d arrays of other libraries are not silently read back
            i = operator.index(k)
            if consumed >= ndim:
                raise InvalidIndex(f"too many indices for an array of {ndim} dimension(s)")
            n = shape[consumed]
            if i < -n or i >= n:
                raise InvalidIndex(f"index {i} is out of bounds for axis {consumed} with size {n}")
            out.append(i)
            consumed += 1
        elif type(k) is slice:
            out.append(slice(_index_int(k.start, "start"), _index_int(k.stop, "stop"),
                             _index_int(k.step, "step")))
            if k.step == 0:
                raise InvalidIndex("slice step cannot be zero")
            consumed += 1
        elif k.__class__ is ArrayT:
            has_array = True
            kind = k._dtype.kind
            if kind == "b":
                span = k.ndim
                dims = tuple(shape[consumed:consumed + span])
                # a zero-length mask dimension selects nothing, whatever the array's size
                if consumed + span > ndim or any(ks not in (xs, 0) for ks, xs in
                                                 zip(k.shape, dims)):
                    raise InvalidIndex(f"boolean index of shape {k.shape} does not match the "
                                       f"indexed dimensions {dims}")
                consumed += span
            elif kind in "iu":
                if consumed >= ndim:
                    raise InvalidIndex(f"too many indices for an array of {ndim} dimension(s)")
                consumed += 1
            else:
                raise InvalidIndex(f"array indices must have an integer or boolean dtype, got "
                                   f"{k._dtype.name}")
            out.append(k)
        else:
            raise InvalidIndex(f"invalid index of type {type(k).__name__}: only integers, "
                               f"slices, None, Ellipsis and integer or boolean arrays of the "
                               f"same namespace are valid indices")
    if consumed > ndim:
        raise InvalidIndex(f"too many indices for an array of {ndim} dimension(s)")
    if n_ellipsis:
        i = out.index(Ellipsis)
        out[i:i + 1] = [slice(None)] * ellipsis_span
    else:
        out.extend([slice(None)] * (ndim - consumed))
    return tuple(out), has_array
