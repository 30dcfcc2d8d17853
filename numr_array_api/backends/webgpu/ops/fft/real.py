"""The transforms the standard names, from complex plans (plan.py).

One 1-d transform along ``axis`` sees the array as ``rows`` rows: the dims before the axis
collapse to one (outer) and those after it to one (inner), so any axis of a contiguous
array, and most strided views, are read and written in place of a transpose; a view whose
outer or inner dims do not collapse (or with negative strides) is copied first. Batches
beyond one storage binding run in slabs of rows.

Kinds: c2c (fft, ifft), r2c (rfft, ihfft: the conjugate of rfft is the +i transform) and
c2r (irfft, hfft: hfft(a) = irfft(conj a) is the -i real-output transform of a's Hermitian
extension). Even lengths of r2c / c2r use the half-length complex trick: the real row read
as n/2 complex pairs, one length-n/2 complex transform and one twiddle pass (fused into
the workgroup-memory kernel where n/2 fits one: FastSpec post / pre; else HalfSpec);
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


_ROWS = {}


def _rows(s, axis):
    """(so, si, se, rows, inner) of ``s`` along ``axis``, or None if the outer or inner
    dims do not collapse to one stride each (or a stride is negative); memoised per
    (shape, strides, axis)."""
    key = (s.shape, s.strides, axis)
    r = _ROWS.get(key, False)
    if r is False:
        r = _rows_of(s, axis)
        if len(_ROWS) > 4096:
            _ROWS.clear()
        _ROWS[key] = r
    return r


def _rows_of(s, axis):
    # the stride of a length-1 dim is never used (it may be anything, even negative)
    strides = tuple(0 if n == 1 else st for n, st in zip(s.shape, s.strides))
    if any(st < 0 for st in strides):
        return None
    oshape, ostr = collapse(s.shape[:axis], strides[:axis])
    ishape, istr = collapse(s.shape[axis + 1:], strides[axis + 1:])
    if len(oshape) > 1 or len(ishape) > 1:
        return None
    inner = math.prod(s.shape[axis + 1:])
    rows = math.prod(s.shape[:axis]) * inner
    return (ostr[0] if ostr else 0), (istr[0] if istr else 0), strides[axis], rows, inner


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
        so = si = se = 0
        rows, inner = _rows(out, axis)[3:]
    else:
        lay = _rows(a, axis)
        if lay is None:
            a = a.contiguous()
            lay = _rows(a, axis)
        so, si, se, rows, inner = lay
        src_buf, in_len = a, min(m_in, want)
    oso, osi, ose, _, _ = _rows(out, axis)
    job = _Job(kind, n, cd, inverse, _scale(name, norm, n), in_len, out_len)
    outer = rows // inner
    # rows beyond one binding (operands or scratch) run in slabs of outer indices, then of
    # inner ones; a slab's views share the storages' blocks, only their offsets move
    sstr, ostr = (so, si, se), (oso, osi, ose)
    if inner > 1 and a.size and not job.fits(client, src_buf, sstr, m_in, out, ostr, 1, 1):
        # one strided row spans more than a binding: make the axis last (the GPU copy
        # kernel splits big data), transform rows, and put the axis back
        nd = a.ndim
        perm = tuple(d for d in range(nd) if d != axis) + (axis,)
        r = one_d(name, a.permute(perm).contiguous(), n, nd - 1, norm, out_dtype)
        inv = list(range(nd - 1))
        inv.insert(axis, nd - 1)
        return r.permute(tuple(inv)).contiguous()
    oc, ic = outer, inner
    while oc > 1 and not job.fits(client, src_buf, sstr, m_in, out, ostr, oc, ic):
        oc = -(-oc // 2)
    while oc == 1 and ic > 1 and not job.fits(client, src_buf, sstr, m_in, out, ostr, 1, ic):
        ic = -(-ic // 2)
    for o0 in range(0, outer, oc):
        for i0 in range(0, inner, ic):
            c, d = min(oc, outer - o0), min(ic, inner - i0)
            sv = _slab(src_buf, sstr, m_in, o0, c, i0, d) if a.size else src_buf
            ov = _slab(out, ostr, out_len, o0, c, i0, d)
            check_fits(sv, "the input")
            check_fits(ov, "the output")
            job.run(client, sv, sstr, ov, ostr, c * d, d)
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


def _slab(s, strides, length, o0, oc, i0, ic):
    """Outer indices [o0, o0 + oc) and inner ones [i0, i0 + ic) of ``s`` seen as
    (outer, length, inner) rows."""
    so, si, se = strides
    if o0 == 0 and i0 == 0 and oc * ic * length == s.size:
        return s
    return s._view((oc, length, ic), (so, se, si),
                   s.offset + (o0 * so + i0 * si) * s.itemsize)


def _pairs(buf, so, si, se, length, rows, inner, side):
    """A real row of even length with unit stride, seen as complex pairs (same bytes: a
    complex view of the real storage), so that complex-only plan methods (four-step) take
    it; None where the layout does not allow it (real-pair modes handle those)."""
    item = buf.dtype.itemsize
    if (inner != 1 or se != 1 or so % 2 or length % 2 or buf.offset % (2 * item)
            or buf.size == 0):
        return None
    cdt = dt.COMPLEX_OF_REAL_FLOAT[buf.dtype]
    view = WgpuStorage(buf.block, buf.offset, (rows, length // 2), (so // 2, 1), cdt,
                       buf.client)
    return Side(view, "c", so // 2, 0, 1, length // 2)


class _Job:
    """One 1-d transform (kind, length, precision, direction, scale, row lengths) run on
    a slab of rows."""

    def __init__(self, kind, n, cd, inverse, scale, in_len, out_len):
        self.kind, self.n, self.cd, self.inverse, self.scale = kind, n, cd, inverse, scale
        self.in_len, self.out_len = in_len, out_len

    def scratch_len(self, client):
        """Complex scratch elements per row the transform allocates at most."""
        n = self.n if self.kind == "c2c" or self.n % 2 else self.n // 2
        p = plan(client, n, self.cd, self.inverse)
        return p.m if p.method == "bluestein" else n

    def fits(self, client, src, sstr, m_in, out, ostr, c, inner):
        item = 16 if self.cd == "complex128" else 8
        if c * inner * self.scratch_len(client) * item > client.max_binding:
            return False
        views = [_slab(out, ostr, self.out_len, 0, c, 0, inner)]
        if src.size > 1 or m_in:
            views.append(_slab(src, sstr, m_in, 0, c, 0, inner))
        return all(v.fits_binding() for v in views)

    def run(self, client, src_buf, sstr, out, ostr, rows, inner):
        kind, n, cd, inverse, scale = self.kind, self.n, self.cd, self.inverse, self.scale
        so, si, se = sstr
        oso, osi, ose = ostr
        in_len, out_len = self.in_len, self.out_len
        real_in = src_buf.dtype.kind != "c"
        if kind == "c2c":
            src = Side(src_buf, "r" if real_in else "c", so, si, se, in_len)
            dst = Side(out, "c", oso, osi, ose, out_len)
            plan(client, n, cd, inverse).run(src, dst, rows, inner, scale)
        elif kind == "r2c":
            dst = Side(out, "c", oso, osi, ose, out_len)
            if n % 2 == 0:
                h = n // 2
                src = _pairs(src_buf, so, si, se, in_len, rows, inner, "ld") or \
                    Side(src_buf, "rp", so, si, se, in_len)
                p = plan(client, h, cd, inverse)
                if p.method == "shared":
                    # one kernel: the half-length transform stays in workgroup memory
                    p._shared(src, dst, rows, inner, scale, post=table(client, n, cd))
                    return
                z = _scratch_side(client, rows, inner, h, cd)
                p.run(src, z, rows, inner, 1.0)
                k = client.kernel(HalfSpec(cd, inverse, True))
                k.launch(workgroups(rows * (h + 1), client), x=z.buf, y=out,
                         tw=table(client, n, cd), h=h, count=h + 1,
                         **io_words(z, dst, rows, inner, cd, scale))
            else:
                src = Side(src_buf, "r", so, si, se, in_len)
                plan(client, n, cd, inverse).run(src, dst, rows, inner, scale)
        elif n % 2 == 0:
            h = n // 2
            src = Side(src_buf, "c", so, si, se, in_len)
            p = plan(client, h, cd, inverse)
            if p.method == "shared":
                dst = _pairs(out, oso, osi, ose, out_len, rows, inner, "st") or \
                    Side(out, "rp", oso, osi, ose, out_len)
                p._shared(src, dst, rows, inner, scale, pre=table(client, n, cd))
                return
            z = _scratch_side(client, rows, inner, h, cd)
            k = client.kernel(HalfSpec(cd, inverse, False))
            k.launch(workgroups(rows * h, client), x=src_buf, y=z.buf,
                     tw=table(client, n, cd), h=h, count=h,
                     **io_words(src, z, rows, inner, cd, 1.0))
            dst = _pairs(out, oso, osi, ose, out_len, rows, inner, "st") or \
                Side(out, "rp", oso, osi, ose, out_len)
            plan(client, h, cd, inverse).run(z, dst, rows, inner, scale)
        else:
            src = Side(src_buf, "h", so, si, se, in_len)
            dst = Side(out, "re", oso, osi, ose, out_len)
            plan(client, n, cd, inverse).run(src, dst, rows, inner, scale)
