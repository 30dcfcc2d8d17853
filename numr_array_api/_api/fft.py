"""The ``fft`` extension.

Validation (dtype kinds, ``n`` / ``s`` / ``axes`` / ``norm``) and the result dtype live here;
kernels are the backend's ``fft_*`` methods. Results keep the input's precision: float32 or
complex64 in, complex64 / float32 out.
"""

from .._core import dtypes as dt
from .._core.errors import DTypeMismatch, InvalidArgument
from .._core.shapes import as_int, check_addressable, normalize_axes, normalize_axis
from ._common import require_array

__all__ = ["build"]

_NORMS = ("backward", "ortho", "forward")

# name -> (accepted input kinds, output is complex, output length for n=None given input m)
_ONE_D = {
    "fft": ("fc", True, lambda m: m),
    "ifft": ("fc", True, lambda m: m),
    "rfft": ("f", True, lambda m: m),
    "ihfft": ("f", True, lambda m: m),
    "irfft": ("fc", False, lambda m: 2 * (m - 1)),
    "hfft": ("fc", False, lambda m: 2 * (m - 1)),
}
_N_D = {"fftn": "fft", "ifftn": "ifft", "rfftn": "rfft", "irfftn": "irfft"}

# bytes per element of the largest buffer a transform may hold (a complex128 work array)
_WORK_ITEMSIZE = 16


def _norm(norm, fname):
    if type(norm) is not str or norm not in _NORMS:
        raise InvalidArgument("norm", f"fft.{fname}: must be one of {_NORMS}, got {norm!r}")
    return norm


def _out_dtype(x_dtype, complex_out):
    real = dt.REAL_FLOAT_OF_COMPLEX.get(x_dtype, x_dtype)
    if real is dt.float16:
        real = dt.float32  # the transforms have no half-precision kernels
    return dt.COMPLEX_OF_REAL_FLOAT[real] if complex_out else real


def build(ctx):
    be = ctx.be
    wrap = ctx.wrap

    def _input(x, fname, kinds):
        require_array(ctx, x, f"fft.{fname}")
        x = ctx.floating(x, kinds, f"fft.{fname}")  # NumPy's fft.fft(int_array)
        if x.ndim == 0:
            raise InvalidArgument("x", f"fft.{fname}: needs at least one dimension")
        return x

    def _fits(fname, shape, lengths):
        # the padded / work arrays, before any backend allocates them
        work = [max(m, lengths.get(i, m)) for i, m in enumerate(shape)]
        check_addressable(be, f"fft.{fname}", work, _WORK_ITEMSIZE,
                          f"a transform over shape {tuple(work)}")

    def _length(value, fname, argname):
        n = as_int(value, argname)
        if n < 1:
            raise InvalidArgument(argname, f"fft.{fname}: transform length must be >= 1, got "
                                           f"{n}")
        return n

    def one_d(name):
        kinds, complex_out, default_len = _ONE_D[name]

        def f(x, /, *, n=None, axis=-1, norm="backward"):
            x = _input(x, name, kinds)
            ax = normalize_axis(axis, x.ndim)
            if n is None:
                n_eff = default_len(x.shape[ax])
                if n_eff < 1:
                    raise InvalidArgument("x", f"fft.{name}: axis {axis} of length "
                                               f"{x.shape[ax]} gives an output length {n_eff}; "
                                               f"pass n >= 1")
            else:
                n = _length(n, name, "n")
            out = _out_dtype(x._dtype, complex_out)
            norm = _norm(norm, name)  # every argument checked before the sizes
            _fits(name, x.shape, {ax: n_eff if n is None else n})
            return wrap(be.fft_1d(name, x._data, n, ax, norm, out))

        f.__name__ = f.__qualname__ = name
        return f

    def n_d(name):
        base = _N_D[name]
        kinds, complex_out, default_len = _ONE_D[base]

        def f(x, /, *, s=None, axes=None, norm="backward"):
            x = _input(x, name, kinds)
            if axes is None:
                if s is not None:
                    raise InvalidArgument("axes", f"fft.{name}: 'axes' must be given when 's' "
                                                  f"is")
                ax = tuple(range(x.ndim))
            else:
                ax = _axes_list(axes, x.ndim, name)
            if s is None:
                s = (-1,) * len(ax)
            elif not isinstance(s, (tuple, list)):
                _not_seq(s, name)
            if len(s) != len(ax):
                raise InvalidArgument("s", f"fft.{name}: {len(s)} sizes for {len(ax)} axes")
            sizes = []
            for i, (v, a) in enumerate(zip(s, ax)):
                v = as_int(v, "s")
                if v == -1:
                    # -1 keeps the input's length (the standard's rule; NumPy takes s
                    # literally); irfftn's last axis then gets 2 * (m - 1)
                    v = default_len(x.shape[a]) if i == len(ax) - 1 else x.shape[a]
                sizes.append(_length(v, name, "s"))
            sizes = tuple(sizes)
            out = _out_dtype(x._dtype, complex_out)
            norm = _norm(norm, name)
            _fits(name, x.shape, dict(zip(ax, sizes)))
            return wrap(be.fft_nd(name, x._data, sizes, ax, norm, out))

        f.__name__ = f.__qualname__ = name
        return f

    def _freq(name, rfft):
        def f(n, /, *, d=1.0, dtype=None, device=None):
            n = _length(n, name, "n")
            if not isinstance(d, (int, float)) or isinstance(d, bool):
                raise TypeError(f"fft.{name}: 'd' must be a Python float, got "
                                f"{type(d).__name__}")
            if d == 0:
                raise InvalidArgument("d", f"fft.{name}: sample spacing must be non-zero")
            t = ctx.check_dtype(dtype)
            dev = ctx.resolve_device(device)
            if t is None:  # the device's own default (32-bit on adapters without f64)
                t = ctx.defaults_for(dev)[0]
            elif t.kind != "f":
                raise DTypeMismatch(f"fft.{name}: dtype must be a real floating-point dtype, "
                                    f"got {t.name}", t, None)
            check_addressable(be, f"fft.{name}", (n,), 8, f"{n} frequencies")
            return wrap(be.fft_freq(n, float(d), rfft, t, dev))

        f.__name__ = f.__qualname__ = name
        return f

    def _shift(name, inverse):
        def f(x, /, *, axes=None):
            require_array(ctx, x, f"fft.{name}")
            if axes is None:
                ax = tuple(range(x.ndim))
            elif isinstance(axes, (tuple, list)):
                ax = normalize_axes(tuple(axes), x.ndim, "axes")
            else:
                ax = (normalize_axis(axes, x.ndim, "axes"),)
            return wrap(be.fft_shift(x._data, ax, inverse))

        f.__name__ = f.__qualname__ = name
        return f

    ns = {name: one_d(name) for name in _ONE_D}
    ns.update({name: n_d(name) for name in _N_D})
    ns["fftfreq"] = _freq("fftfreq", False)
    ns["rfftfreq"] = _freq("rfftfreq", True)
    ns["fftshift"] = _shift("fftshift", False)
    ns["ifftshift"] = _shift("ifftshift", True)
    return {"__fft__": ns}


def _axes_list(axes, ndim, fname):
    if not isinstance(axes, (tuple, list)):
        _not_seq(axes, fname, "axes")
    ax = tuple(normalize_axis(a, ndim, "axes") for a in axes)
    if len(set(ax)) != len(ax):
        # repeated axes would transform twice (NumPy) or be rejected (others): refuse
        raise InvalidArgument("axes", f"fft.{fname}: repeated axes in {tuple(axes)}")
    return ax


def _not_seq(value, fname, argname="s"):
    raise TypeError(f"fft.{fname}: '{argname}' must be a sequence of ints, got "
                    f"{type(value).__name__}")
