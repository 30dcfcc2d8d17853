"""Builds a namespace module (numr_array_api.cpu / .cuda / .webgpu) from a backend.

Every namespace runs the same front-end (numr_array_api._api); the backend supplies
payload handling and kernels. The context created here is what the front-end functions
close over, so a call reaches its kernel with no per-call lookups.

A device namespace builds itself on first use (``populate_lazily``): creating its backend
loads the GPU library and probes the devices, which would otherwise make every
``import numr_array_api.webgpu`` pay for them (most of a second), also in programs that
only import it in passing.
"""

import math
import sys
import threading
import types

from . import dtypes as dt
from .array import Array
from .device import Device, parse_device
from .boundary import wrap_namespace
from .errors import InvalidType
from .promotion import TABLE, lookup
from .semantics import strict

__all__ = ["Context", "populate", "populate_lazily", "plain_attributes",
           "name_by_attribute"]

API_VERSION = "2025.12"


class Context:
    """Everything a namespace's functions need: backend, Array subclass, defaults."""

    def __init__(self, be, module):
        self.be = be
        self.module = module
        # whether __array__ applies the host-conversion policy (numr_array_api.config):
        # device namespaces do; a namespace whose chunks go to host storage by design
        # (numr_array_api.distributed) turns it off
        self.checks_host_conversion = not be.host_native
        # one device for the process's lifetime (cpu, a one-GPU CUDA host): arrays of this
        # namespace can never be on different devices, so fast paths skip the device check
        self.single_device = bool(getattr(be, "single_device", False))
        self.api = types.SimpleNamespace()
        # The namespace's public Array class refuses construction (Array.__init__); results
        # are instances of a subclass whose object.__init__ makes ArrayT() a C-level
        # allocation, ~40 ns less per result than object.__new__ on every small-array call.
        self.PublicArray = type("Array", (Array,), {"__slots__": (), "_ctx": self,
                                                    "__module__": module.__name__,
                                                    "__doc__": Array.__doc__})
        self.ArrayT = type("Array", (self.PublicArray,), {"__slots__": (),
                                                          "__module__": module.__name__,
                                                          "__doc__": Array.__doc__,
                                                          "__init__": object.__init__})
        self.refresh_defaults()
        self._make_wrap()

    def refresh_defaults(self):
        self.default_float = self.be.default_float
        self.default_int = self.be.default_int
        self.default_complex = dt.COMPLEX_OF_REAL_FLOAT[self.default_float]
        self.default_index = self.be.default_index
        self._device_defaults = {}

    def defaults_for(self, device):
        """(float, int, complex, index) default dtypes of one device: a device without
        64-bit support (a WebGPU adapter lacking shader-f64 / shader-int64) defaults to the
        32-bit types, as the info API reports."""
        r = self._device_defaults.get(device)
        if r is None:
            per_device = getattr(self.be, "device_native_dtypes", None)
            if per_device is None or device is None:
                r = (self.default_float, self.default_int, self.default_complex,
                     self.default_index)
            else:
                native = per_device(device)
                f = self.default_float if self.default_float in native else dt.float32
                i = self.default_int if self.default_int in native else dt.int32
                x = self.default_index if self.default_index in native else dt.int32
                r = (f, i, dt.COMPLEX_OF_REAL_FLOAT[f], x)
            self._device_defaults[device] = r
        return r

    def _make_wrap(self):
        ArrayT = self.ArrayT
        P = self.be.payload_type
        fix = self.be.fix_result
        DT = self.be.dtype_table

        def wrap(r):
            if r.__class__ is not P:
                r = fix(r)
            a = ArrayT()
            a._data = r
            a._dtype = DT[r.dtype]
            return a

        readonly, is_readonly = self.be.readonly, self.be.is_readonly

        def view_of(x, r):
            """The result ``r`` of a view-returning function of ``x``: read-only when ``x``
            is (as NumPy's writeable flag), on every backend, also where the backend had to
            copy (a write into such a copy would be silently lost)."""
            return wrap(readonly(r) if is_readonly(x._data) else r)

        self.wrap = wrap
        self.view_of = view_of

    def resolve_device(self, device, argname="device"):
        """The backend device for a ``device=`` argument (None: the default device)."""
        if device is None:
            return self.be.default_device()
        return self.be.check_device(parse_device(device) if not isinstance(device, Device)
                                    else device, argname)

    def check_dtype(self, dtype, argname="dtype"):
        if dtype is None:
            return None
        d = dt.coerce(dtype)
        if d is not None:
            self.be.check_dtype_supported(d)
            return d
        raise InvalidType(f"'{argname}' must be a dtype of {self.module.__name__} (e.g. "
                          f"xp.float32), got {dtype!r} of type {type(dtype).__name__}"
                          f"{dt.spelling_note(dtype)}")

    def promote(self, a, b, device=None):
        """The promoted dtype of ``a`` and ``b`` in the current semantics, or None where the
        semantics are strict and the standard defines none. A compatible promotion the
        device cannot hold (float64 / complex128 on an adapter without shader-f64) gives its
        default floating dtype of that kind, as the device's default dtypes do."""
        r = lookup(a, b)
        if r is not None and r is not TABLE.get((a, b)):  # a compatible-only promotion
            if r.kind in "fc":
                f, _, c, _ = self.defaults_for(device)
                if r.itemsize > (f if r.kind == "f" else c).itemsize:
                    native = getattr(self.be, "device_native_dtypes", None)
                    have = (native(device) if native is not None and device is not None
                            else self.be.native_dtypes)
                    if r not in have:
                        r = f if r.kind == "f" else c
        return r

    def floating(self, x, kinds, fname, argname="x"):
        """``x`` for a function of floating ``kinds``: a boolean or integer array becomes the
        default floating dtype of its device in the compatible semantics (NumPy's
        ``np.exp(int_array)`` is floating; numr gives the default float, as PyTorch does);
        strict semantics and any other kind refuse it."""
        if x._dtype.kind not in kinds and x._dtype.kind in "biu" and not strict():
            f = self.defaults_for(self.be.device_of(x._data))[0]
            return self.wrap(self.be.astype(x._data, f))
        from .._api._common import require_kind
        return require_kind(x, kinds, fname, argname)


def plain_attributes():
    """The namespace attributes that need no backend: the dtypes, the standard's constants
    (the same values as _api/constants.py) and the version. A lazy namespace holds them from
    import on, as plain module attributes."""
    ns = {d.name: d for d in dt.STANDARD_DTYPES}
    ns.update({"float16": dt.float16, "bool": dt.bool_, "__array_api_version__": API_VERSION,
               "e": math.e, "pi": math.pi, "inf": math.inf, "nan": math.nan,
               "newaxis": None})
    return ns


def populate(module_globals, be, submodules=None):
    """Fill a namespace module's globals with the complete array API. ``submodules``:
    existing module objects to fill as ``linalg`` / ``fft`` (populate_lazily's, which
    may already be imported or held) instead of new ones."""
    from .. import _api

    name = module_globals["__name__"]
    module = sys.modules[name]
    ctx = Context(be, module)
    ns = {}
    for builder in _api.BUILDERS:
        ns.update(builder(ctx))
    for k, v in ns.items():
        setattr(ctx.api, k, v)
    # the public functions behind the boundary (errors, one device rule); ctx.api keeps the
    # bare ones for the front-end's internal calls. Elementwise functions check inline.
    from .functions import BINARY, UNARY
    fast = set(UNARY) | set(BINARY)
    memo = {}
    wrap_namespace(ctx, ns, fast, memo)
    for sub in ("__linalg__", "__fft__"):
        ns[sub] = dict(ns[sub])
        wrap_namespace(ctx, ns[sub], fast, memo)
    ns.update(plain_attributes())
    ns["Array"] = ctx.PublicArray
    ns["_ctx"] = ctx
    ns["_backend"] = be
    subs = {sub: ns.pop(f"__{sub}__") for sub in ("linalg", "fft")}
    # the main namespace first: a function it shares with a submodule (linalg.matmul is
    # matmul) keeps the main namespace's name and text
    name_by_attribute(ns, name)
    describe(ns, "")
    for sub, sub_ns in subs.items():
        m = (submodules or {}).get(sub) or _submodule(name, sub)
        m.__dict__.update(sub_ns)
        name_by_attribute(m.__dict__, m.__name__)
        describe(m.__dict__, f"{sub}.")
        sys.modules[m.__name__] = m
        ns[sub] = m
    _describe_array(ctx, name)
    _describe_info(ns["__array_namespace_info__"], name)
    module_globals.update(ns)
    return ctx


def _submodule(name, sub):
    m = types.ModuleType(f"{name}.{sub}")
    m.__doc__ = f"The standard's ``{sub}`` extension in {name}."
    return m


def populate_lazily(module_globals, make_backend, finish=None):
    """Make a namespace module build itself on first use; returns ``ensure()``, which
    builds it (once) and returns its Context.

    Until then the module holds only ``plain_attributes()`` and its own definitions; the
    first access to any other attribute (PEP 562 ``__getattr__``: a function, ``_ctx``,
    ``dir()``, ``from ... import *``, ``linalg.solve``) calls ``make_backend()``,
    ``populate`` and ``finish(ctx)``, under a lock: threads arriving meanwhile wait for
    that one build. Afterwards the module is what an eager ``populate`` would have made
    (the hooks are removed), so pickling by name and ``__module__`` are unchanged.
    """
    name = module_globals["__name__"]
    module_globals.update(plain_attributes())
    lock = threading.RLock()  # re-entered only by the building thread (see ensure)
    state = {"ctx": None, "builder": None}
    subs = {}

    def ensure():
        ctx = state["ctx"]
        if ctx is not None:
            return ctx
        with lock:
            if state["ctx"] is None:
                if state["builder"] == threading.get_ident():
                    return None  # the build itself looked for a name not there yet
                state["builder"] = threading.get_ident()
                try:
                    ctx = populate(module_globals, make_backend(), subs)
                    if finish is not None:
                        finish(ctx)
                    for g in [module_globals] + [m.__dict__ for m in subs.values()]:
                        g.pop("__getattr__", None)
                        g.pop("__dir__", None)
                    state["ctx"] = ctx
                finally:
                    state["builder"] = None
        return state["ctx"]

    def hooks(g, mod_name):
        def __getattr__(attr):
            # other dunders (``__wrapped__``, ``__path__`` probes) are never built names;
            # ``__all__`` builds, then is absent: ``import *`` takes the built __dict__
            if (attr.startswith("__") and attr.endswith("__")
                    and attr not in ("__all__", "__array_namespace_info__")) \
                    or ensure() is None or attr not in g:
                raise AttributeError(f"module {mod_name!r} has no attribute {attr!r}")
            return g[attr]

        def __dir__():
            ensure()
            return sorted(g)

        g["__getattr__"] = __getattr__
        g["__dir__"] = __dir__

    for sub in ("linalg", "fft"):
        m = subs[sub] = _submodule(name, sub)
        hooks(m.__dict__, m.__name__)
        sys.modules[m.__name__] = m
        module_globals[sub] = m
    hooks(module_globals, name)
    return ensure


def describe(ns, prefix):
    """Give the functions of a namespace dict the shared docstrings (numr_array_api._api.
    _docstrings) under the keys ``prefix + attribute``."""
    from .._api._docstrings import document
    for attr, obj in ns.items():
        if isinstance(obj, types.FunctionType) and not attr.startswith("_"):
            document(obj, prefix + attr)


def _describe_array(ctx, module_name):
    """Name and describe the Array methods: those of the shared class (once) and the
    operators each namespace's builders attach to its own subclass."""
    from .._api._docstrings import document
    for attr, obj in vars(Array).items():
        if isinstance(obj, (types.FunctionType, property)) and (
                not attr.startswith("_") or attr.endswith("__")):
            document(obj, f"Array.{attr}")
    for attr, obj in vars(ctx.ArrayT).items():
        if not isinstance(obj, types.FunctionType):
            continue
        if obj.__module__ is None or "<locals>" in obj.__qualname__ or _private(obj):
            obj.__module__ = module_name
            obj.__qualname__ = f"Array.{attr}"
        document(obj, f"Array.{attr}")


def _describe_info(cls, module_name):
    from .._api._docstrings import document
    if "<locals>" in cls.__qualname__:
        cls.__qualname__ = cls.__name__
    document(cls, "__array_namespace_info__")
    for attr, obj in vars(cls).items():
        if isinstance(obj, types.FunctionType) and not attr.startswith("_"):
            if "<locals>" in obj.__qualname__ or _private(obj):
                obj.__module__ = module_name
                obj.__qualname__ = f"{cls.__qualname__}.{attr}"
            document(obj, f"info.{attr}")


def _private(obj):
    # a closure of the shared front-end (numr_array_api._api.*, ._core.*): it belongs to the
    # namespace that built it
    m = obj.__module__ or ""
    return m.startswith("numr_array_api._")


def name_by_attribute(ns, module_name):
    """Name each function / class of a namespace dict ``ns`` by the module attribute holding
    it. They are closures over the backend context, which pickle (Dask, multiprocessing)
    would otherwise copy by value into a second, foreign context; by name, the receiving
    process finds the same function in its own import of the namespace."""
    for attr, obj in ns.items():
        if isinstance(obj, (types.FunctionType, type)) and (
                obj.__module__ != module_name or obj.__qualname__ != attr) and (
                obj.__module__ is None or "<locals>" in obj.__qualname__
                or obj.__module__ == module_name or _private(obj)):
            obj.__module__ = module_name
            obj.__qualname__ = attr
