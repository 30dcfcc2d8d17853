"""Elementwise functions, where, in-place operators and scalar operands on the GPU.

Every function is one dispatch of the N-ary template (kernels/nary.py) with a snippet from
_exprs.py; kernels are specialised per (function, dtype, rank) and cached by the runtime's
pipeline cache. With fusion on (fusion/), the same recipes become nodes of a pending
expression instead, validated here as eagerly as a dispatch would be, and run later as one
fused kernel; ``astype`` then defers too, and writes (``store``, ``setitem``) first compute
what is pending. A snippet whose math-library functions are missing (an older library)
runs on the host instead, warning once (ops/host_fallback.py); today none does.
"""

import numpy as np

from ...._core import dtypes as dt
from ...._core.errors import InvalidArgument
from ...._core.functions import BINARY, UNARY, result_dtype
from ...._core.shapes import broadcast_shapes
from ..codegen.types import RAW, WTYPES, wtype
from ..kernels.fill import full as _fill, scalar_bytes as _scalar_bytes
from ..wgsl import math_library
from . import _exprs
from ..kernels.launch_plan import MAX_PLANS
from ..kernels.nary import launch, plan_fresh
from ..runtime.concurrency import LOCK
from ..storage import new_output
from ..fusion import graph as _fusion
from .host_fallback import warn_fallback

_FS = _fusion.settings  # fusion on: elementwise calls build expressions (fusion/graph.py)
_defer = _fusion.defer

_NO_PLAN = object()  # a signature not seen yet (None: seen, needs the general path)
_COPY_SRC = "fn op(a: $T, e: u32) -> $T { return a; }"


def _in_library(fns):
    """Whether the WGSL math library provides ``fns`` (complex functions arrived later)."""
    avail = _available()
    return all(f in avail for f in fns)


def _available(_cache=[]):
    if not _cache:
        from ..wgsl import available_functions
        _cache.append(frozenset(available_functions()))
    return _cache[0]


class _Spec:
    """A compiled-once recipe: pipeline key, operand/result WTypes, WGSL sources."""

    __slots__ = ("key", "in_ts", "res_t", "out_t", "out_dtype", "op_src", "lib_src", "plans",
                 "lib_parts")

    def __init__(self, key, in_ts, res_t, out_t, out_dtype, op_src, lib_src, lib_parts=None):
        self.key, self.in_ts, self.res_t, self.out_t = key, in_ts, res_t, out_t
        self.out_dtype, self.op_src, self.lib_src = out_dtype, op_src, lib_src
        self.lib_parts = lib_parts  # what a fused kernel merges (merged_library)
        # (adapter, shape, operand shapes and strides) -> LaunchPlan, or None where the
        # general path is needed (kernels/launch_plan.py)
        self.plans = {}


def _library(cls, subs, lib, body=""):
    """Math-library source for a snippet (float and complex classes only).

    Only what the body calls is emitted: shader size drives the first-call compile time
    (~0.4 s for a complex function on lavapipe).
    """
    parts = _library_parts(cls, subs, lib, body)
    return merged_library([parts]) if parts else ""


def _library_parts(cls, subs, lib, body=""):
    """(real type, library functions, complex helpers?, fmod?) of a snippet, or None."""
    if cls not in ("f", "c"):
        return None
    fns = list(lib) + ["abs", "is_nan", "copysign"]
    helpers = cls == "c" and ("c_mul_" in body or "c_div_" in body or "c_isnan_" in body)
    if helpers:
        fns += list(_exprs.C_LIB)
    return subs[1], frozenset(fns), helpers, "fmod_" in body


def merged_library(parts):
    """One library source for several snippets' parts (each function emitted once; a
    fused kernel calls many snippets, maybe on f32 and f64 at once)."""
    per = {}
    for p in parts:
        if p is None:
            continue
        R, fns, helpers, fmod = p
        f, h, m = per.get(R, (frozenset(), False, False))
        per[R] = (f | fns, h or helpers, m or fmod)
    src = ""
    for R in sorted(per):
        fns, helpers, fmod = per[R]
        src += math_library(sorted(fns), R)
        if helpers:
            src += _exprs.expand(_exprs.C_HELPERS, ("", R, ""))
        if fmod:
            src += _exprs.fmod_source(R)
    return src


def recipe(name, arity, dtype, default_float):
    """The elementwise recipe of ``name`` on ``dtype`` (None: not in the math library)."""
    t = WTYPES[dtype]
    rule = (UNARY.get(name) or BINARY[name])[1]
    out_dtype = result_dtype(rule, dtype, default_float)
    out_t = WTYPES[out_dtype]
    in_val = t.val
    if name == "divide" and dtype.kind in "iu":
        # integer / integer: both operands convert to the default float first
        fv = out_t.val
        body, lib, cls, subs = _exprs.snippet("divide", 2, fv)
        head = f"fn op(a0: {in_val}, b0: {in_val}, e: u32) -> {fv} {{ let a = {fv}(a0); " \
               f"let b = {fv}(b0); "
        op_src = head + _exprs.expand(body, subs) + " }"
        return _Spec((name, dtype.name), [t, t], out_t, out_t, out_dtype, op_src,
                     _library(cls, subs, lib), _library_parts(cls, subs, lib))
    if dtype is dt.float16 and name == "nextafter":
        body, lib = _exprs.F16_NEXTAFTER
        cls, subs = "f", ("f32", "f32", "")
    else:
        got = _exprs.snippet(name, arity, in_val)
        if got is None or not _in_library(got[1]):
            return None
        body, lib, cls, subs = got
    res_val = {"b": "bool"}.get(cls) if out_dtype is dt.bool_ else None
    res_t = WTYPES[dt.bool_] if out_dtype is dt.bool_ else out_t
    params = ", ".join(f"{v}: {in_val}" for v in "ab"[:arity])
    op_src = (f"fn op({params}, e: u32) -> {res_val or res_t.val} {{\n  "
              f"{_exprs.expand(body, subs)}\n}}")
    src = _library(cls, subs, lib, body)
    parts = _library_parts(cls, subs, lib, body)
    # float16 nextafter calls f16_to_f32 / f32_to_f16: the template emits both already (its
    # float16 load and store use them), and a second definition would not compile
    return _Spec((name, dtype.name), [t] * arity, res_t, out_t, out_dtype, op_src, src, parts)


def variants():
    """A kernel spec for every (function, dtype) the tables accept (rank 1, contiguous
    output), plus strided / scatter forms of one function per dtype: the render-and-compile
    test's coverage of the elementwise family."""
    from ..kernels.nary import NarySpec
    out = []
    for table, arity in ((UNARY, 1), (BINARY, 2)):
        for name, (kinds, _) in table.items():
            for d in dt.ALL_DTYPES:
                if d.kind not in kinds:
                    continue
                r = recipe(name, arity, d, dt.float64)
                if r is None:
                    continue
                out.append(NarySpec(r.op_src, r.lib_src, tuple(r.in_ts), r.res_t, r.out_t, 1,
                                    0, False))
                if name in ("add", "logical_and", "negative"):
                    for rank, scatter in ((0, False), (3, False), (2, True)):
                        out.append(NarySpec(r.op_src, r.lib_src, tuple(r.in_ts), r.res_t,
                                            r.out_t, rank, 0, scatter))
    return out


class ElementwiseMixin:
    """unary_kernel / binary_kernel / where / inplace / scalar_operand."""

    def _init_elementwise(self):
        self._specs = {}
        self._scalar_cache = {}

    # -- recipes -----------------------------------------------------------------------
    def _spec(self, name, arity, dtype, client):
        key = (name, arity, dtype, client.index)
        s = self._specs.get(key)
        if s is None:
            s = self._specs[key] = self._make_spec(name, arity, dtype, client)
        return s

    def _make_spec(self, name, arity, dtype, client):
        wtype(dtype, client, name)
        r = recipe(name, arity, dtype, self.default_float)
        if r is not None:
            wtype(r.out_dtype, client, name)
        return r

    def _run(self, spec, inputs, shape):
        client = inputs[0].client
        sig = (client.index, shape, *[(s.shape, s.strides) for s in inputs])
        plans = spec.plans
        plan = plans.get(sig, _NO_PLAN)
        if plan is not None and plan is not _NO_PLAN:
            out = plan.run(inputs)
            if out is not None:
                return out
        out = new_output(shape, spec.out_dtype, client)
        out = launch(client, spec.key, inputs, spec.in_ts, spec.res_t, spec.out_t,
                     spec.op_src, spec.lib_src, shape, out)
        if plan is _NO_PLAN:  # after the general launch: it validated and derived geometry
            if len(plans) >= MAX_PLANS:
                plans.clear()
            plans[sig] = plan_fresh(client, spec.key, inputs, spec.in_ts, spec.res_t,
                                    spec.out_t, spec.op_src, spec.lib_src, shape, out)
        return out

    # -- the front-end's entry points -----------------------------------------------------
    def unary_kernel(self, name):
        spec_of = self._spec
        run = self._run
        host = self._host_elementwise(name, 1)

        def kernel(x):
            with LOCK:  # taken here, not by a wrapper: the fast paths call this per op
                spec = spec_of(name, 1, x.dtype, x.client)
                if spec is None:
                    return host(x)
                if _FS.on:
                    r = _defer(spec, (x,), x.shape, x.client)
                    if r is not None:
                        return r
                return run(spec, (x,), x.shape)

        kernel.__name__ = name
        kernel.__numr_locked__ = True
        return kernel

    def binary_kernel(self, name):
        spec_of = self._spec
        run = self._run
        host = self._host_elementwise(name, 2)
        same_client = self._same_client

        def kernel(x1, x2):
            with LOCK:  # taken here, not by a wrapper: the fast paths call this per op
                spec = spec_of(name, 2, x1.dtype, x1.client)
                if spec is None:
                    return host(x1, x2)
                if x1.client is not x2.client:  # a cached scalar made on the default adapter
                    x1, x2 = same_client(x1, x2)
                s1, s2 = x1.shape, x2.shape
                shape = s1 if s1 == s2 or s2 == () else broadcast_shapes(s1, s2)
                if _FS.on:
                    r = _defer(spec, (x1, x2), shape, x1.client)
                    if r is not None:
                        return r
                return run(spec, (x1, x2), shape)

        kernel.__name__ = name
        kernel.__numr_locked__ = True
        return kernel

    def _host_elementwise(self, name, arity):
        cpu = self._cpu
        table = cpu._unary if arity == 1 else cpu._binary
        to_host, from_host = self.to_numpy, self._upload_like

        def host(*xs):
            warn_fallback(f"{name} ({xs[0].dtype.name})")
            with np.errstate(all="ignore"):
                r = table[name](*[to_host(x) for x in xs])
            return from_host(np.asarray(r), xs[0])

        return host

    def _is_scalar_operand(self, x):
        """``x`` is a cached Python-scalar operand (made on the default adapter): it follows
        the array it is combined with. Checked only when adapters differ (rare)."""
        return x.shape == () and any(x is s for s in self._scalar_cache.values())

    def _same_client(self, x1, x2):
        """Move the scalar operand to the other operand's adapter. Which one is the scalar is
        decided by identity, not by shape: ``eps * m`` with a 0-d ``m`` on another adapter must
        stay there (SciPy's stats.skew on webgpu:1)."""
        if self._is_scalar_operand(x1):
            return self.to_device(x1, self.device_of(x2)), x2
        if self._is_scalar_operand(x2) or x2.shape == ():
            return x1, self.to_device(x2, self.device_of(x1))
        return self.to_device(x1, self.device_of(x2)), x2

    def scalar_operand(self, value, dtype, client=None):
        """A 0-d storage holding ``value`` on ``client`` (default: the default device's), cached:
        kernels broadcast it with stride 0."""
        if client is None:  # (per scalar operator call: the default client's lookup inlined)
            d = self._default
            client = self._clients.get(d.index) or self._client(d)
        key = (type(value), repr(value), dtype, client.index)
        s = self._scalar_cache.get(key)
        if s is None:
            if len(self._scalar_cache) > 1024:
                self._scalar_cache.clear()
            s = self._scalar_cache[key] = _fill((), value, dtype, client)
            # (once per new scalar, fusion on or off: a fused kernel reads it as parameter
            # words holding these bytes)
            _fusion.note_scalar(s, WTYPES[dtype], _scalar_bytes(value, dtype))
        return s

    def where(self, cond, a, b):
        # the adapter of an operand that is not a scalar made on the default adapter
        lead = a if not self._is_scalar_operand(a) or b.client is a.client else b
        client = lead.client
        if cond.client is not client or a.client is not client or b.client is not client:
            dev = self.device_of(lead)
            cond, a, b = (self.to_device(v, dev) for v in (cond, a, b))
        t = wtype(a.dtype, client, "where")
        shape = broadcast_shapes(cond.shape, a.shape, b.shape)
        key = ("where", t.name)
        spec = self._specs.get(key)
        if spec is None:
            op_src = f"fn op(c: bool, a: {t.val}, b: {t.val}, e: u32) -> {t.val} " \
                     f"{{ return select(b, a, c); }}"
            spec = self._specs[key] = _Spec(key, [WTYPES[dt.bool_], t, t], t, t, a.dtype,
                                            op_src, "")
        if _FS.on:
            r = _defer(spec, (cond, a, b), shape, client)
            if r is not None:
                return r
        return self._run(spec, (cond, a, b), shape)

    def inplace(self, kernel, d1, d2):
        if not isinstance(d2, self.payload_type):
            d2 = self.scalar_operand(d2, d1.dtype, d1.client)
        r = kernel(d1, d2)
        if _FS.on and r.dtype is d1.dtype and r.shape == d1.shape and \
                _fusion.adopt(d1, r):
            return  # a pending d1 (nothing views it) takes the new expression
        self.store(d1, r)

    # -- fusion hooks: casts defer, writes first flush what reads the old values ----------
    def astype(self, data, dtype, copy=True):
        if not _FS.on or dtype is data.dtype:
            return super().astype(data, dtype, copy)
        client = data.client
        st = wtype(data.dtype, client, "astype")
        dt_ = wtype(dtype, client, "astype")
        key = ("cast", data.dtype, dtype)
        spec = self._specs.get(key)
        if spec is None:
            spec = self._specs[key] = _Spec(key, [st], st, dt_, dtype,
                                            f"fn op(a: {st.val}, e: u32) -> {st.val} "
                                            f"{{ return a; }}", "")
        r = _defer(spec, (data,), data.shape, client)
        return super().astype(data, dtype, copy) if r is None else r

    def setitem(self, data, key, value):
        if _FS.on:
            _fusion.flush_all()
        return super().setitem(data, key, value)

    # -- writes into existing views (in-place operators, setitem) -------------------------
    def store(self, dst, src):
        """Write ``src`` (broadcast to dst's shape, same dtype) into the view ``dst``."""
        if _FS.on:
            _fusion.flush_all()
        if not dst.writable:
            raise InvalidArgument("x", "assignment destination is read-only (a broadcast "
                                       "view); copy it first")
        if dst.size == 0:
            if src.shape != dst.shape:
                src.broadcast_to(dst.shape)  # still validates the shapes
            return
        if any(s == 0 and n > 1 for n, s in zip(dst.shape, dst.strides)):
            raise InvalidArgument("x", "assignment destination is read-only (a broadcast "
                                       "view); copy it first")
        if src.dtype is not dst.dtype:
            src = self.astype(src, dst.dtype)
        if src.block is dst.block:
            src = src.copy()  # one buffer cannot be bound read-only and writable at once
        raw = RAW[dst.itemsize]
        if src.shape != dst.shape:
            src = src.broadcast_to(dst.shape)
        launch(dst.client, ("store",), (src,), [raw], raw, raw, _COPY_SRC.replace("$T", raw.val),
               "", dst.shape, dst, scatter=True)


_fusion.codegen.bind_elementwise(merged_library=merged_library, recipe=recipe)
