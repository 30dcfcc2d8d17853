"""scipy.special's elementwise functions on numr arrays, on the arrays' own device.

    import numr_array_api.webgpu as xp
    from numr_array_api.scipy import special
    y = special.ndtr(xp.linspace(-3, 3, 7))      # a WGSL kernel on the GPU, no host copy

- cpu arrays: SciPy itself on the NumPy payload; cuda arrays: ``cupyx.scipy.special`` on
  the CuPy payload (same memory; a function cupyx lacks raises BackendLimitation).
- webgpu arrays: numr's WGSL kernels (``backends/webgpu/scipy/special``), one elementwise
  dispatch per call with SciPy's broadcasting and result dtypes (integers -> float64,
  float32 stays float32; float16 as SciPy's loops give it). A function or argument without a
  kernel raises BackendLimitation naming it; nothing falls back to the host.
- No numr array among the arguments: SciPy's function.

The functions are those SciPy dispatches to other array libraries (its
``_support_alternative_backends._special_funcs``); ``implemented(name, backend)`` says which
run natively for a backend. docs/scipy-special.md lists webgpu's functions and accuracy.
"""

from __future__ import annotations

import functools
import importlib

from .._core.errors import BackendLimitation
from .._core.array import Array
from . import _bridge

__all__ = [
    "bdtr", "bdtrc", "bdtri", "betainc", "betaincc", "betaincinv", "betaln", "binom",
    "boxcox", "boxcox1p", "cbrt", "chdtr", "chdtrc", "chdtri", "cosdg", "cosm1", "cotdg",
    "ellipk", "ellipkm1", "entr", "erf", "erfc", "erfcx", "erfinv", "exp1", "exp10", "exp2",
    "exprel", "expi", "expit", "expn", "fdtr", "fdtrc", "fdtri", "gamma", "gammainc",
    "gammaincc", "gammainccinv", "gammaincinv", "gammaln", "gammasgn", "gdtr", "gdtrc",
    "huber", "hyp1f1", "inv_boxcox", "inv_boxcox1p", "i0", "i0e", "i1", "i1e", "j0", "j1",
    "k0", "k0e", "k1", "k1e", "kl_div", "log_ndtr", "loggamma", "logit", "lpmv",
    "multigammaln", "nbdtr", "nbdtrc", "nbdtri", "ndtr", "ndtri", "pdtr", "pdtrc", "pdtri",
    "poch", "pseudo_huber", "polygamma", "psi", "radian", "rel_entr", "rgamma", "sinc",
    "sindg", "spence", "stdtr", "stdtrit", "tandg", "xlog1py", "xlogy", "y0", "y1", "yn",
    "zeta", "zetac",
    "implemented",
]

FUNCTIONS = tuple(__all__[:-1])


def _webgpu():
    return importlib.import_module("numr_array_api.backends.webgpu.scipy.special")


@functools.lru_cache(maxsize=None)
def _native_has(name, backend):
    return _bridge.native_function("special", name, backend) is not None


def implemented(name: str, backend: str) -> bool:
    """Whether ``name`` runs natively for arrays of ``backend`` ('cpu', 'cuda', 'webgpu'):
    SciPy's function (cpu), cupyx.scipy.special's (cuda, where CuPy is installed and has
    it), a WGSL kernel (webgpu)."""
    if name not in FUNCTIONS:
        return False
    if backend == "webgpu":
        return name in _webgpu().FUNCTIONS
    if backend in ("cpu", "cuda"):
        return _native_has(name, backend)
    return False


def _scipy(name):
    if name == "sinc":  # scipy.special.sinc is NumPy's
        import numpy
        return numpy.sinc
    return getattr(importlib.import_module("scipy.special"), name)


def _scipy_loop_inputs(name, args):
    """cuda arrays cast to the input dtypes of SciPy's own loop for them (CuPy's ufuncs pick
    float32 loops for small integers and float16, SciPy float64): SciPy's result dtypes."""
    import numpy as np
    uf = _scipy(name)
    arrays = [a for a in args if isinstance(a, Array)]
    if not isinstance(uf, np.ufunc) or not arrays or len(args) != uf.nin:
        return args
    try:
        loop = uf.resolve_dtypes(tuple(np.dtype(a.dtype.name) if isinstance(a, Array)
                                       else type(a) if isinstance(a, (int, float)) else None
                                       for a in args) + (None,) * uf.nout)
    except (TypeError, ValueError):
        return args
    out = []
    for a, want in zip(args, loop[:uf.nin]):
        if isinstance(a, Array) and a.dtype.name != want.name:
            xp = a.__array_namespace__()
            a = xp.astype(a, getattr(xp, want.name))
        out.append(a)
    return tuple(out)


def _make(name):
    def f(*args, **kwargs):
        backend = _bridge.backend_of(args, kwargs)
        if backend is None:
            return _scipy(name)(*args, **kwargs)
        if backend == "webgpu":
            return _webgpu().call(name, args, kwargs)
        if not _native_has(name, backend):
            raise BackendLimitation(backend, f"scipy.special.{name}",
                                    f"{'cupyx.scipy' if backend == 'cuda' else 'scipy'}"
                                    f".special has no '{name}'")
        if backend == "cuda":
            args = _scipy_loop_inputs(name, args)
        return _bridge.call_native("special", name, args, kwargs)

    f.__name__ = f.__qualname__ = name
    f.__module__ = __name__
    f.__doc__ = (f"scipy.special.{name} on numr arrays (computed on the arrays' device; "
                 f"see the module docstring). SciPy's documentation applies.")
    return f


bdtr = _make("bdtr")
bdtrc = _make("bdtrc")
bdtri = _make("bdtri")
betainc = _make("betainc")
betaincc = _make("betaincc")
betaincinv = _make("betaincinv")
betaln = _make("betaln")
binom = _make("binom")
boxcox = _make("boxcox")
boxcox1p = _make("boxcox1p")
cbrt = _make("cbrt")
chdtr = _make("chdtr")
chdtrc = _make("chdtrc")
chdtri = _make("chdtri")
cosdg = _make("cosdg")
cosm1 = _make("cosm1")
cotdg = _make("cotdg")
ellipk = _make("ellipk")
ellipkm1 = _make("ellipkm1")
entr = _make("entr")
erf = _make("erf")
erfc = _make("erfc")
erfcx = _make("erfcx")
erfinv = _make("erfinv")
exp1 = _make("exp1")
exp10 = _make("exp10")
exp2 = _make("exp2")
exprel = _make("exprel")
expi = _make("expi")
expit = _make("expit")
expn = _make("expn")
fdtr = _make("fdtr")
fdtrc = _make("fdtrc")
fdtri = _make("fdtri")
gamma = _make("gamma")
gammainc = _make("gammainc")
gammaincc = _make("gammaincc")
gammainccinv = _make("gammainccinv")
gammaincinv = _make("gammaincinv")
gammaln = _make("gammaln")
gammasgn = _make("gammasgn")
gdtr = _make("gdtr")
gdtrc = _make("gdtrc")
huber = _make("huber")
hyp1f1 = _make("hyp1f1")
inv_boxcox = _make("inv_boxcox")
inv_boxcox1p = _make("inv_boxcox1p")
i0 = _make("i0")
i0e = _make("i0e")
i1 = _make("i1")
i1e = _make("i1e")
j0 = _make("j0")
j1 = _make("j1")
k0 = _make("k0")
k0e = _make("k0e")
k1 = _make("k1")
k1e = _make("k1e")
kl_div = _make("kl_div")
log_ndtr = _make("log_ndtr")
loggamma = _make("loggamma")
logit = _make("logit")
lpmv = _make("lpmv")
multigammaln = _make("multigammaln")
nbdtr = _make("nbdtr")
nbdtrc = _make("nbdtrc")
nbdtri = _make("nbdtri")
ndtr = _make("ndtr")
ndtri = _make("ndtri")
pdtr = _make("pdtr")
pdtrc = _make("pdtrc")
pdtri = _make("pdtri")
poch = _make("poch")
pseudo_huber = _make("pseudo_huber")
polygamma = _make("polygamma")
psi = _make("psi")
radian = _make("radian")
rel_entr = _make("rel_entr")
rgamma = _make("rgamma")
sinc = _make("sinc")
sindg = _make("sindg")
spence = _make("spence")
stdtr = _make("stdtr")
stdtrit = _make("stdtrit")
tandg = _make("tandg")
xlog1py = _make("xlog1py")
xlogy = _make("xlogy")
y0 = _make("y0")
y1 = _make("y1")
yn = _make("yn")
zeta = _make("zeta")
zetac = _make("zetac")
