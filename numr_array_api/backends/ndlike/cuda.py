"""The cuda backend: CuPy arrays as payloads, on numr's CUDA runtime (per-device compute and
copy streams, the bounded free-list allocator, graph capture; backends/cuda_runtime).

Kernels are NdBackend's, written over a NumPy-like module, with ``xp = cupy``; the places
where CuPy departs from NumPy (and so from what NdBackend's corrections expect) are fixed
here. Without CuPy, a driver or a device the namespace still builds: ``xp`` is then a
stand-in whose every attribute raises BackendUnavailable saying why, so any call that would
touch the GPU raises that, and the info API reports no devices.
"""

import contextlib
import functools
import math
import weakref

import numpy as np

from ..._core import dtypes as dt
from ..._core.device import Device
from ..._core.errors import (BackendUnavailable, DTypeMismatch, InvalidArgument, InvalidIndex,
                             OutOfMemory)
from ..cuda_runtime import get as _get_runtime
from .backend import NdBackend
from .cuda_bounds import CudaIndexBoundsMixin
from .kernels import _with_out
from .cpu import CPUBackend

__all__ = ["CUDABackend"]

_KDL_CPU, _KDL_CUDA, _KDL_CUDA_HOST, _KDL_CUDA_MANAGED = 1, 2, 3, 13


class _Unavailable:
    """Stands in for the cupy module when the backend cannot run."""

    def __init__(self, reason):
        self._reason = reason

    def __getattr__(self, name):
        raise BackendUnavailable("cuda", self._reason)


class _NoPayload:
    """Payload type when CuPy is absent: no value is ever an instance."""


class _RaisingTable(dict):
    def __init__(self, reason):
        super().__init__()
        self._reason = reason

    def __missing__(self, name):
        reason = self._reason

        def unavailable(*args, **kwargs):
            raise BackendUnavailable("cuda", reason)

        unavailable.__name__ = name
        return unavailable


# NdBackend methods that take payloads and run kernels: on a multi-GPU machine they run
# with the payload's device current (CuPy launches on the current device).
_DEVICE_FREE = frozenset({
    "device_of", "default_device", "devices", "check_device", "check_stream",
    "check_dtype_supported", "device_ctx", "unary_kernel", "binary_kernel", "scalar_operand",
    "extra_capabilities", "fix_result", "empty", "full", "arange", "eye", "linspace",
    "from_numpy", "from_dlpack", "asarray_obj", "to_device", "to_numpy", "item", "dlpack",
    "dlpack_device", "fft_freq",
})


class CUDABackend(CudaIndexBoundsMixin, NdBackend):
    name = "cuda"
    device_kind = "cuda"
    host_native = False
    _c2r_clears_edge_bins = True  # cuFFT's C2R reads the DC / Nyquist imaginary parts

    def _fft_call(self, fn, *args, **kwargs):
        # cuFFT reports a plan it could not allocate as CUFFT_ALLOC_FAILED, INTERNAL_ERROR or
        # even INVALID_SIZE (16 test processes sharing one GPU, 2026-11-26); the front-end
        # validated the sizes, so: forget cached plans, give numr's pools back, retry once,
        # then numr's error instead of CuPy's
        from cupy.cuda import cufft
        try:
            return fn(*args, **kwargs)
        except cufft.CuFFTError:
            pass
        self.xp.fft.config.get_plan_cache().clear()
        for i in range(self.rt.device_count):
            self.rt.client(i).allocator.trim()
        try:
            return fn(*args, **kwargs)
        except cufft.CuFFTError as e:
            raise OutOfMemory("cuda", getattr(args[0], "nbytes", 0),
                              f"cuFFT could not make its plan after the plan "
                              f"cache was cleared and numr's pool trimmed: {e}") from e
    # CuPy computes element and byte counts in wrapping 64-bit integers (a request beyond
    # them allocates a tiny block and writes past it): the elementwise fast paths check the
    # operands' sizes before calling it (_api/_fastpath.py)
    wrapping_byte_counts = True

    def __init__(self):
        rt = self.rt = _get_runtime()
        self._host = CPUBackend()
        self._readonly = {}  # id(payload) -> weakref, for broadcast views and views of them
        if rt.available:
            super().__init__(rt.cupy)
            self._devices = tuple(Device("cuda", i) for i in range(rt.device_count))
            self._dev_ctx = [rt.cupy.cuda.Device(i) for i in range(rt.device_count)]
            self._getdev = rt.cupy.cuda.runtime.getDevice
            self._reducers = {"sum": self.xp.sum, "prod": self.xp.prod, "max": self.xp.max,
                              "min": self.xp.min, "mean": self.xp.mean, "all": self.xp.all,
                              "any": self.xp.any}
            try:  # cupy.where without its fusion check and bool cast (cond is bool already)
                from cupy._sorting.search import _where_ufunc
                self._where = _where_ufunc
            except ImportError:
                self._where = self.xp.where
            self._fix_kernels()
            if rt.device_count > 1:
                self._bind_payload_devices()
            else:
                # one device: every payload is on it and it is always current
                only = self._devices[0]
                self.device_of = lambda data: only
                self._single = True
        else:
            self.xp = _Unavailable(rt.reason)
            self.payload_type = _NoPayload
            self.dtype_table = {d.np: d for d in dt.ALL_DTYPES}
            self.native_dtypes = frozenset(dt.ALL_DTYPES)
            self._unary = _RaisingTable(rt.reason)
            self._binary = _RaisingTable(rt.reason)
            self._devices = ()

    def _fix_kernels(self):
        """CuPy's elementwise departures from NumPy that NdBackend's corrections assume."""
        cupy = self.xp
        binary, unary = self._binary, self._unary
        # float remainder: CuPy's loses precision (1e-5 relative on float32); fmod-based
        # Python semantics as NumPy's npy_divmod, in double (exact for float32's fmod)
        rem_code = """
            double a = (double)x, b = (double)y;
            double m = fmod(a, b);
            if (m != 0) { if ((b < 0) != (m < 0)) m += b; } else { m = copysign(0.0, b); }
            z = m;"""
        rem64 = cupy.ElementwiseKernel("float64 x, float64 y", "float64 z", rem_code,
                                       "numr_remainder_f64")
        rem32 = cupy.ElementwiseKernel("float32 x, float32 y", "float32 z",
                                       rem_code.replace("z = m;", "z = (float)m;"),
                                       "numr_remainder_f32")
        base_rem = binary["remainder"]
        P = self.payload_type

        def remainder(a, b, out=None):
            t = a.dtype if a.__class__ is P else b.dtype
            if t.kind != "f":
                return base_rem(a, b, out=out) if out is not None else base_rem(a, b)
            if t == np.float16:
                r = remainder(_f32(a), _f32(b)).astype(np.float16)
            else:
                k = rem64 if t == np.float64 else rem32
                a = a if a.__class__ is P else t.type(a)
                b = b if b.__class__ is P else t.type(b)
                r = k(a, b)
            return _with_out(r, out)

        binary["remainder"] = remainder
        binary["divide"] = _numpy_complex_divide(cupy, binary["divide"], P)
        unary["reciprocal"] = _numpy_complex_reciprocal(cupy, unary["reciprocal"])
        # complex log2 / log10: CuPy multiplies log(z) by a complex constant, so an infinite
        # real part turns the imaginary part into NaN (log2(0) = -inf + NaN j)
        log = unary["log"]
        for name, c in (("log2", 1 / math.log(2)), ("log10", 1 / math.log(10))):
            unary[name] = _scaled_log(cupy, unary[name], log, c)

    def _bind_payload_devices(self):
        P = self.payload_type
        getdev = self._getdev
        ctxs = self._dev_ctx

        def on_device(f):
            @functools.wraps(f)
            def run(*args, **kwargs):
                for a in args:
                    if a.__class__ is P:
                        i = a.device.id
                        if i != getdev():
                            with ctxs[i]:
                                return f(*args, **kwargs)
                        break
                return f(*args, **kwargs)
            return run

        for name in dir(NdBackend):
            if name.startswith("_") or name in _DEVICE_FREE:
                continue
            attr = getattr(self, name, None)
            if callable(attr):
                setattr(self, name, on_device(attr))
        for table in (self._unary, self._binary):
            for k, f in list(table.items()):
                table[k] = on_device(f)

    # -- devices -------------------------------------------------------------------------
    def device_of(self, data):
        return self._devices[data.data.device_id]

    def default_device(self):
        if not self.rt.available:
            return Device("cuda", 0)
        return self._devices[self._getdev()]

    def devices(self):
        return self._devices

    def check_device(self, device, argname="device"):
        if device.kind != "cuda":
            raise InvalidArgument(argname, f"the cuda namespace has devices cuda:0..cuda:n, got "
                                           f"{device}; use x.to_device(...) to move arrays")
        self.rt.require()
        self.rt.check_index(device.index)
        return self._devices[device.index]

    _single = False

    @property
    def single_device(self):
        return self._single
    _null = contextlib.nullcontext()

    def device_ctx(self, device):
        """Context running CuPy calls on ``device`` with numr's client set up there."""
        client = self.rt.client(device.index)
        client.bind_thread()
        return self._null if self._single else self._dev_ctx[device.index]

    def check_stream(self, stream):
        cupy = self.rt.require()
        if isinstance(stream, (int, cupy.cuda.Stream)) and not isinstance(stream, bool):
            return stream
        raise InvalidArgument("stream", f"expected a CUDA stream (cupy.cuda.Stream or its "
                                        f"handle as an int), got {stream!r}")

    def _check_h2d(self, device):
        client = self.rt._clients.get(device.index)
        if client is not None and client.capturing:
            from ..cuda_runtime.graphs import CaptureError, H2D_REASON
            raise CaptureError(H2D_REASON)

    # -- host and device transfers -------------------------------------------------------
    def to_numpy(self, data):
        return data.get()

    def from_numpy(self, host, device, copy):
        self._check_h2d(device)
        with self.device_ctx(device):
            return self._h2d(host)

    def _h2d(self, host):
        if host.ndim == 0:
            # CuPy builds 0-d arrays from the scalar with ndarray.fill, which memsets any value
            # equal to 0 (-0.0 loses its sign); a 1-element copy keeps the bytes
            return self.xp.array(host.reshape(1), copy=True).reshape(())
        return self.xp.array(host, copy=True)

    def to_device(self, data, device):
        cupy = self.xp
        src_i, dst_i = data.device.id, device.index
        if src_i == dst_i:
            return data
        src_c = self.rt.client(src_i)
        dst_c = self.rt.client(dst_i)
        with self._dev_ctx[src_i]:
            src = cupy.ascontiguousarray(data)
            ready = cupy.cuda.Event(block=False, disable_timing=True)
            ready.record(src_c.compute)
        with self.device_ctx(device):
            dst = cupy.empty(src.shape, dtype=src.dtype)
            dst_c.compute.wait_event(ready)
            if src.nbytes:
                dst.data.copy_from_device_async(src.data, src.nbytes, dst_c.compute)
            done = cupy.cuda.Event(block=False, disable_timing=True)
            done.record(dst_c.compute)
        # the source block may return to its device's free list: order reuse after the copy
        src_c.compute.wait_event(done)
        return dst

    def item(self, data):
        return data.item()

    def dlpack(self, data, *, stream=None, max_version=None, dl_device=None, copy=None):
        kw = {}
        if max_version is not None:
            kw["max_version"] = max_version
        if dl_device is not None:
            kind, idx = int(dl_device[0]), int(dl_device[1])
            if kind in (_KDL_CPU, _KDL_CUDA_HOST):
                # the consumer wants host memory: only a copy can give it
                if copy is False:
                    raise BufferError("__dlpack__: dl_device is the CPU but copy=False; a cuda "
                                      "array reaches host memory only through a copy")
                return data.get().__dlpack__(**kw)
            if kind != _KDL_CUDA or idx != data.data.device_id:
                raise BufferError(f"__dlpack__: cannot export a cuda:{data.data.device_id} array "
                                  f"to DLPack device {tuple(dl_device)}")
        if stream is not None:
            kw["stream"] = stream
        if copy:
            # CuPy's exporter copies only to the CPU; copy on the device, export the copy
            return data.copy().__dlpack__(**kw)
        if copy is False:
            kw["copy"] = False
        return data.__dlpack__(**kw)

    def dlpack_device(self, data):
        return data.__dlpack_device__()

    def from_dlpack(self, obj, device, copy):
        cupy = self.xp
        kind, idx = _dlpack_device(obj)
        if kind in (_KDL_CPU, _KDL_CUDA_HOST):
            # host memory: a copy to the device (copy=False cannot be honoured)
            if copy is False:
                raise ValueError("from_dlpack: copy=False but the producer's memory is on the "
                                 "host; a device copy is required")
            target = device or self.default_device()
            host = np.from_dlpack(obj)
            return self.from_numpy(host, target, copy=True)
        if kind not in (_KDL_CUDA, _KDL_CUDA_MANAGED):
            raise BufferError(f"from_dlpack: producer device type {kind} is not CUDA or CPU")
        with self.device_ctx(self.check_device(Device("cuda", idx), "x")):
            r = cupy.from_dlpack(obj, copy=False) if copy is False else cupy.from_dlpack(obj)
            if copy:
                # a device-side copy: CuPy's exporters copy only to the CPU
                r = r.copy()
        if device is not None and device.index != r.device.id:
            if copy is False:
                raise ValueError(f"from_dlpack: copy=False but the producer is on cuda:{idx}, "
                                 f"not {device}")
            r = self.to_device(r, device)
        return r

    def asarray_obj(self, obj, dtype, device, copy, ctx):
        cupy = self.xp
        npdt = None if dtype is None else dtype.np
        if isinstance(obj, cupy.ndarray) or hasattr(obj, "__cuda_array_interface__") or \
                (hasattr(obj, "__dlpack__") and _dlpack_device(obj)[0] in (_KDL_CUDA,
                                                                            _KDL_CUDA_MANAGED)):
            arr = obj if isinstance(obj, cupy.ndarray) else self._import_device(obj)
            if arr.device.id != device.index:
                if copy is False:
                    raise ValueError(f"asarray: copy=False but 'obj' is on cuda:{arr.device.id},"
                                     f" not {device}")
                arr = self.to_device(arr, device)
                copy = None if arr is not obj else copy
            if npdt is not None and arr.dtype != npdt:
                if copy is False:
                    raise ValueError("asarray: copy=False but a cast is required")
                with self._dev_ctx[arr.device.id]:
                    arr = arr.astype(npdt)
            elif copy:
                with self._dev_ctx[arr.device.id]:
                    arr = arr.copy()
        else:
            if copy is False:
                raise ValueError("asarray: copy=False is impossible for host data; the cuda "
                                 "namespace needs a host-to-device copy")
            # host data: NumPy's conversion with the cpu namespace's checks, then one copy
            host = self._host.asarray_obj(obj, dtype, None, None, ctx)
            self._check_h2d(device)
            with self.device_ctx(device):
                arr = self._h2d(host)
        if arr.dtype not in self.dtype_table:
            raise DTypeMismatch(f"asarray: Unsupported dtype {arr.dtype}: numr has no equivalent of it")
        return arr

    def _import_device(self, obj):
        cupy = self.xp
        if hasattr(obj, "__dlpack__"):
            try:
                return cupy.from_dlpack(obj)
            except (BufferError, TypeError, RuntimeError):
                pass
        return cupy.asarray(obj)  # __cuda_array_interface__: zero-copy

    # -- creation and kernels: CuPy's slower paths avoided, departures fixed ------------------
    def full(self, shape, value, dtype, device):
        with self.device_ctx(device):
            a = self.xp.empty(shape, dtype=dtype.np)
            if _all_zero_bits(value):
                # a memset, as cupy.zeros does; cupy.full runs copyto's broadcasting kernel
                a.data.memset_async(0, a.nbytes)
            elif value == 0:
                # -0.0: ndarray.fill memsets every value equal to 0, losing the sign
                self.xp.copyto(a, dtype.np.type(value), casting="unsafe")
            else:
                a.fill(dtype.np.type(value))  # exact: Python ints beyond int64 included
            return a

    def linspace(self, start, stop, num, endpoint, dtype, device):
        if dtype.kind != "c":
            return self._linspace_as_numpy(float(start), float(stop), num, endpoint, dtype,
                                           device)
        # cupy.linspace takes no complex bounds: real and imaginary parts separately
        rdt = dt.REAL_FLOAT_OF_COMPLEX[dtype]
        start, stop = complex(start), complex(stop)
        re = super().linspace(start.real, stop.real, num, endpoint, rdt, device)
        im = super().linspace(start.imag, stop.imag, num, endpoint, rdt, device)
        with self.device_ctx(device):
            out = self.xp.empty(re.shape, dtype=dtype.np)
            out.real = re
            out.imag = im
        return out

    def _linspace_as_numpy(self, start, stop, num, endpoint, dtype, device):
        # NumPy's steps in float64, each a separate rounding (no fused multiply-add), then one
        # cast: bit-identical to NumPy's for Python-number bounds (CuPy's own kernel differs
        # by an ulp at times, which moves a value sitting on an edge into the next bin)
        xp = self.xp
        div = (num - 1) if endpoint else num
        with self.device_ctx(device):
            y = xp.arange(0, num, dtype=np.float64)
            delta = stop - start
            if div > 0:
                step = delta / div
                if step == 0:
                    y = (y / div) * delta
                else:
                    y = y * step
            else:
                y = y * delta
            y = y + start
            if endpoint and num > 1:
                y[-1] = stop
            if dtype.kind in "iu":
                y = xp.floor(y)
            return y.astype(dtype.np, copy=False)

    def getitem_basic(self, data, key):
        # CuPy accepts float slice bounds (slice(1.0, 2)); NumPy and the standard do not
        for k in (key if type(key) is tuple else (key,)):
            if type(k) is slice:
                for v in (k.start, k.stop, k.step):
                    if v is not None and not hasattr(v, "__index__"):
                        raise InvalidIndex(f"slice bounds must be integers or None, got "
                                           f"{type(v).__name__} in {k}")
        r = data[key]
        if self._readonly:
            self._inherit_readonly(data, r)
        return r

    # -- read-only broadcast views ------------------------------------------------------------
    # CuPy has no writeable flag: a write through a broadcast view would land on the source
    # (several elements alias one). numr remembers the broadcast views it made, and the views
    # its view-making methods derive from them, by the id of the CuPy array (a weak reference
    # drops the entry with the array), and refuses writes into them as NumPy does.
    def _mark_readonly(self, r):
        key = id(r)
        table = self._readonly

        def drop(ref, key=key):
            if table.get(key) is ref:
                del table[key]

        try:
            table[key] = weakref.ref(r, drop)
        except TypeError:  # a CuPy without weak references: the zero-stride check remains
            pass

    def _is_readonly(self, data):
        ref = self._readonly.get(id(data))
        if ref is not None and ref() is data:
            return True
        # broadcast views numr did not make (or lost track of) show as zero strides
        return data.size > 0 and any(s == 0 and n > 1
                                     for n, s in zip(data.shape, data.strides))

    def _inherit_readonly(self, src, r):
        """Marks ``r`` read-only when ``src`` is and ``r`` views src's memory (not a copy)."""
        if r is src or not self._is_readonly(src):
            return
        root = src.base if src.base is not None else src
        if r.base is root:
            self._mark_readonly(r)

    def is_readonly(self, data):
        return self._is_readonly(data)

    def readonly(self, data):
        if self._is_readonly(data):
            return data
        v = data.view()
        self._mark_readonly(v)
        return v

    def _refuse_readonly(self, data):
        if self._is_readonly(data):
            raise InvalidArgument("x", "assignment destination is read-only (a broadcast "
                                       "view); copy it first (asarray(x, copy=True))")

    def broadcast_to(self, data, shape):
        r = self.xp.broadcast_to(data, shape)
        if r.size and any(s == 0 and n > 1 for n, s in zip(r.shape, r.strides)) or \
                self._is_readonly(data):
            self._mark_readonly(r)
        return r

    def reshape(self, data, shape, copy=None):
        r = super().reshape(data, shape, copy)
        if self._readonly:
            self._inherit_readonly(data, r)
        return r

    def permute(self, data, axes):
        r = self.xp.transpose(data, axes)
        if self._readonly:
            self._inherit_readonly(data, r)
        return r

    def flip(self, data, axes):
        r = self.xp.flip(data, axis=axes)
        if self._readonly:
            self._inherit_readonly(data, r)
        return r

    def astype(self, data, dtype, copy=True):
        r = data.astype(dtype.np, copy=copy)
        if not copy and self._readonly:
            self._inherit_readonly(data, r)
        return r

    def setitem(self, data, key, value):
        self._refuse_readonly(data)
        return super().setitem(data, key, value)

    def inplace(self, kernel, d1, d2):
        self._refuse_readonly(d1)
        kernel(d1, d2, out=d1)

    def _raising_linalg(self, method, a, *args):
        # CuPy reports singular matrices only under cupyx.errstate(linalg="raise"), and not
        # at all on its batched paths: finite input with a non-finite result is singular
        # (NumPy raises LinAlgError there too); one device-to-host sync per call
        import cupyx
        xp = self.xp
        with cupyx.errstate(linalg="raise"):
            r = method(a, *args)
        if r.dtype.kind in "fc" and not bool(xp.isfinite(r).all()) and \
                bool(xp.isfinite(a).all()):
            raise InvalidArgument("x", "linalg: the matrix is singular")
        return r

    def linalg_inv(self, a):
        return self._raising_linalg(super().linalg_inv, a)

    def linalg_cholesky(self, a, upper):
        return self._raising_linalg(super().linalg_cholesky, a, upper)

    def linalg_solve(self, a, b, vector):
        return self._raising_linalg(super().linalg_solve, a, b, vector)

    def where(self, cond, a, b):
        return self._where(cond, a, b)

    def reduce(self, name, data, axes, keepdims, dtype=None):
        fn = self._reducers[name]
        if axes is not None and len(axes) == data.ndim:
            axes = None  # CuPy's full reductions (CUB) take axis=None only
        if dtype is None:
            return fn(data, axis=axes, keepdims=keepdims)
        return fn(data, axis=axes, keepdims=keepdims, dtype=dtype.np)

    def sort(self, data, axis, descending, stable):
        xp = self.xp
        # CuPy's sort is always stable and accepts no other kind
        if not descending:
            return xp.sort(data, axis=axis)
        return xp.flip(xp.sort(xp.flip(data, axis=axis), axis=axis), axis=axis)

    def argsort(self, data, axis, descending, stable):
        xp = self.xp
        if not descending:
            return xp.argsort(data, axis=axis)
        n = data.shape[axis]
        idx = xp.argsort(xp.flip(data, axis=axis), axis=axis)
        return xp.flip(n - 1 - idx, axis=axis)

    def repeat(self, data, repeats, axis):
        # cupy.repeat takes an int or a host sequence, not a device array
        if isinstance(repeats, self.payload_type):
            repeats = repeats.get().tolist()
            if len(repeats) == 1:
                repeats = repeats[0]
        return self.xp.repeat(data, repeats, axis=axis)

    def extra_capabilities(self):
        return {}


def _f32(v):
    return v.astype(np.float32) if hasattr(v, "astype") else np.float32(v)


def _scaled_log(cupy, base, log, c):
    def fn(x, out=None):
        if x.dtype.kind != "c":
            return base(x, out=out) if out is not None else base(x)
        r = log(x)
        res = cupy.empty_like(r)
        res.real = r.real * c
        res.imag = r.imag * c
        if out is None:
            return res
        out[...] = res
        return out
    return fn


def _all_zero_bits(value):
    """Whether ``value`` is stored as all-zero bytes in every dtype (-0.0 is not)."""
    if value is False or value is True:
        return value is False
    if isinstance(value, complex):
        return _all_zero_bits(value.real) and _all_zero_bits(value.imag)
    if isinstance(value, float):
        return value == 0.0 and math.copysign(1.0, value) > 0
    return value == 0


def _dlpack_device(obj):
    try:
        kind, idx = obj.__dlpack_device__()
        return int(kind), int(idx)
    except Exception:
        return _KDL_CPU, 0


# NumPy's complex division (Smith's method as in its loops, with its zero-divisor case), in
# the operands' precision with no fused multiply-adds, so results match NumPy's bit for bit.
# CuPy's (thrust's) scales both operands by 1 / (|c| + |d|): a dividend that overflows there
# turns an exact zero component into 0 * inf = NaN ((4 + 0j) / 1.18e-38 gave inf + nan j).
_CDIV = """
    const $R ar = x.real(), ai = x.imag(), br = y.real(), bi = y.imag();
    const $R abr = fabs(br), abi = fabs(bi);
    $R zr, zi;
    if (abr >= abi) {
        if (abr == 0 && abi == 0) {
            zr = ar / abr;
            zi = ai / abi;
        } else {
            const $R rat = bi / br;
            const $R scl = ($R)1 / (br + bi * rat);
            zr = (ar + ai * rat) * scl;
            zi = (ai - ar * rat) * scl;
        }
    } else {
        const $R rat = br / bi;
        const $R scl = ($R)1 / (bi + br * rat);
        zr = (ar * rat + ai) * scl;
        zi = (ai * rat - ar) * scl;
    }
    z = complex<$R>(zr, zi);"""


def _numpy_complex_divide(cupy, base, P):
    kernels = {}
    complex_of = {np.dtype(np.float16): np.dtype(np.complex64),
                  np.dtype(np.float32): np.dtype(np.complex64),
                  np.dtype(np.float64): np.dtype(np.complex128)}

    def kernel(ct):
        k = kernels.get(ct)
        if k is None:
            c, r = ("complex64", "float") if ct == np.complex64 else ("complex128", "double")
            k = kernels[ct] = cupy.ElementwiseKernel(
                f"{c} x, {c} y", f"{c} z", _CDIV.replace("$R", r), f"numr_cdiv_{c}",
                options=("--fmad=false",))
        return k

    def divide(a, b, out=None):
        arrays = [v.dtype for v in (a, b) if v.__class__ is P]
        ct = np.result_type(*arrays) if arrays else None
        if ct is None or ct.kind != "c":
            # a real array and a Python complex scalar: the complex type of the array's
            if ct is None or not any(type(v) is complex for v in (a, b)) or \
                    ct not in complex_of:
                return base(a, b, out=out) if out is not None else base(a, b)
            ct = complex_of[ct]
        if ct not in (np.complex64, np.complex128):
            return base(a, b, out=out) if out is not None else base(a, b)
        a = a.astype(ct, copy=False) if a.__class__ is P else ct.type(a)
        b = b.astype(ct, copy=False) if b.__class__ is P else ct.type(b)
        return _with_out(kernel(ct)(a, b), out)

    return divide


# NumPy's complex reciprocal (CuPy's is 1 / z through thrust's scaled division, NaN where
# the scaling overflows, e.g. for subnormal z)
_CREC = """
    const $R ar = x.real(), ai = x.imag();
    $R zr, zi;
    if (fabs(ai) <= fabs(ar)) {
        const $R r = ai / ar;
        const $R d = ar + ai * r;
        zr = ($R)1 / d;
        zi = -r / d;
    } else {
        const $R r = ar / ai;
        const $R d = ar * r + ai;
        zr = r / d;
        zi = ($R)-1 / d;
    }
    z = complex<$R>(zr, zi);"""


def _numpy_complex_reciprocal(cupy, base):
    kernels = {}

    def reciprocal(x, out=None):
        ct = x.dtype
        if ct != np.complex64 and ct != np.complex128:
            return base(x, out=out) if out is not None else base(x)
        k = kernels.get(ct)
        if k is None:
            c, r = ("complex64", "float") if ct == np.complex64 else ("complex128", "double")
            k = kernels[ct] = cupy.ElementwiseKernel(
                f"{c} x", f"{c} z", _CREC.replace("$R", r), f"numr_crec_{c}",
                options=("--fmad=false",))
        return _with_out(k(x), out)

    return reciprocal
