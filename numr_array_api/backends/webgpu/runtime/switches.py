"""Tuning switches: environment variables ``NUMR_WEBGPU_<NAME>``, read at every call so one
process can compare variants (benchmarks/linalg_variants.py) and tests can set them.

A small stacked linalg call asks for ~30 of them; ``os.environ.get`` of an unset name
raises and catches a KeyError inside (about a microsecond each), so the lookups go to the
encoded mapping that os.environ keeps in step with every change made through it.
"""

import os

_PREFIX = "NUMR_WEBGPU_"
_data = getattr(os.environ, "_data", None)
_encode = getattr(os.environ, "encodekey", None)
_decode = getattr(os.environ, "decodevalue", None)
if not (isinstance(_data, dict) and callable(_encode) and callable(_decode)):
    _data = None  # another interpreter's os.environ: the plain lookups
_keys = {}


def switch(name, default=None):
    """The value of NUMR_WEBGPU_<name>, or ``default`` where unset."""
    if _data is None:
        return os.environ.get(_PREFIX + name, default)
    k = _keys.get(name)
    if k is None:
        k = _keys[name] = _encode(_PREFIX + name)
    v = _data.get(k)
    return default if v is None else _decode(v)


def switch_int(name, default, lo, hi):
    """NUMR_WEBGPU_<name> as an int clipped to [lo, hi]; ``default`` where unset or not
    an integer."""
    v = (switch(name) or "").strip()
    try:
        return max(lo, min(hi, int(v))) if v else default
    except ValueError:
        return default


_snap_keys = {}


def snapshot(names):
    """The raw values of NUMR_WEBGPU_<name> for a tuple of names (None where unset), for
    keys of memos and recipes: one C-level pass, no decoding (a stacked linalg call keys
    its route and its recipe on ~20 switches)."""
    if _data is None:
        return tuple([os.environ.get(_PREFIX + n) for n in names])
    keys = _snap_keys.get(names)
    if keys is None:
        keys = _snap_keys[names] = tuple([_encode(_PREFIX + n) for n in names])
    return tuple(map(_data.get, keys))
