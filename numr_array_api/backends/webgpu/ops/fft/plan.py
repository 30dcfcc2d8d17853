"""FFT plans: a complex transform of one length, direction and precision on one adapter,
as a list of dispatches with their kernels, tables and scratch sizes.

Built once per (length, dtype, direction, adapter) and cached on the client (an LRU, like
pipelines), they record their passes per call, so any batch layout (rows, strides; see
wgsl.py) reuses one plan. Methods:

  shared     every factor in {2,3,4,5,7,8} and 1 < n <= the workgroup-memory cap: one
             dispatch (FastSpec); short rows share a workgroup
  fourstep   every factor small, n > cap: n = n1 n2, n2 columns of length n1 then n1
             rows of length n2 with the twiddle W_n^(k1 j2) applied on load, both through
             the workgroup-memory kernel (two dispatches), any batch layout; beyond cap^2
             the columns are a four-step of their own (nested); whole complex (or real)
             rows only: padded / real-pair / Hermitian rows take Stockham passes
  stockham   every factor small, n without a split (and n = 1): one global-memory
             dispatch per radix stage (radix 8 first), ping-ponging between two scratch
             buffers
  bluestein  a prime factor > 7: chirp-z through a transform of m >= 2n - 1 (the smallest
             7-smooth m the shared / four-step methods take, else a power of two): chirp
             multiply, FFT, multiply by the filter's FFT, inverse FFT, chirp multiply

Twiddles and chirps are computed on the host in float64 (numpy) once per plan and uploaded
in the kernel's precision; the chirp filter's spectrum too (it depends only on n, m).
Tuning values (the FFT_* knobs of numr_array_api/tuning/knobs/fft.py) are read while a plan
is built; plans are cached per tuning epoch.
"""

from __future__ import annotations

import collections
import math

import numpy as np

from ....._core import dtypes as dt
from ....._core.errors import BackendLimitation
from .....tuning.registry import epoch
from .....tuning.registry import get as tuned
from ...codegen.caps import Caps
from ...codegen.render import workgroups
from ...runtime import caches as _caches
from ...storage import WgpuStorage
from . import wgsl as W
from .specs import ChirpSpec, FastSpec, PointMulSpec, StockhamSpec, fast_pitch

__all__ = ["Side", "plan", "table", "check_fits", "scratch"]

_CDT = {"complex64": dt.complex64, "complex128": dt.complex128}
_CACHE_ITEMS = 64
_CACHE_BYTES = 512 << 20


class Side:
    """One end of a kernel: a storage and its row layout (outer / inner / element strides,
    in the storage's own elements), a load or store mode and a length (elements of the
    source row present, or elements of the destination row to write)."""

    __slots__ = ("buf", "mode", "so", "si", "se", "length", "sm")

    def __init__(self, buf, mode, so, si, se, length, sm=0):
        self.buf, self.mode, self.so, self.si, self.se, self.length = \
            buf, mode, so, si, se, length
        self.sm = sm   # stride of the middle index of three-way split rows (four-step)


def io_words(src, dst, rows, inner, cdtype, scale):
    w = {"rows": rows, "inner": inner, "in_so": src.so, "in_si": src.si, "in_se": src.se,
         "in_len": src.length, "out_so": dst.so, "out_si": dst.si, "out_se": dst.se,
         "out_len": dst.length}
    w.update(W.scale_words(cdtype, float(scale)))
    return w


def _cache(client):
    c = getattr(client, "_fft_cache", None)
    if c is None:
        c = client._fft_cache = collections.OrderedDict()
    return c


def _clear(client):
    c = getattr(client, "_fft_cache", None)
    if c is not None:
        c.clear()


_caches.register_per_client("fft plans and tables", _clear)


def _nbytes(v):
    if isinstance(v, WgpuStorage):
        return v.nbytes
    return sum(t.nbytes for t in (getattr(v, a, None) for a in ("tw", "t4", "chirp", "filt"))
               if t is not None)


def _cached(client, key, build):
    """LRU of plans and tables per client: at most _CACHE_ITEMS entries and _CACHE_BYTES of
    tables (the newest entry always stays)."""
    c = _cache(client)
    v = c.get(key)
    if v is None:
        v = c[key] = build()
        total = sum(_nbytes(x) for x in c.values())
        while len(c) > 1 and (len(c) > _CACHE_ITEMS or total > _CACHE_BYTES):
            _, old = c.popitem(last=False)
            total -= _nbytes(old)
    else:
        c.move_to_end(key)
    return v


def _upload(values, cdtype, client):
    from ...transfer import from_numpy
    a = np.ascontiguousarray(values.astype(_CDT[cdtype].np))
    check_bytes(a.nbytes, client, "an FFT table")
    return from_numpy(a, client)


def table(client, n, cdtype):
    """exp(-2 pi i e / n), e < n, rounded once from float64 (cached)."""
    def build():
        e = np.arange(n, dtype=np.float64)
        return _upload(np.exp(-2j * np.pi * e / n), cdtype, client)
    return _cached(client, ("tw", n, cdtype), build)


def check_bytes(nbytes, client, what):
    if nbytes > client.max_binding:
        raise BackendLimitation("webgpu", "fft", f"{what} needs {nbytes} bytes in one "
                                f"binding; the adapter's limit is {client.max_binding}")


def check_fits(storage, what):
    if storage.size and not storage.fits_binding():
        raise BackendLimitation("webgpu", "fft", f"{what} ({storage.nbytes} bytes) does not "
                                f"fit one storage binding of this adapter "
                                f"({storage.client.max_binding} bytes)")


def scratch(client, count, cdtype):
    check_bytes(count * 16 if cdtype == "complex128" else count * 8, client,
                "an FFT scratch buffer")
    return WgpuStorage._new((max(count, 1),), _CDT[cdtype], client)


def factor(n):
    """Radices (8 first) whose product is n, and the part left with a prime factor > 7."""
    out = []
    for r in (8, 4, 2, 3, 5, 7):
        while n % r == 0 and n > 1:
            out.append(r)
            n //= r
    return out, n


def split(n, cap):
    """(n1, n2), n = n1 n2 with n2 the smallest divisor >= sqrt(n), both <= cap; None if
    there is none (then Stockham passes)."""
    if n <= cap:
        return None
    for d in range(math.isqrt(n - 1) + 1, min(cap, n) + 1):
        if n % d == 0:
            return n // d, d
    return None


def deep_split(n, cap):
    """(n1, n2) for a length beyond cap^2 whose factors are all small: n2 the largest
    divisor <= cap (the rows of the second step, in workgroup memory), n1 = n / n2 a
    length that is itself a four-step (or nested again), so the whole transform takes
    about log_cap(n) workgroup-memory passes instead of one global pass per radix;
    None if there is none."""
    if n <= cap:
        return None
    for d in range(min(cap, n // 2), 1, -1):
        if n % d == 0:
            n1 = n // d
            if n1 <= cap or split(n1, cap) or deep_split(n1, cap):
                return n1, d
            return None
    return None


def wide_split(n, cap):
    """(n1, n2) with n2 the largest divisor <= cap whose n1 = n / n2 is within the cap
    too: short columns, so the column step holds several neighbouring columns per
    workgroup (2^22 complex64 on a 4096 cap: 1024 x 4096); None if there is none."""
    if n <= cap:
        return None
    for d in range(min(cap, n // 2), 1, -1):
        if n % d == 0:
            return (n // d, d) if n // d <= cap else None
    return None


def four_split(n, cap):
    """(n1, n2) of the four-step for n > cap (the widest split, else the first above
    sqrt(n), else a nested one), or None."""
    return wide_split(n, cap) or split(n, cap) or deep_split(n, cap)


def fast_length(m, cap):
    """m is taken by a workgroup-memory method (shared, four-step or nested four-step)."""
    return factor(m)[1] == 1 and (m <= cap or bool(four_split(m, cap)))


_FAST_CAP = {}


def fast_cap(cdtype, caps, pad):
    """Largest power-of-two length FastSpec takes on ``caps`` with padding shift ``pad``
    (one padded row in workgroup memory, n / 8 threads)."""
    key = (cdtype, caps, pad)
    cap = _FAST_CAP.get(key)
    if cap is None:
        item = 8 if cdtype == "complex64" else 16
        cap = 8
        while (cap < 4096 and fast_pitch(2 * cap, pad, 1) * item <= caps.workgroup_storage
               and 2 * cap // 8 <= caps.invocations):
            cap *= 2
        _FAST_CAP[key] = cap
    return cap


def fast_radices(radices):
    """factor()'s radices with a lone 2 merged into a trailing 8 (8 2 -> 4 4): no stage
    of n / 2 butterflies."""
    r = list(radices)
    if 2 in r and 8 in r:
        r.remove(2)
        r.remove(8)
        r += [4, 4]
    return tuple(sorted(r, key=lambda x: -x if x in (8, 4, 2) else x))


def shared_cap(client, cdtype):
    """The longest row one workgroup-memory dispatch takes on ``client`` (fast_cap),
    lowered by the FFT_CAP knob."""
    cap = fast_cap(cdtype, Caps.of(client), tuned("FFT_PAD", client))
    lim = tuned("FFT_CAP", client)
    if lim:
        cap = max(8, min(cap, 1 << (lim.bit_length() - 1)))
    return cap


def bluestein_length(n, cap):
    """The convolution length of Bluestein for n: the smallest 2^a 3^b 5^c 7^d >= 2n - 1
    that one workgroup-memory dispatch or a (nested) four-step takes (up to half the work
    of the next power of two, e.g. 2,100,000 against 4,194,304 for n = 2^20 + 7), else
    that power of two."""
    need = 2 * n - 1
    pow2 = 1 << (need - 1).bit_length()
    best = pow2
    a2 = 1
    while a2 < best:
        a3 = a2
        while a3 < best:
            a5 = a3
            while a5 < best:
                m = a5
                while m < need:
                    m *= 7
                if m < best and fast_length(m, cap):
                    best = m
                a5 *= 5
            a3 *= 3
        a2 *= 2
    return best


def _t4(client, n, n1, n2, cdtype):
    lo = np.exp(-2j * np.pi * np.arange(n2, dtype=np.float64) / n)
    hi = np.exp(-2j * np.pi * (np.arange(n1, dtype=np.float64) * n2) / n)
    return _upload(np.concatenate([lo, hi]), cdtype, client)


def _pow2_floor(v):
    return 1 << (v.bit_length() - 1)


def plan(client, n, cdtype, inverse):
    # the tuning epoch is part of the key: plans built under other knob values (an A/B
    # run in one process, a test's override) are never reused
    key = ("plan", n, cdtype, inverse, epoch())
    return _cached(client, key, lambda: Plan(client, n, cdtype, inverse))


class Plan:
    def __init__(self, client, n, cdtype, inverse):
        self.client, self.n, self.cdtype, self.inverse = client, n, cdtype, inverse
        self._kernels = {}
        radices, rest = factor(n)
        self.radices = radices
        self.cap = cap = shared_cap(client, cdtype)
        if rest == 1:
            self.tw = table(client, n, cdtype)
            if n == 1:
                # FastSpec has no stage for a length-1 row: one radix-1 Stockham pass, the
                # scaled copy through the loads / stores of every row mode
                self.method, self.radices = "stockham", [1]
            elif n <= cap:
                self.method = "shared"
                self._fast_params(Caps.of(client), cdtype)
            elif four_split(n, cap):
                # four-step: n = n1 * n2, both within workgroup memory: n2 columns of
                # length n1, twiddle, n1 rows of length n2 (two dispatches, not log8 n);
                # beyond cap^2 (nested) the columns are themselves a four-step plan
                self.method = "fourstep"
                n1, n2 = four_split(n, cap)
                self.n1, self.n2 = n1, n2
                self.p1 = plan(client, n1, cdtype, inverse)
                self.p2 = plan(client, n2, cdtype, inverse)
                self.t4 = _t4(client, n, n1, n2, cdtype)
            else:
                self.method = "stockham"
        else:
            self.method = "bluestein"
            self.m = m = bluestein_length(n, cap)
            j = np.arange(n, dtype=np.int64)
            w = np.exp(-1j * np.pi * ((j * j) % (2 * n)).astype(np.float64) / n)
            b = np.zeros(m, np.complex128)
            b[:n] = np.conj(w)
            b[m - n + 1:] = np.conj(w[1:])[::-1]
            self.chirp = _upload(w, cdtype, client)
            self.filt = _upload(np.fft.fft(b), cdtype, client)
            self.fwd = plan(client, m, cdtype, False)
            self.inv = plan(client, m, cdtype, True)

    def _fast_params(self, caps, cdtype):
        # FFT_EPT elements a thread (8: one radix-8 butterfly each), rows per workgroup up
        # to FFT_WGT threads; rpw_t (tiled sides: strided rows that are neighbouring
        # columns) >= 4 rows where workgroup memory allows, so a warp's loads cover
        # 32-byte sectors
        n, client = self.n, self.client
        item = 8 if cdtype == "complex64" else 16
        self.pad = pad = tuned("FFT_PAD", client)
        ept = _pow2_floor(tuned("FFT_EPT", client))
        wgt = _pow2_floor(tuned("FFT_WGT", client))
        self.frad = fast_radices(self.radices)
        t = 1
        while t * ept < n:
            t *= 2
        self.ftpr = t = min(t, caps.invocations)

        def fits(r):
            return (r * t <= caps.invocations
                    and r * fast_pitch(n, pad, r) * item <= caps.workgroup_storage)
        r = max(1, wgt // t)
        while r > 1 and not fits(r):
            r //= 2
        self.frpw = r
        rt = max(r, 4)
        while rt > 1 and not fits(rt):
            rt //= 2
        self.frpw_t = max(r, rt)

    def run(self, src, dst, rows, inner, scale):
        """Record the transform of ``rows`` rows from ``src`` to ``dst`` (Sides), every
        stored value multiplied by ``scale``."""
        if rows == 0:
            return
        if (self.method == "shared" and self.frpw_t < 4
                and (src.se != 1 or dst.se != 1)
                and src.mode in ("c", "r") and src.length == self.n
                and dst.mode == "c" and dst.length == self.n):
            # strided rows too long for 4 a workgroup (rfft2's columns of 4096): a
            # four-step of short tiled steps, two coalesced passes instead of one whose
            # column loads are a stride apart
            fs = self._strided_plan()
            if fs is not None:
                return fs._fourstep(src, dst, rows, inner, scale)
        getattr(self, "_" + self.method)(src, dst, rows, inner, scale)

    def _strided_plan(self):
        """A four-step of this length whose steps hold >= 4 rows a workgroup (None if n
        has no such split); cached on the plan."""
        fs = getattr(self, "_fs", False)
        if fs is False:
            fs = None
            sp = split(self.n, max(self.cap // 4, 8))
            if sp:
                fs = object.__new__(Plan)
                fs.__dict__.update(client=self.client, n=self.n, cdtype=self.cdtype,
                                   inverse=self.inverse, _kernels={}, radices=self.radices,
                                   method="fourstep", n1=sp[0], n2=sp[1])
                fs.p1 = plan(self.client, sp[0], self.cdtype, self.inverse)
                fs.p2 = plan(self.client, sp[1], self.cdtype, self.inverse)
                fs.t4 = _t4(self.client, self.n, sp[0], sp[1], self.cdtype)
                fs.tw = self.tw
            self._fs = fs
        return fs

    def _shared(self, src, dst, rows, inner, scale, t4=None, mid=None, post=None, pre=None):
        """FastSpec over ``rows`` rows; ``post`` / ``pre``: the length-2n table, to fuse
        the real transform's post-processing (dst then takes n + 1 outputs a row) or the
        inverse real transform's pre-processing (src: the half spectrum)."""
        client = self.client
        strided = src.se != 1 or dst.se != 1
        rpw = self.frpw_t if strided else self.frpw
        # tiled sides: a workgroup's rows (neighbouring columns) are loaded / stored
        # row-fastest, so a warp touches neighbouring addresses
        tile = rpw > 1
        key = (src.mode, dst.mode, t4 is not None, mid is not None, tile and src.se != 1,
               tile and dst.se != 1, post is not None, pre is not None, rpw)
        k = self._kernels.get(key)
        if k is None:
            k = self._kernels[key] = client.kernel(FastSpec(
                self.cdtype, self.inverse, src.mode, dst.mode, self.n, self.frad,
                self.ftpr, rpw, self.pad, tw4=key[2], three=key[3], tld=key[4],
                tst=key[5], post=key[6], pre=key[7]))
        groups = (max(1, min(-(-rows // rpw), client.max_groups)), 1, 1)
        extra = {} if t4 is None else {"t4": t4[0], "t4b": t4[1]}
        if post is not None or pre is not None:
            extra["tw2"] = post if post is not None else pre
        if mid is not None:
            extra.update(mid=mid, in_sm=src.sm, out_sm=dst.sm)
        k.launch(groups, x=src.buf, y=dst.buf, tw=self.tw, n=self.n,
                 **extra, **io_words(src, dst, rows, inner, self.cdtype, scale))

    def _fourstep(self, src, dst, rows, inner, scale):
        # x[n2 j1 + j2] -> X[k1 + n1 k2]: n2 sub-rows (j2) of length n1 per row, then n1
        # sub-rows (k1) of length n2 after the twiddle; rows split three ways (outer, sub-row,
        # inner) so strided batches (any axis) need no transpose. Whole complex (or real)
        # rows only: padded, real-pair or Hermitian layouts take the Stockham passes.
        if (src.mode not in ("c", "r") or src.length != self.n
                or dst.mode != "c" or dst.length != self.n):
            return self._stockham(src, dst, rows, inner, scale)
        n, n1, n2 = self.n, self.n1, self.n2
        if self.p1.method != "shared":
            # nested: a column step of its own four-step
            return self._nested(src, dst, rows, inner, scale)
        y = scratch(self.client, rows * n, self.cdtype)
        self.p1._shared(Side(src.buf, src.mode, src.so, src.si, n2 * src.se, n1, src.se),
                        Side(y, "c", n * inner, 1, n2 * inner, n1, inner),
                        rows * n2, inner, 1.0, mid=n2)
        self.p2._shared(Side(y, "c", n * inner, 1, inner, n2, n2 * inner),
                        Side(dst.buf, "c", dst.so, dst.si, n1 * dst.se, n2, dst.se),
                        rows * n1, inner, scale, t4=(self.t4, n2), mid=n1)

    def _nested(self, src, dst, rows, inner, scale):
        # n1 > cap: the column step is a four-step plan of its own (p1.run), which takes
        # two-level rows only: the sub-column (row, j2, b) must be row (row, j2 inner + b),
        # true when the element stride is inner times the inner stride (a contiguous axis)
        n, n1, n2 = self.n, self.n1, self.n2
        if inner == 1:
            si = src.se
        elif src.se == inner * src.si:
            si = src.si
        else:
            return self._stockham(src, dst, rows, inner, scale)
        y = scratch(self.client, rows * n, self.cdtype)
        self.p1.run(Side(src.buf, src.mode, src.so, si, n2 * src.se, n1),
                    Side(y, "c", n * inner, 1, n2 * inner, n1),
                    rows * n2, n2 * inner, 1.0)
        self.p2._shared(Side(y, "c", n * inner, 1, inner, n2, n2 * inner),
                        Side(dst.buf, "c", dst.so, dst.si, n1 * dst.se, n2, dst.se),
                        rows * n1, inner, scale, t4=(self.t4, n2), mid=n1)

    def _stockham(self, src, dst, rows, inner, scale):
        client, n, cd = self.client, self.n, self.cdtype
        order = 1 if inner > 1 else 0
        if order:
            lay = (n * inner, 1, inner)
        else:
            lay = (inner * n, n, 1)
        passes = len(self.radices)
        bufs = [scratch(client, rows * n, cd) for _ in range(min(passes - 1, 2))]
        cur, p = src, 1
        for s, r in enumerate(self.radices):
            last = s == passes - 1
            out = dst if last else Side(bufs[s % 2], "c", *lay, n)
            k = client.kernel(StockhamSpec(cd, r, self.inverse, cur.mode, out.mode))
            nb = n // r
            k.launch(workgroups(rows * nb, client), x=cur.buf, y=out.buf, tw=self.tw, n=n,
                     p=p, nb=nb, tws=n // (p * r), order=order,
                     **io_words(cur, out, rows, inner, cd, scale if last else 1.0))
            cur, p = out, p * r

    def _bluestein(self, src, dst, rows, inner, scale):
        client, n, m, cd = self.client, self.n, self.m, self.cdtype
        a = scratch(client, rows * m, cd)
        b = scratch(client, rows * m, cd)
        lay = (inner * m, m, 1)   # plain (rows, m): the chirp kernels split rows as src does
        sa = Side(a, "c", *lay, m)
        k = client.kernel(ChirpSpec(cd, self.inverse, src.mode, "c"))
        k.launch(workgroups(rows * m, client), x=src.buf, y=a, w=self.chirp, n=n, count=m,
                 **io_words(src, sa, rows, inner, cd, 1.0))
        flat_a, flat_b = Side(a, "c", m, 0, 1, m), Side(b, "c", m, 0, 1, m)
        self.fwd.run(flat_a, flat_b, rows, 1, 1.0)
        k = client.kernel(PointMulSpec(cd, self.inverse))
        k.launch(workgroups(rows * m, client), z=b, b=self.filt, total=rows * m, m=m)
        self.inv.run(flat_b, flat_a, rows, 1, 1.0)
        k = client.kernel(ChirpSpec(cd, self.inverse, "c", dst.mode))
        k.launch(workgroups(rows * n, client), x=a, y=dst.buf, w=self.chirp, n=n, count=n,
                 **io_words(sa, dst, rows, inner, cd, scale / m))
