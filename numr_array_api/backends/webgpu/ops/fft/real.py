"""The transforms the standard names, from complex plans (plan.py).

One 1-d transform along ``axis`` sees the array as ``rows`` rows: the dims before the axis
collapse to one (outer) and those after it to one (inner), so any axis of a contiguous
array, and most strided views, are read and written in place of a transpose; a view whose
outer or inner dims do not collapse (or with negative strides) is copied first.

Kinds: c2c (fft, ifft), r2c (rfft, ihfft: the conjugate of rfft is the +i transform) and
c2r (irfft, hfft: hfft(a) = irfft(conj a) is the -i real-output transform of a's Hermitian
extension). Even lengths of r2c / c2r use the half-length complex trick: the real row read
as n/2 complex pairs, one length-n/2 complex transform and one twiddle pass (HalfSpec);
odd lengths run the length-n complex transform of the real row (r2c) or of the Hermitian
extension (c2r), documented in docs/webgpu.md. ``n`` pads with zeros (a load past the
row's length reads 0) or truncates (the load stops early); the norm's scale is applied by
the last kernel's store.
"""

from __future__ import annotations

import math

from ....._core import dtypes as dt
from ...codegen.render import collapse, workgroups
from ...storage import WgpuStorage
from .plan import Side, check_fits, io_words, plan, scratch, table
from .specs import HalfSpec

__all__ = ["one_d", "n_d"]

_FORWARD = {"fft", "rfft", "hfft"}
_KIND = {"fft": "c2c", "ifft": "c2c", "rfft": "r2c", "ihfft": "r2c", "irfft": "c2r",
         "hfft": "c2r"}
_INVERSE = {"ifft", "ihfft", "irfft"}   # sign +1 in the exponent


def _scale(name, norm, n):
    if norm == "ortho":
        return 1.0 / math.sqrt(n)
    fwd = name in _FORWARD
    if (norm == "backward") == fwd:
        return 1.0
    return 1.0 / n


def _rows(s, axis):
    """(so, si, se, rows, inner) of ``s`` along ``axis``, or None if the outer or inner
    dims do not collapse to one stride each (or a stride is negative)."""
    if any(st < 0 for st in s.strides):
        return None
    oshape, ostr = collapse(s.shape[:axis], s.strides[:axis])
    ishape, istr = collapse(s.shape[axis + 1:], s.strides[axis + 1:])
    if len(oshape) > 1 or len(ishape) > 1:
        return None
    inner = math.prod(s.shape[axis + 1:])
    rows = math.prod(s.shape[:axis]) * inner
    return (ostr[0] if ostr else 0), (istr[0] if istr else 0), s.strides[axis], rows, inner


def _scratch_side(client, rows, inner, n, cd):
    buf = scratch(client, rows * n, cd)
    lay = (n * inner, 1, inner) if inner > 1 else (inner * n, n, 1)
    return Side(buf, "c", *lay, n)


def one_d(name, a, n, axis, norm, out_dtype):
    kind = _KIND[name]
    inverse = name in _INVERSE
    cdt = out_dtype if out_dtype.kind == "c" else dt.COMPLEX_OF_REAL_FLOAT[out_dtype]
    rdt = dt.REAL_FLOAT_OF_COMPLEX[cdt]
    cd = cdt.name
    m_in = a.shape[axis]
    if n is None:
        n = 2 * (m_in - 1) if kind == "c2r" else m_in
    if kind == "c2r":
        want, out_len = n // 2 + 1, n
        if a.dtype is not cdt:
            a = a.astype(cdt)
    else:
        want = n
        out_len = n if kind == "c2c" else n // 2 + 1
        target = cdt if a.dtype.kind == "c" else rdt
        if a.dtype is not target:
            a = a.astype(target)
    out = WgpuStorage._new(a.shape[:axis] + (out_len,) + a.shape[axis + 1:], out_dtype,
                           a.client)
    if out.size == 0:
        return out
    client = a.client
    if a.size == 0:  # an empty axis padded with zeros: nothing is read
        src_buf, in_len = WgpuStorage._new((1,), a.dtype, client), 0
        ol = _rows(out, axis)
        so = si = se = 0
        rows, inner = ol[3], ol[4]
    else:
        lay = _rows(a, axis)
        if lay is None:
            a = a.contiguous()
            lay = _rows(a, axis)
        so, si, se, rows, inner = lay
        src_buf, in_len = a, min(m_in, want)
    check_fits(src_buf, "the input")
    check_fits(out, "the output")
    oso, osi, ose, _, _ = _rows(out, axis)
    scale = _scale(name, norm, n)
    real_in = src_buf.dtype.kind != "c"

    if kind == "c2c":
        src = Side(src_buf, "r" if real_in else "c", so, si, se, in_len)
        dst = Side(out, "c", oso, osi, ose, out_len)
        plan(client, n, cd, inverse).run(src, dst, rows, inner, scale)
    elif kind == "r2c":
        dst = Side(out, "c", oso, osi, ose, out_len)
        if n % 2 == 0:
            h = n // 2
            z = _scratch_side(client, rows, inner, h, cd)
            src = Side(src_buf, "rp", so, si, se, in_len)
            plan(client, h, cd, inverse).run(src, z, rows, inner, 1.0)
            k = client.kernel(HalfSpec(cd, inverse, True))
            k.launch(workgroups(rows * (h + 1), client), x=z.buf, y=out,
                     tw=table(client, n, cd), h=h, count=h + 1,
                     **io_words(z, dst, rows, inner, cd, scale))
        else:
            src = Side(src_buf, "r", so, si, se, in_len)
            plan(client, n, cd, inverse).run(src, dst, rows, inner, scale)
    else:
        if n % 2 == 0:
            h = n // 2
            z = _scratch_side(client, rows, inner, h, cd)
            src = Side(src_buf, "c", so, si, se, in_len)
            k = client.kernel(HalfSpec(cd, inverse, False))
            k.launch(workgroups(rows * h, client), x=src_buf, y=z.buf,
                     tw=table(client, n, cd), h=h, count=h,
                     **io_words(src, z, rows, inner, cd, 1.0))
            dst = Side(out, "rp", oso, osi, ose, out_len)
            plan(client, h, cd, inverse).run(z, dst, rows, inner, scale)
        else:
            src = Side(src_buf, "h", so, si, se, in_len)
            dst = Side(out, "re", oso, osi, ose, out_len)
            plan(client, n, cd, inverse).run(src, dst, rows, inner, scale)
    return out


def n_d(name, a, s, axes, norm, out_dtype):
    if not axes:  # the identity (a copy in the result dtype)
        return a.astype(out_dtype)
    if name in ("fftn", "ifftn"):
        base = name[:-1]
        for ii in reversed(range(len(axes))):
            a = one_d(base, a, s[ii], axes[ii], norm, out_dtype)
        return a
    if name == "rfftn":
        a = one_d("rfft", a, s[-1], axes[-1], norm, out_dtype)
        for ii in reversed(range(len(axes) - 1)):
            a = one_d("fft", a, s[ii], axes[ii], norm, out_dtype)
        return a
    cdt = dt.COMPLEX_OF_REAL_FLOAT[out_dtype]
    for ii in range(len(axes) - 1):
        a = one_d("ifft", a, s[ii], axes[ii], norm, cdt)
    return one_d("irfft", a, s[-1], axes[-1], norm, out_dtype)
