"""lfilter, sosfilt, lfilter_zi, sosfilt_zi, lfiltic, filtfilt, sosfiltfilt and deconvolve
for webgpu arrays.

The data runs through the recurrence scan (recurrence.py) along the filtered axis, moved
last and made contiguous on the device, every other axis a batch row. Coefficients are
host arrays (see _common); the initial-state solves of lfilter_zi / sosfilt_zi are SciPy's
own, on those host coefficients, uploaded. A numerator-only filter without initial state
is a causal convolution and runs through the direct convolution kernel instead.
"""

from __future__ import annotations

import numpy as np

from ....._core import dtypes as D
from ....._core.errors import InvalidArgument
from ...codegen.caps import Caps
from . import _common as C
from .direct import correlate_rows
from .recurrence import coefficient_table, max_order, run_recurrence, state_dtype

__all__ = ["lfilter", "sosfilt", "lfilter_zi", "sosfilt_zi", "filtfilt", "sosfiltfilt",
           "deconvolve", "lfiltic"]


def _scipy(name):
    import scipy.signal
    f = getattr(scipy.signal, name)
    return getattr(f, "__numr_routed__", f)


def _compute_dtype(fname, *arrays):
    """SciPy's result dtype of a recursive filter (NumPy's promotion of the coefficients,
    data and states; integers become float64, float16 float32)."""
    probes = [np.empty(0, a.dtype.np) if hasattr(a, "_ctx") else np.asarray(a)
              for a in arrays if a is not None]
    rt = np.result_type(*probes)
    if rt.kind == "c":
        raise C.limitation(fname, "complex coefficients", "the webgpu recursive filters "
                           "compute real recurrences (complex data with real coefficients "
                           "runs as two real filters)")
    if rt.kind != "f":
        return D.float64
    return D.float32 if rt.itemsize <= 4 else D.float64


def _complex_data(x, zi):
    return C.is_complex(x.dtype) or (zi is not None and C.is_complex(zi.dtype))


def _by_parts(xp, run, x, zi):
    """A real filter of complex data: the real and imaginary parts filtered apart (the
    recurrence is linear with real coefficients: the same arithmetic SciPy's complex loop
    does, component by component)."""
    def parts(v):
        if v is None:
            return None, None
        if C.is_complex(v.dtype):
            return xp.real(v), xp.imag(v)
        return v, xp.zeros_like(v)
    xr, xi = parts(x)
    zr, zim = parts(zi)
    re, im = run(xr, zr), run(xi, zim)

    def join(r, i):
        ct = xp.complex64 if r.dtype == D.float32 else xp.complex128
        return xp.astype(r, ct) + xp.astype(i, ct) * 1j
    if zi is None:
        return join(re, im)
    return join(re[0], im[0]), join(re[1], im[1])


def _rows(xp, x, axis, dt):
    """``x`` (cast to ``dt``) with ``axis`` last, as a contiguous (rows, L) storage, and the
    moved shape."""
    xm = xp.moveaxis(x, axis, -1) if x.ndim else x
    if xm.dtype != dt:
        xm = xp.astype(xm, dt)
    shape = xm.shape
    L = shape[-1]
    rows = xm.size // L if L else 0
    return xm._data.contiguous().reshape((rows, L)), shape


def _states(xp, zi, x, axis, order, dt, fname, lead=()):
    """``zi`` (None: zeros) as contiguous (rows, order) storages, one per ``lead`` index."""
    want = tuple(lead) + tuple(order if i == axis else n for i, n in enumerate(x.shape))
    if zi is None:
        z = xp.zeros(want, dtype=dt, device=x.device)
    else:
        z = C.on_device(xp, zi, x)
        if z.shape != want:
            try:
                z = xp.broadcast_to(z, want)
            except (ValueError, TypeError):
                raise InvalidArgument("zi", f"{fname}: expected shape {want}, got "
                                      f"{tuple(z.shape)}") from None
        if z.dtype != dt:
            z = xp.astype(z, dt)
    z = xp.moveaxis(z, len(lead) + axis, -1)
    rows = z.size // order
    n_lead = int(np.prod(lead)) if lead else 1
    flat = z._data.contiguous().reshape((n_lead, rows // n_lead, order))
    return [flat[i] for i in range(n_lead)]


def _back(xp, ctx, storage, shape, axis):
    out = ctx.wrap(storage.reshape(shape))
    return xp.moveaxis(out, -1, axis) if len(shape) else out


def _upload(xp, host, like):
    return xp.asarray(host, device=like.device)._data


def _check_order(fname, order, dt, client):
    top = max_order(dt, Caps.of(client))
    if order > top:
        raise C.limitation(fname, f"a filter of order {order}", f"the webgpu scan keeps "
                           f"at most order {top} in workgroup memory for {dt.name}; use "
                           "second-order sections (sosfilt)")


def _fir(xp, like, xs, b, dt):
    """y[n] = sum_j b[j] x[n - j] over rows (the direct correlation with b reversed)."""
    k = _upload(xp, np.ascontiguousarray(b[::-1]).astype(dt.np).reshape(1, -1), like)
    fill = _upload(xp, np.zeros(1, dt.np), like)
    return correlate_rows(xs, k, xs.shape[1], 1 - len(b), "fill", fill)


def lfilter(b, a, x, axis=-1, zi=None):
    xp, like = C.namespace(x, zi, b, a)
    bh = np.atleast_1d(C.host_coefficients(b, "b"))
    ah = np.atleast_1d(C.host_coefficients(a, "a"))
    if bh.ndim != 1 or ah.ndim != 1 or bh.size == 0 or ah.size == 0:
        raise InvalidArgument("b", "lfilter: b and a must be non-empty 1-D sequences")
    if ah[0] == 0:
        raise InvalidArgument("a", "lfilter: filter coefficient a[0] == 0 is not supported")
    x = C.on_device(xp, x, like)
    zd = None if zi is None else C.on_device(xp, zi, like)
    if _complex_data(x, zd) and not (np.iscomplexobj(bh) or np.iscomplexobj(ah)):
        return _by_parts(xp, lambda xr, zr: lfilter(bh, ah, xr, axis, zr), x, zd)
    dt = _compute_dtype("lfilter", bh, ah, x, zd)
    if x.ndim == 0:
        raise InvalidArgument("x", "lfilter: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "lfilter")
    order = max(len(ah), len(bh)) - 1
    if order > 0 and not (len(ah) == 1 and zi is None):
        _check_order("lfilter", order, dt, like._data.client)
    xs, shape = _rows(xp, x, axis, dt)
    ctx = x._ctx
    if order == 0:
        y = xp.astype(x, dt) * float(bh[0] / ah[0])
        if zi is None:
            return y
        return y, xp.astype(C.on_device(xp, zi, like), dt)
    if len(ah) == 1 and zi is None:
        if xs.size == 0:
            return _back(xp, ctx, xs, shape, axis)
        return _back(xp, ctx, _fir(xp, like, xs, bh / ah[0], dt), shape, axis)
    sdt = state_dtype(dt, Caps.of(like._data.client))
    cf, pw, N = coefficient_table(bh, ah, dt.np, sdt.np)
    (z,) = _states(xp, zi, x, axis, N, dt, "lfilter")
    if xs.size == 0:
        y, zf = xs, z
    else:
        y, zf = run_recurrence(xs, _upload(xp, cf, like), _upload(xp, pw, like), N, z)
    y = _back(xp, ctx, y, shape, axis)
    if zi is None:
        return y
    zshape = shape[:-1] + (N,)
    return y, _back(xp, ctx, zf, zshape, axis)


def _sos_host(sos, fname):
    s = np.atleast_2d(C.host_coefficients(sos, "sos"))
    if s.ndim != 2 or s.shape[1] != 6 or s.shape[0] < 1:
        raise InvalidArgument("sos", f"{fname}: sos array must be shape (n_sections, 6)")
    if not np.all(s[:, 3] == 1):
        raise InvalidArgument("sos", f"{fname}: sos[:, 3] should be all ones")
    return s


def sosfilt(sos, x, axis=-1, zi=None):
    xp, like = C.namespace(x, zi, sos)
    s = _sos_host(sos, "sosfilt")
    x = C.on_device(xp, x, like)
    zd = None if zi is None else C.on_device(xp, zi, like)
    if _complex_data(x, zd) and not np.iscomplexobj(s):
        return _by_parts(xp, lambda xr, zr: sosfilt(s, xr, axis, zr), x, zd)
    dt = _compute_dtype("sosfilt", s, x, zd)
    if x.ndim == 0:
        raise InvalidArgument("x", "sosfilt: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "sosfilt")
    ns = s.shape[0]
    xs, shape = _rows(xp, x, axis, dt)
    states = _states(xp, zd, x, axis, 2, dt, "sosfilt", lead=(ns,))
    sdt = state_dtype(dt, Caps.of(like._data.client))
    finals = []
    for i in range(ns):
        if xs.size == 0:
            finals.append(states[i])
            continue
        cf, pw, _ = coefficient_table(s[i, :3], s[i, 3:], dt.np, sdt.np)
        xs, zf = run_recurrence(xs, _upload(xp, cf, like), _upload(xp, pw, like), 2,
                                states[i])
        finals.append(zf)
    y = _back(xp, x._ctx, xs, shape, axis)
    if zi is None:
        return y
    zshape = shape[:-1] + (2,)
    zf = xp.stack([_back(xp, x._ctx, f, zshape, axis) for f in finals])
    return y, zf


def lfilter_zi(b, a):
    xp, like = C.namespace(b, a)
    zi = _scipy("lfilter_zi")(C.host_coefficients(b, "b"), C.host_coefficients(a, "a"))
    return xp.asarray(zi, device=like.device)


def sosfilt_zi(sos):
    xp, like = C.namespace(sos)
    return xp.asarray(_scipy("sosfilt_zi")(C.host_coefficients(sos, "sos")),
                      device=like.device)


# ---- forward-backward -------------------------------------------------------------------

def _extend(xp, x, n, padtype):
    """``x`` (filtered axis last) extended by ``n`` samples at both ends."""
    if n == 0 or padtype is None:
        return x
    left = x[..., 1:n + 1]
    right = x[..., -n - 1:-1]
    first = x[..., :1]
    last = x[..., -1:]
    if padtype == "even":
        parts = [xp.flip(left, axis=-1), x, xp.flip(right, axis=-1)]
    elif padtype == "odd":
        parts = [2 * first - xp.flip(left, axis=-1), x, 2 * last - xp.flip(right, axis=-1)]
    else:
        parts = [xp.broadcast_to(first, x.shape[:-1] + (n,)), x,
                 xp.broadcast_to(last, x.shape[:-1] + (n,))]
    return xp.concat(parts, axis=-1)


def _pad_length(fname, x, padtype, padlen, ntaps):
    if padtype not in ("even", "odd", "constant", None):
        raise InvalidArgument("padtype", f"{fname}: unknown value '{padtype}' given to "
                              "padtype; padtype must be 'even', 'odd', 'constant', or None")
    edge = 0 if padtype is None else (ntaps * 3 if padlen is None else padlen)
    if x.shape[-1] <= edge:
        raise InvalidArgument("padlen", f"{fname}: the length of the input vector x must be "
                              f"greater than padlen, which is {edge}")
    return edge


def filtfilt(b, a, x, axis=-1, padtype="odd", padlen=None, method="pad", irlen=None):
    if method != "pad":
        raise C.limitation("filtfilt", f"method={method!r}", "Gustafsson's method needs "
                           "least-squares solves on the data; method='pad' runs on webgpu")
    xp, like = C.namespace(x, b, a)
    bh = np.atleast_1d(C.host_coefficients(b, "b"))
    ah = np.atleast_1d(C.host_coefficients(a, "a"))
    x = C.on_device(xp, x, like)
    if C.is_complex(x.dtype) and not (np.iscomplexobj(bh) or np.iscomplexobj(ah)):
        return _by_parts(xp, lambda xr, _: filtfilt(bh, ah, xr, axis, padtype, padlen), x,
                         None)
    if x.ndim == 0:
        raise InvalidArgument("x", "filtfilt: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "filtfilt")
    xm = xp.moveaxis(x, axis, -1)
    edge = _pad_length("filtfilt", xm, padtype, padlen, max(len(ah), len(bh)))
    zi = _scipy("lfilter_zi")(bh, ah)
    dt = _compute_dtype("filtfilt", bh, ah, xm, zi)
    # the padding is computed in the data's dtype, as SciPy's
    ext = _extend(xp, xm, edge, padtype)
    ext = xp.astype(ext, dt) if ext.dtype != dt else ext
    zd = xp.asarray(zi.astype(dt.np), device=like.device)
    y, _ = lfilter(bh, ah, ext, axis=-1, zi=zd * ext[..., :1])
    y = xp.flip(y, axis=-1)
    y, _ = lfilter(bh, ah, y, axis=-1, zi=zd * y[..., :1])
    y = xp.flip(y, axis=-1)
    if edge > 0:
        y = y[..., edge:-edge]
    return xp.moveaxis(y, -1, axis)


def sosfiltfilt(sos, x, axis=-1, padtype="odd", padlen=None):
    xp, like = C.namespace(x, sos)
    s = _sos_host(sos, "sosfiltfilt")
    x = C.on_device(xp, x, like)
    if C.is_complex(x.dtype) and not np.iscomplexobj(s):
        return _by_parts(xp, lambda xr, _: sosfiltfilt(s, xr, axis, padtype, padlen), x,
                         None)
    if x.ndim == 0:
        raise InvalidArgument("x", "sosfiltfilt: x must be at least 1-D")
    axis = C.norm_axis(axis, x.ndim, "sosfiltfilt")
    xm = xp.moveaxis(x, axis, -1)
    # trailing zero coefficients shorten the equivalent transfer function (SciPy's count)
    ntaps = 2 * s.shape[0] + 1 - min(int((s[:, 2] == 0).sum()), int((s[:, 5] == 0).sum()))
    edge = _pad_length("sosfiltfilt", xm, padtype, padlen, ntaps)
    zi = _scipy("sosfilt_zi")(s)
    dt = _compute_dtype("sosfiltfilt", s, xm, zi)
    # the padding is computed in the data's dtype, as SciPy's
    ext = _extend(xp, xm, edge, padtype)
    ext = xp.astype(ext, dt) if ext.dtype != dt else ext
    ns = s.shape[0]
    zd = xp.reshape(xp.asarray(zi.astype(dt.np), device=like.device),
                    (ns,) + (1,) * (xm.ndim - 1) + (2,))
    y, _ = sosfilt(s, ext, axis=-1, zi=zd * ext[..., :1])
    y = xp.flip(y, axis=-1)
    y, _ = sosfilt(s, y, axis=-1, zi=zd * y[..., :1])
    y = xp.flip(y, axis=-1)
    if edge > 0:
        y = y[..., edge:-edge]
    return xp.moveaxis(y, -1, axis)


def deconvolve(signal, divisor):
    """``quot`` is the impulse response of signal / divisor over N - D + 1 samples, which is
    the all-pole filter 1 / divisor run over the signal's first N - D + 1 samples (an
    impulse through the numerator is the numerator): the signal stays the data, the
    divisor the (host) coefficients."""
    xp, like = C.namespace(signal, divisor)
    num = C.on_device(xp, signal, like)
    if num.ndim == 0:
        num = xp.reshape(num, (1,))
    den = np.atleast_1d(C.host_coefficients(divisor, "divisor"))
    if not (num.ndim == 1 and num.size > 0):
        raise InvalidArgument("signal", "deconvolve: parameter signal must be non-empty 1d "
                              f"array, but its shape is {tuple(num.shape)}!")
    if not (den.ndim == 1 and den.size > 0):
        raise InvalidArgument("divisor", "deconvolve: parameter divisor must be non-empty 1d "
                              f"array, but its shape is {den.shape}!")
    N, Dn = num.shape[0], den.shape[0]
    if Dn > N:
        return [], num
    from .convolution import convolve
    quot = lfilter(np.ones(1), den, num[:N - Dn + 1])
    rem = num - convolve(xp.asarray(den, device=num.device), quot, mode="full")
    return quot, rem


def lfiltic(b, a, y, x=None):
    """The state is a fixed linear map of the past outputs and inputs: two small matrices
    of the (host) coefficients, applied on the device."""
    xp, like = C.namespace(y, x, b, a)
    ah = np.atleast_1d(C.host_coefficients(a, "a"))
    bh = np.atleast_1d(C.host_coefficients(b, "b"))
    if ah.ndim > 1 or bh.ndim > 1:
        raise InvalidArgument("a", "lfiltic: filter coefficients must be 1-D")
    N, M = ah.shape[0] - 1, bh.shape[0] - 1
    if N < 0:
        raise InvalidArgument("a", "lfiltic: there must be at least one `a` coefficient")
    if ah[0] == 0:
        raise InvalidArgument("a", "lfiltic: first `a` filter coefficient must be non-zero")
    yd = C.on_device(xp, y, like)
    xd = None if x is None else C.on_device(xp, x, like)
    probes = [bh, ah, np.empty(0, yd.dtype.np)] + ([] if xd is None else
                                                  [np.empty(0, xd.dtype.np)])
    rt = np.result_type(*probes)
    if rt.kind in "biu":
        rt = np.dtype(np.float64)
    if rt.kind == "c":
        raise C.limitation("lfiltic", "complex coefficients or data", "the webgpu recursive "
                           "filters are real")
    dt = D.float64 if rt == np.float64 else D.float32
    K = max(M, N)

    def head(v, n):          # the first n values, zero-padded (SciPy's padding)
        v = xp.reshape(v, (-1,))
        v = v if v.dtype == dt else xp.astype(v, dt)
        if v.shape[0] < n:
            v = xp.concat([v, xp.zeros((n - v.shape[0],), dtype=dt, device=v.device)])
        return v[:n]

    zi = xp.zeros((K,), dtype=dt, device=yd.device)
    if M > 0 and xd is not None:
        Bm = np.zeros((K, M))
        for m in range(M):
            Bm[m, :M - m] = bh[m + 1:]
        zi = zi + xp.sum(xp.asarray(Bm.astype(dt.np), device=yd.device) * head(xd, M),
                         axis=1)
    if N > 0:
        Am = np.zeros((K, N))
        for m in range(N):
            Am[m, :N - m] = ah[m + 1:]
        zi = zi - xp.sum(xp.asarray(Am.astype(dt.np), device=yd.device) * head(yd, N),
                         axis=1)
    return zi / float(ah[0]) if ah[0] != 1 else zi
