"""Quasi-random sequences (Sobol, Halton) and Latin hypercube samples on any namespace.

``xp`` picks the array namespace (default: that of ``device``, else ``numr_array_api.cpu``);
``dtype`` defaults to its default real floating dtype. Seeded randomness is always drawn on
the host with ``numpy.random.Generator(PCG64(seed))`` (see ``_qmc/seeding.py``), so a seed
gives identical points on every backend. Algorithms and accuracy: docs/ext.md.
"""

import numpy as np

from .._core.errors import InvalidArgument
from .._core.shapes import check_addressable
from .._algorithms import _namespace
from .._algorithms import dispatch as _dispatch
from .._algorithms.qmc import directions, halton as _halton, lhs as _lhs, seeding
from .._algorithms.qmc import sobol as _sobol

__all__ = ["sobol", "halton", "latin_hypercube", "SOBOL_MAX_DIM", "HALTON_MAX_DIM"]

SOBOL_MAX_DIM = directions.MAX_DIM
HALTON_MAX_DIM = 1000
_MAX_INDEX_HALTON = 2**53


def _common(n, d, max_d, dtype, device, xp):
    n = _namespace.check_int(n, "n", low=0)
    d = _namespace.check_int(d, "d", low=1, high=max_d)
    ns = _namespace.resolve(xp, device)
    dt = _namespace.real_float_dtype(ns, dtype, device)
    # before any work array is made: an absurd n is numr's OutOfMemory, never a crash
    check_addressable(getattr(ns, "_backend", "ext"), "ext.random", (n, d), 8,
                      f"{n} x {d} points")
    return n, d, ns, dt


def _to_xp(xp, host, dtype, device):
    kw = {} if device is None else {"device": device}
    return xp.asarray(host, dtype=dtype, **kw)


def sobol(n, d, /, *, skip=0, bits=32, scramble=False, seed=None, dtype=None, device=None,
          xp=None):
    """``[n, d]`` Sobol points in [0, 1): points ``skip .. skip + n - 1`` of the Gray-code
    sequence with Joe & Kuo direction numbers (``1 <= d <= 21201``, ``1 <= bits <= 32``,
    ``skip + n <= 2**bits``).

    Unscrambled float64 points equal ``scipy.stats.qmc.Sobol(d, scramble=False, bits=bits)``
    after ``fast_forward(skip)`` bit for bit; float32 points are those values truncated to
    24 bits (never 1.0). ``scramble=True``: linear matrix scramble plus digital shift drawn
    from ``seed`` on the host.
    """
    n, d, ns, dt = _common(n, d, SOBOL_MAX_DIM, dtype, device, xp)
    bits = _namespace.check_int(bits, "bits", low=1, high=directions.MAX_BITS)
    skip = _namespace.check_int(skip, "skip", low=0)
    if skip + n > 2**bits:
        raise InvalidArgument("n", f"skip + n = {skip + n} exceeds the 2**bits = {2**bits} "
                                   f"distinct points of a {bits}-bit Sobol sequence")
    v = directions.direction_numbers(d, bits)
    shift = None
    if scramble:
        v, shift = directions.scramble(v, bits, seeding.generator(seed))
    impl = _dispatch.lookup("sobol", ns)
    return impl(ns, n, skip, v, shift, bits=bits, dtype=dt, device=device)


def halton(n, d, /, *, skip=0, scramble=False, seed=None, dtype=None, device=None, xp=None):
    """``[n, d]`` Halton points in [0, 1): radical inverses of indices ``skip ..
    skip + n - 1`` in the first ``d`` primes (``1 <= d <= 1000``).

    Unscrambled float64 points equal ``scipy.stats.qmc.Halton(d, scramble=False)`` after
    ``fast_forward(skip)`` bit for bit. ``scramble=True``: a random permutation of the
    digits at every digit position of every dimension, drawn from ``seed`` on the host.
    """
    n, d, ns, dt = _common(n, d, HALTON_MAX_DIM, dtype, device, xp)
    skip = _namespace.check_int(skip, "skip", low=0)
    if skip + n > _MAX_INDEX_HALTON:
        raise InvalidArgument("n", f"skip + n must be <= 2**53, got {skip + n}")
    bases = _halton.first_primes(d)
    perms = _halton.draw_permutations(bases, seeding.generator(seed)) if scramble else None
    impl = _dispatch.lookup("halton", ns)
    return impl(ns, n, skip, bases, perms, dtype=dt, device=device)


def latin_hypercube(n, d, /, *, seed, dtype=None, device=None, xp=None):
    """``[n, d]`` Latin hypercube sample: in each dimension exactly one point in each
    stratum ``[j/n, (j+1)/n)`` (float32: up to rounding at the upper edge of a stratum).
    ``seed`` is required (None draws OS entropy and is not reproducible)."""
    n, d, ns, dt = _common(n, d, None, dtype, device, xp)
    host = _lhs.latin_hypercube_host(n, d, seeding.generator(seed),
                                     float32=_namespace.is_float32(ns, dt))
    return _to_xp(ns, host, dt, device)


# ---- implementations -------------------------------------------------------------------

def _np_dtype(dtype):
    return np.dtype(getattr(dtype, "np", dtype))


def _sobol_numpy(xp, n, skip, v, shift, *, bits, dtype, device):
    host = _sobol.sobol_numpy(n, skip, v, shift, bits=bits, dtype=_np_dtype(dtype))
    return _to_xp(xp, host, dtype, device)


def _halton_numpy(xp, n, skip, bases, perms, *, dtype, device):
    host = _halton.halton_numpy(n, skip, bases, perms, dtype=_np_dtype(dtype))
    return _to_xp(xp, host, dtype, device)


def _halton_default(xp, n, skip, bases, perms, *, dtype, device):
    # the digit loop needs float64 for SciPy-identical values; a namespace without it
    # (some GPUs) gets the host result, which keeps every backend bit-identical
    if _namespace.has_float64(xp, device):
        return _halton.halton_portable(xp, n, skip, bases, perms, dtype=dtype, device=device)
    host = _halton.halton_numpy(n, skip, bases, perms, dtype=np.float32)
    return _to_xp(xp, host, dtype, device)


_dispatch.set_portable("sobol", _sobol.sobol_portable)
_dispatch.set_portable("halton", _halton_default)
for _name in ("numpy", "array_api_compat.numpy", "numr_array_api.cpu"):
    _dispatch.register("sobol", _name, _sobol_numpy)
    _dispatch.register("halton", _name, _halton_numpy)
del _name


def _behind_the_boundary():
    # numr errors only, as the namespaces' functions (numr_array_api._core.boundary)
    from .._core.boundary import wrap_function
    g = globals()
    for name in __all__:
        if callable(g[name]) and not isinstance(g[name], type):
            g[name] = wrap_function(None, name, g[name], False)


_behind_the_boundary()
