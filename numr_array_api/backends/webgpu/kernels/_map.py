"""Copy and cast: the N-ary template (nary.py) with one input and the identity op.

A cast converts with ``codegen.types.convert`` (NumPy's ``astype`` results); a copy moves
raw bits (``RAW`` pseudo-types, 1..16-byte elements as u32 words), so it is bit-exact for
every dtype (NaN payloads, -0.0) and needs no optional feature. Any source view (strided,
flipped, broadcast) is read directly into a new contiguous output.
"""

from ..codegen.types import RAW, wtype
from .nary import launch


def _identity(t):
    return f"fn op(a: {t.val}, e: u32) -> {t.val} {{ return a; }}"


def _run(src, out, st, dt):
    return launch(src.client, ("map",), (src,), [st], st, dt, _identity(st), "",
                  src.shape, out)


def map_into(src, dst_dtype, raw):
    """A new contiguous storage holding ``src`` (any view) converted to ``dst_dtype``.

    ``raw``: move bits unchanged (a copy; src and dst dtypes must have equal itemsize).
    """
    client = src.client
    if raw:
        st = dt = RAW[src.itemsize]
    else:
        st = wtype(src.dtype, client, "astype")
        dt = wtype(dst_dtype, client, "astype")
    return _run(src, src._new(src.shape, dst_dtype, client), st, dt)


def map_into_block(src, dst):
    """Copy ``src`` (any view) into the existing contiguous storage ``dst`` (same shape/dtype)."""
    t = RAW[src.itemsize]
    return _run(src, dst, t, t)
