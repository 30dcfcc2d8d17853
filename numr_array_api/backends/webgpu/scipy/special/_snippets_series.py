"""Per-element WGSL of scipy.special's zeta family, spence, ellipk, expn, yn, lpmv and the
gamma ratios (the entries of _snippets.SNIPPETS, same layout): each calls its math-library
function (wgsl/_zeta.py, wgsl/_gamma_ratio.py, wgsl/_recurrence.py), which carries SciPy's
special values.

``ADAPT``: the functions whose Python signature is not a fixed-arity ufunc's, turned into
one before the launch (_launch.call), possibly onto a kernel of ``VARIANTS``:
``zeta(x, q=None)`` (Riemann's zeta without q, SciPy's ``_riemann_zeta``) and
``multigammaln(a, d)`` (``d`` a host integer; SciPy's domain test ``a > (d - 1) / 2``
reduced on the device and one flag read back).
"""

import math
import numbers

import numpy as np

from ....._core.array import Array
from ....._core.errors import BackendLimitation, InvalidArgument, InvalidType


def _lib(arity, fn):
    args = ", ".join("abc"[:arity])
    return (arity, f"return numr_{fn}_$R({args});", (fn,), ())


SERIES_SNIPPETS = {name: _lib(arity, name) for name, arity in (
    ("zeta", 2), ("zetac", 1), ("polygamma", 2), ("spence", 1), ("ellipk", 1),
    ("ellipkm1", 1), ("expn", 2), ("yn", 2), ("lpmv", 3), ("poch", 2), ("binom", 2),
    ("multigammaln", 2))}
SERIES_SNIPPETS["betaln"] = (2, "return numr_lbeta_$R(a, b);", ("lbeta",), ())


def _zeta_args(args, kwargs):
    """zeta(x, q=None): the two-argument ufunc, or the Riemann kernel (SciPy's
    ``_riemann_zeta``: its own values below 1 and its own result dtype)."""
    kwargs = dict(kwargs)
    q = kwargs.pop("q", None)
    if len(args) == 3 and "out" not in kwargs:   # zeta(x, q, out)
        args, kwargs["out"] = args[:2], args[2]
    if len(args) == 2:
        if q is not None:
            raise InvalidType("scipy.special.zeta() got multiple values for argument 'q'")
        args, q = args[:1], args[1]
    if q is None:
        return args, kwargs, "riemann_zeta"
    return args + (q,), kwargs, None


# multigammaln's loop runs d terms per element
MULTIGAMMALN_MAX_D = 10000


def _multigammaln_args(args, kwargs):
    if len(args) != 2:
        return args, kwargs, None
    a, d = args
    if isinstance(d, Array):
        raise BackendLimitation("webgpu", "scipy.special.multigammaln",
                                "d as a device array (a host integer is needed)")
    if isinstance(d, np.ndarray) and d.ndim == 0:
        d = d[()]
    if not isinstance(d, numbers.Integral):
        if isinstance(d, numbers.Real) and math.isfinite(d) and float(d).is_integer():
            # (SciPy: TypeError from range(d))
            raise InvalidType("scipy.special.multigammaln: d must be an integer, got "
                              f"{type(d).__name__}")
        raise InvalidArgument("d", "should be a positive integer (dimension)")
    d = int(d)
    if d < 1:
        # (SciPy returns a meaningless scalar there)
        raise InvalidArgument("d", "should be a positive integer (dimension)")
    if d > MULTIGAMMALN_MAX_D:
        raise BackendLimitation("webgpu", "scipy.special.multigammaln",
                                f"d = {d} (at most {MULTIGAMMALN_MAX_D} terms per element)")
    if isinstance(a, Array):
        xp = a.__array_namespace__()
        bad = xp.any(a <= 0.5 * (d - 1))
        if bool(bad._data.to_numpy()):   # (one flag read back: SciPy raises here too)
            raise InvalidArgument("a", f"condition a > 0.5 * (d-1) ({0.5 * (d - 1)}) not met")
    return (a, d), kwargs, None


ADAPT = {"zeta": _zeta_args, "multigammaln": _multigammaln_args}
# kernels a call may be adapted to, besides SNIPPETS' (same layout)
VARIANTS = {"riemann_zeta": _lib(1, "riemann_zeta")}
